//===- AscendC.h - C API of the ascendc types and attributes ------*- C -*-===//
//
// Typed access to the ascendc dialect's types and attributes for bindings
// (ge_mlir.dialects.ascendc calls these through ctypes), following the
// upstream dialect C APIs: IsA, Get, parameter getters, TypeIDs.
//
// Enums cross the boundary as their int32 values (the TableGen case values,
// which the generated Python enum classes also use). Get functions return a
// null type/attribute for an out-of-range enum value; the *GetChecked forms
// report the type verifier's diagnostic at `loc` and return null.
//
//===----------------------------------------------------------------------===//
#ifndef GE_MLIR_C_ASCENDC_H
#define GE_MLIR_C_ASCENDC_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// !ascendc.gm<T>
MLIR_CAPI_EXPORTED bool geMlirAscendCTypeIsAGlobalTensor(MlirType type);
MLIR_CAPI_EXPORTED MlirTypeID geMlirAscendCGlobalTensorTypeGetTypeID(void);
MLIR_CAPI_EXPORTED MlirType geMlirAscendCGlobalTensorTypeGet(MlirContext ctx,
                                                             MlirType elementType);
MLIR_CAPI_EXPORTED MlirType
geMlirAscendCGlobalTensorTypeGetElementType(MlirType type);

/// !ascendc.local<T, size, position>
MLIR_CAPI_EXPORTED bool geMlirAscendCTypeIsALocalTensor(MlirType type);
MLIR_CAPI_EXPORTED MlirTypeID geMlirAscendCLocalTensorTypeGetTypeID(void);
MLIR_CAPI_EXPORTED MlirType geMlirAscendCLocalTensorTypeGetChecked(
    MlirLocation loc, MlirType elementType, int64_t size, int32_t position);
MLIR_CAPI_EXPORTED MlirType
geMlirAscendCLocalTensorTypeGetElementType(MlirType type);
MLIR_CAPI_EXPORTED int64_t geMlirAscendCLocalTensorTypeGetSize(MlirType type);
MLIR_CAPI_EXPORTED int32_t
geMlirAscendCLocalTensorTypeGetPosition(MlirType type);

/// !ascendc.que<position, depth>
MLIR_CAPI_EXPORTED bool geMlirAscendCTypeIsAQueue(MlirType type);
MLIR_CAPI_EXPORTED MlirTypeID geMlirAscendCQueueTypeGetTypeID(void);
MLIR_CAPI_EXPORTED MlirType geMlirAscendCQueueTypeGet(MlirContext ctx,
                                                      int32_t position,
                                                      int64_t depth);
MLIR_CAPI_EXPORTED int32_t geMlirAscendCQueueTypeGetPosition(MlirType type);
MLIR_CAPI_EXPORTED int64_t geMlirAscendCQueueTypeGetDepth(MlirType type);

/// !ascendc.tbuf<position>
MLIR_CAPI_EXPORTED bool geMlirAscendCTypeIsATBuf(MlirType type);
MLIR_CAPI_EXPORTED MlirTypeID geMlirAscendCTBufTypeGetTypeID(void);
MLIR_CAPI_EXPORTED MlirType geMlirAscendCTBufTypeGet(MlirContext ctx,
                                                     int32_t position);
MLIR_CAPI_EXPORTED int32_t geMlirAscendCTBufTypeGetPosition(MlirType type);

/// !ascendc.pipe
MLIR_CAPI_EXPORTED bool geMlirAscendCTypeIsAPipe(MlirType type);
MLIR_CAPI_EXPORTED MlirTypeID geMlirAscendCPipeTypeGetTypeID(void);
MLIR_CAPI_EXPORTED MlirType geMlirAscendCPipeTypeGet(MlirContext ctx);

/// The memory a position lives in ("UB", "L1", "L0A", "L0B", "L0C", "BT",
/// "GM"); an empty string for an out-of-range value.
MLIR_CAPI_EXPORTED MlirStringRef geMlirAscendCPositionGetMemory(int32_t position);

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

/// #ascendc.target<soc = ..., arch = ..., ub = ..., ...> (sizes in bytes).
MLIR_CAPI_EXPORTED bool geMlirAscendCAttributeIsATarget(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirTypeID geMlirAscendCTargetAttrGetTypeID(void);
MLIR_CAPI_EXPORTED MlirAttribute geMlirAscendCTargetAttrGet(
    MlirContext ctx, MlirStringRef soc, MlirStringRef arch, int64_t ub,
    int64_t l1, int64_t l0a, int64_t l0b, int64_t l0c, int64_t aic,
    int64_t aiv);
MLIR_CAPI_EXPORTED MlirStringRef geMlirAscendCTargetAttrGetSoc(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirStringRef geMlirAscendCTargetAttrGetArch(MlirAttribute attr);
/// One integer field by name ("ub", "l1", "l0a", "l0b", "l0c", "aic", "aiv");
/// -1 for an unknown name.
MLIR_CAPI_EXPORTED int64_t geMlirAscendCTargetAttrGetField(MlirAttribute attr,
                                                           MlirStringRef name);

/// Enum attributes (#ascendc.pos<vecin>, #ascendc.event<mte2_v>, ...): one
/// IsA / Get / GetValue triple per enum.
#define GE_MLIR_ASCENDC_DECLARE_ENUM_ATTR(Name)                                \
  MLIR_CAPI_EXPORTED bool geMlirAscendCAttributeIsA##Name(MlirAttribute attr); \
  MLIR_CAPI_EXPORTED MlirAttribute geMlirAscendC##Name##AttrGet(               \
      MlirContext ctx, int32_t value);                                         \
  MLIR_CAPI_EXPORTED int32_t geMlirAscendC##Name##AttrGetValue(                \
      MlirAttribute attr);

GE_MLIR_ASCENDC_DECLARE_ENUM_ATTR(Position)
GE_MLIR_ASCENDC_DECLARE_ENUM_ATTR(Event)
GE_MLIR_ASCENDC_DECLARE_ENUM_ATTR(Pipe)
GE_MLIR_ASCENDC_DECLARE_ENUM_ATTR(RoundMode)
GE_MLIR_ASCENDC_DECLARE_ENUM_ATTR(CmpMode)
GE_MLIR_ASCENDC_DECLARE_ENUM_ATTR(SelMode)
GE_MLIR_ASCENDC_DECLARE_ENUM_ATTR(KernelKind)
GE_MLIR_ASCENDC_DECLARE_ENUM_ATTR(BinaryKind)
GE_MLIR_ASCENDC_DECLARE_ENUM_ATTR(ScalarKind)
GE_MLIR_ASCENDC_DECLARE_ENUM_ATTR(UnaryKind)
GE_MLIR_ASCENDC_DECLARE_ENUM_ATTR(ReduceKind)

#undef GE_MLIR_ASCENDC_DECLARE_ENUM_ATTR

#ifdef __cplusplus
}
#endif

#endif // GE_MLIR_C_ASCENDC_H
