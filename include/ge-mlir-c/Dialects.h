//===- Dialects.h - C API of the ge dialect -----------------------*- C -*-===//
#ifndef GE_MLIR_C_DIALECTS_H
#define GE_MLIR_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// mlirGetDialectHandle__ge__(): register/load the ge dialect through the
/// upstream C API (mlirDialectHandleInsertDialect / LoadDialect).
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Ge, ge);

/// mlirGetDialectHandle__ascendc__(): the ascendc code-generation dialect.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(AscendC, ascendc);

/// MLIRContext::printOpOnDiagnostic, which the upstream C API does not expose:
/// `--verify-diagnostics` turns it off, as mlir-opt does.
MLIR_CAPI_EXPORTED void geMlirContextSetPrintOpOnDiagnostic(MlirContext ctx,
                                                            bool enable);

/// Version string of the ge dialect library ("<version> (LLVM <llvm>)").
MLIR_CAPI_EXPORTED const char *geMlirVersion(void);

#ifdef __cplusplus
}
#endif

#endif // GE_MLIR_C_DIALECTS_H
