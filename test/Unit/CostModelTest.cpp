//===- CostModelTest.cpp - The cost model's ranking and legality ----------===//
//
// Ranking sanity (a staged, register-tiled matmul beats a naive one; an
// elementwise kernel gets wide work-groups; the measured CPU defaults stay
// first), determinism, and that every top candidate passes the GPU
// mapping on the kernels of a few real programs' shapes.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Schedule/CPUDefaultSchedule.h"
#include "tilec/Schedule/CostModel.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "tilec/Schedule/DefaultScheduleRule.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <string>

using namespace tilec;
using namespace tilec::schedule;

namespace {

/// An m x k by k x n matmul of `element`s summed in f32 (16-bit floats
/// extended, as the loop level reads them).
std::string matmulSource(int m, int n, int k,
                         const std::string &element = "f32") {
  auto memref = [&](int rows, int columns) {
    return "memref<" + std::to_string(rows) + "x" + std::to_string(columns) +
           "x" + element + ">";
  };
  std::string a = memref(m, k), b = memref(k, n), c = memref(m, n);
  bool narrow = element != "f32";
  std::string x = narrow ? "%xe" : "%x", y = narrow ? "%ye" : "%y";
  std::string extend =
      narrow ? "        %xe = arith.extf %x : " + element + " to f32\n"
               "        %ye = arith.extf %y : " + element + " to f32\n"
             : "";
  std::string store =
      narrow ? "      %r = arith.truncf %sum : f32 to " + element + "\n"
               "      affine.store %r, %c[%i, %j] : " + c + "\n"
             : "      affine.store %sum, %c[%i, %j] : " + c + "\n";
  return "func.func @f(%a: " + a + ", %b: " + b + ", %c: " + c + ") {\n"
         "  affine.for %i = 0 to " + std::to_string(m) + " {\n"
         "    affine.for %j = 0 to " + std::to_string(n) + " {\n"
         "      %zero = arith.constant 0.0 : f32\n"
         "      %sum = affine.for %k = 0 to " + std::to_string(k) +
         " iter_args(%acc = %zero) -> (f32) {\n"
         "        %x = affine.load %a[%i, %k] : " + a + "\n"
         "        %y = affine.load %b[%k, %j] : " + b + "\n" + extend +
         "        %p = arith.mulf " + x + ", " + y + " : f32\n"
         "        %s = arith.addf %acc, %p : f32\n"
         "        affine.yield %s : f32\n"
         "      }\n" + store +
         "    }\n"
         "  } {tilec.kernel = \"contract_0\"}\n"
         "  return\n"
         "}\n";
}

/// A 3x3 convolution over an NHWC image (h, w, co parallel; kh, kw, ci
/// reduced), as the loop level emits it.
const char *convSource = R"(
func.func @f(%in: memref<1x58x58x32xf32>, %w: memref<3x3x32x64xf32>, %out: memref<1x56x56x64xf32>) {
  affine.for %h = 0 to 56 {
    affine.for %x = 0 to 56 {
      affine.for %co = 0 to 64 {
        %zero = arith.constant 0.0 : f32
        %sum = affine.for %kh = 0 to 3 iter_args(%a0 = %zero) -> (f32) {
          %s1 = affine.for %kw = 0 to 3 iter_args(%a1 = %a0) -> (f32) {
            %s2 = affine.for %ci = 0 to 32 iter_args(%a2 = %a1) -> (f32) {
              %v = affine.load %in[0, %h + %kh, %x + %kw, %ci] : memref<1x58x58x32xf32>
              %u = affine.load %w[%kh, %kw, %ci, %co] : memref<3x3x32x64xf32>
              %p = arith.mulf %v, %u : f32
              %q = arith.addf %a2, %p : f32
              affine.yield %q : f32
            }
            affine.yield %s2 : f32
          }
          affine.yield %s1 : f32
        }
        affine.store %sum, %out[0, %h, %x, %co] : memref<1x56x56x64xf32>
      }
    }
  } {tilec.kernel = "conv_0"}
  return
}
)";

const char *elementwiseSource = R"(
func.func @f(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>) {
  affine.for %i = 0 to 1024 {
    affine.for %j = 0 to 1024 {
      %x = affine.load %a[%i, %j] : memref<1024x1024xf32>
      %y = math.exp %x : f32
      affine.store %y, %b[%i, %j] : memref<1024x1024xf32>
    }
  } {tilec.kernel = "exp_0"}
  return
}
)";

/// A parsed module with one kernel.
struct Kernel {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::affine::AffineForOp root;
  KernelModel model;

  explicit Kernel(const std::string &source) {
    context.loadDialect<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                        mlir::func::FuncDialect, mlir::math::MathDialect,
                        mlir::memref::MemRefDialect>();
    module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    REQUIRE(module);
    module->walk([&](mlir::affine::AffineForOp loop) {
      if (loop->hasAttr(tilec::kernel::KernelName::getNameStr()))
        root = loop;
    });
    REQUIRE(root);
    model = describeKernel(root, getParallelBand(root));
  }
};

/// A mid-size GPU: 16 compute units, 1024 work-items, 48 KiB local memory.
DeviceProfile gpuProfile() {
  DeviceProfile device;
  device.id = "opencl:test:gpu:0";
  device.computeUnits = 16;
  device.clockMHz = 1500;
  device.maxWorkGroupSize = 1024;
  device.maxWorkItemSizes[0] = device.maxWorkItemSizes[1] = 1024;
  device.maxWorkItemSizes[2] = 64;
  device.localMemBytes = 48 * 1024;
  device.subgroupSize = 32;
  device.l2Bytes = 4 << 20;
  return device;
}

int64_t workItems(const KernelSchedule &schedule, size_t loops) {
  int64_t items = 1;
  for (size_t i = 0; i < loops; ++i)
    items *= schedule.blockOf(i) / schedule.threadOf(i);
  return items;
}

} // namespace

TEST_CASE("describeKernel reads a matmul", "[costmodel]") {
  Kernel matmul(matmulSource(64, 32, 16));
  const KernelModel &model = matmul.model;
  CHECK(model.name == "contract_0");
  CHECK(model.parallelExtents == std::vector<int64_t>{64, 32});
  CHECK(model.reductionExtents == std::vector<int64_t>{16});
  REQUIRE(model.operands.size() == 3);
  CHECK(model.operands[0].dependsOn == std::vector<bool>{true, false, true});
  CHECK(model.operands[1].dependsOn == std::vector<bool>{false, true, true});
  CHECK(model.operands[1].contiguousInner);
  CHECK(!model.operands[0].contiguousInner);
  CHECK(model.operands[2].written);
  CHECK(model.operands[0].stageable);
  CHECK(!model.operands[2].stageable);
  CHECK(model.registerReduction);
  CHECK(model.totalFlops == 2.0 * 64 * 32 * 16);
  CHECK(model.uniqueBytes == 4.0 * (64 * 16 + 16 * 32 + 64 * 32));
}

TEST_CASE("An access through a division is not staged", "[costmodel]") {
  // The gradient of a strided convolution reads its input at (y + 1)
  // floordiv 2: from y = 0 to 1 that grows by one, but it is no linear
  // function of y, and the GPU's staging plan refuses it. The model must
  // not offer to stage it.
  Kernel kernel(
      "func.func @f(%a: memref<8x16xf32>, %b: memref<16x8xf32>, "
      "%c: memref<16x8xf32>) {\n"
      "  affine.for %i = 0 to 16 {\n"
      "    affine.for %j = 0 to 8 {\n"
      "      %zero = arith.constant 0.0 : f32\n"
      "      %sum = affine.for %k = 0 to 16 iter_args(%acc = %zero) -> (f32) {\n"
      "        %x = affine.load %a[(%i + 1) floordiv 2, %k] : memref<8x16xf32>\n"
      "        %y = affine.load %b[%k, %j] : memref<16x8xf32>\n"
      "        %p = arith.mulf %x, %y : f32\n"
      "        %s = arith.addf %acc, %p : f32\n"
      "        affine.yield %s : f32\n"
      "      }\n"
      "      affine.store %sum, %c[%i, %j] : memref<16x8xf32>\n"
      "    }\n"
      "  } {tilec.kernel = \"contract_0\"}\n"
      "  return\n"
      "}\n");
  REQUIRE(kernel.model.operands.size() == 3);
  CHECK(!kernel.model.operands[0].stageable);
  CHECK(kernel.model.operands[1].stageable);
}

TEST_CASE("A staged, register-tiled matmul beats a naive one on a GPU",
          "[costmodel]") {
  Kernel matmul(matmulSource(1024, 1024, 1024));
  DeviceProfile device = gpuProfile();
  KernelSchedule naive;
  naive.block = {16, 16};
  naive.thread = {1, 1};
  KernelSchedule tiled;
  tiled.block = {64, 64, 16};
  tiled.thread = {4, 4};
  tiled.stage = {true, true};
  double naiveSeconds =
      estimateSeconds(matmul.model, naive, device, ScheduleKind::GPU);
  double tiledSeconds =
      estimateSeconds(matmul.model, tiled, device, ScheduleKind::GPU);
  CHECK(tiledSeconds < naiveSeconds);
  // The best candidate is about as good as the tiled one or better (the
  // hand-written default may stay first within the 20% trust margin).
  KernelSchedule best =
      rankCandidates(matmul.model, device, ScheduleKind::GPU).front();
  CHECK(estimateSeconds(matmul.model, best, device, ScheduleKind::GPU) <=
        tiledSeconds * 1.2);
}

TEST_CASE("A memory-bound elementwise kernel gets wide work-groups",
          "[costmodel]") {
  Kernel exp(elementwiseSource);
  DeviceProfile device = gpuProfile();
  KernelSchedule best =
      rankCandidates(exp.model, device, ScheduleKind::GPU).front();
  CHECK(workItems(best, 2) >= 2 * device.subgroupSize);
}

TEST_CASE("Every candidate respects the device limits", "[costmodel]") {
  DeviceProfile device = gpuProfile();
  device.maxWorkGroupSize = 256;
  device.maxWorkItemSizes[0] = 128;
  device.localMemBytes = 8192;
  for (const std::string &source :
       {matmulSource(256, 192, 300), std::string(convSource),
        std::string(elementwiseSource)}) {
    Kernel kernel(source);
    std::vector<KernelSchedule> all =
        rankCandidates(kernel.model, device, ScheduleKind::GPU, 100000);
    REQUIRE(!all.empty());
    size_t n = kernel.model.parallelExtents.size();
    for (const KernelSchedule &schedule : all) {
      INFO(schedule.str());
      CHECK(workItems(schedule, std::min<size_t>(n, 3)) <=
            device.maxWorkGroupSize);
      // x is the last loop of the order.
      size_t x = schedule.order.empty() ? n - 1 : size_t(schedule.order.back());
      CHECK(schedule.blockOf(x) / schedule.threadOf(x) <= 128);
      CHECK(schedule.vector <= 16);
      if (schedule.vector > 1) {
        CHECK(schedule.threadOf(x) % schedule.vector == 0);
        // The outer-product tiling gathers the edges of an x the vector
        // does not divide.
        if (!schedule.tilesOuterProduct())
          CHECK(kernel.model.parallelExtents[x] % schedule.vector == 0);
      }
    }
  }
}

TEST_CASE("Rankings are deterministic", "[costmodel]") {
  Kernel conv(convSource);
  DeviceProfile device = gpuProfile();
  CHECK(rankCandidates(conv.model, device, ScheduleKind::GPU) ==
        rankCandidates(conv.model, device, ScheduleKind::GPU));
  CPUFacts facts;
  setSIMDFacts(facts, /*hasAVX512F=*/true, /*hasAVX=*/true);
  DeviceProfile cpu = profileFromCPUFacts(facts);
  CHECK(rankCandidates(conv.model, cpu, ScheduleKind::CPU) ==
        rankCandidates(conv.model, cpu, ScheduleKind::CPU));
}

TEST_CASE("A ranking takes only the candidates its filter accepts",
          "[costmodel]") {
  Kernel conv(convSource);
  DeviceProfile device = gpuProfile();
  auto unstaged = [](const KernelSchedule &schedule) {
    return !llvm::is_contained(schedule.stage, true);
  };
  std::vector<KernelSchedule> all =
      rankCandidates(conv.model, device, ScheduleKind::GPU, 100000);
  std::vector<KernelSchedule> some =
      rankCandidates(conv.model, device, ScheduleKind::GPU, 100000, unstaged);
  REQUIRE(llvm::any_of(all, [&](auto &s) { return !unstaged(s); }));
  CHECK(llvm::all_of(some, unstaged));
  CHECK(size_t(llvm::count_if(all, unstaged)) == some.size());
  // Nothing accepted: the trivial schedule, never an empty ranking.
  std::vector<KernelSchedule> none =
      rankCandidates(conv.model, device, ScheduleKind::GPU, 100000,
                     [](const KernelSchedule &) { return false; });
  CHECK(none == std::vector<KernelSchedule>{KernelSchedule()});
}

/// The size in a sysfs cache file of cpu0 whose level and type match, as
/// bytes; 0 where there is none (not Linux, or no cache facts).
static int64_t sysfsCacheBytes(const std::string &level, bool data) {
  for (int index = 0; index < 8; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::string fileLevel, type, size;
    std::ifstream(dir + "/level") >> fileLevel;
    std::ifstream(dir + "/type") >> type;
    std::ifstream(dir + "/size") >> size;
    if (fileLevel != level || size.empty() ||
        (data ? type != "Data" : type == "Instruction"))
      continue;
    int64_t scale = size.back() == 'K' ? 1024 : size.back() == 'M' ? 1 << 20 : 1;
    return std::stoll(size) * scale;
  }
  return 0;
}

TEST_CASE("Cache sizes as sysfs writes them", "[costmodel]") {
  // A page-sized read pads the text with NULs, which once hid every size.
  CHECK(parseCacheSize(llvm::StringRef("48K\n\0\0", 6)) == 48 * 1024);
  CHECK(parseCacheSize("2048K\n") == 2 << 20);
  CHECK(parseCacheSize("2M") == 2 << 20);
  CHECK(parseCacheSize("512") == 512);
  CHECK(parseCacheSize("") == 0);
  CHECK(parseCacheSize("K") == 0);
  CHECK(parseCacheSize("12Q") == 0);
  CHECK(parseCacheSize("-4K") == 0);
}

TEST_CASE("The host's cache sizes come from sysfs", "[costmodel]") {
  // sysfs files read as a page padded with NULs; the sizes were once
  // never parsed, and every schedule assumed the defaults.
  CPUFacts facts = hostCPUFacts();
  int64_t l1 = sysfsCacheBytes("1", /*data=*/true);
  int64_t l2 = sysfsCacheBytes("2", /*data=*/false);
  CHECK(facts.l1Bytes == (l1 ? l1 : CPUFacts().l1Bytes));
  CHECK(facts.l2Bytes == (l2 ? l2 : CPUFacts().l2Bytes));
}

TEST_CASE("The measured CPU defaults stay first", "[costmodel]") {
  // CPUDefaultSchedule.h's rules were measured on the CPU benchmark; the
  // model ranks them first on its kernels' shapes.
  for (bool avx512 : {true, false}) {
    CPUFacts facts;
    setSIMDFacts(facts, avx512, /*hasAVX=*/true);
    facts.l2Bytes = avx512 ? 2 << 20 : 256 << 10;
    DeviceProfile cpu = profileFromCPUFacts(facts);
    for (const std::string &source :
         {matmulSource(1024, 1024, 1024), matmulSource(64, 1024, 64),
          matmulSource(256, 256, 4096)}) {
      Kernel kernel(source);
      KernelShape shape;
      shape.extents = kernel.model.parallelExtents;
      shape.reductionExtent = kernel.model.reductionExtents.front();
      KernelSchedule hand = defaultCPUSchedule(shape, facts);
      KernelSchedule best =
          rankCandidates(kernel.model, cpu, ScheduleKind::CPU).front();
      INFO(best.str() << " vs " << hand.str());
      CHECK(best == hand);
    }
    // The long reduction's 1 MiB panel, packed, fits AVX-512's 2 MiB L2:
    // its lane tiles outermost (2.1x faster than rows outermost there).
    Kernel longK(matmulSource(256, 256, 4096));
    KernelSchedule best =
        rankCandidates(longK.model, cpu, ScheduleKind::CPU).front();
    INFO(best.str());
    if (avx512)
      CHECK(best.order == std::vector<int64_t>{1, 0});
  }
}

TEST_CASE("The top GPU candidates pass the mapping", "[costmodel]") {
  DeviceProfile device = gpuProfile();
  device.id = "vulkan:test:gpu:0"; // at most 4-wide vectors
  for (const std::string &source :
       {matmulSource(256, 192, 300), matmulSource(100, 36, 7),
        std::string(convSource), std::string(elementwiseSource)}) {
    Kernel kernel(source);
    for (const KernelSchedule &schedule :
         rankCandidates(kernel.model, device, ScheduleKind::GPU, 8)) {
      INFO(schedule.str());
      mlir::OwningOpRef<mlir::ModuleOp> copy = kernel.module->clone();
      copy->walk([&](mlir::affine::AffineForOp loop) {
        if (loop->hasAttr(tilec::kernel::KernelName::getNameStr()))
          tilec::kernel::setKernelSchedule(loop, schedule);
      });
      tilec::kernel::setGPUTarget(*copy, device);
      mlir::PassManager pm(&kernel.context);
      pm.addPass(createTilecMapKernelsToGPUPass());
      CHECK(mlir::succeeded(pm.run(*copy)));
    }
  }
}

namespace {

/// The H200 as its OpenCL driver reports it (bench/gpu/h200-devices.json).
DeviceProfile h200Profile() {
  DeviceProfile device = gpuProfile();
  device.id = "opencl:nvidia:nvidia-h200:0";
  device.computeUnits = 132;
  device.clockMHz = 1980;
  return device;
}

} // namespace

TEST_CASE("Contractions take the outer-product tiling on a known GPU",
          "[costmodel]") {
  DeviceProfile h200 = h200Profile();
  Kernel big(matmulSource(4096, 4096, 4096));
  REQUIRE(big.model.contraction);
  // The SGEMM shape: 128x256 blocks of 8x16, 32x128 subgroup tiles,
  // chunks of 16 in two buffers (on the H200 0.92 of cuBLAS at 4096^3,
  // where 128x128 blocks of 8x8 ran at 0.88).
  KernelSchedule best = chooseDefaultGPUSchedule(big.model, h200);
  INFO(best.str());
  CHECK(best.warp == std::vector<int64_t>{32, 128});
  CHECK(best.block == std::vector<int64_t>{128, 256, 16});
  CHECK(best.thread == std::vector<int64_t>{8, 16});
  CHECK(best.buffers == 2);

  // 1024^3 in 128x128 blocks is 64 work-groups for 132 compute units:
  // smaller blocks fill them (and the 8x16 tile is not offered on so few).
  Kernel small(matmulSource(1024, 1024, 1024));
  KernelSchedule filled = chooseDefaultGPUSchedule(small.model, h200);
  INFO(filled.str());
  REQUIRE(filled.tilesOuterProduct());
  CHECK(filled.thread[0] * filled.thread[1] <= 64);
  CHECK((1024 / filled.block[0]) * (1024 / filled.block[1]) * filled.split >=
        132);

  // Not on a CPU device (staging costs it barriers per work-item), nor
  // when the device is unknown (the rule leaves staging to autotune).
  DeviceProfile cpu = h200;
  cpu.isCPU = true;
  for (const KernelSchedule &schedule :
       rankCandidates(big.model, cpu, ScheduleKind::GPU, 100000))
    CHECK_FALSE(schedule.tilesOuterProduct());
  DeviceProfile unknown = h200;
  unknown.id.clear();
  CHECK_FALSE(chooseDefaultGPUSchedule(big.model, unknown).tilesOuterProduct());

  // A kernel that is no contraction of two operands gets none either.
  Kernel exp(elementwiseSource);
  CHECK_FALSE(exp.model.contraction);
  for (const KernelSchedule &schedule :
       rankCandidates(exp.model, h200, ScheduleKind::GPU, 100000))
    CHECK_FALSE(schedule.tilesOuterProduct());
}

TEST_CASE("16-bit matmuls take tensor cores on a CUDA device of sm_80 on",
          "[costmodel]") {
  // An sm_80 device with the H200's other properties: mma.sync.
  DeviceProfile h200 = h200Profile();
  h200.computeCapability = 80;
  for (const char *element : {"bf16", "f16"}) {
    INFO(element);
    Kernel big(matmulSource(4096, 4096, 4096, element));
    REQUIRE(big.model.contraction);
    KernelSchedule best = chooseDefaultGPUSchedule(big.model, h200);
    INFO(best.str());
    CHECK(best.mma == 1);
    CHECK(best.vector == 8);
    CHECK(best.block[2] % 16 == 0);
    // With the H200's opt-in shared memory: the cp.async pipeline that ran
    // fastest there, 128 x 256 blocks, chunks of 64, 3 buffers (153 KiB).
    DeviceProfile optIn = h200;
    optIn.sharedMemOptInBytes = 232448;
    KernelSchedule deep = chooseDefaultGPUSchedule(big.model, optIn);
    INFO(deep.str());
    CHECK(deep.pipeline == 3);
    CHECK(deep.block == std::vector<int64_t>{128, 256, 64});
    CHECK(deep.warp == std::vector<int64_t>{64, 64});
    // No tensor cores below sm_80 (nor on OpenCL, which has no compute
    // capability): the SIMT outer product.
    DeviceProfile turing = h200;
    turing.computeCapability = 75;
    for (const KernelSchedule &schedule :
         rankCandidates(big.model, turing, ScheduleKind::GPU, 100000))
      CHECK(schedule.mma == 0);
    // sm_90: Hopper's wgmma, with the schedule that ran fastest on the
    // H200 (256 x 128 blocks of two 128 x 128 warpgroup tiles, chunks of 64
    // in four cp.async buffers, 192 KiB); never where it cannot run.
    DeviceProfile hopper = optIn;
    hopper.computeCapability = 90;
    KernelSchedule warpgroups = chooseDefaultGPUSchedule(big.model, hopper);
    INFO(warpgroups.str());
    CHECK(warpgroups.mma == 2);
    CHECK(warpgroups.pipeline == 4);
    CHECK(warpgroups.block == std::vector<int64_t>{256, 128, 64});
    CHECK(warpgroups.warp == std::vector<int64_t>{128, 128});
    CHECK(warpgroups.thread == std::vector<int64_t>{4, 32});
    for (int capability : {80, 100}) {
      DeviceProfile other = hopper;
      other.computeCapability = capability;
      for (const KernelSchedule &schedule :
           rankCandidates(big.model, other, ScheduleKind::GPU, 100000))
        CHECK(schedule.mma != 2);
    }
  }
  // f32 operands do not take them (TF32 would round them)...
  Kernel sgemm(matmulSource(4096, 4096, 4096));
  for (const KernelSchedule &schedule :
       rankCandidates(sgemm.model, h200, ScheduleKind::GPU, 100000))
    CHECK(schedule.mma == 0);
  // ... unless the module allows TF32 (--allow-tf32): then wgmma on sm_90,
  // chunks of 32 f32 copied 16 bytes (4) at a time; still never mma.sync.
  Kernel tf32("module attributes {tilec.allow_tf32} {\n" +
              matmulSource(4096, 4096, 4096) + "}\n");
  DeviceProfile hopper = h200;
  hopper.sharedMemOptInBytes = 232448;
  hopper.computeCapability = 90;
  KernelSchedule warpgroups = chooseDefaultGPUSchedule(tf32.model, hopper);
  INFO(warpgroups.str());
  CHECK(warpgroups.mma == 2);
  CHECK(warpgroups.block[2] == 32);
  CHECK(warpgroups.vector == 4);
  hopper.computeCapability = 80;
  for (const KernelSchedule &schedule :
       rankCandidates(tf32.model, hopper, ScheduleKind::GPU, 100000))
    CHECK(schedule.mma == 0);
}

TEST_CASE("Small outputs of long reductions are split on a GPU",
          "[costmodel]") {
  // 256 x 256 results of 16384 products: 128 x 128 blocks would be 4
  // work-groups for 132 compute units.
  Kernel longK(matmulSource(256, 256, 16384));
  KernelSchedule best = chooseDefaultGPUSchedule(longK.model, h200Profile());
  INFO(best.str());
  REQUIRE(best.tilesOuterProduct());
  CHECK(best.split > 1);
  CHECK(16384 % best.split == 0);
  int64_t groups = (256 / best.block[0]) * (256 / best.block[1]) * best.split;
  CHECK(groups >= 132);
  // A square 4096^3 fills the device without.
  Kernel big(matmulSource(4096, 4096, 4096));
  CHECK(chooseDefaultGPUSchedule(big.model, h200Profile()).split == 1);
}

TEST_CASE("Outer-product schedules the device cannot run are not ranked",
          "[costmodel]") {
  DeviceProfile device = h200Profile();
  device.localMemBytes = 8192;
  Kernel big(matmulSource(2048, 2048, 2048));
  KernelSchedule s;
  s.block = {128, 128, 16};
  s.thread = {8, 8};
  s.vector = 4;
  s.warp = {32, 64};
  s.buffers = 2;
  // 2 x 16 x 256 floats of tiles: 32 KiB, above 8 KiB.
  CHECK(std::isinf(estimateSeconds(big.model, s, device, ScheduleKind::GPU)));
  for (const KernelSchedule &schedule :
       rankCandidates(big.model, device, ScheduleKind::GPU, 100000))
    if (schedule.tilesOuterProduct()) {
      int64_t chunk = schedule.block[2];
      CHECK(2 * chunk * (schedule.block[0] + schedule.block[1]) * 4 <= 8192);
    }
}

TEST_CASE("Device profiles", "[costmodel]") {
  rt::DeviceInfo info;
  info.id = "opencl:pocl:cpu:0";
  info.type = "cpu";
  info.computeUnits = 8;
  info.clockMHz = 3000;
  info.maxWorkGroupSize = 4096;
  info.maxWorkItemSizes = {4096, 4096, 4096};
  info.localMemBytes = 65536;
  info.preferredVectorWidthFloat = 16;
  info.cacheBytes = 2 << 20;
  DeviceProfile profile = profileFromDeviceInfo(info);
  CHECK(profile.id == info.id);
  CHECK(profile.isCPU);
  CHECK(profile.computeUnits == 8);
  CHECK(profile.localMemBytes == 65536);
  // Kernels never get more than kMaxKernelWorkGroupSize work-items, so the
  // profile's limits stop there.
  CHECK(profile.maxWorkGroupSize == kMaxKernelWorkGroupSize);
  CHECK(profile.maxWorkItemSizes[2] == kMaxKernelWorkGroupSize);
  CHECK(profile.vectorBytes == 64);
  CHECK(profile.l2Bytes == 2 << 20);
  // 8 cores x 3 GHz x 16 lanes x 2 pipes x 2 flops.
  CHECK(estimatedPeakFlops(profile) == Approx(8 * 3e9 * 16 * 2 * 2));
  profile.peakBytesPerSecond = 1e11;
  CHECK(estimatedPeakBytes(profile) == 1e11);
  CHECK(!hostCPUProfile().id.empty());
}

TEST_CASE("The SPIR-V version of a Vulkan device profile",
          "[costmodel]") {
  // Vulkan 1.1 consumes SPIR-V 1.3, 1.2 1.5, 1.3 and later 1.6; another
  // runtime's version keeps the default, 1.3.
  auto spirvOf = [](const std::string &apiVersion) {
    rt::DeviceInfo info;
    info.apiVersion = apiVersion;
    return profileFromDeviceInfo(info).spirvVersionMinor;
  };
  CHECK(spirvOf("Vulkan 1.0.61") == 0);
  CHECK(spirvOf("Vulkan 1.1.0") == 3);
  CHECK(spirvOf("Vulkan 1.2.198") == 5);
  CHECK(spirvOf("Vulkan 1.3.230") == 6);
  CHECK(spirvOf("Vulkan 1.4.312") == 6);
  CHECK(spirvOf("OpenCL 3.0 CUDA") == 3);
  CHECK(spirvOf("") == 3);
}

TEST_CASE("Subgroup shuffles in a device profile", "[costmodel]") {
  auto shufflesOf = [](const std::string &runtime, unsigned subgroupSize,
                       bool reported) {
    rt::DeviceInfo info;
    info.runtime = runtime;
    info.subgroupSize = subgroupSize;
    info.subgroupShuffle = reported;
    return profileFromDeviceInfo(info).subgroupShuffle;
  };
  // A CUDA warp shuffles whether or not an older device file says so.
  CHECK(shufflesOf("cuda", 32, false));
  CHECK(shufflesOf("gl", 32, true));
  CHECK_FALSE(shufflesOf("gl", 32, false));
  CHECK_FALSE(shufflesOf("gl", 0, true)); // no subgroup size known
  CHECK_FALSE(shufflesOf("opencl", 32, false));
  CHECK_FALSE(schedule::DeviceProfile().subgroupShuffle);
}

/// A row sum of `rows` x `columns` floats, the form tilec-gpu-fuse-rows
/// gives a lone row reduction.
static std::string rowSumSource(int rows, int columns) {
  std::string r = std::to_string(rows), c = std::to_string(columns);
  return R"(
func.func @f(%a: memref<)" + r + "x" + c + R"(xf32>, %s: memref<)" + r +
         R"(xf32>) {
  affine.for %r = 0 to )" + r + R"( {
    %zero = arith.constant 0.0 : f32
    %sum = affine.for %c = 0 to )" + c + R"( iter_args(%acc = %zero) -> (f32) {
      %x = affine.load %a[%r, %c] : memref<)" + r + "x" + c + R"(xf32>
      %n = arith.addf %acc, %x : f32
      affine.yield %n : f32
    }
    affine.store %sum, %s[%r] : memref<)" + r + R"(xf32>
  } {tilec.kernel = "k"}
  return
}
)";
}

TEST_CASE("Row nests take a work-group per row on a GPU", "[costmodel]") {
  Kernel rows(rowSumSource(4096, 4096));
  CHECK(rows.model.rowColumns == 4096);
  CHECK(rows.model.rowReductions == 1);
  // 16 columns per work-item, within NVIDIA's 256 for such kernels.
  KernelSchedule best = chooseDefaultGPUSchedule(rows.model, h200Profile());
  INFO(best.str());
  CHECK(best.row == 256);
  for (const KernelSchedule &schedule :
       rankCandidates(rows.model, h200Profile(), ScheduleKind::GPU, 1000)) {
    CHECK(schedule.row >= 32);
    CHECK(schedule.row <= 256);
    CHECK(4096 / schedule.row <= 64);
  }
  // Short rows, CPU devices and unknown devices keep the other mappings.
  Kernel shortRows(rowSumSource(4096, 32));
  CHECK(chooseDefaultGPUSchedule(shortRows.model, h200Profile()).row == 0);
  schedule::DeviceProfile cpu = h200Profile();
  cpu.isCPU = true;
  CHECK(chooseDefaultGPUSchedule(rows.model, cpu).row == 0);
  CHECK(chooseDefaultGPUSchedule(rows.model, schedule::DeviceProfile()).row ==
        0);
}
