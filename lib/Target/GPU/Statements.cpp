//===- Statements.cpp - The Tile statements a kernel computes -------------===//
//
// Part of lib/Target/GPU; see Statements.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/Statements.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"

#include <set>
#include <utility>

using namespace mlir;

std::vector<std::string> tilec::gpuprogram::tileStatements(Operation *root) {
  std::set<std::pair<std::string, unsigned>> lines;
  auto collect = [&](Location loc) {
    loc->walk([&](Location inner) {
      // A location in an .mlir file is where IR was read from (a test, a
      // hand-written kernel), not a Tile statement.
      auto file = dyn_cast<FileLineColLoc>(inner);
      if (file && !file.getFilename().getValue().ends_with(".mlir"))
        lines.insert({file.getFilename().str(), file.getLine()});
      return WalkResult::advance();
    });
  };
  root->walk([&](Operation *op) { collect(op->getLoc()); });
  std::vector<std::string> result;
  for (const auto &[file, line] : lines)
    result.push_back(file + ":" + std::to_string(line));
  return result;
}
