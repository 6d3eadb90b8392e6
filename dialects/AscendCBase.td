//===- AscendCBase.td - ascendc dialect, enums, attributes, types -*- tablegen -*-===//
//
// The `ascendc` dialect models Ascend C kernels in the classic TPipe/TQue
// framework, one op per API call, so that emitting Ascend C source is a
// direct walk. Local tensors carry their buffer position in their type: the
// verifiers check position legality, the 32-byte rules and on-chip capacity
// statically, against the `#ascendc.target` of the enclosing module.
//
// API facts come from the documented Ascend C interfaces (clean room; see
// docs/ascendc.md).
//
//===----------------------------------------------------------------------===//

#ifndef ASCENDC_BASE_TD
#define ASCENDC_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def AscendC_Dialect : Dialect {
  let name = "ascendc";
  let cppNamespace = "::mlir::ascendc";
  let summary = "Ascend C kernels: TPipe/TQue memory, DataCopy, vector and cube ops, sync";
  let description = [{
    Kernels (`ascendc.kernel`) take typed global-memory pointers and a tiling
    struct, create a pipe, queues and buffers, move data between global
    memory and on-chip buffers and compute on them with the vector unit
    (level-2 count forms) or the cube unit (Mmad). A host program
    (`ascendc.host`) allocates global buffers and launches the kernels in
    order. `ge-mlir`'s emitter prints each op as one Ascend C API call.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

class AscendC_Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::ascendc";
}

// TPosition: where a LocalTensor lives. VECIN/VECOUT/VECCALC are the unified
// buffer (UB), A1/B1/C1 L1, A2 L0A, B2 L0B, CO1 L0C, C2 the bias table.
def AscendC_Position : AscendC_Enum<"Position", "buffer position (TPosition)", [
    I32EnumAttrCase<"gm", 0>, I32EnumAttrCase<"vecin", 1>, I32EnumAttrCase<"vecout", 2>,
    I32EnumAttrCase<"veccalc", 3>, I32EnumAttrCase<"a1", 4>, I32EnumAttrCase<"a2", 5>,
    I32EnumAttrCase<"b1", 6>, I32EnumAttrCase<"b2", 7>, I32EnumAttrCase<"c1", 8>,
    I32EnumAttrCase<"c2", 9>, I32EnumAttrCase<"co1", 10>, I32EnumAttrCase<"co2", 11>
  ]>;
def AscendC_PositionAttr : EnumAttr<AscendC_Dialect, AscendC_Position, "pos"> {
  let assemblyFormat = "`<` $value `>`";
}

// HardEvent: the producer and consumer pipes of a set/wait flag pair.
def AscendC_Event : AscendC_Enum<"Event", "hardware event (HardEvent)", [
    I32EnumAttrCase<"mte2_mte1", 0>, I32EnumAttrCase<"mte1_mte2", 1>, I32EnumAttrCase<"mte1_m", 2>,
    I32EnumAttrCase<"m_mte1", 3>, I32EnumAttrCase<"mte2_v", 4>, I32EnumAttrCase<"v_mte2", 5>,
    I32EnumAttrCase<"mte3_v", 6>, I32EnumAttrCase<"v_mte3", 7>, I32EnumAttrCase<"m_v", 8>,
    I32EnumAttrCase<"v_m", 9>, I32EnumAttrCase<"v_v", 10>, I32EnumAttrCase<"mte3_mte1", 11>,
    I32EnumAttrCase<"mte1_mte3", 12>, I32EnumAttrCase<"mte1_v", 13>, I32EnumAttrCase<"mte2_m", 14>,
    I32EnumAttrCase<"m_mte2", 15>, I32EnumAttrCase<"v_mte1", 16>, I32EnumAttrCase<"m_fix", 17>,
    I32EnumAttrCase<"fix_m", 18>, I32EnumAttrCase<"mte3_mte2", 19>, I32EnumAttrCase<"mte2_mte3", 20>,
    I32EnumAttrCase<"s_v", 21>, I32EnumAttrCase<"v_s", 22>, I32EnumAttrCase<"s_mte2", 23>,
    I32EnumAttrCase<"mte2_s", 24>, I32EnumAttrCase<"s_mte3", 25>, I32EnumAttrCase<"mte3_s", 26>,
    I32EnumAttrCase<"mte2_fix", 27>, I32EnumAttrCase<"fix_mte2", 28>, I32EnumAttrCase<"fix_s", 29>,
    I32EnumAttrCase<"m_s", 30>, I32EnumAttrCase<"fix_mte3", 31>, I32EnumAttrCase<"mte1_fix", 32>,
    I32EnumAttrCase<"fix_mte1", 33>, I32EnumAttrCase<"fix_fix", 34>
  ]>;
def AscendC_EventAttr : EnumAttr<AscendC_Dialect, AscendC_Event, "event"> {
  let assemblyFormat = "`<` $value `>`";
}

def AscendC_Pipe : AscendC_Enum<"Pipe", "hardware pipe (pipe_t)", [
    I32EnumAttrCase<"s", 0>, I32EnumAttrCase<"v", 1>, I32EnumAttrCase<"m", 2>,
    I32EnumAttrCase<"mte1", 3>, I32EnumAttrCase<"mte2", 4>, I32EnumAttrCase<"mte3", 5>,
    I32EnumAttrCase<"fix", 6>, I32EnumAttrCase<"all", 7>
  ]>;
def AscendC_PipeAttr : EnumAttr<AscendC_Dialect, AscendC_Pipe, "pipe"> {
  let assemblyFormat = "`<` $value `>`";
}

def AscendC_RoundMode : AscendC_Enum<"RoundMode", "Cast rounding (RoundMode)", [
    I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"rint", 1>, I32EnumAttrCase<"floor", 2>,
    I32EnumAttrCase<"ceil", 3>, I32EnumAttrCase<"round", 4>, I32EnumAttrCase<"trunc", 5>,
    I32EnumAttrCase<"odd", 6>
  ]>;
def AscendC_RoundModeAttr : EnumAttr<AscendC_Dialect, AscendC_RoundMode, "round"> {
  let assemblyFormat = "`<` $value `>`";
}

def AscendC_CmpMode : AscendC_Enum<"CmpMode", "comparison (CMPMODE)", [
    I32EnumAttrCase<"lt", 0>, I32EnumAttrCase<"gt", 1>, I32EnumAttrCase<"eq", 2>,
    I32EnumAttrCase<"le", 3>, I32EnumAttrCase<"ge", 4>, I32EnumAttrCase<"ne", 5>
  ]>;
def AscendC_CmpModeAttr : EnumAttr<AscendC_Dialect, AscendC_CmpMode, "cmp"> {
  let assemblyFormat = "`<` $value `>`";
}

def AscendC_SelMode : AscendC_Enum<"SelMode", "select mode (SELMODE)", [
    I32EnumAttrCase<"cmpmask_spr", 0>, I32EnumAttrCase<"tensor_scalar", 1>,
    I32EnumAttrCase<"tensor_tensor", 2>
  ]>;
def AscendC_SelModeAttr : EnumAttr<AscendC_Dialect, AscendC_SelMode, "sel"> {
  let assemblyFormat = "`<` $value `>`";
}

def AscendC_KernelKind : AscendC_Enum<"KernelKind", "core type a kernel runs on", [
    I32EnumAttrCase<"vector", 0>, I32EnumAttrCase<"cube", 1>, I32EnumAttrCase<"mix", 2>
  ]>;
def AscendC_KernelKindAttr : EnumAttr<AscendC_Dialect, AscendC_KernelKind, "kernel_kind"> {
  let assemblyFormat = "`<` $value `>`";
}

def AscendC_BinaryKind : AscendC_Enum<"BinaryKind", "level-2 binary vector op", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"sub", 1>, I32EnumAttrCase<"mul", 2>,
    I32EnumAttrCase<"div", 3>, I32EnumAttrCase<"max", 4>, I32EnumAttrCase<"min", 5>,
    I32EnumAttrCase<"And", 6, "and">, I32EnumAttrCase<"Or", 7, "or">
  ]>;
def AscendC_BinaryKindAttr : EnumAttr<AscendC_Dialect, AscendC_BinaryKind, "binary"> {
  let assemblyFormat = "`<` $value `>`";
}

def AscendC_ScalarKind : AscendC_Enum<"ScalarKind", "level-2 vector-scalar op", [
    I32EnumAttrCase<"adds", 0>, I32EnumAttrCase<"muls", 1>, I32EnumAttrCase<"maxs", 2>,
    I32EnumAttrCase<"mins", 3>, I32EnumAttrCase<"leaky_relu", 4>
  ]>;
def AscendC_ScalarKindAttr : EnumAttr<AscendC_Dialect, AscendC_ScalarKind, "scalar"> {
  let assemblyFormat = "`<` $value `>`";
}

def AscendC_UnaryKind : AscendC_Enum<"UnaryKind", "level-2 unary vector op", [
    I32EnumAttrCase<"exp", 0>, I32EnumAttrCase<"ln", 1>, I32EnumAttrCase<"abs", 2>,
    I32EnumAttrCase<"sqrt", 3>, I32EnumAttrCase<"rsqrt", 4>, I32EnumAttrCase<"reciprocal", 5>,
    I32EnumAttrCase<"relu", 6>, I32EnumAttrCase<"Not", 7, "not">
  ]>;
def AscendC_UnaryKindAttr : EnumAttr<AscendC_Dialect, AscendC_UnaryKind, "unary"> {
  let assemblyFormat = "`<` $value `>`";
}

def AscendC_ReduceKind : AscendC_Enum<"ReduceKind", "level-2 reduction", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"max", 1>, I32EnumAttrCase<"min", 2>
  ]>;
def AscendC_ReduceKindAttr : EnumAttr<AscendC_Dialect, AscendC_ReduceKind, "reduce"> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Target description
//===----------------------------------------------------------------------===//

def AscendC_TargetAttr : AttrDef<AscendC_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "an Ascend SoC: name, architecture, on-chip buffer sizes, core counts";
  let description = [{
    Sizes are bytes. Kernels in a module are checked against the target of
    the module (`ascendc.target` attribute); without one the Ascend910B1
    (Atlas A2) sizes apply.

    ```mlir
    module attributes {ascendc.target = #ascendc.target<soc = "Ascend910B1",
        arch = "dav-2201", ub = 196608, l1 = 524288, l0a = 65536, l0b = 65536,
        l0c = 131072, aic = 24, aiv = 48>} { ... }
    ```
  }];
  let parameters = (ins StringRefParameter<"SoC name">:$soc,
                        StringRefParameter<"NPU architecture">:$arch,
                        "int64_t":$ub, "int64_t":$l1, "int64_t":$l0a,
                        "int64_t":$l0b, "int64_t":$l0c,
                        "int64_t":$aic, "int64_t":$aiv);
  let assemblyFormat = "`<` struct(params) `>`";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class AscendC_Type<string name, string typeMnemonic> : TypeDef<AscendC_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def AscendC_GlobalTensorType : AscendC_Type<"GlobalTensor", "gm"> {
  let summary = "GlobalTensor<T>: a typed view of global memory";
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

def AscendC_LocalTensorType : AscendC_Type<"LocalTensor", "local"> {
  let summary = "LocalTensor<T> of `size` elements at a buffer position";
  let description = [{
    `!ascendc.local<f32, 256, vecin>`: 256 f32 elements in a VECIN buffer of
    the unified buffer. The position decides which ops may use the tensor
    (vector ops: vecin/vecout/veccalc; Mmad: a2, b2, co1; ...).
  }];
  let parameters = (ins "::mlir::Type":$elementType, "int64_t":$size,
                        "::mlir::ascendc::Position":$position);
  let assemblyFormat = "`<` $elementType `,` $size `,` $position `>`";
  let genVerifyDecl = 1;
}

def AscendC_PipeType : AscendC_Type<"Pipe", "pipe"> {
  let summary = "TPipe: owner of a kernel's on-chip buffers";
}

def AscendC_QueueType : AscendC_Type<"Queue", "que"> {
  let summary = "TQue<pos, depth>: a queue of buffers that synchronizes producer and consumer pipes";
  let parameters = (ins "::mlir::ascendc::Position":$position, "int64_t":$depth);
  let assemblyFormat = "`<` $position `,` $depth `>`";
}

def AscendC_TBufType : AscendC_Type<"TBuf", "tbuf"> {
  let summary = "TBuf<pos>: a plain buffer (temporaries) without queue semantics";
  let parameters = (ins "::mlir::ascendc::Position":$position);
  let assemblyFormat = "`<` $position `>`";
}

def AscendC_AnyLocal : Type<CPred<"::llvm::isa<::mlir::ascendc::LocalTensorType>($_self)">,
                            "local tensor", "::mlir::ascendc::LocalTensorType">;
def AscendC_AnyGlobal : Type<CPred<"::llvm::isa<::mlir::ascendc::GlobalTensorType>($_self)">,
                             "global tensor", "::mlir::ascendc::GlobalTensorType">;

#endif // ASCENDC_BASE_TD
