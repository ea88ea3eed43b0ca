//===- FingerprintKernels.cpp - Attach tilec.fingerprint to kernels -------===//
//
// tile-fingerprint-kernels: a kernel's fingerprint (ARCHITECTURE.md,
// "Schedules and autotuning") hashes its canonical loop-level form: the
// generic printed form of the nest without locations, with its tilec
// attributes removed and values from outside the nest (buffers) unnamed.
// Shapes, element types, index maps, guards and the aggregation's
// arithmetic are all in that text; names and source positions are not.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/xxhash.h"

#define DEBUG_TYPE "tile-fingerprint-kernels"

namespace tilec::tile {
#define GEN_PASS_DEF_TILEFINGERPRINTKERNELSPASS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec;

static constexpr llvm::StringLiteral kKernelAttr = "tilec.kernel";
static constexpr llvm::StringLiteral kFingerprintAttr = "tilec.fingerprint";

/// The canonical text of kernel `op`.
static std::string canonicalForm(Operation *op) {
  // Print a copy without the attributes that name the kernel.
  Operation *copy = op->clone();
  copy->removeAttr(kKernelAttr);
  copy->removeAttr(kFingerprintAttr);
  std::string text;
  llvm::raw_string_ostream os(text);
  copy->print(
      os,
      OpPrintingFlags().printGenericOpForm().useLocalScope().enableDebugInfo(
          false));
  copy->destroy();
  return text;
}

namespace {
struct TileFingerprintKernelsPass
    : tile::impl::TileFingerprintKernelsPassBase<TileFingerprintKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    for (Operation &op : func.getBody().getOps()) {
      if (!op.hasAttr(kKernelAttr))
        continue;
      uint64_t hash = llvm::xxh3_64bits(canonicalForm(&op));
      std::string hex;
      llvm::raw_string_ostream(hex) << llvm::format_hex_no_prefix(hash, 16);
      op.setAttr(kFingerprintAttr, StringAttr::get(&getContext(), hex));
    }
  }
};
} // namespace
