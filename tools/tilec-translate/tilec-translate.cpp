//===- tilec-translate.cpp - The tilec translation driver -------*- C++ -*-===//
//
// mlir-translate for tilec: reads a gpu-level or loop-level module and
// writes what one of tilec's emitters makes of it (OpenCL C, SPIR-V, LLVM
// IR, machine code, the C header, launch manifests). `--help` lists the
// translations; each is documented beside its emitter
// (include/tilec/Target/*/...Translation.h). Used by the lit tests.
//
//===----------------------------------------------------------------------===//

#include "tilec/InitAll.h"

#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/Support/PrettyStackTrace.h"

int main(int argc, char **argv) {
  tilec::registerAllTranslations();
  llvm::setBugReportMsg("tilec-translate crashed: please report the input "
                        "and the command line to the tilec maintainers\n");
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "tilec translation driver\n"));
}
