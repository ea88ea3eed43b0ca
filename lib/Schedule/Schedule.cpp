//===- Schedule.cpp - The rules every kernel schedule obeys ---------------===//
//
// validateSchedule, shared by the #tilec.schedule verifier and the schedule
// file reader, and the one-line text form of a schedule.
//
//===----------------------------------------------------------------------===//

#include "tilec/Schedule/Schedule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec::schedule;

namespace {

template <typename T>
void printList(llvm::raw_ostream &os, llvm::StringRef key,
               const std::vector<T> &values) {
  os << key << "=[";
  llvm::interleave(values, os, ",");
  os << "]";
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
  if (!warp.empty())
    printList(os << " ", "warp", warp);
  if (buffers != 1)
    os << " buffers=" << buffers;
  if (split != 1)
    os << " split=" << split;
  if (row != 0)
    os << " row=" << row;
  if (mma != 0)
    os << " mma=" << mma;
  if (pipeline != 0)
    os << " pipeline=" << pipeline;
  return text;
}

bool tilec::schedule::validateSchedule(const KernelSchedule &schedule,
                                       std::string &error) {
  if (!checkAtLeast("block", schedule.block, 0, error) ||
      !checkAtLeast("thread", schedule.thread, 1, error) ||
      !checkAtLeast("order", schedule.order, 0, error) ||
      !checkAtLeast("warp", schedule.warp, 1, error))
    return false;
  if (schedule.buffers != 1 && schedule.buffers != 2) {
    error = "'buffers' must be 1 or 2";
    return false;
  }
  if (schedule.mma < 0 || schedule.mma > 2) {
    error = "'mma' must be 0, 1 or 2";
    return false;
  }
  if (schedule.mma != 0 && schedule.warp.empty()) {
    error = "'mma' needs the outer-product tiling's 'warp'";
    return false;
  }
  if (schedule.pipeline != 0 &&
      (schedule.pipeline < 3 || schedule.pipeline > 6)) {
    error = "'pipeline' must be 0 or 3 to 6";
    return false;
  }
  if (schedule.pipeline != 0 &&
      (schedule.mma == 0 || schedule.buffers != 1)) {
    error = "'pipeline' needs 'mma' and replaces 'buffers'";
    return false;
  }
  if (schedule.mma == 2 && schedule.pipeline == 0) {
    error = "'mma' 2 (wgmma) needs a 'pipeline'";
    return false;
  }
  if (schedule.row < 0) {
    error = "'row' must be an integer >= 0";
    return false;
  }
  for (auto [key, value] :
       {std::pair<llvm::StringRef, int64_t>{"vector", schedule.vector},
        {"unroll", schedule.unroll}, {"split", schedule.split}})
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
