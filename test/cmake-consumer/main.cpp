// Parses ge IR, builds a ge op with the C++ builders (result type inferred)
// and prints the module: what another MLIR compiler does with the dialect.
#include "ge-mlir/Dialect/Ge/GeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

int main() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::ge::GeDialect, mlir::func::FuncDialect>();
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  auto module = mlir::parseSourceString<mlir::ModuleOp>(R"mlir(
func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = ge.conv2d %x, %w {activation = #ge.act<relu>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}
)mlir",
                                                        &ctx);
  if (!module)
    return 1;
  auto fn = *module->getOps<mlir::func::FuncOp>().begin();
  auto conv = *fn.getOps<mlir::ge::Conv2DOp>().begin();
  mlir::OpBuilder b(conv->getNextNode());
  // No result type given: inferred from the operands and `perm`.
  auto t = mlir::ge::TransposeOp::create(b, conv.getLoc(), conv.getResult(),
                                         b.getDenseI64ArrayAttr({0, 2, 3, 1}));
  llvm::outs() << "inferred: " << t.getType() << "\n";
  llvm::outs() << "activation: "
               << mlir::ge::stringifyActivation(conv.getActivation()) << "\n";
  if (mlir::failed(mlir::verify(*module)))
    return 2;
  module->print(llvm::outs());
  return 0;
}
