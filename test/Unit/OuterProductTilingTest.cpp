//===- OuterProductTilingTest.cpp - The outer-product tiling's rules ------===//
//
// checkOuterProductTiling on plain numbers: which operand a grid side
// holds, the sizes it takes from the schedule, the staged bytes, and each
// rule's message (the mapping's and the candidate search's).
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/Analysis/OuterProductTiling.h"

#include <catch2/catch.hpp>

using namespace tilec;
using schedule::KernelSchedule;

namespace {

/// A 512x256x512 matmul: band [m, n], reduction k; operand 0 is read
/// along m, operand 1 along n.
ContractionShape matmul() {
  ContractionShape shape;
  shape.freeLoop[0] = 0;
  shape.freeLoop[1] = 1;
  shape.reduction = 256;
  return shape;
}

KernelSchedule sgemm() {
  KernelSchedule s;
  s.block = {128, 128, 8};
  s.thread = {8, 8};
  s.vector = 4;
  s.warp = {32, 64};
  s.buffers = 2;
  return s;
}

OuterProductCheck check(const ContractionShape &shape,
                        const KernelSchedule &s) {
  schedule::DeviceProfile device;
  device.localMemBytes = 49152;
  return checkOuterProductTiling(
      shape, computeGPUGrid({512, 512}, s), s, device);
}

} // namespace

TEST_CASE("outer-product tiling: the sides of a matmul", "[outer-product]") {
  OuterProductCheck result = check(matmul(), sgemm());
  REQUIRE(result.tiling);
  const OuterProductTiling &t = *result.tiling;
  // Grid y holds m (operand 0's rows), grid x holds n.
  CHECK(t.rows.operand == 0);
  CHECK(t.rows.loop == 0);
  CHECK(t.columns.operand == 1);
  CHECK(t.rows.block == 128);
  CHECK(t.rows.thread == 8);
  CHECK(t.rows.warp == 32);
  CHECK(t.rows.lanes() == 4);
  CHECK(t.columns.lanes() == 8);
  CHECK(t.items == 256);
  CHECK(t.chunk == 8);
  // Two buffers of 8 x (128 + 128) floats.
  CHECK(t.localBytes(matmul()) == 2 * 8 * 256 * 4);
}

TEST_CASE("outer-product tiling: the operands swap with the loop order",
          "[outer-product]") {
  KernelSchedule s = sgemm();
  s.order = {1, 0}; // m on grid x, n on grid y
  OuterProductCheck result = check(matmul(), s);
  REQUIRE(result.tiling);
  CHECK(result.tiling->rows.operand == 1);
  CHECK(result.tiling->columns.operand == 0);
}

TEST_CASE("outer-product tiling: splitting the reduction", "[outer-product]") {
  ContractionShape shape = matmul(); // 256 iterations
  CHECK_FALSE(checkReductionSplit(shape, 1)); // no split: nothing to check
  CHECK(checkReductionSplit(shape, 4) ==
        std::string("split = 4 needs a reduction that starts at its "
                    "aggregation's identity"));
  shape.startsAtIdentity = true;
  CHECK_FALSE(checkReductionSplit(shape, 4));
  CHECK(checkReductionSplit(shape, 3) ==
        std::string("split = 3 does not divide the 256 iterations of the "
                    "reduction"));
}

TEST_CASE("outer-product tiling: each rule's message", "[outer-product]") {
  struct Case {
    const char *what;
    void (*breakIt)(ContractionShape &, KernelSchedule &);
    const char *message;
  };
  const Case cases[] = {
      {"no free loop", [](ContractionShape &c, KernelSchedule &) {
         c.freeLoop[1] = -1;
       },
       "the outer-product tiling needs a contraction with one free loop per "
       "operand"},
      {"vector", [](ContractionShape &, KernelSchedule &s) { s.vector = 8; },
       "the outer-product tiling needs vector = 2 or 4, not 8"},
      {"warp", [](ContractionShape &, KernelSchedule &s) { s.warp = {32, 48}; },
       "warp[1] = 48 must be a multiple of thread[1] = 8 dividing the block "
       "128"},
      {"one operand on both sides",
       [](ContractionShape &c, KernelSchedule &) { c.freeLoop[0] = 1; c.freeLoop[1] = 0; },
       ""},
      {"chunk", [](ContractionShape &c, KernelSchedule &) { c.reduction = 4; },
       "the reduction block block[2] = 8 must be between 1 and the 4 "
       "iterations of the reduction"},
      {"local memory",
       [](ContractionShape &, KernelSchedule &s) { s.block[2] = 32; },
       "the staged tiles need 65536 bytes of local memory, above the 49152 "
       "of the device"},
  };
  for (const Case &c : cases) {
    INFO(c.what);
    ContractionShape shape = matmul();
    KernelSchedule s = sgemm();
    c.breakIt(shape, s);
    OuterProductCheck result = check(shape, s);
    if (*c.message == 0) {
      // Swapped free loops are still one per side: a valid tiling with
      // the operands exchanged.
      REQUIRE(result.tiling);
      CHECK(result.tiling->rows.operand == 1);
      continue;
    }
    CHECK_FALSE(result.tiling);
    CHECK(result.error == c.message);
  }
}

TEST_CASE("outer-product tiling: tensor cores", "[outer-product]") {
  ContractionShape shape = matmul();
  shape.mmaInput = MmaInput::BF16;
  // Operand 1 (B[k, n]) is contiguous along its free loop n.
  shape.contiguousAlongFree[1] = true;
  KernelSchedule s;
  s.block = {128, 128, 32};
  s.thread = {8, 16};
  s.vector = 8;
  s.warp = {64, 64};
  s.buffers = 2;
  s.mma = 1;
  schedule::DeviceProfile device;
  device.localMemBytes = 49152;
  device.computeCapability = 90;
  OuterProductCheck result =
      checkOuterProductTiling(shape, computeGPUGrid({512, 512}, s), s, device);
  INFO(result.error);
  REQUIRE(result.tiling);
  const OuterProductTiling &t = *result.tiling;
  CHECK(t.mma);
  // Lanes of 8 x 4: a warp of 32 per 64 x 64 tile, 4 warps.
  CHECK(t.rows.lanes() == 8);
  CHECK(t.columns.lanes() == 4);
  CHECK(t.items == 128);
  CHECK_FALSE(t.freeMajor[0]);
  CHECK(t.freeMajor[1]);
  // bf16 tiles, each row padded by 8 elements: A [128][32 + 8], B
  // [32][128 + 8], twice.
  CHECK(t.localBytes(shape) == 2 * 2 * (128 * 40 + 32 * 136));

  // A cp.async pipeline of 3 buffers, both operands in aligned 16-byte
  // runs; not with narrower copies or an operand that is not.
  s.buffers = 1;
  s.pipeline = 3;
  shape.copiesBy16Bytes[0] = shape.copiesBy16Bytes[1] = true;
  device.sharedMemOptInBytes = 232448;
  result =
      checkOuterProductTiling(shape, computeGPUGrid({512, 512}, s), s, device);
  INFO(result.error);
  REQUIRE(result.tiling);
  CHECK(result.tiling->pipeline == 3);
  CHECK(result.tiling->localBytes(shape) == 3 * 2 * (128 * 40 + 32 * 136));
  shape.copiesBy16Bytes[1] = false;
  CHECK(checkOuterProductTiling(shape, computeGPUGrid({512, 512}, s), s, device)
            .error == "pipeline = 3 needs operand 1 in runs of 16 aligned "
                      "bytes along its tile's rows");
  shape.copiesBy16Bytes[1] = true;
  s.vector = 4;
  CHECK(checkOuterProductTiling(shape, computeGPUGrid({512, 512}, s), s, device)
            .error == "pipeline = 3 copies 16 bytes at a time: it needs "
                      "vector = 8, not 4");
  s.vector = 8;
  // 3 x 18944 bytes need the shared memory a CUDA block opts in to.
  device.localMemBytes = 49152;
  device.sharedMemOptInBytes = 0;
  CHECK(checkOuterProductTiling(shape, computeGPUGrid({512, 512}, s), s, device)
            .error == "the staged tiles need 56832 bytes of local memory, "
                      "above the 49152 of the device");
  device.sharedMemOptInBytes = 232448;
  CHECK(checkOuterProductTiling(shape, computeGPUGrid({512, 512}, s), s, device)
            .tiling);
  s.pipeline = 0;
  s.buffers = 2;

  // The same on a device without tensor cores, or on f32 operands.
  device.computeCapability = 0;
  CHECK(checkOuterProductTiling(shape, computeGPUGrid({512, 512}, s), s, device)
            .error ==
        "mma = 1 needs tensor cores: a CUDA device of compute capability 8.0 "
        "or newer (--target=ptx)");
  device.computeCapability = 80;
  shape.mmaInput = MmaInput::None;
  CHECK(checkOuterProductTiling(shape, computeGPUGrid({512, 512}, s), s, device)
            .error == "mma = 1 needs a sum of products of two f16 or two bf16 "
                      "operands (two f32 with --allow-tf32), with no guard or "
                      "one that takes or skips aligned runs of 8 reduction "
                      "iterations");
}

TEST_CASE("outer-product tiling: TF32 on wgmma", "[outer-product]") {
  // An f32 matmul where TF32 is allowed; B[k, n] is contiguous along n.
  ContractionShape shape = matmul();
  shape.mmaInput = MmaInput::TF32;
  shape.contiguousAlongFree[1] = true;
  shape.copiesBy16Bytes[0] = shape.copiesBy16Bytes[1] = true;
  KernelSchedule s;
  s.block = {128, 128, 32};
  s.thread = {4, 32};
  s.vector = 4;
  s.warp = {128, 128};
  s.buffers = 1;
  s.pipeline = 4;
  s.mma = 2;
  schedule::DeviceProfile device;
  device.localMemBytes = 49152;
  device.sharedMemOptInBytes = 232448;
  device.computeCapability = 90;
  auto checked = [&] {
    return checkOuterProductTiling(shape, computeGPUGrid({512, 512}, s), s,
                                   device);
  };
  OuterProductCheck result = checked();
  INFO(result.error);
  REQUIRE(result.tiling);
  const OuterProductTiling &t = *result.tiling;
  CHECK(t.wgmma);
  CHECK(t.elementBytes == 4);
  CHECK(t.wgmmaRowElements() == 32);
  CHECK(t.wgmmaK() == 8);
  // Both tiles read along k; B is transposed on its way there.
  CHECK_FALSE(t.freeMajor[0]);
  CHECK_FALSE(t.freeMajor[1]);
  CHECK_FALSE(t.transposed[0]);
  CHECK(t.transposed[1]);
  // Four buffers of f32 rows of 32: (128 + 128) x 32 x 4 bytes each.
  CHECK(t.localBytes(shape) == 4 * 256 * 32 * 4);
  // The transposed operand needs no 16-byte runs: it is not cp.async's.
  shape.copiesBy16Bytes[1] = false;
  CHECK(checked().tiling);
  shape.copiesBy16Bytes[1] = true;

  // Not with mma.sync, a 16-bit chunk, 8-element copies, or a guard along
  // the transposed operand's free loop.
  s.mma = 1;
  s.thread = {8, 16};
  s.warp = {64, 64};
  CHECK(checked().error == "mma = 1 takes f16 and bf16 operands: TF32 runs on "
                           "wgmma (mma = 2)");
  s.mma = 2;
  s.thread = {4, 32};
  s.warp = {128, 128};
  s.block[2] = 64;
  CHECK(checked().error == "with mma = 2, the reduction block block[2] = 64 "
                           "must be 32 (128-byte swizzled rows)");
  s.block[2] = 32;
  s.vector = 8;
  CHECK(checked().error == "pipeline = 4 copies 16 bytes at a time: it needs "
                           "vector = 4, not 8");
  s.vector = 4;
  shape.guardReadsFree[1] = true;
  CHECK(checked().error == "mma = 2 stages operand 1 along its free loop, "
                           "which the guard reads");
}
