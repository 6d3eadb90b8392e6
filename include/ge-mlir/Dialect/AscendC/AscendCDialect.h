//===- AscendCDialect.h - the ascendc dialect -------------------*- C++ -*-===//
//
// Public header of the ascendc code-generation dialect (Ascend C kernels).
//
//===----------------------------------------------------------------------===//

#ifndef GE_MLIR_DIALECT_ASCENDC_ASCENDCDIALECT_H
#define GE_MLIR_DIALECT_ASCENDC_ASCENDCDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ge-mlir/Dialect/AscendC/AscendCDialect.h.inc"
#include "ge-mlir/Dialect/AscendC/AscendCEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ge-mlir/Dialect/AscendC/AscendCAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ge-mlir/Dialect/AscendC/AscendCTypes.h.inc"

#define GET_OP_CLASSES
#include "ge-mlir/Dialect/AscendC/AscendCOps.h.inc"

namespace mlir::ascendc {
/// The physical memory a position lives in: "UB", "L1", "L0A", "L0B",
/// "L0C", "BT" (bias table) or "GM".
llvm::StringRef getMemoryOf(Position position);
/// The target that applies to `op`: the `ascendc.target` attribute of the
/// nearest enclosing module, else the Ascend910B1 (Atlas A2) description.
TargetAttr getTargetFor(Operation *op);
} // namespace mlir::ascendc

#endif // GE_MLIR_DIALECT_ASCENDC_ASCENDCDIALECT_H
