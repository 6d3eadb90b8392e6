//===- AscendC.cpp - C API of the ascendc types and attributes ------------===//

#include "ge-mlir-c/AscendC.h"
#include "ge-mlir/Dialect/AscendC/AscendCDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;
using namespace mlir::ascendc;

/// An enum value from the C side, or nothing when out of range (the C++
/// types would otherwise hold a value no printer or verifier knows).
template <typename E>
static std::optional<E> enumFrom(int32_t v,
                                 std::optional<E> (*symbolize)(uint32_t)) {
  if (v < 0)
    return std::nullopt;
  return symbolize(static_cast<uint32_t>(v));
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

bool geMlirAscendCTypeIsAGlobalTensor(MlirType type) {
  return isa<GlobalTensorType>(unwrap(type));
}
MlirTypeID geMlirAscendCGlobalTensorTypeGetTypeID(void) {
  return wrap(GlobalTensorType::getTypeID());
}
MlirType geMlirAscendCGlobalTensorTypeGet(MlirContext ctx,
                                          MlirType elementType) {
  return wrap(GlobalTensorType::get(unwrap(ctx), unwrap(elementType)));
}
MlirType geMlirAscendCGlobalTensorTypeGetElementType(MlirType type) {
  return wrap(cast<GlobalTensorType>(unwrap(type)).getElementType());
}

bool geMlirAscendCTypeIsALocalTensor(MlirType type) {
  return isa<LocalTensorType>(unwrap(type));
}
MlirTypeID geMlirAscendCLocalTensorTypeGetTypeID(void) {
  return wrap(LocalTensorType::getTypeID());
}
MlirType geMlirAscendCLocalTensorTypeGetChecked(MlirLocation loc,
                                                MlirType elementType,
                                                int64_t size, int32_t position) {
  Location l = unwrap(loc);
  auto pos = enumFrom(position, symbolizePosition);
  if (!pos) {
    emitError(l) << "invalid ascendc position value " << position;
    return {nullptr};
  }
  return wrap(LocalTensorType::getChecked([&] { return emitError(l); },
                                          l.getContext(), unwrap(elementType),
                                          size, *pos));
}
MlirType geMlirAscendCLocalTensorTypeGetElementType(MlirType type) {
  return wrap(cast<LocalTensorType>(unwrap(type)).getElementType());
}
int64_t geMlirAscendCLocalTensorTypeGetSize(MlirType type) {
  return cast<LocalTensorType>(unwrap(type)).getSize();
}
int32_t geMlirAscendCLocalTensorTypeGetPosition(MlirType type) {
  return static_cast<int32_t>(cast<LocalTensorType>(unwrap(type)).getPosition());
}

bool geMlirAscendCTypeIsAQueue(MlirType type) {
  return isa<QueueType>(unwrap(type));
}
MlirTypeID geMlirAscendCQueueTypeGetTypeID(void) {
  return wrap(QueueType::getTypeID());
}
MlirType geMlirAscendCQueueTypeGet(MlirContext ctx, int32_t position,
                                   int64_t depth) {
  auto pos = enumFrom(position, symbolizePosition);
  if (!pos)
    return {nullptr};
  return wrap(QueueType::get(unwrap(ctx), *pos, depth));
}
int32_t geMlirAscendCQueueTypeGetPosition(MlirType type) {
  return static_cast<int32_t>(cast<QueueType>(unwrap(type)).getPosition());
}
int64_t geMlirAscendCQueueTypeGetDepth(MlirType type) {
  return cast<QueueType>(unwrap(type)).getDepth();
}

bool geMlirAscendCTypeIsATBuf(MlirType type) {
  return isa<TBufType>(unwrap(type));
}
MlirTypeID geMlirAscendCTBufTypeGetTypeID(void) {
  return wrap(TBufType::getTypeID());
}
MlirType geMlirAscendCTBufTypeGet(MlirContext ctx, int32_t position) {
  auto pos = enumFrom(position, symbolizePosition);
  if (!pos)
    return {nullptr};
  return wrap(TBufType::get(unwrap(ctx), *pos));
}
int32_t geMlirAscendCTBufTypeGetPosition(MlirType type) {
  return static_cast<int32_t>(cast<TBufType>(unwrap(type)).getPosition());
}

bool geMlirAscendCTypeIsAPipe(MlirType type) {
  return isa<PipeType>(unwrap(type));
}
MlirTypeID geMlirAscendCPipeTypeGetTypeID(void) {
  return wrap(PipeType::getTypeID());
}
MlirType geMlirAscendCPipeTypeGet(MlirContext ctx) {
  return wrap(PipeType::get(unwrap(ctx)));
}

MlirStringRef geMlirAscendCPositionGetMemory(int32_t position) {
  auto pos = enumFrom(position, symbolizePosition);
  return wrap(pos ? getMemoryOf(*pos) : StringRef());
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

bool geMlirAscendCAttributeIsATarget(MlirAttribute attr) {
  return isa<TargetAttr>(unwrap(attr));
}
MlirTypeID geMlirAscendCTargetAttrGetTypeID(void) {
  return wrap(TargetAttr::getTypeID());
}
MlirAttribute geMlirAscendCTargetAttrGet(MlirContext ctx, MlirStringRef soc,
                                         MlirStringRef arch, int64_t ub,
                                         int64_t l1, int64_t l0a, int64_t l0b,
                                         int64_t l0c, int64_t aic,
                                         int64_t aiv) {
  return wrap(TargetAttr::get(unwrap(ctx), unwrap(soc), unwrap(arch), ub, l1,
                              l0a, l0b, l0c, aic, aiv));
}
MlirStringRef geMlirAscendCTargetAttrGetSoc(MlirAttribute attr) {
  return wrap(cast<TargetAttr>(unwrap(attr)).getSoc());
}
MlirStringRef geMlirAscendCTargetAttrGetArch(MlirAttribute attr) {
  return wrap(cast<TargetAttr>(unwrap(attr)).getArch());
}
int64_t geMlirAscendCTargetAttrGetField(MlirAttribute attr,
                                        MlirStringRef name) {
  auto t = cast<TargetAttr>(unwrap(attr));
  StringRef n = unwrap(name);
  if (n == "ub")
    return t.getUb();
  if (n == "l1")
    return t.getL1();
  if (n == "l0a")
    return t.getL0a();
  if (n == "l0b")
    return t.getL0b();
  if (n == "l0c")
    return t.getL0c();
  if (n == "aic")
    return t.getAic();
  if (n == "aiv")
    return t.getAiv();
  return -1;
}

#define GE_MLIR_ASCENDC_DEFINE_ENUM_ATTR(Name)                                 \
  bool geMlirAscendCAttributeIsA##Name(MlirAttribute attr) {                   \
    return isa<Name##Attr>(unwrap(attr));                                      \
  }                                                                            \
  MlirAttribute geMlirAscendC##Name##AttrGet(MlirContext ctx, int32_t value) { \
    auto v = enumFrom(value, symbolize##Name);                                 \
    if (!v)                                                                    \
      return {nullptr};                                                        \
    return wrap(Name##Attr::get(unwrap(ctx), *v));                             \
  }                                                                            \
  int32_t geMlirAscendC##Name##AttrGetValue(MlirAttribute attr) {              \
    return static_cast<int32_t>(cast<Name##Attr>(unwrap(attr)).getValue());    \
  }

GE_MLIR_ASCENDC_DEFINE_ENUM_ATTR(Position)
GE_MLIR_ASCENDC_DEFINE_ENUM_ATTR(Event)
GE_MLIR_ASCENDC_DEFINE_ENUM_ATTR(Pipe)
GE_MLIR_ASCENDC_DEFINE_ENUM_ATTR(RoundMode)
GE_MLIR_ASCENDC_DEFINE_ENUM_ATTR(CmpMode)
GE_MLIR_ASCENDC_DEFINE_ENUM_ATTR(SelMode)
GE_MLIR_ASCENDC_DEFINE_ENUM_ATTR(KernelKind)
GE_MLIR_ASCENDC_DEFINE_ENUM_ATTR(BinaryKind)
GE_MLIR_ASCENDC_DEFINE_ENUM_ATTR(ScalarKind)
GE_MLIR_ASCENDC_DEFINE_ENUM_ATTR(UnaryKind)
GE_MLIR_ASCENDC_DEFINE_ENUM_ATTR(ReduceKind)
