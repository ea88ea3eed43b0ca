//===- Arguments.cpp - tilec-run's command line ---------------------------===//
//
// Accepts "--flag=value" and "--flag value", as CLI11 does for tilec, so the
// two tools take their shared flags the same way.
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"

#include <cerrno>
#include <cstdlib>

using namespace tilec;
using namespace tilec::run;

std::string tilec::run::usageText() {
  return "tilec-run: runs kernels that tilec compiled, from their launch "
         "manifest\n\n"
         "usage:\n"
         "  tilec-run ARTEFACT.json [--device=D] [--input NAME=FILE.npy ...] "
         "[--seed=N]\n"
         "            [--output-dir DIR] [--expect DIR] [--repeat=N] [--json]\n"
         "  tilec-run --tune DIR [--device=D] [--repeat=N]\n"
         "  tilec-run --devices [--json]\n\n"
         "options:\n"
         "  --device=D          device id, a unique part of one, or an index "
         "(--devices\n"
         "                      lists them); default: the manifest's device if "
         "present,\n"
         "                      else the first GPU, else the first device\n"
         "  --input NAME=FILE   an input from a .npy file; inputs not given "
         "are generated\n"
         "  --seed=N            seed of generated inputs, as 'tilec run "
         "--seed' (default 0)\n"
         "  --output-dir DIR    write each output as DIR/NAME.npy\n"
         "  --expect DIR        compare each output with DIR/NAME.npy (the "
         "reference\n"
         "                      outputs of 'tilec run --target=interp "
         "--output-dir DIR'),\n"
         "                      as 'tilec run --check' does; exit 1 on a "
         "mismatch\n"
         "  --repeat=N          run N times; report each kernel's median and "
         "minimum time\n"
         "  --json              print the report as JSON\n"
         "  --devices           list the devices of every runtime\n"
         "  --tune DIR          time the candidates of a tuning folder that "
         "'tilec autotune\n"
         "                      --export-candidates DIR' wrote; results go to "
         "DIR/results.json\n"
         "                      (with --device and --repeat; a rerun "
         "resumes)\n\n"
         "exit codes: 0 success, 1 a wrong manifest or input file, 2 a wrong "
         "command line,\n"
         "            3 a device or runtime failure\n";
}

namespace {

/// Walks argv, splitting "--flag=value".
class ArgumentReader {
public:
  ArgumentReader(int argc, char **argv) : argc(argc), argv(argv) {}

  Result<Arguments> read();

private:
  int argc;
  char **argv;
  int next = 1;

  /// The value of `flag`: after '=' in `inlineValue`, else the next argument.
  Result<std::string> value(const std::string &flag, bool hasInline,
                            const std::string &inlineValue) {
    if (hasInline)
      return inlineValue;
    if (next >= argc)
      return Result<std::string>::error("option '" + flag + "' needs a value");
    return std::string(argv[next++]);
  }
};

Result<uint64_t> parseNumber(const std::string &flag, const std::string &text,
                             uint64_t max) {
  errno = 0;
  char *end = nullptr;
  unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || text[0] == '-' || *end != '\0' || errno == ERANGE ||
      value > max)
    return Result<uint64_t>::error("option '" + flag + "': '" + text +
                                   "' is not a number from 0 to " +
                                   std::to_string(max));
  return uint64_t(value);
}

Result<Arguments> ArgumentReader::read() {
  Arguments args;
  while (next < argc) {
    std::string arg = argv[next++];
    if (arg.size() < 2 || arg[0] != '-' || arg == "-") {
      if (!args.manifest.empty())
        return Result<Arguments>::error("more than one manifest given: '" +
                                        args.manifest + "' and '" + arg + "'");
      args.manifest = arg;
      continue;
    }
    size_t equals = arg.find('=');
    bool hasInline = equals != std::string::npos;
    std::string flag = arg.substr(0, equals);
    std::string inlineValue = hasInline ? arg.substr(equals + 1) : "";
    auto takeValue = [&]() { return value(flag, hasInline, inlineValue); };
    auto noValue = [&]() -> Status {
      return hasInline ? Status::error("option '" + flag + "' takes no value")
                       : Status::success();
    };
    if (flag == "--help" || flag == "-h") {
      args.help = true;
    } else if (flag == "--json" || flag == "--devices") {
      if (Status s = noValue(); !s)
        return s;
      (flag == "--json" ? args.json : args.listDevices) = true;
    } else if (flag == "--device" || flag == "--output-dir" ||
               flag == "--expect" || flag == "--tune") {
      Result<std::string> text = takeValue();
      if (!text)
        return text.status();
      (flag == "--device"   ? args.device
       : flag == "--tune"   ? args.tuneDir
       : flag == "--expect" ? args.expectDir
                            : args.outputDir) = *text;
    } else if (flag == "--input") {
      Result<std::string> text = takeValue();
      if (!text)
        return text.status();
      size_t split = text->find('=');
      if (split == std::string::npos || split == 0 || split + 1 == text->size())
        return Result<Arguments>::error("--input takes NAME=FILE.npy, not '" +
                                        *text + "'");
      args.inputs.emplace_back(text->substr(0, split), text->substr(split + 1));
    } else if (flag == "--seed" || flag == "--repeat") {
      Result<std::string> text = takeValue();
      if (!text)
        return text.status();
      bool seed = flag == "--seed";
      Result<uint64_t> number =
          parseNumber(flag, *text, seed ? UINT64_MAX : 1000000);
      if (!number)
        return number.status();
      if (!seed && *number == 0)
        return Result<Arguments>::error("option '--repeat' must be at least 1");
      if (seed)
        args.seed = *number;
      else
        args.repeat = unsigned(*number);
    } else {
      return Result<Arguments>::error("unknown option '" + flag + "'");
    }
  }
  return args;
}

} // namespace

Result<Arguments> tilec::run::parseArguments(int argc, char **argv) {
  return ArgumentReader(argc, argv).read();
}
