//===- Exit.cpp - How tilec-run ends and what it prints -------------------===//

#include "Exit.h"

#include <cstdio>

using namespace tilec::run;

int tilec::run::fail(int code, const std::string &message) {
  std::fflush(stdout);
  std::fprintf(stderr, "tilec-run: error: %s\n", message.c_str());
  if (code == UsageError)
    std::fprintf(stderr, "run 'tilec-run --help' for usage\n");
  return code;
}

int tilec::run::print(const std::string &text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() ||
      std::fflush(stdout) != 0)
    return fail(RuntimeFailure, "cannot write to stdout");
  return Success;
}
