//===- FuzzSchedule.cpp - libFuzzer entry point for schedule files --------===//
//
// Feeds arbitrary text to parseScheduleFile (what --schedule and autotune
// read) and to scheduleFromJson (one schedule object, as autotune's tuning
// folders hold it). What is accepted must print and parse back to the same
// value; what is rejected must give an error naming the file.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "tilec/Schedule/ScheduleFile.h"

#include <cstddef>
#include <cstdint>

using namespace tilec;
using namespace tilec::schedule;

static void fuzzScheduleFile(const std::string &text) {
  Result<ScheduleFile> file = parseScheduleFile(text, fuzz::kFileName);
  if (!file) {
    fuzz::checkLocated(file.message());
    return;
  }
  std::string printed = printScheduleFile(*file);
  Result<ScheduleFile> again = parseScheduleFile(printed, fuzz::kFileName);
  fuzz::check(again.ok(), "printScheduleFile wrote a file parseScheduleFile "
                          "rejects");
  fuzz::check(printScheduleFile(*again) == printed,
              "a schedule file changed through printing and parsing");
}

static void fuzzOneSchedule(const std::string &text) {
  Result<KernelSchedule> schedule = scheduleFromJson(text, fuzz::kFileName);
  if (!schedule) {
    fuzz::checkLocated(schedule.message());
    return;
  }
  Result<KernelSchedule> again =
      scheduleFromJson(scheduleToJson(*schedule), fuzz::kFileName);
  fuzz::check(again.ok() && *again == *schedule,
              "a schedule changed through scheduleToJson and "
              "scheduleFromJson");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  fuzzScheduleFile(text);
  fuzzOneSchedule(text);
  return 0;
}
