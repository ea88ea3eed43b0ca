//===- tilec-opt.cpp - The tilec optimizer driver --------------*- C++ -*-===//
//
// mlir-opt for tilec: parses tile (and lower-level) IR, runs any registered
// tilec or upstream pass, prints the result. Used by the lit tests.
//
//===----------------------------------------------------------------------===//

#include "tilec/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/PrettyStackTrace.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tilec::registerAllDialects(registry);
  tilec::registerAllPasses();
  // Upstream passes the tests combine with tilec's.
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerInlinerPass();
  mlir::registerSymbolDCEPass();
  llvm::setBugReportMsg("tilec-opt crashed: please report the input and the "
                        "command line to the tilec maintainers\n");
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilec optimizer driver\n", registry));
}
