//===- KernelAttrs.cpp - #tilec.schedule and #tilec.gpu_target --*- C++ -*-===//
//
// The schedule attribute: its list syntax, its verifier (validateSchedule's
// rules, the same as a schedule file's) and the one conversion to and from
// schedule::KernelSchedule, the plain data schedule files and the cost model
// use. The GPU target attribute: its verifier and the one conversion to and
// from schedule::DeviceProfile.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace tilec::kernel;
using tilec::schedule::KernelSchedule;

//===----------------------------------------------------------------------===//
// List syntax: `[1, 2, 3]`, `[true, false]`, `[]`
//===----------------------------------------------------------------------===//

static ParseResult parseElement(AsmParser &parser, int64_t &value) {
  return parser.parseInteger(value);
}

static ParseResult parseElement(AsmParser &parser, bool &value) {
  if (succeeded(parser.parseOptionalKeyword("true"))) {
    value = true;
    return success();
  }
  value = false;
  return parser.parseKeyword("false", " or 'true'");
}

template <typename T>
static FailureOr<SmallVector<T>> parseBracketList(AsmParser &parser) {
  SmallVector<T> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parseElement(parser, values.emplace_back());
      }))
    return failure();
  return values;
}

template <typename T>
static void printBracketList(AsmPrinter &printer, ArrayRef<T> values) {
  printer << "[";
  llvm::interleaveComma(values, printer.getStream(), [&](T value) {
    if constexpr (std::is_same_v<T, bool>)
      printer << (value ? "true" : "false");
    else
      printer << value;
  });
  printer << "]";
}

//===----------------------------------------------------------------------===//
// Flags and reals: `true`, `1.5e+09`
//===----------------------------------------------------------------------===//

static FailureOr<bool> parseFlag(AsmParser &parser) {
  bool value;
  if (parseElement(parser, value))
    return failure();
  return value;
}

static FailureOr<APFloat> parseReal(AsmParser &parser) {
  double value;
  if (parser.parseFloat(value))
    return failure();
  return APFloat(value);
}

/// Enough digits that the value reads back the same, always as a float
/// literal (MLIR's parser takes `1980.0` for a float, not `1980`).
static void printReal(AsmPrinter &printer, const APFloat &value) {
  std::string text = llvm::formatv("{0}", llvm::format("%.17g",
                                                value.convertToDouble()));
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0";
  printer << text;
}

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/Kernel/IR/KernelAttrs.cpp.inc"

void KernelDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilec/Dialect/Kernel/IR/KernelAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

/// The plain data of a schedule's parameters (the verifier sees them before
/// the attribute exists).
static KernelSchedule toSchedule(ArrayRef<int64_t> block,
                                 ArrayRef<int64_t> thread, int64_t vector,
                                 int64_t unroll, ArrayRef<bool> stage,
                                 ArrayRef<int64_t> order,
                                 ArrayRef<int64_t> warp, int64_t buffers,
                                 int64_t split, int64_t row, int64_t mma,
                                 int64_t pipeline) {
  KernelSchedule s;
  s.mma = mma;
  s.pipeline = pipeline;
  s.split = split;
  s.row = row;
  s.warp.assign(warp.begin(), warp.end());
  s.buffers = buffers;
  s.block.assign(block.begin(), block.end());
  s.thread.assign(thread.begin(), thread.end());
  s.vector = vector;
  s.unroll = unroll;
  s.stage.assign(stage.begin(), stage.end());
  s.order.assign(order.begin(), order.end());
  return s;
}

ScheduleAttr ScheduleAttr::get(MLIRContext *context,
                               const KernelSchedule &schedule) {
  SmallVector<bool> stage(schedule.stage.begin(), schedule.stage.end());
  return get(context, ArrayRef<int64_t>(schedule.block),
             ArrayRef<int64_t>(schedule.thread), schedule.vector,
             schedule.unroll, ArrayRef<bool>(stage),
             ArrayRef<int64_t>(schedule.order),
             ArrayRef<int64_t>(schedule.warp), schedule.buffers,
             schedule.split, schedule.row, schedule.mma, schedule.pipeline);
}

ScheduleAttr
ScheduleAttr::getChecked(function_ref<InFlightDiagnostic()> emitError,
                         MLIRContext *context,
                         const KernelSchedule &schedule) {
  SmallVector<bool> stage(schedule.stage.begin(), schedule.stage.end());
  return getChecked(emitError, context, ArrayRef<int64_t>(schedule.block),
                    ArrayRef<int64_t>(schedule.thread), schedule.vector,
                    schedule.unroll, ArrayRef<bool>(stage),
                    ArrayRef<int64_t>(schedule.order),
                    ArrayRef<int64_t>(schedule.warp), schedule.buffers,
                    schedule.split, schedule.row, schedule.mma,
                    schedule.pipeline);
}

KernelSchedule ScheduleAttr::getSchedule() const {
  return toSchedule(getBlock(), getThread(), getVector(), getUnroll(),
                    getStage(), getOrder(), getWarp(), getBuffers(),
                    getSplit(), getRow(), getMma(), getPipeline());
}

LogicalResult
ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     ArrayRef<int64_t> block, ArrayRef<int64_t> thread,
                     int64_t vector, int64_t unroll, ArrayRef<bool> stage,
                     ArrayRef<int64_t> order, ArrayRef<int64_t> warp,
                     int64_t buffers, int64_t split, int64_t row,
                     int64_t mma, int64_t pipeline) {
  std::string error;
  if (!tilec::schedule::validateSchedule(
          toSchedule(block, thread, vector, unroll, stage, order, warp,
                     buffers, split, row, mma, pipeline),
          error))
    return emitError() << "invalid #tilec.schedule: " << error;
  return success();
}

//===----------------------------------------------------------------------===//
// GPUTargetAttr
//===----------------------------------------------------------------------===//

using tilec::schedule::DeviceProfile;

GPUTargetAttr GPUTargetAttr::get(MLIRContext *context,
                                 const DeviceProfile &p) {
  return get(context, p.id, p.isCPU, p.computeUnits, APFloat(p.clockMHz),
             p.maxWorkGroupSize, p.maxWorkItemSizes[0], p.maxWorkItemSizes[1],
             p.maxWorkItemSizes[2], p.localMemBytes, p.subgroupSize,
             p.preferredVectorWidth, p.l1Bytes, p.l2Bytes, p.cacheLineBytes,
             p.vectorBytes, p.vectorRegisters, APFloat(p.peakBytesPerSecond),
             APFloat(p.peakFlopsPerSecond), p.spirvVersionMinor, p.fp16, p.fp64,
             p.int8, p.int16, p.int64, p.storage8Bit, p.storage16Bit,
             p.subgroups, p.subgroupShuffle, p.infNanPreserve16,
             p.infNanPreserve32, p.infNanPreserve64, p.denormPreserve16,
             p.denormPreserve32, p.denormPreserve64, p.maxLoopIterations,
             p.computeCapability, p.sharedMemOptInBytes);
}

DeviceProfile GPUTargetAttr::getProfile() const {
  DeviceProfile p;
  p.id = getDevice().str();
  p.isCPU = getCpu();
  p.computeUnits = getComputeUnits();
  p.clockMHz = getClockMhz().convertToDouble();
  p.maxWorkGroupSize = getMaxWorkgroupSize();
  p.maxWorkItemSizes[0] = getMaxWorkitemSizeX();
  p.maxWorkItemSizes[1] = getMaxWorkitemSizeY();
  p.maxWorkItemSizes[2] = getMaxWorkitemSizeZ();
  p.localMemBytes = getLocalMemBytes();
  p.subgroupSize = getSubgroupSize();
  p.preferredVectorWidth = getPreferredVectorWidth();
  p.l1Bytes = getL1Bytes();
  p.l2Bytes = getL2Bytes();
  p.cacheLineBytes = getCacheLineBytes();
  p.vectorBytes = getVectorBytes();
  p.vectorRegisters = getVectorRegisters();
  p.peakBytesPerSecond = getPeakBytesPerSecond().convertToDouble();
  p.peakFlopsPerSecond = getPeakFlopsPerSecond().convertToDouble();
  p.spirvVersionMinor = getSpirvVersion();
  p.fp16 = getFp16();
  p.fp64 = getFp64();
  p.int8 = getInt8();
  p.int16 = getInt16();
  p.int64 = getInt64();
  p.storage8Bit = getStorage8();
  p.storage16Bit = getStorage16();
  p.subgroups = getSubgroups();
  p.subgroupShuffle = getSubgroupShuffle();
  p.infNanPreserve16 = getInfNanPreserve_16();
  p.infNanPreserve32 = getInfNanPreserve_32();
  p.infNanPreserve64 = getInfNanPreserve_64();
  p.denormPreserve16 = getDenormPreserve_16();
  p.denormPreserve32 = getDenormPreserve_32();
  p.denormPreserve64 = getDenormPreserve_64();
  p.maxLoopIterations = getMaxLoopIterations();
  p.computeCapability = getComputeCapability();
  p.sharedMemOptInBytes = getSharedMemOptInBytes();
  return p;
}

LogicalResult GPUTargetAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, StringRef, bool,
    int64_t computeUnits, APFloat clockMHz, int64_t maxWorkGroupSize,
    int64_t itemsX, int64_t itemsY, int64_t itemsZ, int64_t localMemBytes,
    int64_t subgroupSize, int64_t preferredVectorWidth, int64_t l1Bytes,
    int64_t l2Bytes, int64_t cacheLineBytes, int64_t vectorBytes,
    int64_t vectorRegisters, APFloat peakBytes, APFloat peakFlops,
    int64_t spirvVersion, bool, bool, bool, bool, bool, bool, bool, bool, bool,
    bool, bool, bool, bool, bool, bool, uint64_t, int64_t computeCapability,
    int64_t sharedMemOptInBytes) {
  auto atLeast = [&](int64_t value, int64_t least,
                     StringRef field) -> LogicalResult {
    if (value >= least)
      return success();
    return emitError() << "invalid #tilec.gpu_target: '" << field
                       << "' is " << value << ", below " << least;
  };
  struct Bound {
    int64_t value, least;
    StringRef field;
  } bounds[] = {{computeUnits, 1, "compute_units"},
                {maxWorkGroupSize, 1, "max_workgroup_size"},
                {itemsX, 1, "max_workitem_size_x"},
                {itemsY, 1, "max_workitem_size_y"},
                {itemsZ, 1, "max_workitem_size_z"},
                {localMemBytes, 0, "local_mem_bytes"},
                {subgroupSize, 1, "subgroup_size"},
                {preferredVectorWidth, 1, "preferred_vector_width"},
                {l1Bytes, 0, "l1_bytes"},
                {l2Bytes, 0, "l2_bytes"},
                {cacheLineBytes, 1, "cache_line_bytes"},
                {vectorBytes, 1, "vector_bytes"},
                {vectorRegisters, 1, "vector_registers"},
                {spirvVersion, 0, "spirv_version"},
                {computeCapability, 0, "compute_capability"},
                {sharedMemOptInBytes, 0, "shared_mem_opt_in_bytes"}};
  for (const Bound &bound : bounds)
    if (failed(atLeast(bound.value, bound.least, bound.field)))
      return failure();
  if (spirvVersion > 6)
    return emitError() << "invalid #tilec.gpu_target: 'spirv_version' is "
                       << spirvVersion << ", above 6 (SPIR-V 1.6)";
  for (auto [real, field] :
       {std::pair{clockMHz, "clock_mhz"},
        std::pair{peakBytes, "peak_bytes_per_second"},
        std::pair{peakFlops, "peak_flops_per_second"}})
    if (double value = real.convertToDouble(); !(value >= 0) ||
                                                  std::isinf(value))
      return emitError() << "invalid #tilec.gpu_target: '" << field
                         << "' must be a finite number >= 0";
  return success();
}
