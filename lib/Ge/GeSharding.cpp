//===- GeSharding.cpp - shard::ShardingInterface models of ge ops ---------===//
//
// Lets upstream `sharding-propagation` and `shard-partition` work on ge graphs
// (the partitioner, docs/parallel.md, shards the optimized ge graph so each
// rank's part is again an ordinary ge graph every target compiles).
//
// Every model describes an op as a loop nest: one loop per result dimension,
// plus "private" loops for operand dimensions that do not line up with a result
// dimension (a broadcast size-1 dim, a filter dim, a gathered axis, a reshape
// dim that is not the leading one of its group). Upstream's default
// propagation then works from the indexing maps. Splitting a private loop, or
// a loop the op computes across (softmax axis, normalized axes, a split or
// concat axis, a convolution's channels), is refused at partition time with a
// message naming the op and the dimension, never silently computed wrong.
//
//===----------------------------------------------------------------------===//

#include "ge-mlir/Dialect/Ge/GeDialect.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterfaceImpl.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

using namespace mlir;
using namespace mlir::ge;
using shard::GridAxis;
using shard::Sharding;
using utils::IteratorType;

namespace {

/// The loop nest of one op: for each operand then each result, the loop of
/// each dimension.
struct Layout {
  unsigned numLoops = 0;
  SmallVector<SmallVector<unsigned>> dims;
  SmallVector<IteratorType> types;
  /// Loops that must not be split, with the reason shown to the user.
  llvm::DenseMap<unsigned, std::string> forbidden;

  unsigned addLoop(IteratorType t = IteratorType::parallel) {
    types.push_back(t);
    return numLoops++;
  }
  unsigned addPrivate(const std::string &why) {
    unsigned l = addLoop();
    forbidden[l] = why;
    return l;
  }
};

RankedTensorType rankedStatic(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt && rt.hasStaticShape() ? rt : RankedTensorType();
}

/// Operand dims aligned right against the result's (numpy broadcasting); a
/// size-1 dim broadcast against a larger one gets a private loop.
SmallVector<unsigned> broadcastDims(Layout &l, RankedTensorType operand,
                                    ArrayRef<int64_t> result,
                                    ArrayRef<unsigned> resultLoops) {
  SmallVector<unsigned> out;
  int64_t r = operand.getRank(), off = (int64_t)result.size() - r;
  for (int64_t k = 0; k < r; ++k) {
    int64_t rd = off + k;
    if (rd >= 0 && operand.getDimSize(k) == result[rd])
      out.push_back(resultLoops[rd]);
    else
      out.push_back(l.addPrivate("a broadcast dimension"));
  }
  return out;
}

SmallVector<unsigned> resultLoops(Layout &l, RankedTensorType result) {
  SmallVector<unsigned> out;
  for (int64_t i = 0; i < result.getRank(); ++i)
    out.push_back(l.addLoop());
  return out;
}

std::string axisReason(StringRef what, int64_t axis) {
  return (what + " " + Twine(axis)).str();
}

int64_t normAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

/// Elementwise ops with numpy broadcasting, and ops computing along some axes
/// of an otherwise elementwise result (softmax, cumsum, layer/RMS norm).
FailureOr<Layout> elementwiseLayout(Operation *op) {
  if (op->getNumResults() != 1)
    return failure();
  auto res = rankedStatic(op->getResult(0).getType());
  if (!res)
    return failure();
  Layout l;
  SmallVector<unsigned> loops = resultLoops(l, res);
  for (Value v : op->getOperands()) {
    auto t = rankedStatic(v.getType());
    if (!t)
      return failure();
    l.dims.push_back(broadcastDims(l, t, res.getShape(), loops));
  }
  l.dims.push_back(loops);
  int64_t rank = res.getRank();
  auto forbidFrom = [&](int64_t first, StringRef why) {
    for (int64_t d = normAxis(first, rank); d >= 0 && d < rank; ++d)
      l.forbidden[loops[d]] = axisReason(why, d);
  };
  if (auto o = dyn_cast<SoftmaxOp>(op))
    l.forbidden[loops[normAxis(o.getAxis(), rank)]] = "its softmax axis";
  else if (auto o = dyn_cast<LogSoftmaxOp>(op))
    l.forbidden[loops[normAxis(o.getAxis(), rank)]] = "its softmax axis";
  else if (auto o = dyn_cast<CumSumOp>(op))
    l.forbidden[loops[normAxis(o.getAxis(), rank)]] = "its cumulative axis";
  else if (auto o = dyn_cast<CumProdOp>(op))
    l.forbidden[loops[normAxis(o.getAxis(), rank)]] = "its cumulative axis";
  else if (auto o = dyn_cast<LayerNormOp>(op))
    forbidFrom(o.getAxis(), "the normalized axis");
  else if (auto o = dyn_cast<RmsNormOp>(op))
    forbidFrom(o.getAxis(), "the normalized axis");
  return l;
}

/// Ops whose operands and results have the result's rank and line up
/// dimension by dimension, except along the axes they cut or join (concat,
/// split, slice, pad): those axes must stay whole.
FailureOr<Layout> sameRankLayout(Operation *op) {
  auto res = rankedStatic(op->getResult(0).getType());
  if (!res)
    return failure();
  Layout l;
  SmallVector<unsigned> loops = resultLoops(l, res);
  auto add = [&](Type t) -> LogicalResult {
    auto rt = rankedStatic(t);
    if (!rt || rt.getRank() != res.getRank())
      return failure();
    for (int64_t d = 0; d < rt.getRank(); ++d)
      if (rt.getDimSize(d) != res.getDimSize(d))
        l.forbidden[loops[d]] = axisReason("the axis it cuts or joins,", d);
    l.dims.push_back(loops);
    return success();
  };
  for (Type t : op->getOperandTypes())
    if (failed(add(t)))
      return failure();
  for (Type t : op->getResultTypes())
    if (failed(add(t)))
      return failure();
  return l;
}

FailureOr<Layout> transposeLayout(Operation *op) {
  auto t = cast<TransposeOp>(op);
  auto res = rankedStatic(t.getType());
  if (!res || !rankedStatic(t.getInput().getType()))
    return failure();
  Layout l;
  SmallVector<unsigned> loops = resultLoops(l, res);
  SmallVector<unsigned> in(res.getRank());
  for (auto [i, p] : llvm::enumerate(t.getPerm()))
    in[p] = loops[i];
  l.dims.push_back(in);
  l.dims.push_back(loops);
  return l;
}

/// Reshape, squeeze, unsqueeze, flatten: a block split of the leading non-unit
/// dim of a group of dims is the same split of the group's elements on both
/// sides, so an operand dim shares the loop of the result dim that starts at
/// the same flat offset. Any other dim is private.
FailureOr<Layout> reshapeLayout(Operation *op) {
  auto in = rankedStatic(op->getOperand(0).getType());
  auto res = rankedStatic(op->getResult(0).getType());
  if (!in || !res)
    return failure();
  Layout l;
  SmallVector<unsigned> loops = resultLoops(l, res);
  SmallVector<int64_t> resPrefix;
  int64_t p = 1;
  for (int64_t d : res.getShape()) {
    resPrefix.push_back(p);
    p *= d;
  }
  SmallVector<unsigned> dims;
  p = 1;
  for (int64_t k = 0; k < in.getRank(); ++k) {
    int64_t size = in.getDimSize(k);
    std::optional<unsigned> match;
    if (size > 1)
      for (int64_t m = 0; m < res.getRank(); ++m)
        if (res.getDimSize(m) > 1 && resPrefix[m] == p)
          match = loops[m];
    dims.push_back(match ? *match
                         : l.addPrivate(axisReason(
                               "an input dimension the reshape regroups:", k)));
    p *= size;
  }
  l.dims.push_back(dims);
  l.dims.push_back(loops);
  // Result dims that no input dim starts at are regrouped too.
  for (int64_t m = 0; m < res.getRank(); ++m)
    if (res.getDimSize(m) > 1 && !llvm::is_contained(dims, loops[m]))
      l.forbidden[loops[m]] = axisReason("a result dimension the reshape regroups:", m);
  return l;
}

/// lhs [..., M, K] @ rhs [..., K, N] (+ bias broadcast to the result).
FailureOr<Layout> matmulLayout(Operation *op) {
  auto mm = cast<MatMulOp>(op);
  auto res = rankedStatic(mm.getType());
  auto lhs = rankedStatic(mm.getLhs().getType());
  auto rhs = rankedStatic(mm.getRhs().getType());
  if (!res || !lhs || !rhs || lhs.getRank() < 2 || rhs.getRank() < 2 ||
      res.getRank() < 2)
    return failure();
  Layout l;
  SmallVector<unsigned> loops = resultLoops(l, res);
  int64_t R = res.getRank();
  unsigned k = l.addLoop(IteratorType::reduction);
  auto operand = [&](RankedTensorType t, unsigned a, unsigned b) {
    SmallVector<int64_t> batch(t.getShape().drop_back(2));
    auto bt = RankedTensorType::get(batch, t.getElementType());
    SmallVector<unsigned> d = broadcastDims(
        l, bt, res.getShape().drop_back(2), ArrayRef<unsigned>(loops).drop_back(2));
    d.push_back(a);
    d.push_back(b);
    return d;
  };
  l.dims.push_back(operand(lhs, loops[R - 2], k));
  l.dims.push_back(operand(rhs, k, loops[R - 1]));
  if (Value bias = mm.getBias()) {
    auto bt = rankedStatic(bias.getType());
    if (!bt)
      return failure();
    l.dims.push_back(broadcastDims(l, bt, res.getShape(), loops));
  }
  l.dims.push_back(loops);
  return l;
}

/// alpha * op(A) @ op(B) + beta * C on 2-D operands.
FailureOr<Layout> gemmLayout(Operation *op) {
  auto g = cast<GemmOp>(op);
  auto res = rankedStatic(g.getType());
  if (!res || res.getRank() != 2)
    return failure();
  Layout l;
  SmallVector<unsigned> loops = resultLoops(l, res);
  unsigned k = l.addLoop(IteratorType::reduction);
  unsigned m = loops[0], n = loops[1];
  l.dims.push_back(g.getTransA() ? SmallVector<unsigned>{k, m}
                                 : SmallVector<unsigned>{m, k});
  l.dims.push_back(g.getTransB() ? SmallVector<unsigned>{n, k}
                                 : SmallVector<unsigned>{k, n});
  if (Value c = g.getC()) {
    auto ct = rankedStatic(c.getType());
    if (!ct)
      return failure();
    l.dims.push_back(broadcastDims(l, ct, res.getShape(), loops));
  }
  l.dims.push_back(loops);
  return l;
}

/// out = data[:axis] ++ indices ++ data[axis+1:]; the gathered axis is private.
FailureOr<Layout> gatherLayout(Operation *op) {
  auto g = cast<GatherOp>(op);
  auto res = rankedStatic(g.getType());
  auto data = rankedStatic(g.getData().getType());
  auto idx = rankedStatic(g.getIndices().getType());
  if (!res || !data || !idx)
    return failure();
  Layout l;
  SmallVector<unsigned> loops = resultLoops(l, res);
  int64_t axis = normAxis(g.getAxis(), data.getRank());
  int64_t ri = idx.getRank();
  SmallVector<unsigned> d;
  for (int64_t i = 0; i < data.getRank(); ++i) {
    if (i < axis)
      d.push_back(loops[i]);
    else if (i == axis)
      d.push_back(l.addPrivate("the gathered axis of the data"));
    else
      d.push_back(loops[i - 1 + ri]);
  }
  l.dims.push_back(d);
  SmallVector<unsigned> di;
  for (int64_t i = 0; i < ri; ++i)
    di.push_back(loops[axis + i]);
  l.dims.push_back(di);
  l.dims.push_back(loops);
  return l;
}

/// Convolutions, pools, resize, batch/instance norm: images are independent
/// along the batch dimension only. An operand shaped like the result (a
/// residual) lines up with it; other operand dims are private.
FailureOr<Layout> batchOnlyLayout(Operation *op) {
  auto res = rankedStatic(op->getResult(0).getType());
  if (!res || res.getRank() < 1)
    return failure();
  Layout l;
  SmallVector<unsigned> loops = resultLoops(l, res);
  std::string why = "a dimension other than its batch";
  for (auto [i, v] : llvm::enumerate(op->getOperands())) {
    auto t = rankedStatic(v.getType());
    if (!t)
      return failure();
    SmallVector<unsigned> d;
    for (int64_t k = 0; k < t.getRank(); ++k) {
      if (t == res || (i == 0 && k == 0))
        d.push_back(loops[k]);
      else
        d.push_back(l.addPrivate(why));
    }
    l.dims.push_back(d);
  }
  l.dims.push_back(loops);
  for (int64_t k = 1; k < res.getRank(); ++k)
    l.forbidden[loops[k]] = why;
  return l;
}

/// Reductions and arg-reductions: the reduced input dims are computed across
/// and stay whole; the others line up with the result's.
FailureOr<Layout> reduceLayout(Operation *op) {
  auto in = rankedStatic(op->getOperand(0).getType());
  auto res = rankedStatic(op->getResult(0).getType());
  if (!in || !res)
    return failure();
  int64_t rank = in.getRank();
  SmallVector<int64_t> axes;
  if (std::optional<Attribute> a = op->getInherentAttr("axes"); a && *a) {
    for (int64_t x : cast<DenseI64ArrayAttr>(*a).asArrayRef())
      axes.push_back(normAxis(x, rank));
  } else if (std::optional<Attribute> a = op->getInherentAttr("axis"); a && *a) {
    axes.push_back(normAxis(cast<IntegerAttr>(*a).getInt(), rank));
  }
  if (axes.empty())
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  bool keep = true;
  if (std::optional<Attribute> a = op->getInherentAttr("keepdims"); a && *a)
    keep = cast<BoolAttr>(*a).getValue();
  Layout l;
  SmallVector<unsigned> loops;
  for (int64_t d = 0; d < rank; ++d)
    loops.push_back(l.addLoop());
  SmallVector<unsigned> out;
  for (int64_t d = 0; d < rank; ++d) {
    bool reduced = llvm::is_contained(axes, d);
    if (reduced)
      l.forbidden[loops[d]] = axisReason("its reduced axis", d);
    if (!reduced)
      out.push_back(loops[d]);
    else if (keep)
      out.push_back(l.addPrivate(axisReason("its reduced axis", d)));
  }
  if ((int64_t)out.size() != res.getRank())
    return failure();
  l.dims.push_back(loops);
  l.dims.push_back(out);
  return l;
}

using LayoutFn = FailureOr<Layout> (*)(Operation *);

/// The grid the shardings name, and the number of devices a loop's grid axes
/// span.
int64_t groupSize(shard::GridOp grid, ArrayRef<GridAxis> axes) {
  int64_t n = 1;
  for (GridAxis a : axes)
    n *= grid.getShape()[a];
  return n;
}

/// Refuses what the partitioned op could not compute: a split of a forbidden
/// loop, or of a dimension the devices do not divide evenly.
LogicalResult checkSplit(Operation *op, const Layout &l,
                         const shard::ShardingArray &loops,
                         shard::GridOp grid) {
  for (auto [loop, axes] : llvm::enumerate(loops)) {
    if (axes.empty())
      continue;
    auto it = l.forbidden.find(loop);
    if (it != l.forbidden.end())
      return op->emitOpError("cannot be split along ") << it->second;
    int64_t n = groupSize(grid, axes);
    unsigned nOperands = op->getNumOperands();
    for (auto [i, dims] : llvm::enumerate(l.dims)) {
      Type t = i < nOperands ? op->getOperand(i).getType()
                             : op->getResult(i - nOperands).getType();
      auto rt = cast<RankedTensorType>(t);
      for (auto [d, dl] : llvm::enumerate(dims))
        if (dl == loop && rt.getDimSize(d) % n != 0)
          return op->emitOpError()
                 << (i < nOperands ? "operand #" : "result #")
                 << (i < nOperands ? i : i - nOperands) << " dimension " << d
                 << " of size " << rt.getDimSize(d)
                 << " cannot be split evenly over " << n << " devices";
    }
  }
  return success();
}

template <typename Op, LayoutFn Fn>
struct GeShardingModel
    : public shard::ShardingInterface::ExternalModel<GeShardingModel<Op, Fn>,
                                                     Op> {
  SmallVector<IteratorType> getLoopIteratorTypes(Operation *op) const {
    FailureOr<Layout> l = Fn(op);
    return succeeded(l) ? l->types : SmallVector<IteratorType>();
  }

  SmallVector<shard::ReductionKind>
  getReductionLoopIteratorKinds(Operation *op) const {
    SmallVector<shard::ReductionKind> kinds;
    for (IteratorType t : getLoopIteratorTypes(op))
      if (t == IteratorType::reduction)
        kinds.push_back(shard::ReductionKind::Sum);
    return kinds;
  }

  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    FailureOr<Layout> l = Fn(op);
    if (failed(l))
      return {};
    SmallVector<AffineMap> maps;
    MLIRContext *ctx = op->getContext();
    for (const auto &dims : l->dims) {
      SmallVector<AffineExpr> exprs;
      for (unsigned d : dims)
        exprs.push_back(getAffineDimExpr(d, ctx));
      maps.push_back(AffineMap::get(l->numLoops, 0, exprs, ctx));
    }
    return maps;
  }

  LogicalResult partition(Operation *op, ArrayRef<Value> partitionedOperands,
                          ArrayRef<Sharding> operandShardings,
                          ArrayRef<Sharding> resultShardings,
                          IRMapping &partitionMap,
                          SymbolTableCollection &symbolTable,
                          OpBuilder &builder) const {
    FailureOr<Layout> l = Fn(op);
    if (failed(l))
      return op->emitOpError("has no sharding layout (dynamic or unranked "
                             "shapes, or an operand form it does not split)");
    Sharding any;
    for (ArrayRef<Sharding> group : {operandShardings, resultShardings})
      for (const Sharding &s : group)
        if (s && s.getGridAttr())
          any = s;
    if (!any) {
      builder.clone(*op, partitionMap);
      return success();
    }
    shard::GridOp grid =
        shard::getGridOrNull(op, any.getGridAttr(), symbolTable);
    if (!grid)
      return op->emitOpError("names an unknown grid");
    // Upstream's getGridAxisAssignmentForLoopIterators expects destination-
    // passing ops (one map per operand); ge ops have results of their own.
    shard::ShardingArray loops(l->numLoops);
    unsigned nOperands = op->getNumOperands();
    for (auto [i, dims] : llvm::enumerate(l->dims)) {
      const Sharding &s = i < nOperands ? operandShardings[i]
                                        : resultShardings[i - nOperands];
      if (!s)
        continue;
      for (auto [d, axes] : llvm::enumerate(s.getSplitAxes())) {
        if (d >= dims.size() || axes.empty())
          continue;
        auto &loop = loops[dims[d]];
        if (!loop.empty() && ArrayRef<GridAxis>(loop) != axes.asArrayRef())
          return op->emitOpError("has operands split inconsistently along ")
                 << "dimension " << d << " of " << (i < nOperands ? "operand #" : "result #")
                 << (i < nOperands ? i : i - nOperands);
        loop.assign(axes.asArrayRef().begin(), axes.asArrayRef().end());
      }
    }
    if (failed(checkSplit(op, *l, loops, grid)))
      return failure();
    SmallVector<GridAxis> reduced =
        shard::getReductionGridAxes(l->types, loops);
    if (reduced.empty()) {
      shard::partitionTriviallyShardableOperation(
          *op, partitionedOperands, operandShardings, resultShardings,
          partitionMap, symbolTable, builder);
      return success();
    }
    return partitionReduction(op, partitionedOperands, resultShardings[0],
                              reduced, grid, partitionMap, builder);
  }

  /// A contraction split along K: each device multiplies its slices, an
  /// all-reduce sums the partial products, then the bias (once) is added.
  LogicalResult partitionReduction(Operation *op, ArrayRef<Value> operands,
                                   Sharding resultSharding,
                                   ArrayRef<GridAxis> reduced,
                                   shard::GridOp grid, IRMapping &map,
                                   OpBuilder &b) const {
    Location loc = op->getLoc();
    Type local = shard::shardType(op->getResult(0).getType(), grid,
                                  resultSharding);
    Value partial;
    Value bias;
    if (auto mm = dyn_cast<MatMulOp>(op)) {
      if (mm.getActivation() != Activation::none)
        return op->emitOpError(
            "split along its contraction dimension cannot keep a fused "
            "activation (it applies after the all-reduce): unfuse it first");
      partial = MatMulOp::create(b, loc, local, operands[0], operands[1],
                                   Value(), Activation::none, FloatAttr());
      if (mm.getBias())
        bias = operands[2];
    } else if (auto g = dyn_cast<GemmOp>(op)) {
      if (g.getActivation() != Activation::none ||
          (g.getC() && g.getBeta().convertToFloat() != 1.0f))
        return op->emitOpError(
            "split along its contraction dimension needs beta = 1 and no "
            "fused activation");
      partial = GemmOp::create(b, loc, local, operands[0], operands[1], Value(),
                                 g.getAlphaAttr(), b.getF32FloatAttr(1.0f),
                                 g.getTransAAttr(), g.getTransBAttr(),
                                 ActivationAttr::get(b.getContext(),
                                                     Activation::none),
                                 FloatAttr());
      if (g.getC())
        bias = operands[2];
    } else {
      return op->emitOpError("cannot be split along a reduction");
    }
    Value sum = shard::AllReduceOp::create(
                     b, loc, local, grid.getSymName(), reduced, partial,
                     shard::ReductionKind::Sum)
                    .getResult();
    if (bias)
      sum = AddOp::create(b, loc, local, sum, bias).getResult();
    map.map(op->getResult(0), sum);
    return success();
  }
};

template <LayoutFn Fn, typename... Ops>
void attach(MLIRContext *ctx) {
  (Ops::template attachInterface<GeShardingModel<Ops, Fn>>(*ctx), ...);
}

} // namespace

namespace mlir::ge {
void attachShardingInterfaces(MLIRContext *ctx) {
  attach<elementwiseLayout, AbsOp, NegOp, ExpOp, LogOp, SqrtOp, RsqrtOp,
         ReciprocalOp, TanhOp, SigmoidOp, ReluOp, LeakyReluOp, GeluOp, ErfOp,
         SinOp, CosOp, AcosOp, AsinOp, AtanOp, FloorOp, CeilOp, RoundOp, SignOp,
         NotOp, BitwiseNotOp, SoftplusOp, HardSigmoidOp, HardSwishOp, SiluOp,
         IdentityOp, ClipOp, CumSumOp, CumProdOp, SoftmaxOp, LogSoftmaxOp,
         CastOp, AddOp, SubOp, MulOp, DivOp, PowOp, MaxOp, MinOp, ModOp, AndOp,
         OrOp, XorOp, BitwiseAndOp, BitwiseOrOp, BitwiseXorOp, BitShiftOp, EqualOp, LessOp,
         LessEqualOp, GreaterOp, GreaterEqualOp, WhereOp, LayerNormOp,
         RmsNormOp>(ctx);
  attach<sameRankLayout, ConcatOp, SplitOp, SliceOp, PadOp>(ctx);
  attach<transposeLayout, TransposeOp>(ctx);
  attach<reshapeLayout, ReshapeOp, SqueezeOp, UnsqueezeOp, FlattenOp>(ctx);
  attach<matmulLayout, MatMulOp>(ctx);
  attach<gemmLayout, GemmOp>(ctx);
  attach<gatherLayout, GatherOp>(ctx);
  attach<reduceLayout, ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp,
         ReduceProdOp, ReduceL2Op, ArgMaxOp, ArgMinOp>(ctx);
  attach<batchOnlyLayout, Conv2DOp, ConvTranspose2DOp, MaxPool2DOp,
         AvgPool2DOp, GlobalAvgPoolOp, GlobalMaxPoolOp, ResizeOp, BatchNormOp,
         InstanceNormOp>(ctx);
}
} // namespace mlir::ge
