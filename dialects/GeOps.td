//===- GeOps.td - ge dialect operations ---------------------*- tablegen -*-===//
//
// Conventions:
//  * every op is Pure (value semantics); collectives with side effects come
//    with the partitioning work;
//  * ops whose result types follow from operands and attributes implement
//    InferTypeOpInterface, so builders need no result types and the verifier
//    checks declared result types against the inferred ones (dynamic `?` dims
//    are compatible with any static size);
//  * multi-operand ops print as `ge.op %a, %b {attrs} : (T0, T1) -> R`,
//    elementwise unary ops as `ge.op %x : T`.
//
//===----------------------------------------------------------------------===//

#ifndef GE_OPS_TD
#define GE_OPS_TD

include "GeBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

// Every tensor type of a ge op has a byte size (element count x element
// size) that fits in int64: larger types would reach MLIR's strided-layout
// computations, which abort the process on the overflow.
def GE_SizeCheckedTensors : NativeOpTrait<"SizeCheckedTensors"> {
  let cppNamespace = "::mlir::ge::OpTrait";
}

class GE_Op<string mnemonic, list<Trait> traits = []>
    : Op<Ge_Dialect, mnemonic, !listconcat([Pure, GE_SizeCheckedTensors], traits)>;

// Declared result types may refine inferred ones (a static size for `?`).
defvar GE_CompatDef = [{
  bool $cppClass::isCompatibleReturnTypes(::mlir::TypeRange l, ::mlir::TypeRange r) {
    return ::mlir::ge::detail::areCompatibleTypes(l, r);
  }
}];

// Result types inferred by a C++ `inferReturnTypes` in lib/Ge/GeOps.cpp.
class GE_InferOp<string mnemonic, list<Trait> traits = []>
    : GE_Op<mnemonic, !listconcat(traits, [InferTypeOpAdaptorWithIsCompatible])> {
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = GE_CompatDef;
}

// Result type is the type of operand `input` (normalizations).
class GE_SameAsInputOp<string mnemonic, list<Trait> traits = []>
    : GE_InferOp<mnemonic, traits> {
  let extraClassDefinition = GE_CompatDef # [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location>,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &out) {
      out.push_back(adaptor.getInput().getType());
      return ::mlir::success();
    }
  }];
}

// Ops whose result type cannot be derived (reshape target, cast type, ...).
class GE_ExplicitOp<string mnemonic, list<Trait> traits = []>
    : GE_Op<mnemonic, traits> {
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def GE_ConstantOp : GE_Op<"constant", [ConstantLike,
    InferTypeOpAdaptorWithIsCompatible,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "constant tensor (dense elements or a dense_resource blob)";
  let description = [{
    Large weights are stored as `dense_resource<name>` blobs so that the IR
    text stays small; small constants use `dense<...>`.

    ```mlir
    %w = ge.constant dense<1.0> : tensor<4x4xf32>
    %b = ge.constant dense_resource<conv1_weight> : tensor<64x3x7x7xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs GE_Tensor:$output);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
  let extraClassDefinition = GE_CompatDef;
}

//===----------------------------------------------------------------------===//
// Elementwise unary
//===----------------------------------------------------------------------===//

class GE_UnaryOp<string mnemonic, Type type = GE_NumericTensor,
                 list<Trait> traits = []>
    : GE_Op<mnemonic, !listconcat(traits,
        [SameOperandsAndResultType, InferTypeOpInterface])> {
  let summary = "elementwise " # mnemonic;
  let arguments = (ins type:$input);
  let results = (outs type:$output);
  let assemblyFormat = "$input attr-dict `:` type($output)";
}

def GE_AbsOp : GE_UnaryOp<"abs">;
def GE_NegOp : GE_UnaryOp<"neg">;
def GE_ExpOp : GE_UnaryOp<"exp", GE_FloatTensor>;
def GE_LogOp : GE_UnaryOp<"log", GE_FloatTensor>;
def GE_SqrtOp : GE_UnaryOp<"sqrt", GE_FloatTensor>;
def GE_RsqrtOp : GE_UnaryOp<"rsqrt", GE_FloatTensor>;
def GE_ReciprocalOp : GE_UnaryOp<"reciprocal", GE_FloatTensor>;
def GE_TanhOp : GE_UnaryOp<"tanh", GE_FloatTensor>;
def GE_SigmoidOp : GE_UnaryOp<"sigmoid", GE_FloatTensor>;
def GE_ReluOp : GE_UnaryOp<"relu">;
def GE_LeakyReluOp : GE_UnaryOp<"leaky_relu", GE_FloatTensor> {
  let arguments = (ins GE_FloatTensor:$input,
                       DefaultValuedAttr<F32Attr, "0.01f">:$alpha);
}
def GE_GeluOp : GE_UnaryOp<"gelu", GE_FloatTensor> {
  let description = [{
    `x * Phi(x)`; with `tanh_approx` the tanh approximation of ONNX Gelu
    (approximate = "tanh").
  }];
  let arguments = (ins GE_FloatTensor:$input,
                       DefaultValuedAttr<BoolAttr, "false">:$tanh_approx);
}
def GE_ErfOp : GE_UnaryOp<"erf", GE_FloatTensor>;
def GE_SinOp : GE_UnaryOp<"sin", GE_FloatTensor>;
def GE_CosOp : GE_UnaryOp<"cos", GE_FloatTensor>;
def GE_AcosOp : GE_UnaryOp<"acos", GE_FloatTensor>;
def GE_AsinOp : GE_UnaryOp<"asin", GE_FloatTensor>;
def GE_AtanOp : GE_UnaryOp<"atan", GE_FloatTensor>;
def GE_FloorOp : GE_UnaryOp<"floor", GE_FloatTensor>;
def GE_CeilOp : GE_UnaryOp<"ceil", GE_FloatTensor>;
def GE_RoundOp : GE_UnaryOp<"round", GE_FloatTensor> {
  let description = "Round half to even, as ONNX Round.";
}
def GE_SignOp : GE_UnaryOp<"sign">;
def GE_NotOp : GE_UnaryOp<"not", GE_BoolTensor>;
def GE_BitwiseNotOp : GE_UnaryOp<"bitwise_not", GE_IntegerTensor>;
def GE_SoftplusOp : GE_UnaryOp<"softplus", GE_FloatTensor>;
def GE_HardSigmoidOp : GE_UnaryOp<"hard_sigmoid", GE_FloatTensor> {
  let description = "`max(0, min(1, alpha * x + beta))`.";
  let arguments = (ins GE_FloatTensor:$input,
                       DefaultValuedAttr<F32Attr, "0.2f">:$alpha,
                       DefaultValuedAttr<F32Attr, "0.5f">:$beta);
}
def GE_HardSwishOp : GE_UnaryOp<"hard_swish", GE_FloatTensor>;
def GE_SiluOp : GE_UnaryOp<"silu", GE_FloatTensor>;
def GE_IdentityOp : GE_UnaryOp<"identity", GE_Tensor> {
  let summary = "identity (also the inference form of dropout)";
  let hasFolder = 1;
}
def GE_ClipOp : GE_UnaryOp<"clip"> {
  let summary = "clamp to [min, max]; a missing bound is unbounded";
  let arguments = (ins GE_NumericTensor:$input,
                       OptionalAttr<F64Attr>:$min,
                       OptionalAttr<F64Attr>:$max);
  let hasVerifier = 1;
}
def GE_CumSumOp : GE_UnaryOp<"cumsum"> {
  let summary = "cumulative sum along an axis";
  let arguments = (ins GE_NumericTensor:$input,
                       I64Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$exclusive,
                       DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let hasVerifier = 1;
}
def GE_CumProdOp : GE_UnaryOp<"cumprod"> {
  let summary = "cumulative product along an axis";
  let arguments = (ins GE_NumericTensor:$input,
                       I64Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$exclusive,
                       DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let hasVerifier = 1;
}
def GE_SoftmaxOp : GE_UnaryOp<"softmax", GE_FloatTensor> {
  let summary = "softmax along an axis";
  let arguments = (ins GE_FloatTensor:$input,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let hasVerifier = 1;
}
def GE_LogSoftmaxOp : GE_UnaryOp<"log_softmax", GE_FloatTensor> {
  let summary = "log of softmax along an axis";
  let arguments = (ins GE_FloatTensor:$input,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let hasVerifier = 1;
}

def GE_CastOp : GE_ExplicitOp<"cast"> {
  let summary = "element type conversion (ONNX Cast semantics)";
  let arguments = (ins GE_ScalarTensor:$input);
  let results = (outs GE_ScalarTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($output)";
  let hasFolder = 1;
}

def GE_BitcastOp : GE_ExplicitOp<"bitcast"> {
  let summary = "each element's bits as another type of the same width (ONNX BitCast)";
  let description = [{
    Reinterprets the bits of every element, keeping the shape. Both element
    types must have the same storage width, an `i1` counting as the byte that
    stores it (`0` or `1`); a byte read as `i1` is true when it is not zero.
  }];
  let arguments = (ins GE_ScalarTensor:$input);
  let results = (outs GE_ScalarTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($output)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise binary with numpy broadcasting
//===----------------------------------------------------------------------===//

class GE_BinaryOp<string mnemonic, Type operandType, Type resultType,
                  string isCompare = "false", list<Trait> traits = []>
    : GE_Op<mnemonic, !listconcat(traits, [InferTypeOpAdaptorWithIsCompatible])> {
  let summary = "elementwise " # mnemonic # " with numpy broadcasting";
  let arguments = (ins operandType:$lhs, operandType:$rhs);
  let results = (outs resultType:$output);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let extraClassDefinition = GE_CompatDef # [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *ctx, std::optional<::mlir::Location> loc,
        Adaptor rawAdaptor, ::llvm::SmallVectorImpl<::mlir::Type> &out) {
      Properties props;
      Adaptor adaptor = ::mlir::ge::detail::withDefaults<$cppClass>(ctx, rawAdaptor, props);
      return ::mlir::ge::detail::inferBroadcastResult(ctx, loc,
          getOperationName(), adaptor.getOperands(), }] # isCompare # [{, out);
    }
  }];
}

def GE_AddOp : GE_BinaryOp<"add", GE_NumericTensor, GE_NumericTensor, "false", [Commutative]>;
def GE_SubOp : GE_BinaryOp<"sub", GE_NumericTensor, GE_NumericTensor>;
def GE_MulOp : GE_BinaryOp<"mul", GE_NumericTensor, GE_NumericTensor, "false", [Commutative]>;
def GE_DivOp : GE_BinaryOp<"div", GE_NumericTensor, GE_NumericTensor>;
def GE_PowOp : GE_BinaryOp<"pow", GE_NumericTensor, GE_NumericTensor>;
def GE_MaxOp : GE_BinaryOp<"max", GE_NumericTensor, GE_NumericTensor, "false", [Commutative]>;
def GE_MinOp : GE_BinaryOp<"min", GE_NumericTensor, GE_NumericTensor, "false", [Commutative]>;
def GE_ModOp : GE_BinaryOp<"mod", GE_NumericTensor, GE_NumericTensor> {
  let description = "Integer mod follows the divisor's sign unless `fmod`; float mod is fmod.";
  let arguments = (ins GE_NumericTensor:$lhs, GE_NumericTensor:$rhs,
                       DefaultValuedAttr<BoolAttr, "false">:$fmod);
}
def GE_AndOp : GE_BinaryOp<"and", GE_BoolTensor, GE_BoolTensor, "false", [Commutative]>;
def GE_OrOp : GE_BinaryOp<"or", GE_BoolTensor, GE_BoolTensor, "false", [Commutative]>;
def GE_XorOp : GE_BinaryOp<"xor", GE_BoolTensor, GE_BoolTensor, "false", [Commutative]>;
def GE_BitwiseAndOp : GE_BinaryOp<"bitwise_and", GE_IntegerTensor, GE_IntegerTensor, "false", [Commutative]>;
def GE_BitwiseOrOp : GE_BinaryOp<"bitwise_or", GE_IntegerTensor, GE_IntegerTensor, "false", [Commutative]>;
def GE_BitwiseXorOp : GE_BinaryOp<"bitwise_xor", GE_IntegerTensor, GE_IntegerTensor, "false", [Commutative]>;
def GE_BitShiftOp : GE_BinaryOp<"bit_shift", GE_IntegerTensor, GE_IntegerTensor> {
  let description = [{
    `lhs` shifted by `rhs` bits, left or (`right`) right; a signed right shift is arithmetic.
    A shift that is negative or not less than the bit width gives what the sign fill alone gives
    (-1 for a right shift of a negative value, else 0), as ONNX BitShift specifies.
  }];
  let arguments = (ins GE_IntegerTensor:$lhs, GE_IntegerTensor:$rhs,
                       DefaultValuedAttr<BoolAttr, "false">:$right);
}
def GE_EqualOp : GE_BinaryOp<"equal", GE_Tensor, GE_BoolTensor, "true", [Commutative]>;
def GE_LessOp : GE_BinaryOp<"less", GE_NumericTensor, GE_BoolTensor, "true">;
def GE_LessEqualOp : GE_BinaryOp<"less_equal", GE_NumericTensor, GE_BoolTensor, "true">;
def GE_GreaterOp : GE_BinaryOp<"greater", GE_NumericTensor, GE_BoolTensor, "true">;
def GE_GreaterEqualOp : GE_BinaryOp<"greater_equal", GE_NumericTensor, GE_BoolTensor, "true">;

def GE_WhereOp : GE_InferOp<"where"> {
  let summary = "select x where condition else y, with broadcasting";
  let arguments = (ins GE_BoolTensor:$condition, GE_Tensor:$x, GE_Tensor:$y);
  let results = (outs GE_Tensor:$output);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class GE_ReduceOp<string mnemonic, Type type = GE_NumericTensor>
    : GE_InferOp<mnemonic> {
  let summary = mnemonic # " over `axes` (empty: all axes)";
  let arguments = (ins type:$input,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$axes,
                       DefaultValuedAttr<BoolAttr, "true">:$keepdims);
  let results = (outs type:$output);
  let extraClassDefinition = GE_CompatDef # [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *ctx, std::optional<::mlir::Location> loc,
        Adaptor rawAdaptor, ::llvm::SmallVectorImpl<::mlir::Type> &out) {
      Properties props;
      Adaptor adaptor = ::mlir::ge::detail::withDefaults<$cppClass>(ctx, rawAdaptor, props);
      return ::mlir::ge::detail::inferReduceResult(loc, getOperationName(),
          adaptor.getInput().getType(), adaptor.getAxes(),
          adaptor.getKeepdims(), ::mlir::Type(), out);
    }
  }];
}

def GE_ReduceSumOp : GE_ReduceOp<"reduce_sum">;
def GE_ReduceMeanOp : GE_ReduceOp<"reduce_mean">;
def GE_ReduceMaxOp : GE_ReduceOp<"reduce_max">;
def GE_ReduceMinOp : GE_ReduceOp<"reduce_min">;
def GE_ReduceProdOp : GE_ReduceOp<"reduce_prod">;
def GE_ReduceL2Op : GE_ReduceOp<"reduce_l2", GE_FloatTensor>;

class GE_ArgReduceOp<string mnemonic> : GE_InferOp<mnemonic> {
  let summary = "index of the " # mnemonic # " along `axis` (i64 result)";
  let arguments = (ins GE_NumericTensor:$input, I64Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "true">:$keepdims,
                       DefaultValuedAttr<BoolAttr, "false">:$select_last_index);
  let results = (outs RankedTensorOf<[I64]>:$output);
  let extraClassDefinition = GE_CompatDef # [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *ctx, std::optional<::mlir::Location> loc,
        Adaptor rawAdaptor, ::llvm::SmallVectorImpl<::mlir::Type> &out) {
      Properties props;
      Adaptor adaptor = ::mlir::ge::detail::withDefaults<$cppClass>(ctx, rawAdaptor, props);
      int64_t axis = adaptor.getAxis();
      return ::mlir::ge::detail::inferReduceResult(loc, getOperationName(),
          adaptor.getInput().getType(), ::llvm::ArrayRef<int64_t>(axis),
          adaptor.getKeepdims(), ::mlir::IntegerType::get(ctx, 64), out);
    }
  }];
}
def GE_ArgMaxOp : GE_ArgReduceOp<"argmax">;
def GE_ArgMinOp : GE_ArgReduceOp<"argmin">;

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

def GE_LayerNormOp : GE_SameAsInputOp<"layer_norm"> {
  let summary = "layer normalization over the axes [axis, rank)";
  let arguments = (ins GE_FloatTensor:$input, GE_FloatTensor:$scale,
                       Optional<GE_FloatTensor>:$bias,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<F32Attr, "1e-5f">:$epsilon);
  let results = (outs GE_FloatTensor:$output);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def GE_RmsNormOp : GE_SameAsInputOp<"rms_norm"> {
  let summary = "root-mean-square normalization over the axes [axis, rank)";
  let arguments = (ins GE_FloatTensor:$input, GE_FloatTensor:$scale,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<F32Attr, "1e-6f">:$epsilon);
  let results = (outs GE_FloatTensor:$output);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def GE_BatchNormOp : GE_SameAsInputOp<"batch_norm"> {
  let summary = "batch normalization, inference form (frozen statistics)";
  let description = [{
    `scale * (x - mean) / sqrt(var + epsilon) + bias` per channel (dimension 1
    for NCHW, the last dimension for NHWC). Training-mode batch norm has no
    representation here: the importer refuses it.
  }];
  let arguments = (ins GE_FloatTensor:$input, GE_FloatTensor:$scale,
                       GE_FloatTensor:$bias, GE_FloatTensor:$mean,
                       GE_FloatTensor:$variance,
                       DefaultValuedAttr<F32Attr, "1e-5f">:$epsilon,
                       DefaultValuedAttr<GE_DataFormatAttr, "::mlir::ge::DataFormat::NCHW">:$data_format);
  let results = (outs GE_FloatTensor:$output);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def GE_InstanceNormOp : GE_SameAsInputOp<"instance_norm"> {
  let summary = "instance normalization (per sample and channel)";
  let arguments = (ins GE_FloatTensor:$input, GE_FloatTensor:$scale,
                       GE_FloatTensor:$bias,
                       DefaultValuedAttr<F32Attr, "1e-5f">:$epsilon);
  let results = (outs GE_FloatTensor:$output);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Contractions and convolutions
//===----------------------------------------------------------------------===//

def GE_MatMulOp : GE_InferOp<"matmul"> {
  let summary = "numpy matmul (batched, broadcasting) with fused bias and activation";
  let description = [{
    `activation(lhs @ rhs + bias)`. Batch dimensions broadcast; 1-D operands
    follow numpy (prepended/appended 1 removed from the result). `bias`
    broadcasts to the result.
  }];
  let arguments = (ins GE_NumericTensor:$lhs, GE_NumericTensor:$rhs,
                       Optional<GE_NumericTensor>:$bias,
                       DefaultValuedAttr<GE_ActivationAttr, "::mlir::ge::Activation::none">:$activation,
                       OptionalAttr<F32Attr>:$activation_alpha);
  let results = (outs GE_NumericTensor:$output);
}

def GE_GemmOp : GE_InferOp<"gemm"> {
  let summary = "alpha * op(A) @ op(B) + beta * C, with fused activation";
  let arguments = (ins GE_NumericTensor:$a, GE_NumericTensor:$b,
                       Optional<GE_NumericTensor>:$c,
                       DefaultValuedAttr<F32Attr, "1.0f">:$alpha,
                       DefaultValuedAttr<F32Attr, "1.0f">:$beta,
                       DefaultValuedAttr<BoolAttr, "false">:$trans_a,
                       DefaultValuedAttr<BoolAttr, "false">:$trans_b,
                       DefaultValuedAttr<GE_ActivationAttr, "::mlir::ge::Activation::none">:$activation,
                       OptionalAttr<F32Attr>:$activation_alpha);
  let results = (outs GE_NumericTensor:$output);
}

def GE_Conv2DOp : GE_InferOp<"conv2d", [AttrSizedOperandSegments]> {
  let summary = "2-D convolution with fused bias, residual add and activation";
  let description = [{
    Input is `data_format` (NCHW or NHWC); the filter is always OIHW
    (`[C_out, C_in / groups, kH, kW]`). `pads` is `[top, left, bottom, right]`
    (ONNX order).

    `output = activation(conv(input, filter) + bias + residual)`: the
    optional `residual` has the result's type and is added before the
    activation (the residual connection of ResNet-style blocks, fused as
    onnxruntime's FusedConv does with its `Z` input).

    ```mlir
    %y = ge.conv2d %x, %w, %b residual(%skip) {activation = #ge.act<relu>}
        : (tensor<1x8x4x4xf32>, tensor<8x8x3x3xf32>, tensor<8xf32>, tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
    ```
  }];
  let arguments = (ins GE_FloatTensor:$input, GE_FloatTensor:$filter,
                       Optional<GE_FloatTensor>:$bias,
                       Optional<GE_FloatTensor>:$residual,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       DefaultValuedAttr<GE_DataFormatAttr, "::mlir::ge::DataFormat::NCHW">:$data_format,
                       DefaultValuedAttr<GE_ActivationAttr, "::mlir::ge::Activation::none">:$activation,
                       OptionalAttr<F32Attr>:$activation_alpha);
  let results = (outs GE_FloatTensor:$output);
  // `operands` cannot tell a bias from a residual, so the residual is keyed.
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? (`residual` `(` $residual^ `)`)? attr-dict
    `:` functional-type(operands, results)
  }];
}

def GE_ConvTranspose2DOp : GE_InferOp<"conv_transpose2d"> {
  let summary = "2-D transposed convolution";
  let description = [{
    Filter is `[C_in, C_out / groups, kH, kW]` (ONNX ConvTranspose). Output
    size per spatial dim: `stride * (in - 1) + output_padding +
    ((k - 1) * dilation + 1) - pad_begin - pad_end`.
  }];
  let arguments = (ins GE_FloatTensor:$input, GE_FloatTensor:$filter,
                       Optional<GE_FloatTensor>:$bias,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$output_padding,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       DefaultValuedAttr<GE_DataFormatAttr, "::mlir::ge::DataFormat::NCHW">:$data_format);
  let results = (outs GE_FloatTensor:$output);
}

// Training: gradients of conv2d. Their results are the shapes the attributes
// name (`input_size`, `filter_size`), as in GE; `out_backprop` must have the
// shape the forward ge.conv2d would produce. ge-decompose-gradient-ops
// rewrites them into ge.conv_transpose2d / ge.conv2d before fusion.

def GE_Conv2DBackpropInputOp : GE_InferOp<"conv2d_backprop_input"> {
  let summary = "gradient of ge.conv2d with respect to its input (GE Conv2DBackpropInput)";
  let description = [{
    NCHW. `filter` is the forward filter `[C_out, C_in / groups, kH, kW]`,
    `out_backprop` the gradient of the forward result `[N, C_out, OH, OW]`;
    `input_size` is the forward input's shape `[N, C_in, H, W]` and the
    result's. `strides`, `pads` (`[top, left, bottom, right]`), `dilations`
    and `groups` are the forward ge.conv2d's. Input rows and columns the
    forward windows never read (the floor of the output size formula) get 0.

    ```mlir
    %dx = ge.conv2d_backprop_input %w, %dy {input_size = array<i64: 1, 8, 9, 9>, strides = array<i64: 2, 2>}
        : (tensor<16x8x3x3xf32>, tensor<1x16x4x4xf32>) -> tensor<1x8x9x9xf32>
    ```
  }];
  let arguments = (ins GE_FloatTensor:$filter, GE_FloatTensor:$out_backprop,
                       DenseI64ArrayAttr:$input_size,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs GE_FloatTensor:$output);
}

def GE_Conv2DBackpropFilterOp : GE_InferOp<"conv2d_backprop_filter"> {
  let summary = "gradient of ge.conv2d with respect to its filter (GE Conv2DBackpropFilter)";
  let description = [{
    NCHW. `input` is the forward input `[N, C_in, H, W]`, `out_backprop` the
    gradient of the forward result `[N, C_out, OH, OW]`; `filter_size` is
    the forward filter's shape `[C_out, C_in / groups, kH, kW]` and the
    result's. `strides`, `pads` (`[top, left, bottom, right]`), `dilations`
    and `groups` are the forward ge.conv2d's.
  }];
  let arguments = (ins GE_FloatTensor:$input, GE_FloatTensor:$out_backprop,
                       DenseI64ArrayAttr:$filter_size,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                       DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs GE_FloatTensor:$output);
}

//===----------------------------------------------------------------------===//
// Pooling and resize
//===----------------------------------------------------------------------===//

def GE_MaxPool2DOp : GE_InferOp<"max_pool2d"> {
  let summary = "2-D max pooling";
  let arguments = (ins GE_NumericTensor:$input,
                       DenseI64ArrayAttr:$kernel_shape,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
                       DefaultValuedAttr<GE_DataFormatAttr, "::mlir::ge::DataFormat::NCHW">:$data_format);
  let results = (outs GE_NumericTensor:$output);
}

def GE_AvgPool2DOp : GE_InferOp<"avg_pool2d"> {
  let summary = "2-D average pooling";
  let arguments = (ins GE_FloatTensor:$input,
                       DenseI64ArrayAttr:$kernel_shape,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
                       DefaultValuedAttr<BoolAttr, "false">:$count_include_pad,
                       DefaultValuedAttr<GE_DataFormatAttr, "::mlir::ge::DataFormat::NCHW">:$data_format);
  let results = (outs GE_FloatTensor:$output);
}

def GE_AvgPoolGradOp : GE_InferOp<"avg_pool_grad"> {
  let summary = "gradient of ge.avg_pool2d with respect to its input (GE AvgPoolGrad)";
  let description = [{
    NCHW, no dilation. `out_backprop` is the gradient of the forward result
    `[N, C, OH, OW]`; `input_size` is the forward input's shape and the
    result's. `kernel_shape`, `strides`, `pads` (`[top, left, bottom,
    right]`), `ceil_mode` and `count_include_pad` are the forward
    ge.avg_pool2d's: every output gradient is divided by its window's
    divisor and added to the input positions the window covers (torch's
    `avg_pool2d_backward` without `divisor_override`).
  }];
  let arguments = (ins GE_FloatTensor:$out_backprop,
                       DenseI64ArrayAttr:$input_size,
                       DenseI64ArrayAttr:$kernel_shape,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
                       DefaultValuedAttr<BoolAttr, "false">:$count_include_pad);
  let results = (outs GE_FloatTensor:$output);
}

class GE_GlobalPoolOp<string mnemonic> : GE_InferOp<mnemonic> {
  let summary = mnemonic # " over all spatial dimensions (kept as size 1)";
  let arguments = (ins GE_NumericTensor:$input,
                       DefaultValuedAttr<GE_DataFormatAttr, "::mlir::ge::DataFormat::NCHW">:$data_format);
  let results = (outs GE_NumericTensor:$output);
  let extraClassDefinition = GE_CompatDef # [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *ctx, std::optional<::mlir::Location> loc,
        Adaptor rawAdaptor, ::llvm::SmallVectorImpl<::mlir::Type> &out) {
      Properties props;
      Adaptor adaptor = ::mlir::ge::detail::withDefaults<$cppClass>(ctx, rawAdaptor, props);
      return ::mlir::ge::detail::inferGlobalPoolResult(loc, getOperationName(),
          adaptor.getInput().getType(), adaptor.getDataFormat(), out);
    }
  }];
}
def GE_GlobalAvgPoolOp : GE_GlobalPoolOp<"global_avg_pool">;
def GE_GlobalMaxPoolOp : GE_GlobalPoolOp<"global_max_pool">;

def GE_ResizeOp : GE_ExplicitOp<"resize"> {
  let summary = "resize (upsample/downsample) to the result shape";
  let description = [{
    The result type gives the output sizes (the importer folds ONNX
    scales/sizes inputs into it). `scales` records the ONNX scales when they
    were given, since coordinate transforms use them.
  }];
  let arguments = (ins GE_NumericTensor:$input,
                       DefaultValuedAttr<GE_ResizeModeAttr, "::mlir::ge::ResizeMode::nearest">:$mode,
                       DefaultValuedAttr<GE_CoordinateTransformAttr, "::mlir::ge::CoordinateTransform::half_pixel">:$coordinate_transformation_mode,
                       DefaultValuedAttr<GE_NearestModeAttr, "::mlir::ge::NearestMode::round_prefer_floor">:$nearest_mode,
                       DefaultValuedAttr<F32Attr, "-0.75f">:$cubic_coeff_a,
                       OptionalAttr<DenseF32ArrayAttr>:$scales);
  let results = (outs GE_NumericTensor:$output);
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def GE_ReshapeOp : GE_ExplicitOp<"reshape"> {
  let summary = "reshape to the result type (same element count)";
  let arguments = (ins GE_Tensor:$input);
  let results = (outs GE_Tensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($output)";
  let hasFolder = 1;
}

def GE_TransposeOp : GE_InferOp<"transpose"> {
  let summary = "permute dimensions: result dim i is input dim perm[i]";
  let arguments = (ins GE_Tensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs GE_Tensor:$output);
  let hasFolder = 1;
}

def GE_ConcatOp : GE_InferOp<"concat"> {
  let summary = "concatenate along an axis";
  let arguments = (ins Variadic<GE_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs GE_Tensor:$output);
}

def GE_SplitOp : GE_InferOp<"split"> {
  let summary = "split along an axis into pieces of the given sizes";
  let arguments = (ins GE_Tensor:$input, I64Attr:$axis,
                       DenseI64ArrayAttr:$split_sizes);
  let results = (outs Variadic<GE_Tensor>:$outputs);
}

def GE_SliceOp : GE_InferOp<"slice"> {
  let summary = "strided slice with ONNX Slice semantics (clamped, negative indices)";
  let arguments = (ins GE_Tensor:$input, DenseI64ArrayAttr:$starts,
                       DenseI64ArrayAttr:$ends,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$axes,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$steps);
  let results = (outs GE_Tensor:$output);
}

def GE_GatherOp : GE_InferOp<"gather"> {
  let summary = "gather slices along an axis (ONNX Gather)";
  let arguments = (ins GE_Tensor:$data, GE_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs GE_Tensor:$output);
  let hasVerifier = 1;
}

def GE_GatherElementsOp : GE_InferOp<"gather_elements"> {
  let summary = "gather elements along an axis (result has the indices' shape)";
  let arguments = (ins GE_Tensor:$data, GE_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs GE_Tensor:$output);
  let hasVerifier = 1;
}

def GE_ScatterElementsOp : GE_InferOp<"scatter_elements"> {
  let summary = "scatter updates into a copy of data along an axis";
  let arguments = (ins GE_Tensor:$data, GE_IndexTensor:$indices,
                       GE_Tensor:$updates,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       DefaultValuedAttr<GE_ScatterReductionAttr, "::mlir::ge::ScatterReduction::none">:$reduction);
  let results = (outs GE_Tensor:$output);
  let hasVerifier = 1;
}

def GE_ExpandOp : GE_InferOp<"expand"> {
  let summary = "broadcast to a shape (ONNX Expand: bidirectional)";
  let arguments = (ins GE_Tensor:$input, DenseI64ArrayAttr:$shape);
  let results = (outs GE_Tensor:$output);
}

def GE_SqueezeOp : GE_InferOp<"squeeze"> {
  let summary = "remove size-1 dims (`axes` empty: all of them)";
  let arguments = (ins GE_Tensor:$input,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$axes);
  let results = (outs GE_Tensor:$output);
}

def GE_UnsqueezeOp : GE_InferOp<"unsqueeze"> {
  let summary = "insert size-1 dims at `axes` (positions in the result)";
  let arguments = (ins GE_Tensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs GE_Tensor:$output);
}

def GE_FlattenOp : GE_InferOp<"flatten"> {
  let summary = "flatten to 2-D: [prod(d[:axis]), prod(d[axis:])]";
  let arguments = (ins GE_Tensor:$input, DefaultValuedAttr<I64Attr, "1">:$axis);
  let results = (outs GE_Tensor:$output);
}

def GE_PadOp : GE_InferOp<"pad"> {
  let summary = "pad with `pads` = [begin_0.., end_0..] (ONNX order)";
  let arguments = (ins GE_Tensor:$input, DenseI64ArrayAttr:$pads,
                       DefaultValuedAttr<GE_PadModeAttr, "::mlir::ge::PadMode::constant">:$mode,
                       DefaultValuedAttr<F64Attr, "0.0">:$value);
  let results = (outs GE_Tensor:$output);
}

def GE_TileOp : GE_InferOp<"tile"> {
  let summary = "repeat the input `repeats[i]` times along dim i";
  let arguments = (ins GE_Tensor:$input, DenseI64ArrayAttr:$repeats);
  let results = (outs GE_Tensor:$output);
}

def GE_ShapeOp : GE_InferOp<"shape"> {
  let summary = "the input's shape as a 1-D i64 tensor (dims [start, end))";
  let arguments = (ins GE_Tensor:$input,
                       DefaultValuedAttr<I64Attr, "0">:$start,
                       OptionalAttr<I64Attr>:$end);
  let results = (outs RankedTensorOf<[I64]>:$output);
  let hasFolder = 1;
}

def GE_DynamicReshapeOp : GE_ExplicitOp<"dynamic_reshape"> {
  let summary = "reshape to a run-time shape (ONNX Reshape whose shape is computed)";
  let description = [{
    `shape` is a 1-D i64 tensor (its static length is the result's rank) read at run time with
    ONNX Reshape's rules: a 0 copies the input dim at its index (unless `allowzero`), one -1 is
    the element-count remainder. The result type may have `?` dims; its static dims, and the
    element count, must agree at run time (the CPU lowering checks them).
  }];
  let arguments = (ins GE_Tensor:$input, RankedTensorOf<[I64]>:$shape,
                       DefaultValuedAttr<BoolAttr, "false">:$allowzero);
  let results = (outs GE_Tensor:$output);
}

def GE_FillOp : GE_ExplicitOp<"fill"> {
  let summary = "a tensor of a run-time shape filled with one value (ONNX ConstantOfShape)";
  let description = [{
    `shape` is a 1-D i64 tensor holding the result's sizes (its static length is the result's
    rank); `value` is a one-element tensor of the result's element type. The result type may
    have `?` dims; its static dims must equal the run-time sizes (the CPU lowering checks them).
  }];
  let arguments = (ins GE_Tensor:$value, RankedTensorOf<[I64]>:$shape);
  let results = (outs GE_Tensor:$output);
}

def GE_RangeOp : GE_ExplicitOp<"range"> {
  let summary = "1-D sequence start, start+delta, ... (< limit); scalar operands";
  let arguments = (ins GE_NumericTensor:$start, GE_NumericTensor:$limit,
                       GE_NumericTensor:$delta);
  let results = (outs GE_NumericTensor:$output);
}

def GE_OneHotOp : GE_ExplicitOp<"one_hot"> {
  let summary = "one-hot encoding with a new axis of size `depth`";
  let arguments = (ins GE_IndexTensor:$indices, I64Attr:$depth,
                       DefaultValuedAttr<F64Attr, "1.0">:$on_value,
                       DefaultValuedAttr<F64Attr, "0.0">:$off_value,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs GE_NumericTensor:$output);
}

def GE_TopKOp : GE_InferOp<"top_k"> {
  let summary = "k largest (or smallest) elements along an axis and their indices";
  let arguments = (ins GE_NumericTensor:$input, I64Attr:$k,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<BoolAttr, "true">:$largest,
                       DefaultValuedAttr<BoolAttr, "true">:$sorted);
  let results = (outs GE_NumericTensor:$values, RankedTensorOf<[I64]>:$indices);
}

def GE_TransDataOp : GE_InferOp<"trans_data"> {
  let summary = "explicit layout conversion between two data formats";
  let description = [{
    Converts between formats; the result shape follows the destination
    format: NCHW <-> NHWC/HWCN permute; NC1HWC0 is `[N, ceil(C/C0), H, W, C0]`
    with `C0 = 32 bytes / element size`; FRACTAL_NZ maps the last two dims
    `[M, N]` to `[ceil(N/C0), ceil(M/16), 16, C0]`. Padding is zero.
    Converting back from a padded format needs `original_shape` (the shape
    before padding) unless the channel/matrix sizes were multiples already.

    ```mlir
    %y = ge.trans_data %x {src_format = #ge.format<NCHW>, dst_format = #ge.format<NC1HWC0>}
        : (tensor<1x32x8x8xf16>) -> tensor<1x2x8x8x16xf16>
    ```
  }];
  let arguments = (ins GE_Tensor:$input, GE_DataFormatAttr:$src_format,
                       GE_DataFormatAttr:$dst_format,
                       OptionalAttr<DenseI64ArrayAttr>:$original_shape);
  let results = (outs GE_Tensor:$output);
  let hasFolder = 1;
}

#endif // GE_OPS_TD
