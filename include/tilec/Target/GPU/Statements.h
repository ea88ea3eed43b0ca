//===- Statements.h - The Tile statements a kernel computes -----*- C++ -*-===//
//
// Part of lib/Target/GPU, shared by every GPU backend. Every op keeps the
// location of the Tile statement it came from, so a kernel's statements are
// the file:line of the locations inside it; the kernel comment and the
// manifest both list them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_GPU_STATEMENTS_H
#define TILEC_TARGET_GPU_STATEMENTS_H

#include <string>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace tilec::gpuprogram {

/// "file:line" of every file location in `root` and the ops nested in it
/// (looking through names, fusions and call sites), without repeats, sorted
/// by file and then by line. Locations in .mlir files are left out.
std::vector<std::string> tileStatements(mlir::Operation *root);

} // namespace tilec::gpuprogram

#endif // TILEC_TARGET_GPU_STATEMENTS_H
