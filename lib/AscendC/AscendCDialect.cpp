//===- AscendCDialect.cpp - ascendc dialect: types, attributes, verifiers -===//
//
// The verifiers encode the documented static rules of the Ascend C API:
// vector operands live in the unified buffer, cube operands in their L0/L1
// positions, DataCopy moves whole 32-byte blocks, local tensor addresses keep
// the alignment of their memory, and a kernel's buffers fit the target's
// on-chip memories.
//
//===----------------------------------------------------------------------===//

#include "ge-mlir/Dialect/AscendC/AscendCDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ascendc;

#include "ge-mlir/Dialect/AscendC/AscendCDialect.cpp.inc"
#include "ge-mlir/Dialect/AscendC/AscendCEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ge-mlir/Dialect/AscendC/AscendCAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ge-mlir/Dialect/AscendC/AscendCTypes.cpp.inc"

#define GET_OP_CLASSES
#include "ge-mlir/Dialect/AscendC/AscendCOps.cpp.inc"

void AscendCDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ge-mlir/Dialect/AscendC/AscendCAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "ge-mlir/Dialect/AscendC/AscendCTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ge-mlir/Dialect/AscendC/AscendCOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

StringRef mlir::ascendc::getMemoryOf(Position position) {
  switch (position) {
  case Position::vecin:
  case Position::vecout:
  case Position::veccalc:
    return "UB";
  case Position::a1:
  case Position::b1:
  case Position::c1:
    return "L1";
  case Position::a2:
    return "L0A";
  case Position::b2:
    return "L0B";
  case Position::co1:
    return "L0C";
  case Position::c2:
    return "BT";
  case Position::gm:
  case Position::co2:
    return "GM";
  }
  return "GM";
}

/// Address alignment of a memory in bytes (UB/L1 32 B, L0A/L0B 512 B, L0C
/// and the bias table 64 B).
static int64_t alignmentOf(StringRef memory) {
  if (memory == "L0A" || memory == "L0B")
    return 512;
  if (memory == "L0C" || memory == "BT")
    return 64;
  return 32;
}

TargetAttr mlir::ascendc::getTargetFor(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp())
    if (auto module = dyn_cast<ModuleOp>(p))
      if (auto t = module->getAttrOfType<TargetAttr>("ascendc.target"))
        return t;
  return TargetAttr::get(op->getContext(), "Ascend910B1", "dav-2201", 196608,
                         524288, 65536, 65536, 131072, 24, 48);
}

static int64_t elementBytes(Type t) {
  unsigned bits = t.isIntOrFloat() ? t.getIntOrFloatBitWidth() : 8;
  return std::max<int64_t>(1, bits / 8);
}

static std::optional<int64_t> constantIndex(Value v) {
  APInt value;
  if (v && matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

static bool isUB(Position p) { return getMemoryOf(p) == "UB"; }

static LocalTensorType localType(Value v) {
  return cast<LocalTensorType>(v.getType());
}

static std::string describe(LocalTensorType t) {
  return (stringifyPosition(t.getPosition()) + " (" +
          getMemoryOf(t.getPosition()) + ")")
      .str();
}

/// Vector-unit operands must be in the unified buffer.
static LogicalResult checkUB(Operation *op, StringRef name, Value v) {
  auto t = localType(v);
  if (!isUB(t.getPosition()))
    return op->emitOpError("operand '")
           << name << "' is at position " << describe(t)
           << "; vector ops need vecin, vecout or veccalc (UB)";
  return success();
}

static LogicalResult checkPosition(Operation *op, StringRef name, Value v,
                                   ArrayRef<Position> allowed) {
  auto t = localType(v);
  if (llvm::is_contained(allowed, t.getPosition()))
    return success();
  auto diag = op->emitOpError("operand '") << name << "' is at position "
                                           << describe(t) << "; expected ";
  llvm::interleave(
      allowed, diag, [&](Position p) { diag << stringifyPosition(p); }, " or ");
  return diag;
}

/// A constant element count must fit every listed tensor.
static LogicalResult checkCount(Operation *op, Value count,
                                ArrayRef<std::pair<StringRef, Value>> tensors) {
  auto n = constantIndex(count);
  if (!n)
    return success();
  if (*n < 0)
    return op->emitOpError("count must be non-negative, got ") << *n;
  for (auto [name, v] : tensors) {
    auto t = localType(v);
    if (*n > t.getSize())
      return op->emitOpError("count ")
             << *n << " exceeds operand '" << name << "' (" << t.getSize()
             << " elements)";
  }
  return success();
}

static LogicalResult checkSameElement(Operation *op, Value a, Value b,
                                      StringRef nameA, StringRef nameB) {
  Type ea = isa<LocalTensorType>(a.getType()) ? localType(a).getElementType()
                                               : cast<GlobalTensorType>(a.getType()).getElementType();
  Type eb = isa<LocalTensorType>(b.getType()) ? localType(b).getElementType()
                                               : cast<GlobalTensorType>(b.getType()).getElementType();
  if (ea != eb)
    return op->emitOpError("operand '")
           << nameB << "' element type " << eb << " differs from operand '"
           << nameA << "' element type " << ea;
  return success();
}

/// DataCopy moves whole 32-byte blocks: the hardware silently rounds other
/// sizes down, so a constant count that is not a multiple is an error.
static LogicalResult check32(Operation *op, Value count, Type element) {
  auto n = constantIndex(count);
  if (!n)
    return success();
  int64_t bytes = *n * elementBytes(element);
  if (bytes % 32 != 0)
    return op->emitOpError("moves ")
           << *n << " x " << elementBytes(element) << " = " << bytes
           << " bytes, not a multiple of 32 (DataCopy rounds it down; use "
              "the copy_pad form for ragged sizes)";
  return success();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

LogicalResult
LocalTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                        Type elementType, int64_t size, Position position) {
  if (size <= 0)
    return emitError() << "local tensor size must be positive, got " << size;
  if (!elementType.isIntOrFloat())
    return emitError() << "local tensor element type must be an integer or "
                          "float, got "
                       << elementType;
  if (getMemoryOf(position) == "GM")
    return emitError() << "position " << stringifyPosition(position)
                       << " is global memory, not a local buffer";
  return success();
}

//===----------------------------------------------------------------------===//
// Kernel, tiling, host
//===----------------------------------------------------------------------===//

SmallVector<std::pair<StringRef, int64_t>> KernelOp::getBufferUsage() {
  llvm::StringMap<int64_t> used;
  SmallVector<StringRef> order;
  auto add = [&](Position p, int64_t bytes) {
    StringRef memory = getMemoryOf(p);
    int64_t align = alignmentOf(memory);
    if (!used.count(memory))
      order.push_back(memory);
    used[memory] += (bytes + align - 1) / align * align;
  };
  getBody().walk([&](Operation *op) {
    if (auto q = dyn_cast<QueueOp>(op))
      add(cast<QueueType>(q.getType()).getPosition(),
          q.getNum() * q.getBytes());
    else if (auto b = dyn_cast<TBufOp>(op))
      add(cast<TBufType>(b.getType()).getPosition(), b.getBytes());
  });
  SmallVector<std::pair<StringRef, int64_t>> out;
  for (StringRef m : order)
    out.emplace_back(m, used[m]);
  return out;
}

LogicalResult KernelOp::verify() {
  if (getBlockDim() < 1 || getBlockDim() > 65535)
    return emitOpError("block_dim must be in [1, 65535], got ")
           << getBlockDim();
  for (BlockArgument arg : getBody().front().getArguments())
    if (!isa<GlobalTensorType>(arg.getType()))
      return emitOpError("argument #")
             << arg.getArgNumber()
             << " must be a global tensor (!ascendc.gm<T>), got "
             << arg.getType();
  if (auto tiling = getTilingAttr())
    for (NamedAttribute field : tiling)
      if (!isa<IntegerAttr>(field.getValue()))
        return emitOpError("tiling field '")
               << field.getName().getValue() << "' must be an integer";
  TargetAttr target = getTargetFor(*this);
  for (auto [memory, bytes] : getBufferUsage()) {
    int64_t capacity = llvm::StringSwitch<int64_t>(memory)
                           .Case("UB", target.getUb())
                           .Case("L1", target.getL1())
                           .Case("L0A", target.getL0a())
                           .Case("L0B", target.getL0b())
                           .Case("L0C", target.getL0c())
                           .Case("BT", 1024)
                           .Default(0);
    if (bytes > capacity)
      return emitOpError("buffers need ")
             << bytes << " bytes of " << memory << ", more than the "
             << capacity << " bytes of " << target.getSoc();
  }
  return success();
}

LogicalResult TilingGetOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel)
    return emitOpError("must be inside an ascendc.kernel");
  auto tiling = kernel.getTilingAttr();
  if (!tiling || !tiling.get(getField()))
    return emitOpError("kernel '")
           << kernel.getSymName() << "' has no tiling field '" << getField()
           << "'";
  return success();
}

LogicalResult HostOp::verify() {
  auto args = getBody().front().getArguments();
  for (BlockArgument arg : args)
    if (!isa<GlobalTensorType>(arg.getType()))
      return emitOpError("argument #")
             << arg.getArgNumber() << " must be a global tensor, got "
             << arg.getType();
  if (getNumInputs() < 0 || getNumInputs() > static_cast<int64_t>(args.size()))
    return emitOpError("num_inputs ")
           << getNumInputs() << " exceeds the " << args.size()
           << " arguments";
  if (getArgBytes().size() != args.size())
    return emitOpError("arg_bytes has ")
           << getArgBytes().size() << " entries for " << args.size()
           << " arguments";
  return success();
}

LogicalResult GmConstantOp::verify() {
  auto value = cast<ShapedType>(getValue().getType());
  Type element = cast<GlobalTensorType>(getType()).getElementType();
  if (value.getElementType() != element)
    return emitOpError("value element type ")
           << value.getElementType() << " differs from the buffer's "
           << element;
  return success();
}

LogicalResult LaunchOp::verify() {
  if (!(*this)->getParentOfType<HostOp>())
    return emitOpError("must be inside an ascendc.host");
  auto kernel =
      SymbolTable::lookupNearestSymbolFrom<KernelOp>(*this, getKernelAttr());
  if (!kernel)
    return emitOpError("unknown kernel @") << getKernel();
  auto params = kernel.getBody().front().getArgumentTypes();
  if (params.size() != getArgs().size())
    return emitOpError("kernel @")
           << getKernel() << " takes " << params.size() << " arguments, got "
           << getArgs().size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(params, getArgs().getTypes())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError("argument #")
             << i << " is " << std::get<1>(pair) << ", kernel @" << getKernel()
             << " expects " << std::get<0>(pair);
  return success();
}

//===----------------------------------------------------------------------===//
// Pipe, queues, buffers
//===----------------------------------------------------------------------===//

LogicalResult QueueOp::verify() {
  auto type = cast<QueueType>(getType());
  if (getMemoryOf(type.getPosition()) == "GM")
    return emitOpError("a queue cannot be at position ")
           << stringifyPosition(type.getPosition());
  if (type.getDepth() < 1)
    return emitOpError("queue depth must be positive");
  if (getNum() < 1 || getNum() > 255)
    return emitOpError("num (buffers) must be in [1, 255], got ") << getNum();
  if (getBytes() <= 0)
    return emitOpError("bytes must be positive, got ") << getBytes();
  return success();
}

LogicalResult TBufOp::verify() {
  auto type = cast<TBufType>(getType());
  if (getMemoryOf(type.getPosition()) == "GM")
    return emitOpError("a buffer cannot be at position ")
           << stringifyPosition(type.getPosition());
  if (getBytes() <= 0)
    return emitOpError("bytes must be positive, got ") << getBytes();
  return success();
}

static LogicalResult checkQueueTensor(Operation *op, Value queue, Value tensor) {
  auto q = cast<QueueType>(queue.getType());
  auto t = localType(tensor);
  if (q.getPosition() != t.getPosition())
    return op->emitOpError("tensor position ")
           << stringifyPosition(t.getPosition())
           << " differs from the queue position "
           << stringifyPosition(q.getPosition());
  if (auto def = queue.getDefiningOp<QueueOp>()) {
    int64_t bytes = t.getSize() * elementBytes(t.getElementType());
    if (bytes > def.getBytes())
      return op->emitOpError("tensor of ")
             << bytes << " bytes does not fit the queue's " << def.getBytes()
             << "-byte buffers";
  }
  return success();
}

LogicalResult AllocTensorOp::verify() {
  return checkQueueTensor(*this, getQueue(), getTensor());
}
LogicalResult EnQueOp::verify() {
  return checkQueueTensor(*this, getQueue(), getTensor());
}
LogicalResult DeQueOp::verify() {
  return checkQueueTensor(*this, getQueue(), getTensor());
}
LogicalResult FreeTensorOp::verify() {
  return checkQueueTensor(*this, getQueue(), getTensor());
}

LogicalResult TBufGetOp::verify() {
  auto b = cast<TBufType>(getBuf().getType());
  auto t = localType(getTensor());
  if (b.getPosition() != t.getPosition())
    return emitOpError("tensor position ")
           << stringifyPosition(t.getPosition())
           << " differs from the buffer position "
           << stringifyPosition(b.getPosition());
  if (auto def = getBuf().getDefiningOp<TBufOp>()) {
    int64_t bytes = t.getSize() * elementBytes(t.getElementType());
    if (bytes > def.getBytes())
      return emitOpError("tensor of ") << bytes << " bytes does not fit the "
                                       << def.getBytes() << "-byte buffer";
  }
  return success();
}

LogicalResult LocalSliceOp::verify() {
  auto src = localType(getSource());
  auto dst = localType(getResult());
  if (src.getElementType() != dst.getElementType() ||
      src.getPosition() != dst.getPosition())
    return emitOpError("result must keep the element type and position of "
                       "the source");
  if (dst.getSize() > src.getSize())
    return emitOpError("slice of ")
           << dst.getSize() << " elements exceeds the source ("
           << src.getSize() << ")";
  if (auto off = constantIndex(getOffset())) {
    if (*off < 0 || *off + dst.getSize() > src.getSize())
      return emitOpError("slice [")
             << *off << ", " << *off + dst.getSize()
             << ") is outside the source (" << src.getSize() << " elements)";
    int64_t bytes = *off * elementBytes(src.getElementType());
    int64_t align = alignmentOf(getMemoryOf(src.getPosition()));
    if (bytes % align != 0)
      return emitOpError("offset of ")
             << bytes << " bytes breaks the " << align << "-byte alignment of "
             << getMemoryOf(src.getPosition());
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

static const Position kUBOrL1[] = {Position::vecin, Position::vecout,
                                   Position::veccalc, Position::a1,
                                   Position::b1, Position::c1};

LogicalResult CopyGmToLocalOp::verify() {
  if (failed(checkPosition(*this, "dst", getDst(), kUBOrL1)) ||
      failed(checkSameElement(*this, getDst(), getSrc(), "dst", "src")) ||
      failed(checkCount(*this, getCount(), {{"dst", getDst()}})))
    return failure();
  return check32(*this, getCount(), localType(getDst()).getElementType());
}

LogicalResult CopyLocalToGmOp::verify() {
  if (failed(checkUB(*this, "src", getSrc())) ||
      failed(checkSameElement(*this, getSrc(), getDst(), "src", "dst")) ||
      failed(checkCount(*this, getCount(), {{"src", getSrc()}})))
    return failure();
  return check32(*this, getCount(), localType(getSrc()).getElementType());
}

LogicalResult CopyPadGmToLocalOp::verify() {
  if (failed(checkUB(*this, "dst", getDst())) ||
      failed(checkSameElement(*this, getDst(), getSrc(), "dst", "src")))
    return failure();
  return checkCount(*this, getCount(), {{"dst", getDst()}});
}

LogicalResult CopyPadLocalToGmOp::verify() {
  if (failed(checkUB(*this, "src", getSrc())) ||
      failed(checkSameElement(*this, getSrc(), getDst(), "src", "dst")))
    return failure();
  return checkCount(*this, getCount(), {{"src", getSrc()}});
}

LogicalResult CopyLocalOp::verify() {
  if (failed(checkUB(*this, "dst", getDst())) ||
      failed(checkUB(*this, "src", getSrc())) ||
      failed(checkSameElement(*this, getDst(), getSrc(), "dst", "src")) ||
      failed(checkCount(*this, getCount(), {{"dst", getDst()}, {"src", getSrc()}})))
    return failure();
  return check32(*this, getCount(), localType(getDst()).getElementType());
}

//===----------------------------------------------------------------------===//
// Vector ops
//===----------------------------------------------------------------------===//

LogicalResult VBinaryOp::verify() {
  if (failed(checkUB(*this, "dst", getDst())) ||
      failed(checkUB(*this, "lhs", getLhs())) ||
      failed(checkUB(*this, "rhs", getRhs())) ||
      failed(checkSameElement(*this, getDst(), getLhs(), "dst", "lhs")) ||
      failed(checkSameElement(*this, getDst(), getRhs(), "dst", "rhs")))
    return failure();
  return checkCount(*this, getCount(),
                    {{"dst", getDst()}, {"lhs", getLhs()}, {"rhs", getRhs()}});
}

LogicalResult VScalarOp::verify() {
  if (failed(checkUB(*this, "dst", getDst())) ||
      failed(checkUB(*this, "src", getSrc())) ||
      failed(checkSameElement(*this, getDst(), getSrc(), "dst", "src")))
    return failure();
  if (getScalar().getType() != localType(getDst()).getElementType())
    return emitOpError("scalar type ")
           << getScalar().getType() << " differs from the element type "
           << localType(getDst()).getElementType();
  return checkCount(*this, getCount(), {{"dst", getDst()}, {"src", getSrc()}});
}

LogicalResult VUnaryOp::verify() {
  if (failed(checkUB(*this, "dst", getDst())) ||
      failed(checkUB(*this, "src", getSrc())) ||
      failed(checkSameElement(*this, getDst(), getSrc(), "dst", "src")))
    return failure();
  return checkCount(*this, getCount(), {{"dst", getDst()}, {"src", getSrc()}});
}

LogicalResult DuplicateOp::verify() {
  if (failed(checkUB(*this, "dst", getDst())))
    return failure();
  if (getScalar().getType() != localType(getDst()).getElementType())
    return emitOpError("scalar type ")
           << getScalar().getType() << " differs from the element type "
           << localType(getDst()).getElementType();
  return checkCount(*this, getCount(), {{"dst", getDst()}});
}

LogicalResult CastOp::verify() {
  if (failed(checkUB(*this, "dst", getDst())) ||
      failed(checkUB(*this, "src", getSrc())))
    return failure();
  return checkCount(*this, getCount(), {{"dst", getDst()}, {"src", getSrc()}});
}

static LogicalResult checkMask(Operation *op, Value mask) {
  Type e = localType(mask).getElementType();
  if (!e.isInteger(8))
    return op->emitOpError("mask must hold 8-bit integers, got ") << e;
  return success();
}

LogicalResult CompareOp::verify() {
  if (failed(checkUB(*this, "dst", getDst())) ||
      failed(checkUB(*this, "lhs", getLhs())) ||
      failed(checkUB(*this, "rhs", getRhs())) || failed(checkMask(*this, getDst())) ||
      failed(checkSameElement(*this, getLhs(), getRhs(), "lhs", "rhs")))
    return failure();
  if (auto n = constantIndex(getCount()))
    if ((*n + 7) / 8 > localType(getDst()).getSize())
      return emitOpError("mask of ")
             << localType(getDst()).getSize() << " bytes is too small for "
             << *n << " elements";
  return checkCount(*this, getCount(), {{"lhs", getLhs()}, {"rhs", getRhs()}});
}

LogicalResult SelectOp::verify() {
  if (failed(checkUB(*this, "dst", getDst())) ||
      failed(checkUB(*this, "mask", getMask())) ||
      failed(checkUB(*this, "lhs", getLhs())) ||
      failed(checkUB(*this, "rhs", getRhs())) || failed(checkMask(*this, getMask())) ||
      failed(checkSameElement(*this, getDst(), getLhs(), "dst", "lhs")) ||
      failed(checkSameElement(*this, getDst(), getRhs(), "dst", "rhs")))
    return failure();
  return checkCount(*this, getCount(),
                    {{"dst", getDst()}, {"lhs", getLhs()}, {"rhs", getRhs()}});
}

LogicalResult ReduceOp::verify() {
  if (failed(checkUB(*this, "dst", getDst())) ||
      failed(checkUB(*this, "src", getSrc())) ||
      failed(checkUB(*this, "tmp", getTmp())) ||
      failed(checkSameElement(*this, getDst(), getSrc(), "dst", "src")) ||
      failed(checkSameElement(*this, getDst(), getTmp(), "dst", "tmp")))
    return failure();
  return checkCount(*this, getCount(), {{"src", getSrc()}});
}

LogicalResult AxpyOp::verify() {
  if (failed(checkUB(*this, "dst", getDst())) ||
      failed(checkUB(*this, "src", getSrc())))
    return failure();
  if (getScalar().getType() != localType(getSrc()).getElementType())
    return emitOpError("scalar type must be the source element type");
  return checkCount(*this, getCount(), {{"dst", getDst()}, {"src", getSrc()}});
}

static LogicalResult checkScalarAccess(Operation *op, Value tensor, Value index,
                                       Type value) {
  auto t = localType(tensor);
  if (value != t.getElementType())
    return op->emitOpError("value type ")
           << value << " differs from the element type " << t.getElementType();
  if (auto i = constantIndex(index))
    if (*i < 0 || *i >= t.getSize())
      return op->emitOpError("index ")
             << *i << " is outside the tensor (" << t.getSize()
             << " elements)";
  return checkUB(op, "tensor", tensor);
}

LogicalResult GetValueOp::verify() {
  return checkScalarAccess(*this, getTensor(), getIndex(), getValue().getType());
}
LogicalResult SetValueOp::verify() {
  return checkScalarAccess(*this, getTensor(), getIndex(), getValue().getType());
}

//===----------------------------------------------------------------------===//
// Cube
//===----------------------------------------------------------------------===//

LogicalResult CopyNd2NzOp::verify() {
  if (failed(checkPosition(*this, "dst", getDst(),
                           {Position::a1, Position::b1})) ||
      failed(checkSameElement(*this, getDst(), getSrc(), "dst", "src")))
    return failure();
  if (getNdNum() < 1)
    return emitOpError("nd_num must be positive");
  for (auto [name, v] : {std::pair<StringRef, Value>{"rows", getNValue()},
                         {"cols", getDValue()}})
    if (auto n = constantIndex(v); n && *n < 1)
      return emitOpError(name) << " must be positive, got " << *n;
  return success();
}

LogicalResult LoadData2DOp::verify() {
  if (failed(checkPosition(*this, "src", getSrc(),
                           {Position::a1, Position::b1})) ||
      failed(checkPosition(*this, "dst", getDst(),
                           {Position::a2, Position::b2})) ||
      failed(checkSameElement(*this, getDst(), getSrc(), "dst", "src")))
    return failure();
  if (auto r = constantIndex(getRepeatTimes()); r && (*r < 1 || *r > 255))
    return emitOpError("repeat_times must be in [1, 255], got ") << *r;
  return success();
}

LogicalResult MmadOp::verify() {
  if (failed(checkPosition(*this, "c", getC(), {Position::co1})) ||
      failed(checkPosition(*this, "a", getA(), {Position::a2})) ||
      failed(checkPosition(*this, "b", getB(), {Position::b2})) ||
      failed(checkSameElement(*this, getA(), getB(), "a", "b")))
    return failure();
  Type in = localType(getA()).getElementType();
  Type acc = localType(getC()).getElementType();
  if (!acc.isF32() && !acc.isInteger(32))
    return emitOpError("accumulator must be f32 (or i32 for int8), got ")
           << acc;
  auto m = constantIndex(getM()), n = constantIndex(getN()),
       k = constantIndex(getK());
  for (auto v : {m, n, k})
    if (v && (*v < 1 || *v > 4095))
      return emitOpError("m, n, k must be in [1, 4095], got ") << *v;
  if ((m && k && *m * *k > localType(getA()).getSize()) ||
      (k && n && *k * *n > localType(getB()).getSize()) ||
      (m && n && *m * *n > localType(getC()).getSize()))
    return emitOpError("m x k, k x n or m x n exceeds its operand");
  (void)in;
  return success();
}

LogicalResult FixpipeOp::verify() {
  return checkPosition(*this, "src", getSrc(), {Position::co1});
}

//===----------------------------------------------------------------------===//
// Sync
//===----------------------------------------------------------------------===//

static LogicalResult checkEventId(Operation *op, int64_t id) {
  if (id < 0 || id > 7)
    return op->emitOpError("event id must be in [0, 7] (EVENT_ID0..7), got ")
           << id;
  return success();
}
LogicalResult SetFlagOp::verify() { return checkEventId(*this, getId()); }
LogicalResult WaitFlagOp::verify() { return checkEventId(*this, getId()); }
