//===- FuzzNpy.cpp - libFuzzer entry point for the .npy reader ------------===//
//
// Feeds arbitrary bytes to parseNpy, once as an input of unknown type and
// once as a declared bf16 input (which also accepts '<V2' data). An accepted
// file must serialise and parse back to the same tensor; a rejected one must
// give an error naming the file.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "tilec/Support/Npy.h"

#include <cstddef>
#include <cstdint>
#include <optional>

using namespace tilec;

static void parseAndRoundTrip(std::string_view bytes,
                              std::optional<DType> expected) {
  Result<Tensor> tensor = parseNpy(bytes, fuzz::kFileName, expected);
  if (!tensor) {
    fuzz::checkLocated(tensor.message());
    return;
  }
  std::string written = serializeNpy(*tensor);
  Result<Tensor> again = parseNpy(written, fuzz::kFileName, expected);
  fuzz::check(again.ok(), "serializeNpy wrote a file parseNpy rejects");
  fuzz::check(again->type == tensor->type && again->data == tensor->data,
              "a tensor changed through serializeNpy and parseNpy");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char *>(data), size);
  parseAndRoundTrip(bytes, std::nullopt);
  parseAndRoundTrip(bytes, DType::BF16);
  return 0;
}
