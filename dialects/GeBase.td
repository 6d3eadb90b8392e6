//===- GeBase.td - ge dialect, enums and attributes ---------*- tablegen -*-===//
//
// The `ge` dialect: a graph-level tensor dialect in the spirit of Ascend CANN's
// Graph Engine IR. Ops have value semantics and carry just enough layout and
// fusion information (data formats, fused bias/activation) for the optimizer
// and the code generators to work on one representation.
//
//===----------------------------------------------------------------------===//

#ifndef GE_BASE_TD
#define GE_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Ge_Dialect : Dialect {
  let name = "ge";
  let cppNamespace = "::mlir::ge";
  let summary = "Graph Engine dialect: framework graphs as value-semantics tensor ops";
  let description = [{
    The `ge` dialect represents whole framework graphs (ONNX, PyTorch,
    TensorFlow) as tensor operations with numpy broadcasting semantics.
    Operators that the optimizer fuses into (`conv2d`, `matmul`, `gemm`) carry
    an optional bias operand and an activation attribute; layout-sensitive
    operators carry a `data_format` attribute and `trans_data` converts
    explicitly between formats (NCHW, NHWC, NC1HWC0, FRACTAL_NZ, ...).
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def GE_DataFormat : I32EnumAttr<"DataFormat", "tensor data layout", [
    I32EnumAttrCase<"ND", 0>,
    I32EnumAttrCase<"NCHW", 1>,
    I32EnumAttrCase<"NHWC", 2>,
    I32EnumAttrCase<"NC1HWC0", 3>,
    I32EnumAttrCase<"FRACTAL_NZ", 4>,
    I32EnumAttrCase<"HWCN", 5>,
    I32EnumAttrCase<"NCDHW", 6>,
    I32EnumAttrCase<"NDHWC", 7>
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::ge";
}
def GE_DataFormatAttr : EnumAttr<Ge_Dialect, GE_DataFormat, "format"> {
  let assemblyFormat = "`<` $value `>`";
  let summary = "data format (layout) of a tensor";
}

def GE_Activation : I32EnumAttr<"Activation", "fused activation function", [
    I32EnumAttrCase<"none", 0>,
    I32EnumAttrCase<"relu", 1>,
    I32EnumAttrCase<"relu6", 2>,
    I32EnumAttrCase<"leaky_relu", 3>,
    I32EnumAttrCase<"sigmoid", 4>,
    I32EnumAttrCase<"tanh", 5>,
    I32EnumAttrCase<"gelu", 6>,
    I32EnumAttrCase<"silu", 7>,
    I32EnumAttrCase<"hard_sigmoid", 8>,
    I32EnumAttrCase<"hard_swish", 9>
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::ge";
}
def GE_ActivationAttr : EnumAttr<Ge_Dialect, GE_Activation, "act"> {
  let assemblyFormat = "`<` $value `>`";
  let summary = "activation fused into a producer op";
}

def GE_PadMode : I32EnumAttr<"PadMode", "padding mode", [
    I32EnumAttrCase<"constant", 0>,
    I32EnumAttrCase<"reflect", 1>,
    I32EnumAttrCase<"edge", 2>,
    I32EnumAttrCase<"wrap", 3>
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::ge";
}
def GE_PadModeAttr : EnumAttr<Ge_Dialect, GE_PadMode, "pad_mode"> {
  let assemblyFormat = "`<` $value `>`";
}

def GE_ResizeMode : I32EnumAttr<"ResizeMode", "resize interpolation mode", [
    I32EnumAttrCase<"nearest", 0>,
    I32EnumAttrCase<"linear", 1>,
    I32EnumAttrCase<"cubic", 2>
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::ge";
}
def GE_ResizeModeAttr : EnumAttr<Ge_Dialect, GE_ResizeMode, "resize_mode"> {
  let assemblyFormat = "`<` $value `>`";
}

def GE_CoordinateTransform : I32EnumAttr<"CoordinateTransform",
    "resize coordinate transformation mode", [
    I32EnumAttrCase<"half_pixel", 0>,
    I32EnumAttrCase<"half_pixel_symmetric", 1>,
    I32EnumAttrCase<"pytorch_half_pixel", 2>,
    I32EnumAttrCase<"align_corners", 3>,
    I32EnumAttrCase<"asymmetric", 4>,
    I32EnumAttrCase<"tf_crop_and_resize", 5>
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::ge";
}
def GE_CoordinateTransformAttr
    : EnumAttr<Ge_Dialect, GE_CoordinateTransform, "coord_transform"> {
  let assemblyFormat = "`<` $value `>`";
}

def GE_NearestMode : I32EnumAttr<"NearestMode", "resize nearest rounding", [
    I32EnumAttrCase<"round_prefer_floor", 0>,
    I32EnumAttrCase<"round_prefer_ceil", 1>,
    I32EnumAttrCase<"floor", 2>,
    I32EnumAttrCase<"ceil", 3>
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::ge";
}
def GE_NearestModeAttr : EnumAttr<Ge_Dialect, GE_NearestMode, "nearest_mode"> {
  let assemblyFormat = "`<` $value `>`";
}

def GE_ScatterReduction : I32EnumAttr<"ScatterReduction", "scatter reduction", [
    I32EnumAttrCase<"none", 0>,
    I32EnumAttrCase<"add", 1>,
    I32EnumAttrCase<"mul", 2>,
    I32EnumAttrCase<"max", 3>,
    I32EnumAttrCase<"min", 4>
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::ge";
}
def GE_ScatterReductionAttr
    : EnumAttr<Ge_Dialect, GE_ScatterReduction, "scatter_reduction"> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// Tensors of any element type (data movement); numeric ones exclude i1 so
// that arithmetic on booleans is rejected rather than silently lowered.
def GE_Tensor : RankedTensorOf<[AnyType]>;
def GE_FloatTensor : RankedTensorOf<[AnyFloat]>;
def GE_Integer : AnyTypeOf<[SignlessIntOfWidths<[8, 16, 32, 64]>,
                            UnsignedIntOfWidths<[8, 16, 32, 64]>,
                            SignedIntOfWidths<[8, 16, 32, 64]>]>;
def GE_NumericTensor : RankedTensorOf<[AnyFloat, GE_Integer]>;
// Sub-byte integers (ONNX INT4/UINT4/INT2/UINT2) are storage types: only
// ge.cast and the type-agnostic data movement ops take them.
def GE_NarrowInteger : AnyTypeOf<[I<4>, I<2>, UI<4>, UI<2>]>;
def GE_ScalarTensor : RankedTensorOf<[AnyFloat, GE_Integer, GE_NarrowInteger, I1]>;
def GE_BoolTensor : RankedTensorOf<[I1]>;
def GE_IntegerTensor : RankedTensorOf<[GE_Integer]>;
def GE_IndexTensor : RankedTensorOf<[I32, I64]>;

#endif // GE_BASE_TD
