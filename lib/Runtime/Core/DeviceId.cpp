//===- DeviceId.cpp - Building stable device identifiers ------------------===//

#include "tilec/Runtime/DeviceId.h"

using namespace tilec::rt;

std::string tilec::rt::deviceIdPart(std::string_view text) {
  std::string lower;
  for (char c : text)
    lower += (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
  for (std::string_view mark : {"(r)", "(tm)", "(c)"})
    for (size_t at; (at = lower.find(mark)) != std::string::npos;)
      lower.erase(at, mark.size());
  std::string part;
  for (char c : lower) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
                c == '_';
    if (keep)
      part += c;
    else if (!part.empty() && part.back() != '-')
      part += '-';
  }
  while (!part.empty() && part.back() == '-')
    part.pop_back();
  return part.empty() ? "unknown" : part;
}

std::string tilec::rt::nextDeviceId(std::string_view runtime,
                                    std::string_view vendor,
                                    std::string_view name,
                                    const std::vector<DeviceInfo> &earlier) {
  std::string prefix = deviceIdPart(runtime) + ":" + deviceIdPart(vendor) +
                       ":" + deviceIdPart(name) + ":";
  unsigned index = 0;
  for (const DeviceInfo &device : earlier)
    if (device.id.compare(0, prefix.size(), prefix) == 0 &&
        device.id.find(':', prefix.size()) == std::string::npos)
      ++index;
  return prefix + std::to_string(index);
}
