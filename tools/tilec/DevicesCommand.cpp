//===- DevicesCommand.cpp - tilec devices [--json] ------------------------===//
//
// Lists every device the runtimes of this build see (OpenCL, Vulkan when
// built, the host CPU) with the properties the cost model uses and the id
// that --device and schedule files take. The report is the runtime
// library's, so `tilec-run --devices` prints exactly the same.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "tilec/Runtime/DeviceReport.h"

#include "llvm/Support/raw_ostream.h"

using namespace tilec;
using namespace tilec::driver;

CLI::App *tilec::driver::addDevicesCommand(CLI::App &app, bool &json) {
  CLI::App *command = app.add_subcommand(
      "devices", "list the devices tilec can use, with the id --device takes");
  command->add_flag("--json", json, "print the list as JSON");
  command->footer(exitCodeHelp());
  return command;
}

void tilec::driver::runDevicesCommand(bool json) {
  std::vector<std::unique_ptr<rt::Runtime>> runtimes = rt::allRuntimes();
  std::vector<rt::RuntimeDevices> report = rt::discoverAllDevices(runtimes);
  // A runtime without devices is reported, not an error: the list is what
  // this machine has.
  llvm::outs() << (json ? rt::formatDeviceReportJson(report)
                        : rt::formatDeviceReport(report));
}
