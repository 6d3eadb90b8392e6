//===- GePlugin.cpp - mlir-opt --load-dialect-plugin entry point ----------===//
//
// Built into libGeMLIR.so, which links libMLIR.so (the MLIR instance that
// upstream mlir-opt uses), so `mlir-opt --load-dialect-plugin=libGeMLIR.so`
// parses and prints ge IR.
//
//===----------------------------------------------------------------------===//

#include "ge-mlir/Dialect/AscendC/AscendCDialect.h"
#include "ge-mlir/Dialect/Ge/GeDialect.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "GeDialect", LLVM_VERSION_STRING,
          [](::mlir::DialectRegistry *registry) {
            registry->insert<::mlir::ge::GeDialect,
                             ::mlir::ascendc::AscendCDialect>();
          }};
}
