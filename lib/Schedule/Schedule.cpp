//===- Schedule.cpp - Kernel schedules as MLIR attributes -----------------===//
//
// The round trip between KernelSchedule and the `tilec.schedule` dictionary
// that the schedule-applying passes read.
//
//===----------------------------------------------------------------------===//

#include "tilec/Schedule/Schedule.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec::schedule;

namespace {

template <typename T>
void printList(llvm::raw_ostream &os, llvm::StringRef key,
               const std::vector<T> &values) {
  os << key << "=[";
  llvm::interleave(values, os, ",");
  os << "]";
}

/// Reads an i64 array entry (its values are checked by validateSchedule).
bool readSizes(DictionaryAttr dict, llvm::StringRef key,
               std::vector<int64_t> &out, std::string &error) {
  Attribute attr = dict.get(key);
  if (!attr)
    return true;
  auto array = dyn_cast<DenseI64ArrayAttr>(attr);
  if (!array) {
    error = ("'" + key + "' must be an array of i64").str();
    return false;
  }
  out.assign(array.asArrayRef().begin(), array.asArrayRef().end());
  return true;
}

bool readScalar(DictionaryAttr dict, llvm::StringRef key, int64_t &out,
                std::string &error) {
  Attribute attr = dict.get(key);
  if (!attr)
    return true;
  auto value = dyn_cast<IntegerAttr>(attr);
  if (!value) {
    error = ("'" + key + "' must be an integer >= 1").str();
    return false;
  }
  out = value.getInt();
  return true;
}

/// Every value of list `key` is at least `min`.
bool checkAtLeast(llvm::StringRef key, const std::vector<int64_t> &values,
                  int64_t min, std::string &error) {
  for (int64_t v : values)
    if (v < min) {
      error = ("'" + key + "' holds " + llvm::Twine(v) + ", below " +
               llvm::Twine(min))
                  .str();
      return false;
    }
  return true;
}

} // namespace

std::string KernelSchedule::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  printList(os, "block", block);
  printList(os << " ", "thread", thread);
  os << " vector=" << vector << " unroll=" << unroll;
  std::vector<int> stageBits(stage.begin(), stage.end());
  printList(os << " ", "stage", stageBits);
  printList(os << " ", "order", order);
  return text;
}

DictionaryAttr tilec::schedule::toAttr(MLIRContext *context,
                                       const KernelSchedule &schedule) {
  Builder b(context);
  SmallVector<NamedAttribute> entries = {
      b.getNamedAttr("block", b.getDenseI64ArrayAttr(schedule.block)),
      b.getNamedAttr("thread", b.getDenseI64ArrayAttr(schedule.thread)),
      b.getNamedAttr("vector", b.getI64IntegerAttr(schedule.vector)),
      b.getNamedAttr("unroll", b.getI64IntegerAttr(schedule.unroll)),
      b.getNamedAttr("stage", b.getDenseBoolArrayAttr(SmallVector<bool>(
                                  schedule.stage.begin(), schedule.stage.end()))),
      b.getNamedAttr("order", b.getDenseI64ArrayAttr(schedule.order))};
  return b.getDictionaryAttr(entries);
}

bool tilec::schedule::fromAttr(DictionaryAttr attr, KernelSchedule &schedule,
                               std::string &error) {
  static const llvm::StringRef known[] = {"block",  "thread", "vector",
                                          "unroll", "stage",  "order"};
  for (NamedAttribute entry : attr)
    if (!llvm::is_contained(known, entry.getName().strref())) {
      error = ("unknown schedule entry '" + entry.getName().strref() + "'")
                  .str();
      return false;
    }
  KernelSchedule s;
  if (!readSizes(attr, "block", s.block, error) ||
      !readSizes(attr, "thread", s.thread, error) ||
      !readScalar(attr, "vector", s.vector, error) ||
      !readScalar(attr, "unroll", s.unroll, error) ||
      !readSizes(attr, "order", s.order, error))
    return false;
  if (Attribute stage = attr.get("stage")) {
    auto bits = dyn_cast<DenseBoolArrayAttr>(stage);
    if (!bits) {
      error = "'stage' must be an array of bool";
      return false;
    }
    s.stage.assign(bits.asArrayRef().begin(), bits.asArrayRef().end());
  }
  if (!validateSchedule(s, error))
    return false;
  schedule = std::move(s);
  return true;
}

bool tilec::schedule::validateSchedule(const KernelSchedule &schedule,
                                       std::string &error) {
  if (!checkAtLeast("block", schedule.block, 0, error) ||
      !checkAtLeast("thread", schedule.thread, 1, error) ||
      !checkAtLeast("order", schedule.order, 0, error))
    return false;
  for (auto [key, value] :
       {std::pair<llvm::StringRef, int64_t>{"vector", schedule.vector},
        {"unroll", schedule.unroll}})
    if (value < 1) {
      error = ("'" + key + "' must be an integer >= 1").str();
      return false;
    }
  std::vector<int64_t> sorted = schedule.order;
  llvm::sort(sorted);
  for (auto [i, v] : llvm::enumerate(sorted))
    if (v != static_cast<int64_t>(i)) {
      error = "'order' must be a permutation of 0..N-1";
      return false;
    }
  return true;
}

FailureOr<std::optional<KernelSchedule>>
tilec::schedule::getKernelSchedule(Operation *kernel) {
  Attribute attr = kernel->getAttr(kScheduleAttrName);
  if (!attr)
    return std::optional<KernelSchedule>();
  auto dict = dyn_cast<DictionaryAttr>(attr);
  KernelSchedule schedule;
  std::string error = "must be a dictionary";
  if (!dict || !fromAttr(dict, schedule, error))
    return kernel->emitError("malformed ")
           << kScheduleAttrName << ": " << error;
  return std::optional<KernelSchedule>(std::move(schedule));
}

void tilec::schedule::setKernelSchedule(Operation *kernel,
                                        const KernelSchedule &schedule) {
  kernel->setAttr(kScheduleAttrName, toAttr(kernel->getContext(), schedule));
}
