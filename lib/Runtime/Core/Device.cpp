//===- Device.cpp - Choosing a device; the interface's anchors -----------===//

#include "tilec/Runtime/Device.h"

#include <algorithm>

using namespace tilec;
using namespace tilec::rt;

// Out of line, so the vtables live in one object file.
Program::~Program() = default;

Status Program::setInput(const std::string &name, const Tensor &tensor) {
  residentInputs[name] = tensor;
  return Status::success();
}

Status Program::runResident(const std::map<std::string, Tensor> &fresh,
                            const std::vector<Carry> &carried) {
  for (const auto &[name, tensor] : fresh)
    residentInputs[name] = tensor;
  if (Status s = run(residentInputs, residentOutputs); !s)
    return s;
  for (const Carry &c : carried) {
    auto it = residentOutputs.find(c.output);
    if (it == residentOutputs.end())
      return Status::error("carried output '" + c.output +
                           "' is not an output of the program");
    residentInputs[c.input] = it->second;
  }
  return Status::success();
}

Status Program::readBack(const std::string &name, Tensor &tensor) {
  for (const auto *values : {&residentInputs, &residentOutputs}) {
    auto it = values->find(name);
    if (it != values->end()) {
      tensor = it->second;
      return Status::success();
    }
  }
  return Status::error("'" + name + "' has no value on the device yet");
}
Runtime::~Runtime() = default;

static std::string lowerCase(std::string text) {
  for (char &c : text)
    if (c >= 'A' && c <= 'Z')
      c = char(c - 'A' + 'a');
  return text;
}

/// "\n  0  opencl:pocl:cpu:0  (cpu name)": one line of an error's list.
static std::string describe(const std::vector<DeviceInfo> &devices,
                            const DeviceInfo &device) {
  return "\n  " + std::to_string(&device - devices.data()) + "  " + device.id +
         "  (" + device.name + ")";
}

static std::string listDevices(const std::vector<DeviceInfo> &devices) {
  std::string text;
  for (const DeviceInfo &device : devices)
    text += describe(devices, device);
  return text;
}

static bool isIndex(const std::string &text) {
  return !text.empty() && text.size() < 6 &&
         std::all_of(text.begin(), text.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

Result<DeviceInfo>
tilec::rt::selectDevice(const std::vector<DeviceInfo> &devices,
                        const std::string &request) {
  if (devices.empty())
    return Result<DeviceInfo>::error(
        "no device found" +
        (request.empty() ? std::string() : " for --device=" + request) +
        "; 'tilec-run --devices' lists what the runtimes see");
  if (request.empty()) {
    auto gpu =
        std::find_if(devices.begin(), devices.end(),
                     [](const DeviceInfo &d) { return d.type == "gpu"; });
    return gpu != devices.end() ? *gpu : devices.front();
  }
  for (const DeviceInfo &device : devices)
    if (device.id == request)
      return device;
  if (isIndex(request)) {
    size_t index = std::stoul(request);
    if (index < devices.size())
      return devices[index];
    return Result<DeviceInfo>::error(
        "--device=" + request + ": there are only " +
        std::to_string(devices.size()) + " devices:" + listDevices(devices));
  }
  std::string needle = lowerCase(request);
  std::vector<const DeviceInfo *> matches;
  for (const DeviceInfo &device : devices)
    if (device.id.find(needle) != std::string::npos ||
        lowerCase(device.name).find(needle) != std::string::npos)
      matches.push_back(&device);
  if (matches.size() == 1)
    return *matches.front();
  if (matches.empty())
    return Result<DeviceInfo>::error(
        "--device=" + request +
        " matches no device; there are:" + listDevices(devices));
  std::string text;
  for (const DeviceInfo *device : matches)
    text += describe(devices, *device);
  return Result<DeviceInfo>::error(
      "--device=" + request + " matches several devices; give one id:" + text);
}

Status tilec::rt::checkInputs(const Manifest &manifest,
                              const std::map<std::string, Tensor> &inputs,
                              bool partial) {
  std::string names;
  for (const ManifestValue &value : manifest.inputs) {
    names += (names.empty() ? "" : ", ") + value.name;
    const ManifestBuffer &buffer = *manifest.findBuffer(value.buffer);
    auto it = inputs.find(value.name);
    if (it == inputs.end() && partial)
      continue;
    if (it == inputs.end())
      return Status::error("input '" + value.name + "' is missing");
    TensorType expected{buffer.dtype, buffer.shape};
    if (it->second.type != expected)
      return Status::error("input '" + value.name + "' must be " +
                           expected.str() + ", not " + it->second.type.str());
    if (it->second.data.size() != buffer.bytes)
      return Status::error("input '" + value.name + "' holds " +
                           std::to_string(it->second.data.size()) +
                           " bytes, not " + std::to_string(buffer.bytes));
  }
  for (const auto &entry : inputs)
    if (std::none_of(
            manifest.inputs.begin(), manifest.inputs.end(),
            [&](const ManifestValue &v) { return v.name == entry.first; }))
      return Status::error("'" + entry.first + "' is not an input of " +
                           manifest.artefact + "; its inputs are " +
                           (names.empty() ? "none" : names));
  return Status::success();
}

Result<std::vector<CarriedCopy>>
tilec::rt::carriedCopies(const Manifest &manifest,
                         const std::vector<Program::Carry> &carried) {
  std::vector<CarriedCopy> copies;
  for (const Program::Carry &c : carried) {
    const ManifestValue *out = manifest.findValue(c.output);
    const ManifestValue *in = manifest.findValue(c.input);
    if (!out || !in)
      return Status::error("carried pair '" + c.output + "' -> '" + c.input +
                           "' is not an output and an input of the program");
    if (out->buffer != in->buffer)
      copies.push_back({c.output, c.input, out->buffer, in->buffer,
                        manifest.findBuffer(in->buffer)->bytes});
  }
  return copies;
}
