//===- GeDialect.h - the ge dialect -----------------------------*- C++ -*-===//
//
// Public header of the ge dialect: include this (and link GeMLIR) to use the
// dialect from another MLIR-based compiler.
//
//===----------------------------------------------------------------------===//

#ifndef GE_MLIR_DIALECT_GE_GEDIALECT_H
#define GE_MLIR_DIALECT_GE_GEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ge-mlir/Dialect/Ge/GeDialect.h.inc"
#include "ge-mlir/Dialect/Ge/GeEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ge-mlir/Dialect/Ge/GeAttrs.h.inc"

namespace mlir::ge::detail {
/// Declared result types are compatible with inferred ones when element types
/// match and shapes agree except where either side is dynamic.
bool areCompatibleTypes(TypeRange lhs, TypeRange rhs);

/// Numpy broadcasting of all operands; compare ops produce i1.
LogicalResult inferBroadcastResult(MLIRContext *ctx,
                                   std::optional<Location> loc,
                                   StringRef opName, ValueRange operands,
                                   bool isCompare,
                                   SmallVectorImpl<Type> &out);

/// Reduction over `axes` (empty: all); `elementType` overrides the input's.
LogicalResult inferReduceResult(std::optional<Location> loc, StringRef opName,
                                Type input, ArrayRef<int64_t> axes,
                                bool keepdims, Type elementType,
                                SmallVectorImpl<Type> &out);

LogicalResult inferGlobalPoolResult(std::optional<Location> loc,
                                    StringRef opName, Type input,
                                    DataFormat format,
                                    SmallVectorImpl<Type> &out);

/// Element size in bytes used for C0 of NC1HWC0/FRACTAL_NZ (32 B / size).
int64_t getC0(Type elementType);
} // namespace mlir::ge::detail

namespace mlir::ge::detail {
/// Fails (naming the op) when an operand or result is a ranked tensor whose
/// static element count times element byte size does not fit in int64.
LogicalResult verifyTensorSizes(Operation *op);
} // namespace mlir::ge::detail

namespace mlir::ge::OpTrait {
/// Every tensor type of the op has a byte size that fits in int64 (MLIR's
/// strided-layout computations abort the process on larger ones).
template <typename ConcreteType>
class SizeCheckedTensors
    : public ::mlir::OpTrait::TraitBase<ConcreteType, SizeCheckedTensors> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return detail::verifyTensorSizes(op);
  }
};
} // namespace mlir::ge::OpTrait

#define GET_OP_CLASSES
#include "ge-mlir/Dialect/Ge/GeOps.h.inc"

namespace mlir::ge::detail {
/// An adaptor whose default-valued attributes are filled in. Type inference
/// may run before the op exists (Python builders, the C API), when the
/// properties hold only the attributes that were given explicitly.
template <typename OpTy>
typename OpTy::Adaptor withDefaults(MLIRContext *ctx,
                                    typename OpTy::Adaptor adaptor,
                                    typename OpTy::Properties &storage) {
  storage = adaptor.getProperties();
  OpTy::populateDefaultProperties(OperationName(OpTy::getOperationName(), ctx),
                                  storage);
  return typename OpTy::Adaptor(adaptor.getOperands(), adaptor.getAttributes(),
                                storage);
}
} // namespace mlir::ge::detail

namespace mlir::ge {
/// Attaches upstream's shard::ShardingInterface to the ge ops the partitioner
/// splits (lib/Ge/GeSharding.cpp); GeDialect::initialize calls it.
void attachShardingInterfaces(MLIRContext *ctx);
} // namespace mlir::ge

#endif // GE_MLIR_DIALECT_GE_GEDIALECT_H
