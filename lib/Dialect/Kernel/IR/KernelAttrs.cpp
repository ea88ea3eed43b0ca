//===- KernelAttrs.cpp - #tilec.schedule ------------------------*- C++ -*-===//
//
// The schedule attribute: its list syntax, its verifier (validateSchedule's
// rules, the same as a schedule file's) and the one conversion to and from
// schedule::KernelSchedule, the plain data schedule files and the cost model
// use.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

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
                                 ArrayRef<int64_t> order) {
  KernelSchedule s;
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
             ArrayRef<int64_t>(schedule.order));
}

ScheduleAttr
ScheduleAttr::getChecked(function_ref<InFlightDiagnostic()> emitError,
                         MLIRContext *context,
                         const KernelSchedule &schedule) {
  SmallVector<bool> stage(schedule.stage.begin(), schedule.stage.end());
  return getChecked(emitError, context, ArrayRef<int64_t>(schedule.block),
                    ArrayRef<int64_t>(schedule.thread), schedule.vector,
                    schedule.unroll, ArrayRef<bool>(stage),
                    ArrayRef<int64_t>(schedule.order));
}

KernelSchedule ScheduleAttr::getSchedule() const {
  return toSchedule(getBlock(), getThread(), getVector(), getUnroll(),
                    getStage(), getOrder());
}

LogicalResult
ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     ArrayRef<int64_t> block, ArrayRef<int64_t> thread,
                     int64_t vector, int64_t unroll, ArrayRef<bool> stage,
                     ArrayRef<int64_t> order) {
  std::string error;
  if (!tilec::schedule::validateSchedule(
          toSchedule(block, thread, vector, unroll, stage, order), error))
    return emitError() << "invalid #tilec.schedule: " << error;
  return success();
}
