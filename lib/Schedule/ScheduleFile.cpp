//===- ScheduleFile.cpp - Reading, checking and writing schedule files ----===//
//
// A schedule file is written by `tilec autotune` but is meant to be read,
// diffed and edited by people, and it outlives the tilec that wrote it. So
// reading checks everything, once, and stops at the first problem with a
// message that names the file and the entry ("s.json: devices.D.F.schedule:
// 'thread' holds 0, below 1"). Unknown keys are errors: a misspelt field
// would otherwise be dropped silently and the schedule misapplied. The rules
// a schedule itself obeys are validateSchedule's, shared with the
// `tilec.schedule` attribute.
//
// Writing relies on nlohmann::json's object type being a sorted map: keys
// come out sorted, so two files with the same entries are the same text.
//
//===----------------------------------------------------------------------===//

#include "tilec/Schedule/ScheduleFile.h"

#include "tilec/Support/FileIO.h"
#include "tilec/Support/Json.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdint>
#include <initializer_list>
#include <limits>

using namespace tilec;
using namespace tilec::schedule;
using json = nlohmann::json;

namespace {

constexpr const char *kFormatName = "tilec-schedules";

/// Walks one schedule file's JSON tree; stops at the first error, which
/// names the file and the path to the offending value.
class ScheduleFileReader : private JsonErrorTrail {
public:
  explicit ScheduleFileReader(std::string name)
      : JsonErrorTrail(std::move(name)) {}

  /// The whole file.
  bool readFile(const json &root, ScheduleFile &file);
  /// One schedule object; `where` is the path to it.
  bool readSchedule(const json &value, const std::string &where,
                    KernelSchedule &schedule);
  using JsonErrorTrail::message;

private:

  bool checkKeys(const json &object, const std::string &where,
                 std::initializer_list<const char *> allowed);
  bool readInt(const json &value, const std::string &where, int64_t &out);
  bool readIntList(const json &object, const std::string &where,
                   const char *key, std::vector<int64_t> &out);
  bool readString(const json &object, const std::string &where, const char *key,
                  std::string &out);
  bool readSeconds(const json &object, const std::string &where,
                   const char *key, double &out);
  bool readEntry(const json &value, const std::string &where,
                 ScheduleEntry &entry);
};

/// parseJson's result into `out`, or its message into `error`.
bool parseJsonInto(const std::string &text, const std::string &name, json &out,
                   std::string &error) {
  Result<json> parsed = parseJson(text, name);
  if (!parsed) {
    error = parsed.message();
    return false;
  }
  out = std::move(*parsed);
  return true;
}

/// "2026-11-30": four digits, two, two.
bool isDate(const std::string &text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-')
    return false;
  for (size_t i = 0; i < text.size(); ++i)
    if (i != 4 && i != 7 && !std::isdigit(static_cast<unsigned char>(text[i])))
      return false;
  return true;
}

/// A fingerprint as tilec-kernel-fingerprint-kernels prints it: 16 lowercase hex
/// digits. Anything else could never match a kernel.
bool isFingerprint(const std::string &text) {
  if (text.size() != 16)
    return false;
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c)) && (c < 'a' || c > 'f'))
      return false;
  return true;
}

/// A short description of a JSON value for messages.
std::string describe(const json &value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

json scheduleObject(const KernelSchedule &schedule) {
  json object{{"block", schedule.block},   {"thread", schedule.thread},
              {"vector", schedule.vector}, {"unroll", schedule.unroll},
              {"stage", schedule.stage},   {"order", schedule.order}};
  // The outer-product tiling's fields only where used, so that the files
  // of other schedules read as before.
  if (!schedule.warp.empty())
    object["warp"] = schedule.warp;
  if (schedule.buffers != 1)
    object["buffers"] = schedule.buffers;
  if (schedule.split != 1)
    object["split"] = schedule.split;
  if (schedule.row != 0)
    object["row"] = schedule.row;
  if (schedule.mma != 0)
    object["mma"] = schedule.mma;
  if (schedule.pipeline != 0)
    object["pipeline"] = schedule.pipeline;
  return object;
}

bool ScheduleFileReader::checkKeys(
    const json &object, const std::string &where,
    std::initializer_list<const char *> allowed) {
  if (!object.is_object())
    return fail(where, "must be an object, not " + describe(object));
  for (const auto &item : object.items()) {
    bool known = false;
    for (const char *key : allowed)
      known = known || item.key() == key;
    if (!known)
      return fail(where, "unknown key '" + item.key() + "'");
  }
  return true;
}

bool ScheduleFileReader::readInt(const json &value, const std::string &where,
                                 int64_t &out) {
  if (!value.is_number_integer())
    return fail(where, "must be an integer, not " + describe(value));
  if (value.is_number_unsigned() &&
      value.get<uint64_t>() >
          static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    return fail(where, "is too large");
  out = value.get<int64_t>();
  return true;
}

bool ScheduleFileReader::readIntList(const json &object,
                                     const std::string &where, const char *key,
                                     std::vector<int64_t> &out) {
  auto found = object.find(key);
  if (found == object.end())
    return true;
  std::string path = at(where, key);
  if (!found->is_array())
    return fail(path, "must be an array of integers, not " + describe(*found));
  out.clear();
  for (size_t i = 0; i < found->size(); ++i) {
    int64_t value = 0;
    if (!readInt((*found)[i], path + "[" + std::to_string(i) + "]", value))
      return false;
    out.push_back(value);
  }
  return true;
}

bool ScheduleFileReader::readString(const json &object,
                                    const std::string &where, const char *key,
                                    std::string &out) {
  auto found = object.find(key);
  if (found == object.end())
    return true;
  if (!found->is_string())
    return fail(at(where, key), "must be a string, not " + describe(*found));
  out = found->get<std::string>();
  return true;
}

bool ScheduleFileReader::readSeconds(const json &object,
                                     const std::string &where, const char *key,
                                     double &out) {
  auto found = object.find(key);
  if (found == object.end())
    return true;
  if (!found->is_number() || found->get<double>() < 0)
    return fail(at(where, key),
                "must be a number of seconds >= 0, not " + describe(*found));
  out = found->get<double>();
  return true;
}

bool ScheduleFileReader::readSchedule(const json &value,
                                      const std::string &where,
                                      KernelSchedule &schedule) {
  if (!checkKeys(value, where,
                 {"block", "thread", "vector", "unroll", "stage", "order",
                  "warp", "buffers", "split", "row", "mma",
                  "pipeline"}))
    return false;
  KernelSchedule s;
  if (!readIntList(value, where, "block", s.block) ||
      !readIntList(value, where, "thread", s.thread) ||
      !readIntList(value, where, "order", s.order) ||
      !readIntList(value, where, "warp", s.warp))
    return false;
  for (auto [key, field] :
       {std::pair<const char *, int64_t *>{"vector", &s.vector},
        {"unroll", &s.unroll}, {"buffers", &s.buffers}, {"split", &s.split},
        {"row", &s.row}, {"mma", &s.mma},
         {"pipeline", &s.pipeline}})
    if (auto found = value.find(key);
        found != value.end() && !readInt(*found, at(where, key), *field))
      return false;
  if (auto found = value.find("stage"); found != value.end()) {
    std::string path = at(where, "stage");
    if (!found->is_array())
      return fail(path,
                  "must be an array of booleans, not " + describe(*found));
    for (size_t i = 0; i < found->size(); ++i) {
      if (!(*found)[i].is_boolean())
        return fail(path + "[" + std::to_string(i) + "]",
                    "must be true or false, not " + describe((*found)[i]));
      s.stage.push_back((*found)[i].get<bool>());
    }
  }
  std::string invalid;
  if (!validateSchedule(s, invalid))
    return fail(where, invalid);
  schedule = std::move(s);
  return true;
}

bool ScheduleFileReader::readEntry(const json &value, const std::string &where,
                                   ScheduleEntry &entry) {
  if (!checkKeys(value, where,
                 {"kernel", "target", "schedule", "seconds", "default_seconds",
                  "date", "tilec_version"}))
    return false;
  auto schedule = value.find("schedule");
  if (schedule == value.end())
    return fail(where, "has no 'schedule'");
  if (!readSchedule(*schedule, at(where, "schedule"), entry.schedule) ||
      !readString(value, where, "kernel", entry.kernel) ||
      !readString(value, where, "target", entry.target) ||
      !readString(value, where, "date", entry.date) ||
      !readString(value, where, "tilec_version", entry.tilecVersion) ||
      !readSeconds(value, where, "seconds", entry.seconds) ||
      !readSeconds(value, where, "default_seconds", entry.defaultSeconds))
    return false;
  if (!entry.date.empty() && !isDate(entry.date))
    return fail(at(where, "date"),
                "must be a date YYYY-MM-DD, not '" + entry.date + "'");
  return true;
}

bool ScheduleFileReader::readFile(const json &root, ScheduleFile &file) {
  if (!checkKeys(root, "", {"format", "version", "devices"}))
    return false;
  auto format = root.find("format");
  if (format == root.end())
    return fail("", std::string("not a schedule file: no 'format' (expected "
                                "\"") +
                        kFormatName + "\")");
  if (*format != kFormatName)
    return fail("format", std::string("is ") + describe(*format) +
                              ", expected \"" + kFormatName + "\"");
  auto version = root.find("version");
  if (version == root.end())
    return fail("", "has no 'version'");
  if (!version->is_number_integer() || *version != kScheduleFileVersion)
    return fail("version", "is " + describe(*version) +
                               ", but this tilec reads version " +
                               std::to_string(kScheduleFileVersion));
  auto devices = root.find("devices");
  if (devices == root.end())
    return fail("", "has no 'devices'");
  if (!devices->is_object())
    return fail("devices", "must be an object, not " + describe(*devices));
  for (const auto &device : devices->items()) {
    std::string where = "devices." + device.key();
    if (device.key().empty())
      return fail("devices", "a device id is empty");
    if (!device.value().is_object())
      return fail(where, "must be an object, not " + describe(device.value()));
    for (const auto &kernel : device.value().items()) {
      if (!isFingerprint(kernel.key()))
        return fail(where, "'" + kernel.key() +
                               "' is not a kernel fingerprint (16 lowercase "
                               "hex digits)");
      ScheduleEntry entry;
      if (!readEntry(kernel.value(), at(where, kernel.key()), entry))
        return false;
      file.devices[device.key()][kernel.key()] = std::move(entry);
    }
  }
  return true;
}

} // namespace

const ScheduleEntry *
ScheduleFile::lookup(const std::string &deviceId,
                     const std::string &fingerprint) const {
  auto device = devices.find(deviceId);
  if (device == devices.end())
    return nullptr;
  auto entry = device->second.find(fingerprint);
  return entry == device->second.end() ? nullptr : &entry->second;
}

void ScheduleFile::merge(const std::string &deviceId,
                         const std::string &fingerprint,
                         const ScheduleEntry &entry) {
  devices[deviceId][fingerprint] = entry;
}

std::string tilec::schedule::scheduleToJson(const KernelSchedule &schedule) {
  return scheduleObject(schedule).dump(-1, ' ', false,
                                       json::error_handler_t::replace);
}

Result<KernelSchedule>
tilec::schedule::scheduleFromJson(const std::string &text,
                                  const std::string &where) {
  json value;
  std::string error;
  if (!parseJsonInto(text, where, value, error))
    return Result<KernelSchedule>::error(error);
  // `where` names the file and the entry already; the reader adds nothing.
  ScheduleFileReader reader(where);
  KernelSchedule schedule;
  if (!reader.readSchedule(value, "", schedule))
    return Result<KernelSchedule>::error(reader.message());
  return schedule;
}

std::string tilec::schedule::printScheduleFile(const ScheduleFile &file) {
  json devices = json::object();
  for (const auto &[deviceId, entries] : file.devices) {
    json kernels = json::object();
    for (const auto &[fingerprint, entry] : entries)
      kernels[fingerprint] = {{"kernel", entry.kernel},
                              {"target", entry.target},
                              {"schedule", scheduleObject(entry.schedule)},
                              {"seconds", entry.seconds},
                              {"default_seconds", entry.defaultSeconds},
                              {"date", entry.date},
                              {"tilec_version", entry.tilecVersion}};
    devices[deviceId] = std::move(kernels);
  }
  json root = {{"format", kFormatName},
               {"version", kScheduleFileVersion},
               {"devices", std::move(devices)}};
  // Replace, not throw, on invalid UTF-8 in a name: this library has no
  // exceptions, and a mangled kernel name is only informative.
  return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

Result<ScheduleFile>
tilec::schedule::parseScheduleFile(const std::string &text,
                                   const std::string &name) {
  json root;
  std::string error;
  if (!parseJsonInto(text, name, root, error))
    return Result<ScheduleFile>::error(error);
  ScheduleFileReader reader(name);
  ScheduleFile file;
  if (!reader.readFile(root, file))
    return Result<ScheduleFile>::error(reader.message());
  file.path = name;
  return file;
}

Result<ScheduleFile>
tilec::schedule::readScheduleFile(const std::string &path) {
  Result<std::string> bytes = readFileBytes(path);
  if (!bytes)
    return Result<ScheduleFile>::error(bytes.message());
  return parseScheduleFile(*bytes, path);
}

Status tilec::schedule::writeScheduleFile(const std::string &path,
                                          const ScheduleFile &file) {
  return writeFileAtomically(path, printScheduleFile(file));
}
