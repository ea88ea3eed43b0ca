//===- ScheduleFileTest.cpp - The schedule file ---------------------------===//
//
// A schedule file printed and parsed back is the same; merging keeps every
// other entry; writing is atomic; every way a file can be wrong is rejected
// with a message that names the file and the entry; applying a file puts
// schedules only on the kernels of its device.
//
//===----------------------------------------------------------------------===//

#include "tilec/Schedule/ScheduleFile.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "tilec/Support/FileIO.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <dirent.h>
#include <unistd.h>

using namespace tilec;
using namespace tilec::schedule;
using json = nlohmann::json;

namespace {

constexpr const char *kDevice = "opencl:pocl:cpu-x:0";
constexpr const char *kFingerprint = "026c6791287ff337";

ScheduleEntry sampleEntry() {
  ScheduleEntry entry;
  entry.kernel = "matmul_C";
  entry.target = "opencl";
  entry.schedule.block = {64, 64, 16};
  entry.schedule.thread = {4, 4};
  entry.schedule.vector = 4;
  entry.schedule.unroll = 2;
  entry.schedule.stage = {true, false};
  entry.schedule.order = {1, 0};
  entry.schedule.warp = {32, 64};
  entry.schedule.buffers = 2;
  entry.schedule.split = 4;
  entry.schedule.row = 64;
  entry.schedule.mma = 1;
  entry.seconds = 0.00123;
  entry.defaultSeconds = 0.0031;
  entry.date = "2026-11-30";
  entry.tilecVersion = "0.2.0-dev";
  return entry;
}

ScheduleFile sampleFile() {
  ScheduleFile file;
  file.merge(kDevice, kFingerprint, sampleEntry());
  ScheduleEntry cpu = sampleEntry();
  cpu.target = "llvm-x86";
  file.merge("cpu:host:intel-xeon:0", "00000000000000ff", cpu);
  return file;
}

void requireSameEntry(const ScheduleEntry &a, const ScheduleEntry &b) {
  CHECK(a.kernel == b.kernel);
  CHECK(a.target == b.target);
  CHECK(a.schedule == b.schedule);
  CHECK(a.seconds == b.seconds);
  CHECK(a.defaultSeconds == b.defaultSeconds);
  CHECK(a.date == b.date);
  CHECK(a.tilecVersion == b.tilecVersion);
}

/// The sample file as JSON, for tests that break one part of it.
json sampleJson() { return json::parse(printScheduleFile(sampleFile())); }

/// The error of parsing `root` as "s.json", or "" if it parses.
std::string errorOf(const json &root) {
  Result<ScheduleFile> parsed = parseScheduleFile(root.dump(), "s.json");
  return parsed ? "" : parsed.message();
}

/// The sample with the schedule of the opencl entry replaced by `schedule`.
std::string scheduleErrorOf(const json &schedule) {
  json root = sampleJson();
  root["devices"][kDevice][kFingerprint]["schedule"] = schedule;
  return errorOf(root);
}

/// A fresh empty folder under /tmp.
std::string makeTempDir() {
  char name[] = "/tmp/tilec-schedule-test-XXXXXX";
  REQUIRE(::mkdtemp(name) != nullptr);
  return name;
}

/// The names in `dir`, without . and ..
std::vector<std::string> listDir(const std::string &dir) {
  std::vector<std::string> names;
  DIR *handle = ::opendir(dir.c_str());
  REQUIRE(handle != nullptr);
  while (dirent *entry = ::readdir(handle)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..")
      names.push_back(name);
  }
  ::closedir(handle);
  return names;
}

/// Two kernels of one function at the loop level; the second has the
/// fingerprint of the sample's opencl entry, the first another one.
constexpr const char *kLoopModule = R"mlir(
func.func @main(%a: memref<8xf32>, %b: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %v = affine.load %a[%i] : memref<8xf32>
    affine.store %v, %b[%i] : memref<8xf32>
  } {tilec.fingerprint = "1111111111111111", tilec.kernel = "copy"}
  affine.for %i = 0 to 8 {
    %v = affine.load %b[%i] : memref<8xf32>
    affine.store %v, %a[%i] : memref<8xf32>
  } {tilec.fingerprint = "026c6791287ff337", tilec.kernel = "back"}
  return
}
)mlir";

mlir::OwningOpRef<mlir::ModuleOp> parseLoops(mlir::MLIRContext &context) {
  context.loadDialect<mlir::affine::AffineDialect, mlir::func::FuncDialect>();
  return mlir::parseSourceString<mlir::ModuleOp>(kLoopModule, &context);
}

} // namespace

TEST_CASE("schedule file: print and parse round trip", "[schedule]") {
  ScheduleFile file = sampleFile();
  std::string text = printScheduleFile(file);
  Result<ScheduleFile> parsed = parseScheduleFile(text, "s.json");
  REQUIRE(parsed);
  CHECK(parsed->path == "s.json");
  REQUIRE(parsed->devices.size() == 2);
  const ScheduleEntry *entry = parsed->lookup(kDevice, kFingerprint);
  REQUIRE(entry);
  requireSameEntry(*entry, sampleEntry());
  CHECK(printScheduleFile(*parsed) == text);
  // Diff-friendly: sorted keys, indented, a final newline.
  CHECK(text.find("\"devices\"") < text.find("\"format\""));
  CHECK(text.find("\"format\"") < text.find("\"version\""));
  CHECK(text.find("\n  \"devices\"") != std::string::npos);
  CHECK(text.back() == '\n');
}

TEST_CASE("schedule file: lookup by device and fingerprint", "[schedule]") {
  ScheduleFile file = sampleFile();
  CHECK(file.lookup(kDevice, kFingerprint));
  CHECK_FALSE(file.lookup("opencl:pocl:cpu-y:0", kFingerprint));
  CHECK_FALSE(file.lookup(kDevice, "00000000000000ff"));
}

TEST_CASE("schedule file: merge keeps every other entry", "[schedule]") {
  ScheduleFile file = sampleFile();
  ScheduleEntry other = sampleEntry();
  other.kernel = "softmax";
  other.schedule.block = {32};
  file.merge(kDevice, "abcdefabcdef0123", other);
  ScheduleEntry replaced = sampleEntry();
  replaced.seconds = 0.0005;
  file.merge(kDevice, kFingerprint, replaced);
  REQUIRE(file.devices.size() == 2);
  REQUIRE(file.devices[kDevice].size() == 2);
  CHECK(file.lookup(kDevice, kFingerprint)->seconds == 0.0005);
  CHECK(file.lookup(kDevice, "abcdefabcdef0123")->kernel == "softmax");
  CHECK(file.lookup("cpu:host:intel-xeon:0", "00000000000000ff"));
}

TEST_CASE("schedule file: a schedule as JSON and back", "[schedule]") {
  KernelSchedule schedule = sampleEntry().schedule;
  Result<KernelSchedule> back =
      scheduleFromJson(scheduleToJson(schedule), "candidate 3");
  REQUIRE(back);
  CHECK(*back == schedule);
  // Missing keys take the defaults.
  Result<KernelSchedule> empty = scheduleFromJson("{}", "c");
  REQUIRE(empty);
  CHECK(*empty == KernelSchedule());
  Result<KernelSchedule> bad = scheduleFromJson("{\"vector\": 0}", "c.json");
  REQUIRE_FALSE(bad);
  CHECK(bad.message() == "c.json: 'vector' must be an integer >= 1");
  Result<KernelSchedule> notJson = scheduleFromJson("{", "c.json");
  REQUIRE_FALSE(notJson);
  CHECK(notJson.message().rfind("c.json: not valid JSON", 0) == 0);
}

TEST_CASE("schedule file: write is atomic and read back", "[schedule]") {
  std::string dir = makeTempDir();
  std::string path = dir + "/schedules.json";
  REQUIRE(writeScheduleFile(path, sampleFile()).ok());
  ScheduleFile file = sampleFile();
  file.merge(kDevice, "abcdefabcdef0123", sampleEntry());
  REQUIRE(writeScheduleFile(path, file).ok());
  // Only the file itself: no temporary left beside it.
  CHECK(listDir(dir) == std::vector<std::string>{"schedules.json"});
  Result<ScheduleFile> read = readScheduleFile(path);
  REQUIRE(read);
  CHECK(read->path == path);
  CHECK(read->devices[kDevice].size() == 2);
  CHECK(printScheduleFile(*read) == printScheduleFile(file));
  // A folder that does not exist: an error, nothing written.
  Status failed = writeScheduleFile(dir + "/missing/s.json", file);
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.message().find(dir + "/missing/s.json: cannot write") == 0);
  CHECK(listDir(dir).size() == 1);
  ::unlink(path.c_str());
  ::rmdir(dir.c_str());
}

TEST_CASE("schedule file: a missing file is an error", "[schedule]") {
  Result<ScheduleFile> read = readScheduleFile("/nonexistent/s.json");
  REQUIRE_FALSE(read);
  CHECK(read.message().find("/nonexistent/s.json: cannot read") == 0);
}

TEST_CASE("schedule file: the file's schema errors", "[schedule]") {
  CHECK(parseScheduleFile("{\"format\": ", "s.json")
            .message()
            .rfind("s.json: not valid JSON: ", 0) == 0);
  CHECK(parseScheduleFile("", "s.json")
            .message()
            .rfind("s.json: not valid JSON", 0) == 0);
  CHECK(errorOf(json::array()) == "s.json: must be an object, not []");

  json root = sampleJson();
  root.erase("format");
  CHECK(errorOf(root) == "s.json: not a schedule file: no 'format' "
                         "(expected \"tilec-schedules\")");
  root = sampleJson();
  root["format"] = "tilec-manifest";
  CHECK(errorOf(root) == "s.json: format: is \"tilec-manifest\", expected "
                         "\"tilec-schedules\"");
  root = sampleJson();
  root["version"] = 2;
  CHECK(errorOf(root) ==
        "s.json: version: is 2, but this tilec reads version 1");
  root["version"] = "1";
  CHECK(errorOf(root) ==
        "s.json: version: is \"1\", but this tilec reads version 1");
  root.erase("version");
  CHECK(errorOf(root) == "s.json: has no 'version'");
  root = sampleJson();
  root["comment"] = "x";
  CHECK(errorOf(root) == "s.json: unknown key 'comment'");
  root = sampleJson();
  root.erase("devices");
  CHECK(errorOf(root) == "s.json: has no 'devices'");
  root["devices"] = json::array();
  CHECK(errorOf(root) == "s.json: devices: must be an object, not []");
  root["devices"] = {{"", json::object()}};
  CHECK(errorOf(root) == "s.json: devices: a device id is empty");
  root["devices"] = {{kDevice, 3}};
  CHECK(errorOf(root) ==
        "s.json: devices.opencl:pocl:cpu-x:0: must be an object, not 3");
  // An empty file and a device without entries are fine.
  root["devices"] = json::object();
  CHECK(errorOf(root) == "");
  root["devices"] = {{kDevice, json::object()}};
  CHECK(errorOf(root) == "");
}

// Found while writing tilec-fuzz-schedule: describing a "format" of a
// million nested arrays in the error message overflowed the stack (tilec
// --schedule crashed).
TEST_CASE("schedule file: deeply nested values are an error and no crash",
          "[schedule]") {
  size_t depth = 1000000;
  std::string text = "{\"format\": " + std::string(depth, '[') +
                     std::string(depth, ']') + "}";
  Result<ScheduleFile> read = parseScheduleFile(text, "s.json");
  REQUIRE_FALSE(read);
  CHECK(read.message().rfind("s.json: JSON nested more than", 0) == 0);
}

TEST_CASE("schedule file: fingerprints and entries", "[schedule]") {
  std::string where = std::string("s.json: devices.") + kDevice;
  for (const char *bad : {"026c6791287ff33", "026c6791287ff3377",
                          "026C6791287FF337", "026c6791287ff33g"}) {
    json root = sampleJson();
    root["devices"][kDevice][bad] =
        sampleJson()["devices"][kDevice][kFingerprint];
    CHECK(errorOf(root) == where + ": '" + bad +
                               "' is not a kernel fingerprint (16 lowercase "
                               "hex digits)");
  }
  std::string entryWhere = where + "." + kFingerprint;
  auto entryError = [&](const std::string &key, const json &value) {
    json root = sampleJson();
    if (value.is_null())
      root["devices"][kDevice][kFingerprint].erase(key);
    else
      root["devices"][kDevice][kFingerprint][key] = value;
    return errorOf(root);
  };
  CHECK(entryError("schedule", nullptr) == entryWhere + ": has no 'schedule'");
  CHECK(entryError("typo", 1) == entryWhere + ": unknown key 'typo'");
  CHECK(entryError("kernel", 7) ==
        entryWhere + ".kernel: must be a string, not 7");
  CHECK(entryError("target", json::array()) ==
        entryWhere + ".target: must be a string, not []");
  CHECK(entryError("seconds", -1) ==
        entryWhere + ".seconds: must be a number of seconds >= 0, not -1");
  CHECK(entryError("default_seconds", "fast") ==
        entryWhere +
            ".default_seconds: must be a number of seconds >= 0, not \"fast\"");
  CHECK(entryError("date", "30.11.2026") ==
        entryWhere + ".date: must be a date YYYY-MM-DD, not '30.11.2026'");
  CHECK(entryError("tilec_version", false) ==
        entryWhere + ".tilec_version: must be a string, not false");
  // Only "schedule" is required.
  json root = sampleJson();
  root["devices"][kDevice][kFingerprint] = {{"schedule", json::object()}};
  CHECK(errorOf(root) == "");
}

TEST_CASE("schedule file: schedule errors", "[schedule]") {
  std::string where = std::string("s.json: devices.") + kDevice + "." +
                      kFingerprint + ".schedule";
  CHECK(scheduleErrorOf(json::array()) ==
        where + ": must be an object, not []");
  CHECK(scheduleErrorOf({{"tile", {1}}}) == where + ": unknown key 'tile'");
  CHECK(scheduleErrorOf({{"block", 4}}) ==
        where + ".block: must be an array of integers, not 4");
  CHECK(scheduleErrorOf({{"block", {4, 2.5}}}) ==
        where + ".block[1]: must be an integer, not 2.5");
  CHECK(scheduleErrorOf({{"thread", {"4"}}}) ==
        where + ".thread[0]: must be an integer, not \"4\"");
  CHECK(scheduleErrorOf({{"block", {64, -1}}}) ==
        where + ": 'block' holds -1, below 0");
  CHECK(scheduleErrorOf({{"thread", {0}}}) ==
        where + ": 'thread' holds 0, below 1");
  CHECK(scheduleErrorOf({{"vector", 0}}) ==
        where + ": 'vector' must be an integer >= 1");
  CHECK(scheduleErrorOf({{"unroll", -2}}) ==
        where + ": 'unroll' must be an integer >= 1");
  CHECK(scheduleErrorOf({{"unroll", true}}) ==
        where + ".unroll: must be an integer, not true");
  CHECK(scheduleErrorOf({{"vector", 18446744073709551615ull}}) ==
        where + ".vector: is too large");
  CHECK(scheduleErrorOf({{"stage", {true, 1}}}) ==
        where + ".stage[1]: must be true or false, not 1");
  CHECK(scheduleErrorOf({{"stage", true}}) ==
        where + ".stage: must be an array of booleans, not true");
  CHECK(scheduleErrorOf({{"order", {0, 0}}}) ==
        where + ": 'order' must be a permutation of 0..N-1");
  CHECK(scheduleErrorOf({{"order", {1, 2}}}) ==
        where + ": 'order' must be a permutation of 0..N-1");
  CHECK(scheduleErrorOf({{"order", {-1}}}) ==
        where + ": 'order' holds -1, below 0");
  CHECK(scheduleErrorOf({{"order", {2, 0, 1}}}) == "");
  CHECK(scheduleErrorOf({{"warp", {32, 0}}}) ==
        where + ": 'warp' holds 0, below 1");
  CHECK(scheduleErrorOf({{"warp", 32}}) ==
        where + ".warp: must be an array of integers, not 32");
  CHECK(scheduleErrorOf({{"buffers", 3}}) ==
        where + ": 'buffers' must be 1 or 2");
  CHECK(scheduleErrorOf({{"buffers", 0}}) ==
        where + ": 'buffers' must be 1 or 2");
  CHECK(scheduleErrorOf({{"split", 0}}) ==
        where + ": 'split' must be an integer >= 1");
  CHECK(scheduleErrorOf({{"warp", {32, 64}}, {"buffers", 2}, {"split", 16}}) ==
        "");
  CHECK(scheduleErrorOf({{"row", -2}}) ==
        where + ": 'row' must be an integer >= 0");
  CHECK(scheduleErrorOf({{"row", 256}}) == "");
  CHECK(scheduleErrorOf({{"mma", 3}}) == where + ": 'mma' must be 0, 1 or 2");
  CHECK(scheduleErrorOf({{"mma", 1}}) ==
        where + ": 'mma' needs the outer-product tiling's 'warp'");
  CHECK(scheduleErrorOf({{"warp", {32, 16}}, {"mma", 1}}) == "");
  CHECK(scheduleErrorOf({{"warp", {32, 16}}, {"mma", 1}, {"pipeline", 7}}) ==
        where + ": 'pipeline' must be 0 or 3 to 6");
  CHECK(scheduleErrorOf({{"warp", {32, 16}}, {"mma", 1}, {"buffers", 2},
                         {"pipeline", 3}}) ==
        where + ": 'pipeline' needs 'mma' and replaces 'buffers'");
  CHECK(scheduleErrorOf({{"warp", {64, 256}}, {"mma", 2}}) ==
        where + ": 'mma' 2 (wgmma) needs a 'pipeline'");
  CHECK(scheduleErrorOf({{"warp", {64, 256}}, {"mma", 2}, {"pipeline", 4}}) ==
        "");
  CHECK(scheduleErrorOf({{"warp", {32, 16}}, {"mma", 1}, {"pipeline", 4}}) == "");
}

TEST_CASE("schedule file: applied to the kernels of its device", "[schedule]") {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = parseLoops(context);
  REQUIRE(module);
  std::vector<ScheduleUse> uses =
      applyScheduleFile(*module, sampleFile(), kDevice);
  REQUIRE(uses.size() == 2);
  CHECK(uses[0].kernel == "copy");
  CHECK(uses[0].fingerprint == "1111111111111111");
  CHECK_FALSE(uses[0].fromFile);
  CHECK(uses[1].kernel == "back");
  CHECK(uses[1].fromFile);
  CHECK_FALSE(uses[1].preset);

  auto func = *module->getOps<mlir::func::FuncOp>().begin();
  auto loops = llvm::to_vector(func.getOps<mlir::affine::AffineForOp>());
  REQUIRE(loops.size() == 2);
  CHECK_FALSE(loops[0]->hasAttr(tilec::kernel::Schedule::getNameStr()));
  auto schedule = tilec::kernel::getKernelSchedule(loops[1]);
  REQUIRE(mlir::succeeded(schedule));
  REQUIRE(schedule->has_value());
  CHECK(**schedule == sampleEntry().schedule);

  // Applying again keeps the schedule the kernel already has.
  uses = applyScheduleFile(*module, sampleFile(), kDevice);
  CHECK(uses[1].preset);
  CHECK_FALSE(uses[1].fromFile);
}

TEST_CASE("schedule file: another device's entries are not applied",
          "[schedule]") {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = parseLoops(context);
  REQUIRE(module);
  std::vector<ScheduleUse> uses =
      applyScheduleFile(*module, sampleFile(), "opencl:pocl:cpu-other:0");
  REQUIRE(uses.size() == 2);
  CHECK_FALSE(uses[0].fromFile);
  CHECK_FALSE(uses[1].fromFile);
  bool anySchedule = false;
  module->walk([&](mlir::Operation *op) {
    anySchedule = anySchedule || op->hasAttr(tilec::kernel::Schedule::getNameStr());
  });
  CHECK_FALSE(anySchedule);
}

TEST_CASE("schedule file: applySchedules sets candidates by fingerprint",
          "[schedule]") {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module = parseLoops(context);
  REQUIRE(module);
  KernelSchedule first, second;
  first.block = {4};
  second.block = {2};
  CHECK(applySchedules(*module, {{"1111111111111111", first}}) == 1);
  // A second call replaces the candidate; unknown fingerprints count not.
  CHECK(applySchedules(*module, {{"1111111111111111", second},
                                 {"ffffffffffffffff", first}}) == 1);
  auto func = *module->getOps<mlir::func::FuncOp>().begin();
  auto loops = llvm::to_vector(func.getOps<mlir::affine::AffineForOp>());
  auto schedule = tilec::kernel::getKernelSchedule(loops[0]);
  REQUIRE(mlir::succeeded(schedule));
  REQUIRE(schedule->has_value());
  CHECK((*schedule)->block == std::vector<int64_t>{2});
  CHECK_FALSE(loops[1]->hasAttr(tilec::kernel::Schedule::getNameStr()));
}
