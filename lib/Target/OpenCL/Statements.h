//===- Statements.h - The Tile statements a kernel computes -----*- C++ -*-===//
//
// Part of the OpenCL target. Every op keeps the location of the Tile
// statement it came from, so a kernel's statements are the file:line of the
// locations inside it; the kernel comment and the manifest both list them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_OPENCL_STATEMENTS_H
#define TILEC_LIB_TARGET_OPENCL_STATEMENTS_H

#include <string>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace tilec::opencl {

/// "file:line" of every file location in `root` and the ops nested in it
/// (looking through names, fusions and call sites), without repeats, sorted
/// by file and then by line. Locations in .mlir files are left out.
std::vector<std::string> tileStatements(mlir::Operation *root);

} // namespace tilec::opencl

#endif // TILEC_LIB_TARGET_OPENCL_STATEMENTS_H
