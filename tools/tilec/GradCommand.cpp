//===- GradCommand.cpp - tilec grad FILE --wrt=... ------------------------===//
//
// Differentiates an entry function's loss output with respect to some of
// its parameters (docs/language.md 8.8, docs/training.md). Without --check
// it prints a new Tile function, `<entry>_grad`, whose outputs are the
// entry's plus D_<X> per --wrt, with typed parameters so it binds on its
// own. With --check it compares the gradients with central differences on
// the interpreter in f64 and reports the largest relative error per wrt.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "DriverError.h"
#include "Output.h"

#include "tilec/Autodiff/Autodiff.h"
#include "tilec/Autodiff/GradCheck.h"
#include "tilec/Frontend/PlaidMLPrinter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>
#include <set>

using namespace tilec;
using namespace tilec::driver;
using namespace tilec::compiler;
using typed::ValueId;

/// A relative error above this fails --check (exit 1): f64 central
/// differences with h = 1e-6 agree to about 1e-8 on smooth programs.
static constexpr double kCheckTolerance = 1e-5;

CLI::App *tilec::driver::addGradCommand(CLI::App &app, GradOptions &options) {
  CLI::App *command = app.add_subcommand(
      "grad", "differentiate a program: print the gradient program as Tile, "
              "or check it against finite differences");
  addProgramOptions(*command, options.program, /*fileRequired=*/true);
  command
      ->add_option("--wrt", options.wrt,
                   "the parameters to differentiate with respect to, "
                   "comma-separated (required)")
      ->type_name("X1,X2,...")
      ->delimiter(',')
      ->required();
  command
      ->add_option("--of", options.of,
                   "the output that is the loss (needed when the entry has "
                   "several); it is summed over its elements")
      ->type_name("NAME")
      ->check(nonEmpty());
  command->add_flag("--vjp", options.vjp,
                    "differentiate sum(out * D_out) over every float output "
                    "instead, with one seed input D_<out> per output: the "
                    "vector-Jacobian product (PlaidML's ProgGrad)");
  command
      ->add_option("-o,--output", options.output,
                   "write the gradient program here (default stdout)")
      ->type_name("OUT.tile")
      ->check(nonEmpty());
  command->add_flag("--check", options.check,
                    "instead of printing, compare <dL/dX, v> with central "
                    "differences of L for random directions v, on the "
                    "interpreter in f64; prints the largest relative error per "
                    "wrt and fails above 1e-5");
  command->add_option("--seed", options.seed,
                      "with --check: seed of the inputs and directions")
      ->type_name("N")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--eps", options.eps, "with --check: the step h")
      ->type_name("H")
      ->check(CLI::PositiveNumber);
  command->add_option("--dirs", options.dirs,
                      "with --check: random directions per wrt (default 4)")
      ->type_name("N")
      ->check(CLI::Range(1, 1000));
  command->footer(std::string("Examples:\n"
                              "  tilec grad mlp.tile --wrt=W1,B1 -o "
                              "mlp_grad.tile\n"
                              "  tilec grad mlp.tile --wrt=W1 --check\n\n") +
                  exitCodeHelp());
  return command;
}

namespace {

/// The loss: --of, or the entry's only output.
ValueId pickOutput(const typed::Program &program, const GradOptions &options) {
  std::vector<std::string> names;
  for (ValueId id : program.outputs)
    names.push_back(program.value(id).name);
  if (options.of.empty()) {
    if (program.outputs.size() != 1)
      failUsage(fmt::format("the entry has {} outputs ({}); name the loss "
                            "with --of",
                            names.size(), fmt::join(names, ", ")));
    return program.outputs[0];
  }
  for (ValueId id : program.outputs)
    if (program.value(id).name == options.of)
      return id;
  failUsage(fmt::format("--of={}: the entry has no output of that name; its "
                        "outputs are {}",
                        options.of, fmt::join(names, ", ")));
}

/// The loss, which must be a float tensor.
ValueId pickLoss(const typed::Program &program, const GradOptions &options) {
  ValueId loss = pickOutput(program, options);
  const typed::Value &v = program.value(loss);
  if (!isFloat(v.type.dtype))
    failUsage(fmt::format("the loss '{}' has type {}; it must be a float "
                          "tensor",
                          v.name, dtypeName(v.type.dtype)));
  return loss;
}

ValueId findParameter(const typed::Program &program, const std::string &name) {
  for (ValueId id : program.inputs) {
    const typed::Value &v = program.value(id);
    if (v.name != name)
      continue;
    if (!isFloat(v.type.dtype))
      failUsage(fmt::format("--wrt={}: cannot differentiate with respect to "
                            "'{}': it has type {}",
                            name, name, dtypeName(v.type.dtype)));
    return id;
  }
  std::vector<std::string> names;
  for (ValueId id : program.inputs)
    names.push_back(program.value(id).name);
  failUsage(fmt::format("--wrt={}: the entry has no tensor parameter of that "
                        "name; its tensor parameters are {}",
                        name, fmt::join(names, ", ")));
}

/// D_<X>, with _2, _3 ... on a clash with a name the program already uses
/// in its header.
std::string gradientName(const std::string &wrt, std::set<std::string> &taken) {
  std::string name = "D_" + wrt;
  for (int k = 2; taken.count(name); ++k)
    name = fmt::format("D_{}_{}", wrt, k);
  taken.insert(name);
  return name;
}

} // namespace

void tilec::driver::runGradCommand(const GradOptions &options) {
  ProgramLoader loader(options.program, driverReporter());
  orFail(loader.parse());
  typed::Program program = orFail(loader.bind());
  if (options.vjp && !options.of.empty())
    failUsage("--vjp differentiates every output; it takes no --of");
  std::set<std::string> taken;
  for (ValueId id : program.inputs)
    taken.insert(program.value(id).name);
  for (ValueId id : program.outputs)
    taken.insert(program.value(id).name);
  ValueId loss = 0;
  if (options.vjp) {
    std::vector<ValueId> seeded;
    std::vector<std::string> seeds;
    for (ValueId id : program.outputs)
      if (isFloat(program.value(id).type.dtype)) {
        seeded.push_back(id);
        seeds.push_back(gradientName(program.value(id).name, taken));
      }
    if (seeded.empty())
      failUsage("--vjp: the entry has no float output");
    loss = autodiff::appendSeededLoss(program, seeded, seeds);
  } else {
    loss = pickLoss(program, options);
  }
  std::vector<ValueId> wrts;
  for (const std::string &name : options.wrt)
    wrts.push_back(findParameter(program, name));
  DiagnosticEngine &diag = loader.diagnostics();

  if (options.check) {
    autodiff::GradCheckOptions check;
    check.seed = options.seed;
    check.step = options.eps;
    check.directions = options.dirs;
    auto results = autodiff::checkGradients(program, loss, wrts, check, diag);
    if (diag.hadError())
      failInput();
    if (!results)
      failWith(ExitCode::RuntimeFailure, results.takeError());
    bool ok = true;
    for (const autodiff::GradCheckResult &r : *results) {
      bool good = r.maxRelError <= kCheckTolerance;
      ok &= good;
      llvm::outs() << fmt::format(
          "D_{}: largest relative error {:.2e} over {} direction(s) "
          "(analytic {:.9g}, finite difference {:.9g}){}\n",
          r.wrt, r.maxRelError, options.dirs, r.analytic, r.finiteDifference,
          good ? "" : "  MISMATCH");
    }
    if (!ok)
      failInput("grad --check: a gradient differs from finite differences");
    return;
  }

  std::vector<std::string> names;
  for (const std::string &name : options.wrt)
    names.push_back(gradientName(name, taken));
  auto grads = autodiff::appendGradients(program, loss, wrts, names,
                                         llvm::SMLoc(), diag);
  if (!grads || diag.hadError())
    failInput();
  program.outputs.insert(program.outputs.end(), grads->begin(), grads->end());

  typed::TilePrintOptions print;
  std::string entry = program.entryName.empty() ? "main" : program.entryName;
  print.functionName = entry + "_grad";
  print.typedHeader = true;
  std::string text;
  llvm::raw_string_ostream os(text);
  typed::printPlaidML(program, os, print);
  os.flush();
  writeOutputFile(options.output.empty() ? "-" : options.output, text);
}
