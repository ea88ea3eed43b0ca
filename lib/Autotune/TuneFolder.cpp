//===- TuneFolder.cpp - The folder of remote tuning -----------------------===//
//
// Reading checks every field, because the folder travels between machines
// and may be edited or truncated on the way: a wrong field is an error that
// names the file and the field, never a guess.
//
//===----------------------------------------------------------------------===//

#include "tilec/Autotune/TuneFolder.h"

#include "tilec/Support/FileIO.h"
#include "tilec/Support/Json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

using namespace tilec;
using namespace tilec::tune;
using json = nlohmann::ordered_json;

namespace {

/// Thrown by the field readers below and turned into an error message by
/// the parse functions; never leaves this file.
struct FieldError {
  std::string message;
};

const json &field(const json &object, const char *key,
                  const std::string &where) {
  auto it = object.find(key);
  if (it == object.end())
    throw FieldError{where + ": missing field '" + key + "'"};
  return *it;
}

std::string stringField(const json &object, const char *key,
                        const std::string &where) {
  const json &value = field(object, key, where);
  if (!value.is_string())
    throw FieldError{where + "." + key + ": must be a string"};
  return value.get<std::string>();
}

const json &objectField(const json &object, const char *key,
                        const std::string &where) {
  const json &value = field(object, key, where);
  if (!value.is_object())
    throw FieldError{where + "." + key + ": must be an object"};
  return value;
}

const json &arrayField(const json &object, const char *key,
                       const std::string &where) {
  const json &value = field(object, key, where);
  if (!value.is_array())
    throw FieldError{where + "." + key + ": must be an array"};
  return value;
}

/// Checks "format" and "version" of a root object.
void checkHeader(const json &root, const char *format,
                 const std::string &where) {
  if (!root.is_object())
    throw FieldError{where + ": must hold a JSON object"};
  if (stringField(root, "format", where) != format)
    throw FieldError{where + ": not a '" + format + "' file"};
  const json &version = field(root, "version", where);
  if (!version.is_number_integer() ||
      version.get<int64_t>() != kTuneFolderVersion)
    throw FieldError{where + ": unsupported version " + version.dump() +
                     " (this tool reads version " +
                     std::to_string(kTuneFolderVersion) + ")"};
}

std::map<std::string, std::string> stringMap(const json &object,
                                             const std::string &where) {
  std::map<std::string, std::string> result;
  for (const auto &[key, value] : object.items()) {
    if (!value.is_string())
      throw FieldError{where + "." + key + ": must be a string"};
    result[key] = value.get<std::string>();
  }
  return result;
}

/// The JSON of `text`; a syntax error becomes a FieldError.
json parseOrThrow(const std::string &text, const std::string &name) {
  Result<nlohmann::json> root = parseJson(text, name);
  if (!root)
    throw FieldError{root.message()};
  return json(*root); // the writer's key order does not matter to a reader

}

const char *statusName(CandidateResult::Status status) {
  switch (status) {
  case CandidateResult::Status::Ok:
    return "ok";
  case CandidateResult::Status::Wrong:
    return "wrong";
  case CandidateResult::Status::Failed:
    return "failed";
  }
  return "failed";
}

std::string dump(const json &root) {
  return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace

std::string tilec::tune::printTuneIndex(const TuneIndex &index) {
  json kernels = json::array();
  for (const KernelEntry &kernel : index.kernels) {
    json candidates = json::array();
    for (const CandidateEntry &candidate : kernel.candidates)
      candidates.push_back({{"id", candidate.id},
                            {"manifest", candidate.manifest},
                            {"schedule", json::parse(candidate.scheduleJson)}});
    kernels.push_back({{"kernel", kernel.kernel},
                       {"fingerprint", kernel.fingerprint},
                       {"candidates", candidates}});
  }
  json root = {{"format", "tilec-tune"},
               {"version", kTuneFolderVersion},
               {"target", index.target},
               {"device", index.device},
               {"program", index.program},
               {"entry", index.entry},
               {"tilec_version", index.tilecVersion},
               {"repeat", index.repeat},
               {"inputs", index.inputs},
               {"reference", index.reference},
               {"kernels", kernels}};
  return dump(root);
}

Result<TuneIndex> tilec::tune::parseTuneIndex(const std::string &text,
                                              const std::string &name) {
  try {
    json root = parseOrThrow(text, name);
    checkHeader(root, "tilec-tune", name);
    TuneIndex index;
    index.target = stringField(root, "target", name);
    if (index.target != "opencl" && index.target != "spirv" &&
        index.target != "ptx" && index.target != "glsl")
      throw FieldError{name + ".target: must be \"opencl\", \"spirv\", "
                              "\"ptx\" or \"glsl\""};
    index.device = stringField(root, "device", name);
    index.program = stringField(root, "program", name);
    index.entry = stringField(root, "entry", name);
    index.tilecVersion = stringField(root, "tilec_version", name);
    const json &repeat = field(root, "repeat", name);
    if (!repeat.is_number_unsigned() || repeat.get<uint64_t>() < 1 ||
        repeat.get<uint64_t>() > 1000000)
      throw FieldError{name + ".repeat: must be a number from 1 to 1000000"};
    index.repeat = repeat.get<unsigned>();
    index.inputs =
        stringMap(objectField(root, "inputs", name), name + ".inputs");
    index.reference =
        stringMap(objectField(root, "reference", name), name + ".reference");
    const json &kernels = arrayField(root, "kernels", name);
    for (size_t k = 0; k < kernels.size(); ++k) {
      std::string where = name + ".kernels[" + std::to_string(k) + "]";
      KernelEntry kernel;
      kernel.kernel = stringField(kernels[k], "kernel", where);
      kernel.fingerprint = stringField(kernels[k], "fingerprint", where);
      const json &candidates = arrayField(kernels[k], "candidates", where);
      if (candidates.empty())
        throw FieldError{where + ".candidates: must not be empty"};
      for (size_t c = 0; c < candidates.size(); ++c) {
        std::string at = where + ".candidates[" + std::to_string(c) + "]";
        CandidateEntry candidate;
        candidate.id = stringField(candidates[c], "id", at);
        candidate.manifest = stringField(candidates[c], "manifest", at);
        candidate.scheduleJson =
            objectField(candidates[c], "schedule", at).dump();
        kernel.candidates.push_back(std::move(candidate));
      }
      index.kernels.push_back(std::move(kernel));
    }
    return index;
  } catch (const FieldError &error) {
    return Result<TuneIndex>::error(error.message);
  }
}

std::string tilec::tune::printTuneResults(const TuneResults &results) {
  json candidates = json::object();
  for (const auto &[id, result] : results.candidates)
    candidates[id] = {{"status", statusName(result.status)},
                      {"seconds", result.seconds},
                      {"message", result.message}};
  json root = {{"format", "tilec-tune-results"},
               {"version", kTuneFolderVersion},
               {"device", results.device},
               {"candidates", candidates}};
  return dump(root);
}

Result<TuneResults> tilec::tune::parseTuneResults(const std::string &text,
                                                  const std::string &name) {
  try {
    json root = parseOrThrow(text, name);
    checkHeader(root, "tilec-tune-results", name);
    TuneResults results;
    results.device = stringField(root, "device", name);
    for (const auto &[id, entry] :
         objectField(root, "candidates", name).items()) {
      std::string where = name + ".candidates." + id;
      if (!entry.is_object())
        throw FieldError{where + ": must be an object"};
      CandidateResult result;
      std::string status = stringField(entry, "status", where);
      if (status == "ok")
        result.status = CandidateResult::Status::Ok;
      else if (status == "wrong")
        result.status = CandidateResult::Status::Wrong;
      else if (status == "failed")
        result.status = CandidateResult::Status::Failed;
      else
        throw FieldError{where + ".status: must be ok, wrong or failed"};
      for (const json &seconds : arrayField(entry, "seconds", where)) {
        if (!seconds.is_number() || seconds.get<double>() < 0)
          throw FieldError{where + ".seconds: must hold non-negative numbers"};
        result.seconds.push_back(seconds.get<double>());
      }
      if (result.status == CandidateResult::Status::Ok &&
          result.seconds.empty())
        throw FieldError{where + ".seconds: an ok candidate needs its times"};
      result.message = stringField(entry, "message", where);
      results.candidates[id] = std::move(result);
    }
    return results;
  } catch (const FieldError &error) {
    return Result<TuneResults>::error(error.message);
  }
}

std::string tilec::tune::indexPath(const std::string &dir) {
  return (std::filesystem::path(dir) / kIndexFileName).string();
}

std::string tilec::tune::resultsPath(const std::string &dir) {
  return (std::filesystem::path(dir) / kResultsFileName).string();
}

Result<TuneIndex> tilec::tune::readTuneIndex(const std::string &dir) {
  std::string path = indexPath(dir);
  Result<std::string> text = readFileBytes(path);
  if (!text)
    return text.status();
  return parseTuneIndex(*text, path);
}

Status tilec::tune::writeTuneIndex(const std::string &dir,
                                   const TuneIndex &index) {
  return writeFileAtomically(indexPath(dir), printTuneIndex(index));
}

Result<TuneResults> tilec::tune::readTuneResults(const std::string &dir) {
  std::string path = resultsPath(dir);
  std::error_code error;
  if (!std::filesystem::exists(path, error))
    return TuneResults();
  Result<std::string> text = readFileBytes(path);
  if (!text)
    return text.status();
  return parseTuneResults(*text, path);
}

Status tilec::tune::writeTuneResults(const std::string &dir,
                                     const TuneResults &results) {
  return writeFileAtomically(resultsPath(dir), printTuneResults(results));
}

Result<std::string> tilec::tune::pathInFolder(const std::string &dir,
                                              const std::string &relative) {
  std::filesystem::path path(relative);
  bool escapes = relative.empty() || path.is_absolute();
  for (const std::filesystem::path &part : path)
    escapes = escapes || part == "..";
  if (escapes)
    return Result<std::string>::error(
        indexPath(dir) + ": '" + relative +
        "' must be a relative path inside the folder");
  return (std::filesystem::path(dir) / path).string();
}

double tilec::tune::medianOf(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}
