//===- Dialects.cpp - C API registration of the ge dialect ----------------===//

#include "ge-mlir-c/Dialects.h"
#include "ge-mlir/Dialect/AscendC/AscendCDialect.h"
#include "ge-mlir/Dialect/Ge/GeDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Config/llvm-config.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Ge, ge, mlir::ge::GeDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(AscendC, ascendc,
                                      mlir::ascendc::AscendCDialect)

const char *geMlirVersion(void) {
  return GE_MLIR_VERSION " (LLVM " LLVM_VERSION_STRING ")";
}

void geMlirContextSetPrintOpOnDiagnostic(MlirContext ctx, bool enable) {
  unwrap(ctx)->printOpOnDiagnostic(enable);
}
