//===- Arguments.cpp - tilec-run's command line ---------------------------===//
//
// Accepts "--flag=value" and "--flag value", as CLI11 does for tilec, so the
// two tools take their shared flags the same way.
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"

#include <cerrno>
#include <algorithm>
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
         "  tilec-run ARTEFACT.json --train --data NAME=FILE.npy ... "
         "[--init NAME=FILE.npy ...]\n"
         "            [--epochs=E] [--batch=B] [--shuffle] [--seed=N] "
         "[--save-dir DIR] [--json]\n"
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
         "  --train             run a training step function over --data for "
         "--epochs\n"
         "                      (docs/training.md): outputs X' are carried to "
         "inputs X on\n"
         "                      the device, --init gives initial values, "
         "--save-dir DIR gets\n"
         "                      every carried tensor as NAME.npy after each "
         "epoch; --batch,\n"
         "                      if given, must be the one the artefact was "
         "compiled for\n"
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
    } else if (flag == "--json" || flag == "--devices" || flag == "--train" ||
               flag == "--shuffle") {
      if (Status s = noValue(); !s)
        return s;
      (flag == "--json"      ? args.json
       : flag == "--devices" ? args.listDevices
       : flag == "--train"   ? args.train
                             : args.shuffle) = true;
    } else if (flag == "--device" || flag == "--output-dir" ||
               flag == "--expect" || flag == "--tune" ||
               flag == "--save-dir") {
      Result<std::string> text = takeValue();
      if (!text)
        return text.status();
      (flag == "--device"     ? args.device
       : flag == "--tune"     ? args.tuneDir
       : flag == "--expect"   ? args.expectDir
       : flag == "--save-dir" ? args.saveDir
                              : args.outputDir) = *text;
    } else if (flag == "--input" || flag == "--data" || flag == "--init") {
      Result<std::string> text = takeValue();
      if (!text)
        return text.status();
      size_t split = text->find('=');
      if (split == std::string::npos || split == 0 || split + 1 == text->size())
        return Result<Arguments>::error(flag + " takes NAME=FILE.npy, not '" +
                                        *text + "'");
      auto &list = flag == "--input" ? args.inputs
                   : flag == "--data" ? args.data
                                      : args.init;
      list.emplace_back(text->substr(0, split), text->substr(split + 1));
    } else if (flag == "--batch" || flag == "--epochs") {
      Result<std::string> text = takeValue();
      if (!text)
        return text.status();
      Result<uint64_t> number = parseNumber(flag, *text, 1ull << 40);
      if (!number)
        return number.status();
      if (*number == 0)
        return Result<Arguments>::error("option '" + flag +
                                        "' must be at least 1");
      if (flag == "--batch")
        args.batch = *number;
      else
        args.epochs = unsigned(std::min<uint64_t>(*number, 1000000));
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
