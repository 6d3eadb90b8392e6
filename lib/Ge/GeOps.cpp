//===- GeOps.cpp - ge dialect: inference, verifiers, folders --------------===//
//
// Error messages name the op and the offending operand or attribute, because
// they surface to users as the reason a model failed to import or compile.
//
//===----------------------------------------------------------------------===//

#include "ge-mlir/Dialect/Ge/GeDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>
#include <limits>
#include <string>

using namespace mlir;
using namespace mlir::ge;

#include "ge-mlir/Dialect/Ge/GeDialect.cpp.inc"
#include "ge-mlir/Dialect/Ge/GeEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "ge-mlir/Dialect/Ge/GeAttrs.cpp.inc"

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

void GeDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ge-mlir/Dialect/Ge/GeOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ge-mlir/Dialect/Ge/GeAttrs.cpp.inc"
      >();
  // The partitioner shards ge graphs with upstream's shard passes.
  attachShardingInterfaces(getContext());
}

Operation *GeDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {
constexpr int64_t kDyn = ShapedType::kDynamic;

std::string fmtShape(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (i)
      s += ", ";
    s += ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d);
  }
  return s + "]";
}

/// Emits "'<op>' op <message>" at `loc` (when there is one) and fails.
struct OpError {
  std::optional<Location> loc;
  StringRef opName;
  template <typename... Args>
  LogicalResult operator()(Args &&...args) const {
    if (!loc)
      return failure();
    InFlightDiagnostic diag = mlir::emitError(*loc);
    diag << "'" << opName << "' op ";
    (diag << ... << std::forward<Args>(args));
    return diag;
  }
};

RankedTensorType asRanked(Type t) { return dyn_cast<RankedTensorType>(t); }

/// Inferred shapes pass through here: RankedTensorType::get asserts on
/// negative sizes, and no attribute value may take the process down.
LogicalResult pushTensor(const OpError &err, ArrayRef<int64_t> shape,
                         Type elementType, SmallVectorImpl<Type> &out) {
  for (auto [i, d] : llvm::enumerate(shape))
    if (d < 0 && !ShapedType::isDynamic(d))
      return err("computed result dimension ", i, " is negative (", d,
                 "); check the op's attributes");
  out.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

/// a * b for dimension sizes, failing instead of wrapping around.
FailureOr<int64_t> mulChecked(const OpError &err, int64_t a, int64_t b) {
  if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b))
    return kDyn;
  int64_t r;
  if (llvm::MulOverflow(a, b, r) || r == kDyn) {
    (void)err("dimension size ", a, " * ", b, " overflows int64");
    return failure();
  }
  return r;
}

FailureOr<int64_t> addChecked(const OpError &err, int64_t a, int64_t b) {
  if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b))
    return kDyn;
  int64_t r;
  if (llvm::AddOverflow(a, b, r) || r == kDyn) {
    (void)err("dimension size ", a, " + ", b, " overflows int64");
    return failure();
  }
  return r;
}

/// Normalizes `axis` into [0, rank); returns failure with a message otherwise.
FailureOr<int64_t> normalizeAxis(const OpError &err, StringRef what,
                                 int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    (void)err("attribute '", what, "' value ", axis,
              " is out of range for rank ", rank, " (expected [", -rank, ", ",
              rank, "))");
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

int64_t mulDims(int64_t a, int64_t b) {
  return (ShapedType::isDynamic(a) || ShapedType::isDynamic(b)) ? kDyn : a * b;
}

/// Numpy broadcasting of two shapes (right aligned).
LogicalResult broadcastPair(const OpError &err, ArrayRef<int64_t> a,
                            ArrayRef<int64_t> b, SmallVectorImpl<int64_t> &out,
                            StringRef what) {
  size_t rank = std::max(a.size(), b.size());
  out.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    int64_t r;
    if (da == 1)
      r = db;
    else if (db == 1)
      r = da;
    else if (ShapedType::isDynamic(da))
      r = db;
    else if (ShapedType::isDynamic(db) || da == db)
      r = da;
    else
      return err(what, " are not broadcast-compatible: ", fmtShape(a), " vs ",
                 fmtShape(b), " (result dimension ", i, ": ", da, " vs ", db,
                 ")");
    out[i] = r;
  }
  return success();
}

/// `from` must broadcast to `to` without changing `to` (unidirectional).
LogicalResult checkUnidirectional(const OpError &err, StringRef what,
                                  ArrayRef<int64_t> from,
                                  ArrayRef<int64_t> to) {
  if (from.size() > to.size())
    return err("operand '", what, "' of shape ", fmtShape(from),
               " has higher rank than the result ", fmtShape(to));
  size_t off = to.size() - from.size();
  for (auto [i, d] : llvm::enumerate(from)) {
    int64_t t = to[off + i];
    if (d == 1 || ShapedType::isDynamic(d) || ShapedType::isDynamic(t) ||
        d == t)
      continue;
    return err("operand '", what, "' of shape ", fmtShape(from),
               " does not broadcast to ", fmtShape(to));
  }
  return success();
}

LogicalResult checkArraySize(const OpError &err, StringRef what,
                             ArrayRef<int64_t> values, size_t expected) {
  if (values.size() != expected)
    return err("attribute '", what, "' must have ", expected,
               " elements, got ", values.size());
  return success();
}

LogicalResult checkPositive(const OpError &err, StringRef what,
                            ArrayRef<int64_t> values) {
  for (int64_t v : values)
    if (v <= 0)
      return err("attribute '", what, "' must be positive, got ",
                 fmtShape(values));
  return success();
}

LogicalResult checkNonNegative(const OpError &err, StringRef what,
                               ArrayRef<int64_t> values) {
  for (int64_t v : values)
    if (v < 0)
      return err("attribute '", what, "' must be non-negative, got ",
                 fmtShape(values));
  return success();
}

LogicalResult checkSameElementType(const OpError &err, StringRef a, Type ta,
                                   StringRef b, Type tb) {
  Type ea = getElementTypeOrSelf(ta), eb = getElementTypeOrSelf(tb);
  if (ea != eb)
    return err("operand '", b, "' element type ", eb,
               " does not match operand '", a, "' element type ", ea);
  return success();
}

/// Layout of a 4-D activation: positions of N, C, H, W.
struct Nchw {
  int n, c, h, w;
};
FailureOr<Nchw> layoutOf(const OpError &err, DataFormat format) {
  switch (format) {
  case DataFormat::NCHW:
    return Nchw{0, 1, 2, 3};
  case DataFormat::NHWC:
    return Nchw{0, 3, 1, 2};
  default:
    (void)err("attribute 'data_format' must be NCHW or NHWC, got ",
              stringifyDataFormat(format));
    return failure();
  }
}

/// Output size of a sliding window (conv/pool), ONNX semantics.
int64_t windowOut(int64_t in, int64_t k, int64_t stride, int64_t padBegin,
                  int64_t padEnd, int64_t dilation, bool ceilMode) {
  if (ShapedType::isDynamic(in))
    return kDyn;
  __int128 wide = (__int128)in + padBegin + padEnd - (__int128)dilation * (k - 1) - 1;
  if (wide < 0)
    return 0;
  if (wide > std::numeric_limits<int64_t>::max() / 2)
    return 0;
  int64_t span = (int64_t)wide;
  int64_t out = ceilMode ? (span + stride - 1) / stride + 1 : span / stride + 1;
  // The last window must start inside the (begin-padded) input.
  if (ceilMode && (out - 1) * stride >= in + padBegin)
    --out;
  return out;
}

LogicalResult inferPool(const OpError &err, Type inputType,
                        ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                        ArrayRef<int64_t> pads, ArrayRef<int64_t> dilations,
                        bool ceilMode, DataFormat format,
                        SmallVectorImpl<Type> &out) {
  auto input = asRanked(inputType);
  if (!input || input.getRank() != 4)
    return err("operand 'input' must be a 4-D tensor, got ", inputType);
  if (failed(checkArraySize(err, "kernel_shape", kernel, 2)) ||
      failed(checkPositive(err, "kernel_shape", kernel)) ||
      failed(checkArraySize(err, "strides", strides, 2)) ||
      failed(checkPositive(err, "strides", strides)) ||
      failed(checkArraySize(err, "pads", pads, 4)) ||
      failed(checkNonNegative(err, "pads", pads)) ||
      failed(checkArraySize(err, "dilations", dilations, 2)) ||
      failed(checkPositive(err, "dilations", dilations)))
    return failure();
  for (int i = 0; i < 2; ++i) {
    auto span = mulChecked(err, kernel[i], dilations[i]);
    if (failed(span))
      return failure();
    if (pads[i] >= *span || pads[i + 2] >= *span)
      return err("attribute 'pads' ", fmtShape(pads),
                 " must be smaller than the (dilated) kernel ",
                 fmtShape(kernel));
  }
  auto layout = layoutOf(err, format);
  if (failed(layout))
    return failure();
  SmallVector<int64_t> shape(input.getShape());
  int sp[2] = {layout->h, layout->w};
  for (int i = 0; i < 2; ++i) {
    int64_t o = windowOut(shape[sp[i]], kernel[i], strides[i], pads[i],
                          pads[i + 2], dilations[i], ceilMode);
    if (o == 0)
      return err("window ", fmtShape(kernel),
                 " does not fit the padded input ", fmtShape(input.getShape()));
    shape[sp[i]] = o;
  }
  return pushTensor(err, shape, input.getElementType(), out);
}

/// The activation attribute's alpha only means something for some functions.
LogicalResult checkActivation(const OpError &err, Activation act,
                              std::optional<float> alpha) {
  if (alpha && act != Activation::leaky_relu && act != Activation::hard_sigmoid)
    return err("attribute 'activation_alpha' is only valid with leaky_relu or "
               "hard_sigmoid activations, not ",
               stringifyActivation(act));
  return success();
}
} // namespace

bool mlir::ge::detail::areCompatibleTypes(TypeRange lhs, TypeRange rhs) {
  if (lhs.size() != rhs.size())
    return false;
  for (auto [l, r] : llvm::zip(lhs, rhs)) {
    if (l == r)
      continue;
    auto lt = asRanked(l), rt = asRanked(r);
    if (!lt || !rt || lt.getElementType() != rt.getElementType() ||
        failed(verifyCompatibleShape(lt.getShape(), rt.getShape())))
      return false;
    if (lt.getEncoding() != rt.getEncoding())
      return false;
  }
  return true;
}

int64_t mlir::ge::detail::getC0(Type elementType) {
  unsigned bits = elementType.getIntOrFloatBitWidth();
  unsigned bytes = std::max(1u, bits / 8);
  return 32 / bytes;
}

LogicalResult mlir::ge::detail::inferBroadcastResult(
    MLIRContext *ctx, std::optional<Location> loc, StringRef opName,
    ValueRange operands, bool isCompare, SmallVectorImpl<Type> &out) {
  OpError err{loc, opName};
  if (operands.size() != 2)
    return err("expected 2 operands, got ", operands.size());
  auto lhs = asRanked(operands[0].getType());
  auto rhs = asRanked(operands[1].getType());
  if (!lhs || !rhs)
    return err("operands must be ranked tensors");
  if (failed(checkSameElementType(err, "lhs", lhs, "rhs", rhs)))
    return failure();
  SmallVector<int64_t> shape;
  if (failed(broadcastPair(err, lhs.getShape(), rhs.getShape(), shape,
                           "operands 'lhs' and 'rhs'")))
    return failure();
  Type elem = isCompare ? IntegerType::get(ctx, 1) : lhs.getElementType();
  return pushTensor(err, shape, elem, out);
}

LogicalResult mlir::ge::detail::inferReduceResult(
    std::optional<Location> loc, StringRef opName, Type inputType,
    ArrayRef<int64_t> axes, bool keepdims, Type elementType,
    SmallVectorImpl<Type> &out) {
  OpError err{loc, opName};
  auto input = asRanked(inputType);
  if (!input)
    return err("operand 'input' must be a ranked tensor");
  int64_t rank = input.getRank();
  SmallVector<bool> reduced(rank, axes.empty());
  for (int64_t a : axes) {
    auto n = normalizeAxis(err, axes.size() == 1 ? "axis" : "axes", a,
                           std::max<int64_t>(rank, 1));
    if (failed(n))
      return failure();
    if (rank == 0) {
      if (axes.size() > 1)
        return err("attribute 'axes' names more axes than a rank-0 input has");
      continue;
    }
    if (reduced[*n])
      return err("attribute 'axes' contains axis ", a, " twice");
    reduced[*n] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    if (!reduced[i])
      shape.push_back(input.getDimSize(i));
    else if (keepdims)
      shape.push_back(1);
  }
  return pushTensor(err, 
      shape, elementType ? elementType : input.getElementType(), out);
}

LogicalResult mlir::ge::detail::inferGlobalPoolResult(
    std::optional<Location> loc, StringRef opName, Type inputType,
    DataFormat format, SmallVectorImpl<Type> &out) {
  OpError err{loc, opName};
  auto input = asRanked(inputType);
  if (!input || input.getRank() < 3)
    return err("operand 'input' must be a tensor of rank >= 3, got ",
               inputType);
  SmallVector<int64_t> shape(input.getShape());
  int64_t rank = input.getRank();
  if (format == DataFormat::NCHW || format == DataFormat::NCDHW ||
      format == DataFormat::ND) {
    for (int64_t i = 2; i < rank; ++i)
      shape[i] = 1;
  } else if (format == DataFormat::NHWC || format == DataFormat::NDHWC) {
    for (int64_t i = 1; i < rank - 1; ++i)
      shape[i] = 1;
  } else {
    return err("attribute 'data_format' must be channels-first or "
               "channels-last, got ",
               stringifyDataFormat(format));
  }
  return pushTensor(err, shape, input.getElementType(), out);
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<ConstantOp>(ctx, rawAdaptor, props);
  auto value = adaptor.getValue();
  if (!value)
    return OpError{loc, getOperationName()}("requires attribute 'value'");
  auto type = asRanked(value.getType());
  if (!type)
    return OpError{loc, getOperationName()}(
        "attribute 'value' must have a ranked tensor type, got ",
        value.getType());
  out.push_back(type);
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValueAttr(); }

LogicalResult ConstantOp::verify() {
  if (getValue().getType() != getType())
    return emitOpError("result type ")
           << getType() << " differs from the type of attribute 'value' "
           << getValue().getType();
  return success();
}

void ConstantOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "cst");
}

//===----------------------------------------------------------------------===//
// Unary-class ops
//===----------------------------------------------------------------------===//

OpFoldResult IdentityOp::fold(FoldAdaptor) { return getInput(); }

LogicalResult ClipOp::verify() {
  for (auto [name, v] : {std::pair<StringRef, std::optional<APFloat>>{"min", getMin()},
                         {"max", getMax()}})
    if (v && v->isNaN())
      return emitOpError("attribute '") << name << "' must not be NaN";
  if (getMin() && getMax() &&
      getMin()->convertToDouble() > getMax()->convertToDouble())
    return emitOpError("attribute 'min' (")
           << getMin()->convertToDouble()
           << ") must not exceed attribute 'max' ("
           << getMax()->convertToDouble() << ")";
  return success();
}

static LogicalResult verifyAxisAttr(Operation *op, int64_t axis, Type type,
                                    StringRef name = "axis") {
  int64_t rank = cast<RankedTensorType>(type).getRank();
  if (rank == 0)
    return op->emitOpError("operand 'input' must have rank >= 1 for attribute '")
           << name << "'";
  int64_t bound = rank;
  if (axis < -bound || axis >= bound)
    return op->emitOpError("attribute '")
           << name << "' value " << axis << " is out of range for rank "
           << rank << " (expected [" << -bound << ", " << bound << "))";
  return success();
}

LogicalResult CumSumOp::verify() {
  return verifyAxisAttr(*this, getAxis(), getInput().getType());
}
LogicalResult CumProdOp::verify() {
  return verifyAxisAttr(*this, getAxis(), getInput().getType());
}
LogicalResult SoftmaxOp::verify() {
  return verifyAxisAttr(*this, getAxis(), getInput().getType());
}
LogicalResult LogSoftmaxOp::verify() {
  return verifyAxisAttr(*this, getAxis(), getInput().getType());
}

LogicalResult CastOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto outT = cast<RankedTensorType>(getOutput().getType());
  if (failed(verifyCompatibleShape(in.getShape(), outT.getShape())))
    return emitOpError("result shape ")
           << fmtShape(outT.getShape()) << " differs from operand 'input' shape "
           << fmtShape(in.getShape()) << " (cast changes only the element type)";
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// BitcastOp
//===----------------------------------------------------------------------===//

// Storage bits of an element: i1 is stored in a byte.
static unsigned storageBits(Type t) {
  unsigned w = t.getIntOrFloatBitWidth();
  return w == 1 ? 8 : w;
}

LogicalResult BitcastOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto outT = cast<RankedTensorType>(getOutput().getType());
  if (failed(verifyCompatibleShape(in.getShape(), outT.getShape())))
    return emitOpError("result shape ")
           << fmtShape(outT.getShape()) << " differs from operand 'input' shape "
           << fmtShape(in.getShape()) << " (bitcast changes only the element type)";
  unsigned a = storageBits(in.getElementType()), b = storageBits(outT.getElementType());
  if (a != b)
    return emitOpError("element types ")
           << in.getElementType() << " (" << a << " bits) and " << outT.getElementType() << " (" << b
           << " bits) differ in width";
  return success();
}

OpFoldResult BitcastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// WhereOp
//===----------------------------------------------------------------------===//

LogicalResult WhereOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<WhereOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto c = asRanked(adaptor.getCondition().getType());
  auto x = asRanked(adaptor.getX().getType());
  auto y = asRanked(adaptor.getY().getType());
  if (!c || !x || !y)
    return err("operands must be ranked tensors");
  if (failed(checkSameElementType(err, "x", x, "y", y)))
    return failure();
  SmallVector<int64_t> s1, s2;
  if (failed(broadcastPair(err, c.getShape(), x.getShape(), s1,
                           "operands 'condition' and 'x'")) ||
      failed(broadcastPair(err, s1, y.getShape(), s2,
                           "operands 'condition', 'x' and 'y'")))
    return failure();
  return pushTensor(err, s2, x.getElementType(), out);
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

static LogicalResult verifyEpsilon(Operation *op, APFloat epsilon) {
  // Written so that NaN fails too.
  if (!(epsilon.convertToDouble() >= 0.0))
    return op->emitOpError("attribute 'epsilon' must be a non-negative number, got ")
           << epsilon.convertToDouble();
  return success();
}

static LogicalResult verifyNormParams(Operation *op, RankedTensorType input,
                                      int64_t axis, ArrayRef<Value> params,
                                      ArrayRef<StringRef> names) {
  int64_t rank = input.getRank();
  if (axis < -rank || axis >= rank)
    return op->emitOpError("attribute 'axis' value ")
           << axis << " is out of range for rank " << rank;
  int64_t a = axis < 0 ? axis + rank : axis;
  ArrayRef<int64_t> normShape = input.getShape().drop_front(a);
  OpError err{op->getLoc(), op->getName().getStringRef()};
  for (auto [v, name] : llvm::zip(params, names)) {
    if (!v)
      continue;
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getElementType() != input.getElementType())
      return op->emitOpError("operand '")
             << name << "' element type " << t.getElementType()
             << " does not match operand 'input' element type "
             << input.getElementType();
    if (failed(checkUnidirectional(err, name, t.getShape(), normShape)))
      return failure();
  }
  return success();
}

LogicalResult LayerNormOp::verify() {
  if (failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return verifyNormParams(*this, getInput().getType(), getAxis(),
                          {getScale(), getBias()}, {"scale", "bias"});
}

LogicalResult RmsNormOp::verify() {
  if (failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return verifyNormParams(*this, getInput().getType(), getAxis(), {getScale()},
                          {"scale"});
}

static LogicalResult verifyChannelParams(Operation *op, RankedTensorType input,
                                         int64_t channelDim,
                                         ArrayRef<Value> params,
                                         ArrayRef<StringRef> names) {
  int64_t c = input.getDimSize(channelDim);
  // With a dynamic channel dim the parameters must still agree with each other.
  for (Value v : params) {
    auto t = cast<RankedTensorType>(v.getType());
    if (ShapedType::isDynamic(c) && t.getRank() == 1 && !t.isDynamicDim(0))
      c = t.getDimSize(0);
  }
  for (auto [v, name] : llvm::zip(params, names)) {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getElementType() != input.getElementType())
      return op->emitOpError("operand '")
             << name << "' element type " << t.getElementType()
             << " does not match operand 'input' element type "
             << input.getElementType();
    if (t.getRank() != 1 ||
        (!ShapedType::isDynamic(c) && !t.isDynamicDim(0) &&
         t.getDimSize(0) != c))
      return op->emitOpError("operand '")
             << name << "' must have shape [C] = " << fmtShape({c})
             << ", got " << fmtShape(t.getShape());
  }
  return success();
}

LogicalResult BatchNormOp::verify() {
  auto input = getInput().getType();
  if (input.getRank() < 2)
    return emitOpError("operand 'input' must have rank >= 2, got ")
           << input.getRank();
  int64_t channelDim;
  switch (getDataFormat()) {
  case DataFormat::NCHW:
  case DataFormat::NCDHW:
  case DataFormat::ND:
    channelDim = 1;
    break;
  case DataFormat::NHWC:
  case DataFormat::NDHWC:
    channelDim = input.getRank() - 1;
    break;
  default:
    return emitOpError("attribute 'data_format' must be channels-first or "
                       "channels-last, got ")
           << stringifyDataFormat(getDataFormat());
  }
  if (failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return verifyChannelParams(*this, input, channelDim,
                             {getScale(), getBias(), getMean(), getVariance()},
                             {"scale", "bias", "mean", "variance"});
}

LogicalResult InstanceNormOp::verify() {
  auto input = getInput().getType();
  if (input.getRank() < 3)
    return emitOpError("operand 'input' must have rank >= 3, got ")
           << input.getRank();
  if (failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return verifyChannelParams(*this, input, 1, {getScale(), getBias()},
                             {"scale", "bias"});
}

//===----------------------------------------------------------------------===//
// Contractions and convolutions
//===----------------------------------------------------------------------===//

/// An optional operand as a ranked tensor. Type inference runs before the ODS
/// type constraints when ops are built from Python or the C API, so an
/// unranked operand must be refused here, not dereferenced.
static FailureOr<RankedTensorType> rankedOperand(const OpError &err,
                                                 StringRef name, Value v) {
  if (auto t = asRanked(v.getType()))
    return t;
  (void)err("operand '", name, "' must be a ranked tensor, got ", v.getType());
  return failure();
}

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<MatMulOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto lhs = asRanked(adaptor.getLhs().getType());
  auto rhs = asRanked(adaptor.getRhs().getType());
  if (!lhs || !rhs)
    return err("operands must be ranked tensors");
  if (lhs.getRank() == 0 || rhs.getRank() == 0)
    return err("operands 'lhs' and 'rhs' must have rank >= 1 (got ",
               lhs.getRank(), " and ", rhs.getRank(), ")");
  if (failed(checkSameElementType(err, "lhs", lhs, "rhs", rhs)))
    return failure();
  SmallVector<int64_t> a(lhs.getShape()), b(rhs.getShape());
  bool vecL = a.size() == 1, vecR = b.size() == 1;
  if (vecL)
    a.insert(a.begin(), 1);
  if (vecR)
    b.push_back(1);
  int64_t k1 = a.back(), k2 = b[b.size() - 2];
  if (!ShapedType::isDynamic(k1) && !ShapedType::isDynamic(k2) && k1 != k2)
    return err("contraction dimensions differ: 'lhs' ", fmtShape(lhs.getShape()),
               " has K = ", k1, " but 'rhs' ", fmtShape(rhs.getShape()),
               " has K = ", k2);
  SmallVector<int64_t> batch;
  if (failed(broadcastPair(err, ArrayRef<int64_t>(a).drop_back(2),
                           ArrayRef<int64_t>(b).drop_back(2), batch,
                           "batch dimensions of 'lhs' and 'rhs'")))
    return failure();
  SmallVector<int64_t> shape(batch);
  if (!vecL)
    shape.push_back(a[a.size() - 2]);
  if (!vecR)
    shape.push_back(b.back());
  if (adaptor.getBias()) {
    auto biasOr = rankedOperand(err, "bias", adaptor.getBias());
    if (failed(biasOr))
      return failure();
    auto bias = *biasOr;
    if (failed(checkSameElementType(err, "lhs", lhs, "bias", bias)) ||
        failed(checkUnidirectional(err, "bias", bias.getShape(), shape)))
      return failure();
  }
  if (failed(checkActivation(err, adaptor.getActivation(),
                             adaptor.getActivationAlpha()
                                 ? std::optional<float>(adaptor.getActivationAlpha()->convertToFloat())
                                 : std::nullopt)))
    return failure();
  return pushTensor(err, shape, lhs.getElementType(), out);
}

LogicalResult GemmOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<GemmOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto a = asRanked(adaptor.getA().getType());
  auto b = asRanked(adaptor.getB().getType());
  if (!a || !b || a.getRank() != 2 || b.getRank() != 2)
    return err("operands 'a' and 'b' must be 2-D tensors");
  if (failed(checkSameElementType(err, "a", a, "b", b)))
    return failure();
  int64_t m = adaptor.getTransA() ? a.getDimSize(1) : a.getDimSize(0);
  int64_t k1 = adaptor.getTransA() ? a.getDimSize(0) : a.getDimSize(1);
  int64_t k2 = adaptor.getTransB() ? b.getDimSize(1) : b.getDimSize(0);
  int64_t n = adaptor.getTransB() ? b.getDimSize(0) : b.getDimSize(1);
  if (!ShapedType::isDynamic(k1) && !ShapedType::isDynamic(k2) && k1 != k2)
    return err("contraction dimensions differ: op(a) is ",
               fmtShape({m, k1}), ", op(b) is ", fmtShape({k2, n}));
  SmallVector<int64_t> shape{m, n};
  if (adaptor.getC()) {
    auto cOr = rankedOperand(err, "c", adaptor.getC());
    if (failed(cOr))
      return failure();
    auto c = *cOr;
    if (failed(checkSameElementType(err, "a", a, "c", c)) ||
        failed(checkUnidirectional(err, "c", c.getShape(), shape)))
      return failure();
  }
  if (failed(checkActivation(err, adaptor.getActivation(),
                             adaptor.getActivationAlpha()
                                 ? std::optional<float>(adaptor.getActivationAlpha()->convertToFloat())
                                 : std::nullopt)))
    return failure();
  return pushTensor(err, shape, a.getElementType(), out);
}

/// Shared checks of conv2d and conv_transpose2d attributes.
static LogicalResult checkConvAttrs(const OpError &err, ArrayRef<int64_t> strides,
                                    ArrayRef<int64_t> pads,
                                    ArrayRef<int64_t> dilations, int64_t groups) {
  if (failed(checkArraySize(err, "strides", strides, 2)) ||
      failed(checkPositive(err, "strides", strides)) ||
      failed(checkArraySize(err, "pads", pads, 4)) ||
      failed(checkNonNegative(err, "pads", pads)) ||
      failed(checkArraySize(err, "dilations", dilations, 2)) ||
      failed(checkPositive(err, "dilations", dilations)))
    return failure();
  if (groups <= 0)
    return err("attribute 'groups' must be positive, got ", groups);
  return success();
}

namespace {
struct ConvOperands {
  RankedTensorType input, filter;
  Nchw layout;
  int64_t groups;
};
} // namespace

/// Operand and attribute checks shared by conv2d and conv_transpose2d.
template <typename AdaptorT>
static FailureOr<ConvOperands> checkConvOperands(const OpError &err,
                                                 AdaptorT &adaptor,
                                                 StringRef filterLayout) {
  auto input = asRanked(adaptor.getInput().getType());
  auto filter = asRanked(adaptor.getFilter().getType());
  if (!input || input.getRank() != 4) {
    (void)err("operand 'input' must be a 4-D tensor, got ",
              adaptor.getInput().getType());
    return failure();
  }
  if (!filter || filter.getRank() != 4) {
    (void)err("operand 'filter' must be a 4-D ", filterLayout,
              " tensor, got ", adaptor.getFilter().getType());
    return failure();
  }
  int64_t groups = adaptor.getGroups();
  if (failed(checkSameElementType(err, "input", input, "filter", filter)) ||
      failed(checkConvAttrs(err, adaptor.getStrides(), adaptor.getPads(),
                            adaptor.getDilations(), groups)))
    return failure();
  auto layout = layoutOf(err, adaptor.getDataFormat());
  if (failed(layout))
    return failure();
  return ConvOperands{input, filter, *layout, groups};
}

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<Conv2DOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto conv = checkConvOperands(err, adaptor, "[C_out, C_in/groups, kH, kW]");
  if (failed(conv))
    return failure();
  auto [input, filter, layout, groups] = *conv;
  int64_t cin = input.getDimSize(layout.c);
  int64_t cout = filter.getDimSize(0);
  if (!ShapedType::isDynamic(cin) && !filter.isDynamicDim(1) &&
      filter.getDimSize(1) * groups != cin)
    return err("operand 'filter' dimension 1 (", filter.getDimSize(1),
               ") times 'groups' (", groups,
               ") must equal the input channels (", cin, ")");
  if (!ShapedType::isDynamic(cout) && cout % groups != 0)
    return err("output channels (", cout, ") must be divisible by 'groups' (",
               groups, ")");
  if (adaptor.getBias()) {
    auto biasOr = rankedOperand(err, "bias", adaptor.getBias());
    if (failed(biasOr))
      return failure();
    auto bias = *biasOr;
    if (failed(checkSameElementType(err, "input", input, "bias", bias)))
      return failure();
    if (bias.getRank() != 1 ||
        (!bias.isDynamicDim(0) && !ShapedType::isDynamic(cout) &&
         bias.getDimSize(0) != cout))
      return err("operand 'bias' must have shape [C_out] = ", fmtShape({cout}),
                 ", got ", fmtShape(bias.getShape()));
  }
  if (failed(checkActivation(err, adaptor.getActivation(),
                             adaptor.getActivationAlpha()
                                 ? std::optional<float>(adaptor.getActivationAlpha()->convertToFloat())
                                 : std::nullopt)))
    return failure();
  ArrayRef<int64_t> s = adaptor.getStrides(), p = adaptor.getPads(),
                    d = adaptor.getDilations();
  SmallVector<int64_t> shape(4);
  shape[layout.n] = input.getDimSize(layout.n);
  shape[layout.c] = cout;
  int sp[2] = {layout.h, layout.w};
  for (int i = 0; i < 2; ++i) {
    int64_t k = filter.getDimSize(2 + i);
    if (ShapedType::isDynamic(k)) {
      shape[sp[i]] = kDyn;
      continue;
    }
    int64_t o = windowOut(input.getDimSize(sp[i]), k, s[i], p[i], p[i + 2],
                          d[i], false);
    if (o == 0)
      return err("filter ", fmtShape(filter.getShape()),
                 " does not fit the padded input ",
                 fmtShape(input.getShape()));
    shape[sp[i]] = o;
  }
  if (adaptor.getResidual()) {
    auto residualOr = rankedOperand(err, "residual", adaptor.getResidual());
    if (failed(residualOr))
      return failure();
    auto residual = *residualOr;
    if (failed(checkSameElementType(err, "input", input, "residual", residual)))
      return failure();
    bool same = residual.getRank() == 4;
    for (int64_t i = 0; same && i < 4; ++i)
      same = residual.isDynamicDim(i) || ShapedType::isDynamic(shape[i]) ||
             residual.getDimSize(i) == shape[i];
    if (!same)
      return err("operand 'residual' must have the result shape ",
                 fmtShape(shape), ", got ", fmtShape(residual.getShape()));
  }
  return pushTensor(err, shape, input.getElementType(), out);
}

LogicalResult ConvTranspose2DOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<ConvTranspose2DOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto conv = checkConvOperands(err, adaptor, "[C_in, C_out/groups, kH, kW]");
  if (failed(conv))
    return failure();
  auto [input, filter, layout, groups] = *conv;
  if (failed(checkArraySize(err, "output_padding", adaptor.getOutputPadding(),
                            2)) ||
      failed(checkNonNegative(err, "output_padding",
                              adaptor.getOutputPadding())))
    return failure();
  int64_t cin = input.getDimSize(layout.c);
  if (!ShapedType::isDynamic(cin) && !filter.isDynamicDim(0) &&
      filter.getDimSize(0) != cin)
    return err("operand 'filter' dimension 0 (", filter.getDimSize(0),
               ") must equal the input channels (", cin, ")");
  if (!ShapedType::isDynamic(cin) && cin % groups != 0)
    return err("input channels (", cin, ") must be divisible by 'groups' (",
               groups, ")");
  auto coutOr = mulChecked(err, filter.getDimSize(1), groups);
  if (failed(coutOr))
    return failure();
  int64_t cout = *coutOr;
  if (adaptor.getBias()) {
    auto biasOr = rankedOperand(err, "bias", adaptor.getBias());
    if (failed(biasOr))
      return failure();
    auto bias = *biasOr;
    if (failed(checkSameElementType(err, "input", input, "bias", bias)))
      return failure();
    if (bias.getRank() != 1 ||
        (!bias.isDynamicDim(0) && !ShapedType::isDynamic(cout) &&
         bias.getDimSize(0) != cout))
      return err("operand 'bias' must have shape [C_out] = ", fmtShape({cout}),
                 ", got ", fmtShape(bias.getShape()));
  }
  ArrayRef<int64_t> s = adaptor.getStrides(), p = adaptor.getPads(),
                    d = adaptor.getDilations(),
                    op = adaptor.getOutputPadding();
  SmallVector<int64_t> shape(4);
  shape[layout.n] = input.getDimSize(layout.n);
  shape[layout.c] = cout;
  int sp[2] = {layout.h, layout.w};
  for (int i = 0; i < 2; ++i) {
    int64_t in = input.getDimSize(sp[i]), k = filter.getDimSize(2 + i);
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(k)) {
      shape[sp[i]] = kDyn;
      continue;
    }
    __int128 wide = (__int128)s[i] * (in - 1) + op[i] + (__int128)(k - 1) * d[i] + 1 - p[i] - p[i + 2];
    if (wide > std::numeric_limits<int64_t>::max() / 2)
      return err("computed output size along spatial dim ", i, " overflows");
    int64_t o = (int64_t)wide;
    if (o <= 0)
      return err("computed output size ", o, " along spatial dim ", i,
                 " is not positive");
    shape[sp[i]] = o;
  }
  return pushTensor(err, shape, input.getElementType(), out);
}

LogicalResult MaxPool2DOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<MaxPool2DOp>(ctx, rawAdaptor, props);
  return inferPool(OpError{loc, getOperationName()}, adaptor.getInput().getType(),
                   adaptor.getKernelShape(), adaptor.getStrides(),
                   adaptor.getPads(), adaptor.getDilations(),
                   adaptor.getCeilMode(), adaptor.getDataFormat(), out);
}

LogicalResult AvgPool2DOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<AvgPool2DOp>(ctx, rawAdaptor, props);
  return inferPool(OpError{loc, getOperationName()}, adaptor.getInput().getType(),
                   adaptor.getKernelShape(), adaptor.getStrides(),
                   adaptor.getPads(), adaptor.getDilations(),
                   adaptor.getCeilMode(), adaptor.getDataFormat(), out);
}

//===----------------------------------------------------------------------===//
// Gradients (training)
//===----------------------------------------------------------------------===//

/// `input_size` / `filter_size`: four positive sizes (they are the result).
static LogicalResult checkSizeAttr(const OpError &err, StringRef what,
                                   ArrayRef<int64_t> size) {
  if (failed(checkArraySize(err, what, size, 4)))
    return failure();
  return checkPositive(err, what, size);
}

static FailureOr<RankedTensorType> rank4Operand(const OpError &err,
                                                StringRef name,
                                                StringRef layout, Value v) {
  auto t = asRanked(v.getType());
  if (!t || t.getRank() != 4) {
    (void)err("operand '", name, "' must be a 4-D ", layout, " tensor, got ",
              v.getType());
    return failure();
  }
  return t;
}

/// A 4-D shape matches `expected` where both are static.
static bool matchesShape(RankedTensorType t, ArrayRef<int64_t> expected) {
  for (int64_t i = 0; i < 4; ++i)
    if (!t.isDynamicDim(i) && !ShapedType::isDynamic(expected[i]) &&
        t.getDimSize(i) != expected[i])
      return false;
  return true;
}

/// The shared part of the conv2d gradients: the forward conv2d of an input of
/// shape `inputShape` with a filter of shape `filterShape` must produce
/// `outBackprop`'s shape. Either shape may have dynamic sizes (operands).
static LogicalResult checkConvGradient(const OpError &err,
                                       ArrayRef<int64_t> inputShape,
                                       ArrayRef<int64_t> filterShape,
                                       RankedTensorType outBackprop,
                                       ArrayRef<int64_t> strides,
                                       ArrayRef<int64_t> pads,
                                       ArrayRef<int64_t> dilations,
                                       int64_t groups) {
  if (failed(checkConvAttrs(err, strides, pads, dilations, groups)))
    return failure();
  int64_t cin = inputShape[1], cout = filterShape[0];
  if (!ShapedType::isDynamic(cin) && !ShapedType::isDynamic(filterShape[1]) &&
      filterShape[1] * groups != cin)
    return err("filter dimension 1 (", filterShape[1], ") times 'groups' (",
               groups, ") must equal the input channels (", cin, ")");
  if (!ShapedType::isDynamic(cout) && cout % groups != 0)
    return err("output channels (", cout, ") must be divisible by 'groups' (",
               groups, ")");
  SmallVector<int64_t> expected = {inputShape[0], cout, kDyn, kDyn};
  for (int i = 0; i < 2; ++i) {
    int64_t k = filterShape[2 + i];
    if (ShapedType::isDynamic(k))
      continue;
    int64_t o = windowOut(inputShape[2 + i], k, strides[i], pads[i],
                          pads[i + 2], dilations[i], false);
    if (o == 0)
      return err("filter ", fmtShape(filterShape),
                 " does not fit the padded input ", fmtShape(inputShape));
    expected[2 + i] = o;
  }
  if (!matchesShape(outBackprop, expected))
    return err("operand 'out_backprop' must have the forward conv2d's result "
               "shape [N, C_out, OH, OW] = ", fmtShape(expected), ", got ",
               fmtShape(outBackprop.getShape()));
  return success();
}

LogicalResult Conv2DBackpropInputOp::inferReturnTypes(MLIRContext *ctx,
    std::optional<Location> loc, Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<Conv2DBackpropInputOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto filter = rank4Operand(err, "filter", "[C_out, C_in/groups, kH, kW]",
                             adaptor.getFilter());
  if (failed(filter))
    return failure();
  auto dy = rank4Operand(err, "out_backprop", "[N, C_out, OH, OW]",
                         adaptor.getOutBackprop());
  if (failed(dy))
    return failure();
  ArrayRef<int64_t> size = adaptor.getInputSize();
  if (failed(checkSameElementType(err, "filter", *filter, "out_backprop", *dy)) ||
      failed(checkSizeAttr(err, "input_size", size)) ||
      failed(checkConvGradient(err, size, filter->getShape(), *dy,
                               adaptor.getStrides(), adaptor.getPads(),
                               adaptor.getDilations(), adaptor.getGroups())))
    return failure();
  return pushTensor(err, size, dy->getElementType(), out);
}

LogicalResult Conv2DBackpropFilterOp::inferReturnTypes(MLIRContext *ctx,
    std::optional<Location> loc, Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<Conv2DBackpropFilterOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto input = rank4Operand(err, "input", "[N, C_in, H, W]", adaptor.getInput());
  if (failed(input))
    return failure();
  auto dy = rank4Operand(err, "out_backprop", "[N, C_out, OH, OW]",
                         adaptor.getOutBackprop());
  if (failed(dy))
    return failure();
  ArrayRef<int64_t> size = adaptor.getFilterSize();
  if (failed(checkSameElementType(err, "input", *input, "out_backprop", *dy)) ||
      failed(checkSizeAttr(err, "filter_size", size)) ||
      failed(checkConvGradient(err, input->getShape(), size, *dy,
                               adaptor.getStrides(), adaptor.getPads(),
                               adaptor.getDilations(), adaptor.getGroups())))
    return failure();
  return pushTensor(err, size, dy->getElementType(), out);
}

LogicalResult AvgPoolGradOp::inferReturnTypes(MLIRContext *ctx,
    std::optional<Location> loc, Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<AvgPoolGradOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto dy = rank4Operand(err, "out_backprop", "[N, C, OH, OW]",
                         adaptor.getOutBackprop());
  if (failed(dy))
    return failure();
  ArrayRef<int64_t> size = adaptor.getInputSize();
  if (failed(checkSizeAttr(err, "input_size", size)))
    return failure();
  // The forward ge.avg_pool2d's result type is the shape out_backprop must have.
  SmallVector<Type, 1> forward;
  auto inputType = RankedTensorType::get(size, dy->getElementType());
  const int64_t noDilation[2] = {1, 1};
  if (failed(inferPool(err, inputType, adaptor.getKernelShape(),
                       adaptor.getStrides(), adaptor.getPads(), noDilation,
                       adaptor.getCeilMode(), DataFormat::NCHW, forward)))
    return failure();
  auto expected = cast<RankedTensorType>(forward.front()).getShape();
  if (!matchesShape(*dy, expected))
    return err("operand 'out_backprop' must have the forward avg_pool2d's "
               "result shape [N, C, OH, OW] = ", fmtShape(expected), ", got ",
               fmtShape(dy->getShape()));
  out.push_back(inputType);
  return success();
}

LogicalResult ResizeOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto res = cast<RankedTensorType>(getOutput().getType());
  if (in.getRank() != res.getRank())
    return emitOpError("result rank ")
           << res.getRank() << " differs from operand 'input' rank "
           << in.getRank();
  if (in.getElementType() != res.getElementType())
    return emitOpError("result element type ")
           << res.getElementType() << " differs from operand 'input' element type "
           << in.getElementType();
  for (auto [i, d] : llvm::enumerate(res.getShape()))
    if (d == 0)
      return emitOpError("result dimension ") << i << " is empty";
  if (auto scales = getScales()) {
    if ((int64_t)scales->size() != in.getRank())
      return emitOpError("attribute 'scales' must have ")
             << in.getRank() << " elements, got " << scales->size();
    for (auto [i, sc] : llvm::enumerate(*scales)) {
      if (!(sc > 0))
        return emitOpError("attribute 'scales' must be positive");
      int64_t din = in.getDimSize(i), dout = res.getDimSize(i);
      if (!ShapedType::isDynamic(din) && !ShapedType::isDynamic(dout) &&
          (int64_t)std::floor((double)din * sc) != dout)
        return emitOpError("result dimension ")
               << i << " (" << dout << ") differs from floor(" << din
               << " * scale " << sc << ")";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto res = cast<RankedTensorType>(getOutput().getType());
  if (in.getElementType() != res.getElementType())
    return emitOpError("result element type ")
           << res.getElementType() << " differs from operand 'input' element type "
           << in.getElementType();
  auto staticProduct = [](RankedTensorType t) {
    int64_t p = 1;
    for (int64_t d : t.getShape())
      if (!ShapedType::isDynamic(d) && llvm::MulOverflow(p, d, p))
        return int64_t(-1);
    return p;
  };
  int64_t pin = staticProduct(in), pres = staticProduct(res);
  if (pin < 0 || pres < 0)
    return emitOpError("element count overflows int64");
  if (in.hasStaticShape() && !res.hasStaticShape() && pres != 0 &&
      pin % pres != 0)
    return emitOpError("operand 'input' has ")
           << pin << " elements, not a multiple of the result's static dims "
           << fmtShape(res.getShape());
  if (res.hasStaticShape() && !in.hasStaticShape() && pin != 0 &&
      pres % pin != 0)
    return emitOpError("result has ")
           << pres << " elements, not a multiple of the input's static dims "
           << fmtShape(in.getShape());
  if (in.hasStaticShape() && res.hasStaticShape() &&
      in.getNumElements() != res.getNumElements())
    return emitOpError("operand 'input' ")
           << fmtShape(in.getShape()) << " has " << in.getNumElements()
           << " elements but the result " << fmtShape(res.getShape())
           << " has " << res.getNumElements();
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // reshape(reshape(x)) only depends on x. With `?` dims the result's sizes are read from the
  // input's (a `?` is a copy of the input's `?` at its index, or the element-count remainder), so
  // folding could change them: only folded when the result's sizes do not depend on which input.
  auto producer = getInput().getDefiningOp<ReshapeOp>();
  if (producer && !getType().hasStaticShape() &&
      llvm::count_if(getType().getShape(), ShapedType::isDynamic) > 1)
    producer = nullptr;
  if (producer) {
    getInputMutable().assign(producer.getInput());
    return getResult();
  }
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    if (getType().hasStaticShape())
      return dense.reshape(getType());
  // A resource constant is re-typed, sharing its blob (no copy).
  if (auto res = dyn_cast_or_null<DenseResourceElementsAttr>(adaptor.getInput()))
    if (getType().hasStaticShape())
      return DenseResourceElementsAttr::get(getType(), res.getRawHandle());
  return {};
}

static bool isIdentityPerm(ArrayRef<int64_t> perm) {
  for (auto [i, p] : llvm::enumerate(perm))
    if ((int64_t)i != p)
      return false;
  return true;
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<TransposeOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto input = asRanked(adaptor.getInput().getType());
  if (!input)
    return err("operand 'input' must be a ranked tensor");
  ArrayRef<int64_t> perm = adaptor.getPerm();
  int64_t rank = input.getRank();
  if ((int64_t)perm.size() != rank)
    return err("attribute 'perm' has ", perm.size(),
               " entries but the input has rank ", rank);
  SmallVector<bool> seen(rank, false);
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return err("attribute 'perm' ", fmtShape(perm),
                 " is not a permutation of [0, ", rank, ")");
    seen[p] = true;
    shape.push_back(input.getDimSize(p));
  }
  return pushTensor(err, shape, input.getElementType(), out);
}

/// The raw bytes of a constant with byte-sized elements, or std::nullopt.
static std::optional<ArrayRef<char>> constantBytes(Attribute attr, int64_t &elemBytes) {
  auto shaped = dyn_cast_or_null<ElementsAttr>(attr);
  if (!shaped)
    return std::nullopt;
  Type elem = shaped.getShapedType().getElementType();
  if (!elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  elemBytes = elem.getIntOrFloatBitWidth() / 8;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (dense.isSplat())
      return std::nullopt;
    return dense.getRawData();
  }
  if (auto res = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = res.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    return blob->getData();
  }
  return std::nullopt;
}

/// transpose(constant) computed at compile time (as onnxruntime does for
/// initializers): weights used transposed, e.g. a tied embedding as the
/// output projection, would otherwise be copied on every call.
static Attribute foldConstantTranspose(TransposeOp op, Attribute input) {
  auto resultType = dyn_cast<RankedTensorType>(op.getType());
  if (!resultType || !resultType.hasStaticShape())
    return {};
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(input); dense && dense.isSplat())
    return dense.resizeSplat(resultType);
  int64_t elemBytes = 0;
  std::optional<ArrayRef<char>> bytes = constantBytes(input, elemBytes);
  auto inType = cast<RankedTensorType>(op.getInput().getType());
  int64_t count = resultType.getNumElements();
  if (!bytes || (int64_t)bytes->size() != count * elemBytes)
    return {};
  ArrayRef<int64_t> perm = op.getPerm();
  ArrayRef<int64_t> inShape = inType.getShape();
  int64_t rank = inType.getRank();
  SmallVector<int64_t> inStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * inShape[d + 1];
  // Walk the result in order; srcStride[i] is the input stride of result dim i.
  SmallVector<int64_t> srcStride(rank), index(rank, 0);
  for (int64_t i = 0; i < rank; ++i)
    srcStride[i] = inStrides[perm[i]];
  AsmResourceBlob blob = HeapAsmResourceBlob::allocate(count * elemBytes, /*align=*/64);
  MutableArrayRef<char> out = blob.getMutableData();
  const char *src = bytes->data();
  int64_t offset = 0;
  ArrayRef<int64_t> outShape = resultType.getShape();
  for (int64_t n = 0; n < count; ++n) {
    std::memcpy(out.data() + n * elemBytes, src + offset * elemBytes, elemBytes);
    for (int64_t d = rank - 1; d >= 0; --d) {
      offset += srcStride[d];
      if (++index[d] < outShape[d])
        break;
      offset -= srcStride[d] * outShape[d];
      index[d] = 0;
    }
  }
  if (isa<DenseElementsAttr>(input))  // small inline constants stay inline
    return DenseElementsAttr::getFromRawBuffer(resultType, blob.getData());
  return DenseResourceElementsAttr::get(resultType, "transposed", std::move(blob));
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  if (isIdentityPerm(getPerm()) && getInput().getType() == getType())
    return getInput();
  if (Attribute folded = foldConstantTranspose(*this, adaptor.getInput()))
    return folded;
  if (auto producer = getInput().getDefiningOp<TransposeOp>()) {
    ArrayRef<int64_t> inner = producer.getPerm();
    SmallVector<int64_t> composed;
    for (int64_t p : getPerm())
      composed.push_back(inner[p]);
    if (isIdentityPerm(composed) &&
        producer.getInput().getType() == getType())
      return producer.getInput();
    getInputMutable().assign(producer.getInput());
    setPerm(composed);
    return getResult();
  }
  return {};
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<ConcatOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return err("requires at least one operand");
  auto first = asRanked(inputs[0].getType());
  if (!first)
    return err("operands must be ranked tensors");
  int64_t rank = first.getRank();
  auto axis = normalizeAxis(err, "axis", adaptor.getAxis(), rank);
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(first.getShape());
  for (auto [i, v] : llvm::enumerate(inputs.drop_front())) {
    auto t = asRanked(v.getType());
    if (!t || t.getRank() != rank)
      return err("operand #", i + 1, " has rank ", t ? t.getRank() : -1,
                 ", expected ", rank);
    if (t.getElementType() != first.getElementType())
      return err("operand #", i + 1, " element type ", t.getElementType(),
                 " differs from operand #0 element type ",
                 first.getElementType());
    for (int64_t d = 0; d < rank; ++d) {
      int64_t a = shape[d], b = t.getDimSize(d);
      if (d == *axis) {
        auto sum = addChecked(err, a, b);
        if (failed(sum))
          return failure();
        shape[d] = *sum;
      } else if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) &&
                 a != b) {
        return err("operand #", i + 1, " shape ", fmtShape(t.getShape()),
                   " differs from operand #0 shape ",
                   fmtShape(first.getShape()), " in non-concat dimension ", d);
      } else if (ShapedType::isDynamic(a)) {
        shape[d] = b;
      }
    }
  }
  return pushTensor(err, shape, first.getElementType(), out);
}

LogicalResult SplitOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<SplitOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto input = asRanked(adaptor.getInput().getType());
  if (!input)
    return err("operand 'input' must be a ranked tensor");
  auto axis = normalizeAxis(err, "axis", adaptor.getAxis(), input.getRank());
  if (failed(axis))
    return failure();
  ArrayRef<int64_t> sizes = adaptor.getSplitSizes();
  if (sizes.empty())
    return err("attribute 'split_sizes' must not be empty");
  if (failed(checkNonNegative(err, "split_sizes", sizes)))
    return failure();
  int64_t total = 0;
  for (int64_t s : sizes)
    total += s;
  int64_t dim = input.getDimSize(*axis);
  if (!ShapedType::isDynamic(dim) && total != dim)
    return err("attribute 'split_sizes' ", fmtShape(sizes), " sums to ", total,
               " but dimension ", *axis, " has size ", dim);
  for (int64_t s : sizes) {
    SmallVector<int64_t> shape(input.getShape());
    shape[*axis] = s;
    out.push_back(RankedTensorType::get(shape, input.getElementType()));
  }
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<SliceOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto input = asRanked(adaptor.getInput().getType());
  if (!input)
    return err("operand 'input' must be a ranked tensor");
  int64_t rank = input.getRank();
  ArrayRef<int64_t> starts = adaptor.getStarts(), ends = adaptor.getEnds();
  size_t n = starts.size();
  if (ends.size() != n)
    return err("attributes 'starts' (", n, ") and 'ends' (", ends.size(),
               ") must have the same number of elements");
  SmallVector<int64_t> axes(adaptor.getAxes()), steps(adaptor.getSteps());
  if (axes.empty())
    for (size_t i = 0; i < n; ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(n, 1);
  if (axes.size() != n || steps.size() != n)
    return err("attributes 'axes' and 'steps' must have as many elements as "
               "'starts' (",
               n, ")");
  SmallVector<int64_t> shape(input.getShape());
  SmallVector<bool> seen(rank, false);
  for (size_t i = 0; i < n; ++i) {
    auto axis = normalizeAxis(err, "axes", axes[i], rank);
    if (failed(axis))
      return failure();
    if (seen[*axis])
      return err("attribute 'axes' repeats axis ", axes[i]);
    seen[*axis] = true;
    int64_t step = steps[i];
    if (step == 0)
      return err("attribute 'steps' must not contain 0");
    int64_t d = shape[*axis];
    if (ShapedType::isDynamic(d))
      continue;
    auto clampIdx = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0)
        v = (v < -d) ? lo : v + d;
      return std::max(lo, std::min(hi, v));
    };
    int64_t s, e, len;
    if (step > 0) {
      s = clampIdx(starts[i], 0, d);
      e = clampIdx(ends[i], 0, d);
      len = e > s ? (e - s + step - 1) / step : 0;
    } else {
      // ONNX: a negative step clamps the start to [0, d-1] (a start below -d
      // is the first element) and the end to [-1, d-1].
      s = clampIdx(starts[i], 0, d - 1);
      e = ends[i] < -d ? -1 : clampIdx(ends[i], -1, d - 1);
      len = d > 0 && s > e ? (s - e + (-step) - 1) / (-step) : 0;
    }
    shape[*axis] = len;
  }
  return pushTensor(err, shape, input.getElementType(), out);
}

//===----------------------------------------------------------------------===//
// Tensor sizes, constant indices
//===----------------------------------------------------------------------===//

LogicalResult mlir::ge::detail::verifyTensorSizes(Operation *op) {
  auto check = [&](Type t, StringRef what, unsigned i) -> LogicalResult {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt)
      return success();
    Type elem = rt.getElementType();
    uint64_t bytes = 1;
    if (elem.isIntOrFloat())
      bytes = std::max<uint64_t>(1, (elem.getIntOrFloatBitWidth() + 7) / 8);
    else if (isa<IndexType>(elem))
      bytes = 8;
    uint64_t total = bytes;
    bool overflow = false;
    for (int64_t d : rt.getShape()) {
      if (ShapedType::isDynamic(d) || d < 0)
        continue;
      if (d == 0)
        return success();
      if (total > static_cast<uint64_t>(INT64_MAX) / static_cast<uint64_t>(d))
        overflow = true;
      else
        total *= static_cast<uint64_t>(d);
    }
    if (overflow)
      return op->emitOpError() << what << " #" << i << " of type " << t
                               << " is too large: its size in bytes overflows int64";
    return success();
  };
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (failed(check(v.getType(), "operand", i)))
      return failure();
  for (auto [i, v] : llvm::enumerate(op->getResults()))
    if (failed(check(v.getType(), "result", i)))
      return failure();
  return success();
}

/// A constant `indices` operand must index inside [-d, d) of the indexed
/// axis (ONNX semantics; onnxruntime refuses the model otherwise).
static LogicalResult verifyConstantIndices(Operation *op, Value data,
                                           Value indices, int64_t axis) {
  auto dt = dyn_cast<RankedTensorType>(data.getType());
  if (!dt || dt.getRank() < 1)
    return success();
  if (axis < 0)
    axis += dt.getRank();
  if (axis < 0 || axis >= dt.getRank() || dt.isDynamicDim(axis))
    return success();
  DenseIntElementsAttr values;
  if (!matchPattern(indices, m_Constant(&values)))
    return success();
  int64_t d = dt.getDimSize(axis);
  int64_t pos = 0;
  for (const APInt &v : values.getValues<APInt>()) {
    int64_t x = v.getSExtValue();
    if (x < -d || x >= d)
      return op->emitOpError() << "constant index " << x << " (element " << pos
                               << " of 'indices') is out of range [" << -d
                               << ", " << d << ") of axis " << axis
                               << " of 'data' " << dt;
    if (values.isSplat())
      break;
    ++pos;
  }
  return success();
}

LogicalResult GatherOp::verify() {
  return verifyConstantIndices(*this, getData(), getIndices(), getAxis());
}

LogicalResult GatherElementsOp::verify() {
  return verifyConstantIndices(*this, getData(), getIndices(), getAxis());
}

LogicalResult ScatterElementsOp::verify() {
  return verifyConstantIndices(*this, getData(), getIndices(), getAxis());
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<GatherOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto data = asRanked(adaptor.getData().getType());
  auto indices = asRanked(adaptor.getIndices().getType());
  if (!data || !indices)
    return err("operands must be ranked tensors");
  if (data.getRank() < 1)
    return err("operand 'data' must have rank >= 1");
  auto axis = normalizeAxis(err, "axis", adaptor.getAxis(), data.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(data.getShape().take_front(*axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, data.getShape().drop_front(*axis + 1));
  return pushTensor(err, shape, data.getElementType(), out);
}

LogicalResult GatherElementsOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<GatherElementsOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto data = asRanked(adaptor.getData().getType());
  auto indices = asRanked(adaptor.getIndices().getType());
  if (!data || !indices)
    return err("operands must be ranked tensors");
  if (data.getRank() != indices.getRank() || data.getRank() < 1)
    return err("operands 'data' (rank ", data.getRank(), ") and 'indices' (rank ",
               indices.getRank(), ") must have the same rank >= 1");
  if (failed(normalizeAxis(err, "axis", adaptor.getAxis(), data.getRank())))
    return failure();
  out.push_back(
      RankedTensorType::get(indices.getShape(), data.getElementType()));
  return success();
}

LogicalResult ScatterElementsOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<ScatterElementsOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto data = asRanked(adaptor.getData().getType());
  auto indices = asRanked(adaptor.getIndices().getType());
  auto updates = asRanked(adaptor.getUpdates().getType());
  if (!data || !indices || !updates)
    return err("operands must be ranked tensors");
  if (failed(checkSameElementType(err, "data", data, "updates", updates)))
    return failure();
  if (data.getRank() != indices.getRank() || data.getRank() < 1)
    return err("operands 'data' and 'indices' must have the same rank >= 1");
  if (failed(verifyCompatibleShape(indices.getShape(), updates.getShape())))
    return err("operands 'indices' ", fmtShape(indices.getShape()),
               " and 'updates' ", fmtShape(updates.getShape()),
               " must have the same shape");
  if (failed(normalizeAxis(err, "axis", adaptor.getAxis(), data.getRank())))
    return failure();
  out.push_back(data);
  return success();
}

LogicalResult ExpandOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<ExpandOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto input = asRanked(adaptor.getInput().getType());
  if (!input)
    return err("operand 'input' must be a ranked tensor");
  if (failed(checkNonNegative(err, "shape", adaptor.getShape())))
    return failure();
  SmallVector<int64_t> shape;
  if (failed(broadcastPair(err, input.getShape(), adaptor.getShape(), shape,
                           "operand 'input' and attribute 'shape'")))
    return failure();
  return pushTensor(err, shape, input.getElementType(), out);
}

LogicalResult SqueezeOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<SqueezeOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto input = asRanked(adaptor.getInput().getType());
  if (!input)
    return err("operand 'input' must be a ranked tensor");
  int64_t rank = input.getRank();
  SmallVector<bool> drop(rank, false);
  if (adaptor.getAxes().empty()) {
    for (int64_t i = 0; i < rank; ++i) {
      if (input.isDynamicDim(i))
        return err("cannot squeeze dynamic dimension ", i,
                   " without explicit 'axes'");
      drop[i] = input.getDimSize(i) == 1;
    }
  }
  for (int64_t a : adaptor.getAxes()) {
    auto n = normalizeAxis(err, "axes", a, rank);
    if (failed(n))
      return failure();
    if (drop[*n])
      return err("attribute 'axes' repeats axis ", a);
    int64_t d = input.getDimSize(*n);
    if (!ShapedType::isDynamic(d) && d != 1)
      return err("cannot squeeze dimension ", *n, " of size ", d,
                 " (only size-1 dimensions)");
    drop[*n] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i)
    if (!drop[i])
      shape.push_back(input.getDimSize(i));
  return pushTensor(err, shape, input.getElementType(), out);
}

LogicalResult UnsqueezeOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<UnsqueezeOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto input = asRanked(adaptor.getInput().getType());
  if (!input)
    return err("operand 'input' must be a ranked tensor");
  int64_t outRank = input.getRank() + adaptor.getAxes().size();
  SmallVector<bool> inserted(outRank, false);
  for (int64_t a : adaptor.getAxes()) {
    auto n = normalizeAxis(err, "axes", a, outRank);
    if (failed(n))
      return failure();
    if (inserted[*n])
      return err("attribute 'axes' repeats axis ", a);
    inserted[*n] = true;
  }
  SmallVector<int64_t> shape;
  int64_t next = 0;
  for (int64_t i = 0; i < outRank; ++i)
    shape.push_back(inserted[i] ? 1 : input.getDimSize(next++));
  return pushTensor(err, shape, input.getElementType(), out);
}

LogicalResult FlattenOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<FlattenOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto input = asRanked(adaptor.getInput().getType());
  if (!input)
    return err("operand 'input' must be a ranked tensor");
  int64_t rank = input.getRank(), axis = adaptor.getAxis();
  if (axis < -rank || axis > rank)
    return err("attribute 'axis' value ", axis, " is out of range for rank ",
               rank, " (expected [", -rank, ", ", rank, "])");
  if (axis < 0)
    axis += rank;
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t &acc = i < axis ? outer : inner;
    auto m = mulChecked(err, acc, input.getDimSize(i));
    if (failed(m))
      return failure();
    acc = *m;
  }
  return pushTensor(err, {outer, inner}, input.getElementType(), out);
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<PadOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto input = asRanked(adaptor.getInput().getType());
  if (!input)
    return err("operand 'input' must be a ranked tensor");
  int64_t rank = input.getRank();
  ArrayRef<int64_t> pads = adaptor.getPads();
  if (failed(checkArraySize(err, "pads", pads, 2 * rank)))
    return failure();
  SmallVector<int64_t> shape(input.getShape());
  for (int64_t i = 0; i < rank; ++i) {
    if (ShapedType::isDynamic(shape[i]))
      continue;
    bool reflect = adaptor.getMode() == PadMode::reflect;
    if (reflect && (pads[i] >= shape[i] || pads[i + rank] >= shape[i]))
      return err("reflect padding of dimension ", i, " (size ", shape[i],
                 ") must be smaller than the dimension, got ",
                 fmtShape(pads));
    auto a = addChecked(err, pads[i], pads[i + rank]);
    auto b = succeeded(a) ? addChecked(err, shape[i], *a) : a;
    if (failed(b))
      return failure();
    shape[i] = *b;
    if (shape[i] < 0)
      return err("attribute 'pads' ", fmtShape(pads),
                 " removes more than dimension ", i, " holds");
  }
  return pushTensor(err, shape, input.getElementType(), out);
}

LogicalResult TileOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<TileOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto input = asRanked(adaptor.getInput().getType());
  if (!input)
    return err("operand 'input' must be a ranked tensor");
  ArrayRef<int64_t> repeats = adaptor.getRepeats();
  if (failed(checkArraySize(err, "repeats", repeats, input.getRank())) ||
      failed(checkNonNegative(err, "repeats", repeats)))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [d, r] : llvm::zip(input.getShape(), repeats)) {
    auto m = mulChecked(err, d, r);
    if (failed(m))
      return failure();
    shape.push_back(*m);
  }
  return pushTensor(err, shape, input.getElementType(), out);
}

static std::pair<int64_t, int64_t> shapeRange(int64_t rank, int64_t start,
                                              std::optional<int64_t> end) {
  auto clampDim = [&](int64_t v) {
    if (v < 0)
      v += rank;
    return std::max<int64_t>(0, std::min(rank, v));
  };
  int64_t s = clampDim(start), e = end ? clampDim(*end) : rank;
  return {s, std::max(s, e)};
}

LogicalResult ShapeOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<ShapeOp>(ctx, rawAdaptor, props);
  auto input = asRanked(adaptor.getInput().getType());
  if (!input)
    return OpError{loc, getOperationName()}(
        "operand 'input' must be a ranked tensor");
  auto [s, e] = shapeRange(input.getRank(), adaptor.getStart(),
                           adaptor.getEnd());
  return pushTensor(OpError{loc, getOperationName()}, {e - s},
                    IntegerType::get(ctx, 64), out);
}

OpFoldResult ShapeOp::fold(FoldAdaptor) {
  auto input = cast<RankedTensorType>(getInput().getType());
  auto [s, e] = shapeRange(input.getRank(), getStart(), getEnd());
  ArrayRef<int64_t> dims = input.getShape().slice(s, e - s);
  if (llvm::any_of(dims, ShapedType::isDynamic))
    return {};
  return DenseIntElementsAttr::get(cast<ShapedType>(getType()), dims);
}

/// A run-time shape operand: 1-D i64 of static length, one size per result dim.
static LogicalResult verifyShapeOperand(Operation *op, RankedTensorType shape, RankedTensorType res) {
  if (shape.getRank() != 1 || shape.isDynamicDim(0))
    return op->emitOpError("operand 'shape' must be 1-D with a static length, got ") << shape;
  if (shape.getDimSize(0) != res.getRank())
    return op->emitOpError("operand 'shape' has ")
           << shape.getDimSize(0) << " sizes for a result of rank " << res.getRank();
  return success();
}

LogicalResult DynamicReshapeOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto shape = cast<RankedTensorType>(getShape().getType());
  auto res = cast<RankedTensorType>(getOutput().getType());
  if (in.getElementType() != res.getElementType())
    return emitOpError("result element type ")
           << res.getElementType() << " differs from operand 'input' element type "
           << in.getElementType();
  return verifyShapeOperand(getOperation(), shape, res);
}

LogicalResult FillOp::verify() {
  auto value = cast<RankedTensorType>(getValue().getType());
  auto shape = cast<RankedTensorType>(getShape().getType());
  auto res = cast<RankedTensorType>(getOutput().getType());
  // "One element" without getNumElements, which asserts on overflow.
  if (!value.hasStaticShape() || !llvm::all_of(value.getShape(), [](int64_t d) { return d == 1; }))
    return emitOpError("operand 'value' must have one element, got ") << value;
  if (value.getElementType() != res.getElementType())
    return emitOpError("operand 'value' element type ")
           << value.getElementType() << " differs from the result element type "
           << res.getElementType();
  return verifyShapeOperand(getOperation(), shape, res);
}

LogicalResult RangeOp::verify() {
  const StringRef names[] = {"start", "limit", "delta"};
  const Value values[] = {getStart(), getLimit(), getDelta()};
  for (auto [name, v] : llvm::zip(names, values)) {
    auto t = cast<RankedTensorType>(v.getType());
    // "One element" without getNumElements, which asserts on overflow.
    if (t.hasStaticShape() && !llvm::all_of(t.getShape(), [](int64_t d) { return d == 1; }))
      return emitOpError("operand '") << name << "' must be a scalar, got "
                                      << t;
    if (t.getElementType() != getType().getElementType())
      return emitOpError("operand '")
             << name << "' element type " << t.getElementType()
             << " differs from the result element type "
             << getType().getElementType();
  }
  if (getType().getRank() != 1)
    return emitOpError("result must be 1-D, got ") << getType();
  return success();
}

LogicalResult OneHotOp::verify() {
  auto indices = cast<RankedTensorType>(getIndices().getType());
  auto res = cast<RankedTensorType>(getOutput().getType());
  if (getDepth() <= 0)
    return emitOpError("attribute 'depth' must be positive, got ") << getDepth();
  int64_t outRank = indices.getRank() + 1;
  if (res.getRank() != outRank)
    return emitOpError("result rank ")
           << res.getRank() << " must be the indices rank plus one ("
           << outRank << ")";
  int64_t axis = getAxis();
  if (axis < -outRank || axis >= outRank)
    return emitOpError("attribute 'axis' value ")
           << axis << " is out of range for result rank " << outRank;
  if (axis < 0)
    axis += outRank;
  SmallVector<int64_t> expected(indices.getShape());
  expected.insert(expected.begin() + axis, getDepth());
  if (failed(verifyCompatibleShape(expected, res.getShape())))
    return emitOpError("result shape ")
           << fmtShape(res.getShape()) << " differs from the expected "
           << fmtShape(expected);
  return success();
}

LogicalResult TopKOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<TopKOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto input = asRanked(adaptor.getInput().getType());
  if (!input || input.getRank() < 1)
    return err("operand 'input' must be a tensor of rank >= 1");
  auto axis = normalizeAxis(err, "axis", adaptor.getAxis(), input.getRank());
  if (failed(axis))
    return failure();
  int64_t k = adaptor.getK();
  int64_t d = input.getDimSize(*axis);
  if (k < 0 || (!ShapedType::isDynamic(d) && k > d))
    return err("attribute 'k' (", k, ") must be in [0, ", d,
               "] (the size of dimension ", *axis, ")");
  SmallVector<int64_t> shape(input.getShape());
  shape[*axis] = k;
  out.push_back(RankedTensorType::get(shape, input.getElementType()));
  return pushTensor(err, shape, IntegerType::get(ctx, 64), out);
}

//===----------------------------------------------------------------------===//
// TransDataOp
//===----------------------------------------------------------------------===//

/// Letters of the plain 4-D formats, for permutation between them.
static std::optional<StringRef> plainLetters(DataFormat f) {
  switch (f) {
  case DataFormat::NCHW:
    return StringRef("NCHW");
  case DataFormat::NHWC:
    return StringRef("NHWC");
  case DataFormat::HWCN:
    return StringRef("HWCN");
  default:
    return std::nullopt;
  }
}

static int64_t ceilDivDim(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) ? kDyn : (a + b - 1) / b;
}

LogicalResult TransDataOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
    Adaptor rawAdaptor, SmallVectorImpl<Type> &out) {
  Properties props;
  Adaptor adaptor = detail::withDefaults<TransDataOp>(ctx, rawAdaptor, props);
  OpError err{loc, getOperationName()};
  auto input = asRanked(adaptor.getInput().getType());
  if (!input)
    return err("operand 'input' must be a ranked tensor");
  DataFormat src = adaptor.getSrcFormat();
  DataFormat dst = adaptor.getDstFormat();
  Type elem = input.getElementType();
  if (!elem.isIntOrFloat())
    return err("operand 'input' must have an integer or float element type");
  int64_t c0 = detail::getC0(elem);
  ArrayRef<int64_t> in = input.getShape();
  std::optional<ArrayRef<int64_t>> original = adaptor.getOriginalShape();
  auto unsupported = [&]() {
    return err("conversion from ", stringifyDataFormat(src), " to ",
               stringifyDataFormat(dst), " is not supported");
  };
  auto need4D = [&]() -> LogicalResult {
    if (input.getRank() != 4)
      return err("operand 'input' must be 4-D for format ",
                 stringifyDataFormat(src), ", got rank ", input.getRank());
    return success();
  };
  if (original && llvm::any_of(*original, [](int64_t d) { return d < 0; }))
    return err("attribute 'original_shape' ", fmtShape(*original),
               " must not contain negative sizes");
  SmallVector<int64_t> shape;
  if (src == dst) {
    if (plainLetters(src) && failed(need4D()))
      return failure();
    if (src == DataFormat::NC1HWC0 && (input.getRank() != 5 || in[4] != c0))
      return err("operand 'input' must be [N, C1, H, W, ", c0,
                 "] for format NC1HWC0");
    if (src == DataFormat::FRACTAL_NZ &&
        (input.getRank() < 4 || in[input.getRank() - 2] != 16 ||
         in[input.getRank() - 1] != c0))
      return err("operand 'input' must end in a [16, ", c0,
                 "] fractal for format FRACTAL_NZ");
    shape.assign(in.begin(), in.end());
  } else if (plainLetters(src) && plainLetters(dst)) {
    if (failed(need4D()))
      return failure();
    StringRef s = *plainLetters(src), d = *plainLetters(dst);
    for (char ch : d)
      shape.push_back(in[s.find(ch)]);
  } else if (plainLetters(src) && dst == DataFormat::NC1HWC0) {
    if (failed(need4D()))
      return failure();
    StringRef s = *plainLetters(src);
    int64_t c = in[s.find('C')];
    shape = {in[s.find('N')], ceilDivDim(c, c0), in[s.find('H')],
             in[s.find('W')], c0};
  } else if (src == DataFormat::NC1HWC0 && plainLetters(dst)) {
    if (input.getRank() != 5)
      return err("operand 'input' must be 5-D [N, C1, H, W, C0] for format "
                 "NC1HWC0, got rank ",
                 input.getRank());
    if (in[4] != c0)
      return err("operand 'input' C0 dimension is ", in[4], ", expected ", c0,
                 " (32 bytes of ", elem, ")");
    int64_t c = mulDims(in[1], c0);
    StringRef d = *plainLetters(dst);
    SmallVector<int64_t> nchw{in[0], c, in[2], in[3]};
    if (original) {
      if (original->size() != 4)
        return err("attribute 'original_shape' must have 4 elements");
      StringRef letters = *plainLetters(dst);
      for (int i = 0; i < 4; ++i)
        nchw[StringRef("NCHW").find(letters[i])] = (*original)[i];
      int64_t oc = nchw[1];
      if (!ShapedType::isDynamic(in[1]) &&
          (oc <= (in[1] - 1) * c0 || oc > in[1] * c0))
        return err("attribute 'original_shape' has ", oc,
                   " channels, which do not fit C1 = ", in[1]);
      const int64_t expect[] = {in[0], oc, in[2], in[3]};
      for (int i : {0, 2, 3})
        if (!ShapedType::isDynamic(expect[i]) && nchw[i] != expect[i])
          return err("attribute 'original_shape' ", fmtShape(*original),
                     " contradicts the input's N, H, W ",
                     fmtShape({in[0], in[2], in[3]}));
    }
    for (char ch : d)
      shape.push_back(nchw[StringRef("NCHW").find(ch)]);
  } else if (src == DataFormat::ND && dst == DataFormat::FRACTAL_NZ) {
    if (input.getRank() < 2)
      return err("operand 'input' must have rank >= 2 for FRACTAL_NZ");
    shape.assign(in.begin(), in.end() - 2);
    int64_t m = in[in.size() - 2], n = in.back();
    llvm::append_range(shape, SmallVector<int64_t>{ceilDivDim(n, c0),
                                                   ceilDivDim(m, 16), 16, c0});
  } else if (src == DataFormat::FRACTAL_NZ && dst == DataFormat::ND) {
    if (input.getRank() < 4)
      return err("operand 'input' must have rank >= 4 for FRACTAL_NZ");
    size_t r = in.size();
    if (in[r - 2] != 16 || in[r - 1] != c0)
      return err("operand 'input' fractal must be [16, ", c0, "], got [",
                 in[r - 2], ", ", in[r - 1], "]");
    shape.assign(in.begin(), in.end() - 4);
    int64_t m = mulDims(in[r - 3], 16), n = mulDims(in[r - 4], c0);
    if (original) {
      if (original->size() != r - 2)
        return err("attribute 'original_shape' must have ", r - 2,
                   " elements");
      for (size_t i = 0; i + 4 < r; ++i)
        if (!ShapedType::isDynamic(in[i]) && (*original)[i] != in[i])
          return err("attribute 'original_shape' ", fmtShape(*original),
                     " contradicts the input's batch dims");
      int64_t om = (*original)[r - 4], on = (*original)[r - 3];
      if ((!ShapedType::isDynamic(m) && om > m) ||
          (!ShapedType::isDynamic(n) && on > n))
        return err("attribute 'original_shape' [", om, ", ", on,
                   "] does not fit the fractal's [", m, ", ", n, "]");
      m = om;
      n = on;
    }
    shape.push_back(m);
    shape.push_back(n);
  } else {
    return unsupported();
  }
  return pushTensor(err, shape, elem, out);
}

OpFoldResult TransDataOp::fold(FoldAdaptor) {
  if (getSrcFormat() == getDstFormat() && getInput().getType() == getType())
    return getInput();
  if (auto producer = getInput().getDefiningOp<TransDataOp>())
    if (producer.getSrcFormat() == getDstFormat() &&
        producer.getInput().getType() == getType())
      return producer.getInput();
  return {};
}

#define GET_OP_CLASSES
#include "ge-mlir/Dialect/Ge/GeOps.cpp.inc"
