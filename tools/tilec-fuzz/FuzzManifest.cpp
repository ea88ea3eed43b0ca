//===- FuzzManifest.cpp - libFuzzer entry point for the manifest reader ---===//
//
// Feeds arbitrary text to parseManifest, the reader tilec-run and the device
// runtimes trust once it has accepted a file. An accepted manifest must
// print and parse back to the same text; a rejected one must give an error
// naming the file.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "tilec/Runtime/Manifest.h"

#include <cstddef>
#include <cstdint>

using namespace tilec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  Result<rt::Manifest> manifest = rt::parseManifest(text, fuzz::kFileName);
  if (!manifest) {
    fuzz::checkLocated(manifest.message());
    return 0;
  }
  std::string printed = rt::printManifest(*manifest);
  Result<rt::Manifest> again = rt::parseManifest(printed, fuzz::kFileName);
  fuzz::check(again.ok(), "printManifest wrote a manifest parseManifest "
                          "rejects");
  fuzz::check(rt::printManifest(*again) == printed,
              "a manifest changed through printManifest and parseManifest");
  return 0;
}
