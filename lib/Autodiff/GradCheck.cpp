//===- GradCheck.cpp - Gradients against finite differences ---------------===//
//
// Part of lib/Autodiff; see GradCheck.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Autodiff/GradCheck.h"
#include "tilec/Autodiff/Autodiff.h"
#include "tilec/Interp/Interpreter.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace tilec;
using namespace tilec::autodiff;
using typed::ValueId;

static void promote(DType &t) {
  if (isFloat(t))
    t = DType::F64;
}

static void promoteExpr(typed::Expr &e) {
  promote(e.type.dtype);
  promote(e.constant.dtype);
  for (typed::ExprPtr &arg : e.args)
    promoteExpr(*arg);
}

void tilec::autodiff::promoteFloatsToF64(typed::Program &program) {
  for (typed::Value &v : program.values)
    promote(v.type.dtype);
  for (auto &[name, value] : program.constants)
    promote(value.dtype);
  for (typed::Statement &st : program.statements) {
    if (st.expr)
      promoteExpr(*st.expr);
    if (st.contraction)
      promote(st.contraction->combineType);
    for (typed::Scalar &s : st.literal)
      promote(s.dtype);
  }
}

/// Σ of a tensor's elements.
static double sumOf(const Tensor &t) {
  double s = 0;
  for (int64_t i = 0, n = t.type.numElements(); i < n; ++i)
    s += t.getDouble(i);
  return s;
}

llvm::Expected<std::vector<GradCheckResult>>
tilec::autodiff::checkGradients(const typed::Program &program, ValueId loss,
                                llvm::ArrayRef<ValueId> wrts,
                                const GradCheckOptions &options,
                                DiagnosticEngine &diag) {
  typed::Program forward = typed::cloneProgram(program);
  promoteFloatsToF64(forward);
  forward.outputs = {loss};

  typed::Program backward = typed::cloneProgram(forward);
  std::vector<std::string> names;
  for (ValueId x : wrts)
    names.push_back("D_" + program.value(x).name);
  auto grads = appendGradients(backward, loss, wrts, names, llvm::SMLoc(), diag);
  if (!grads)
    return llvm::createStringError("cannot differentiate the program");
  backward.outputs = *grads;

  std::vector<Tensor> inputs;
  for (size_t k = 0; k < forward.inputs.size(); ++k)
    inputs.push_back(generateInput(forward.value(forward.inputs[k]).type,
                                   options.seed, unsigned(k)));
  auto gradients = interpret(backward, inputs);
  if (!gradients)
    return gradients.takeError();

  std::mt19937_64 rng(options.seed ^ 0x9e3779b97f4a7c15ull);
  std::normal_distribution<double> normal;
  std::vector<GradCheckResult> results;
  for (size_t w = 0; w < wrts.size(); ++w) {
    size_t position = std::find(forward.inputs.begin(), forward.inputs.end(),
                                wrts[w]) -
                      forward.inputs.begin();
    GradCheckResult result;
    result.wrt = program.value(wrts[w]).name;
    const Tensor &x = inputs[position];
    const Tensor &g = (*gradients)[w];
    int64_t n = x.type.numElements();
    for (unsigned d = 0; d < options.directions; ++d) {
      std::vector<double> v(n);
      double analytic = 0;
      for (int64_t i = 0; i < n; ++i) {
        v[i] = normal(rng);
        analytic += g.getDouble(i) * v[i];
      }
      double sides[2];
      for (int side = 0; side < 2; ++side) {
        std::vector<Tensor> moved = inputs;
        double h = side == 0 ? options.step : -options.step;
        for (int64_t i = 0; i < n; ++i)
          moved[position].setDouble(i, x.getDouble(i) + h * v[i]);
        auto out = interpret(forward, std::move(moved));
        if (!out)
          return out.takeError();
        sides[side] = sumOf((*out)[0]);
      }
      double fd = (sides[0] - sides[1]) / (2 * options.step);
      // Below 1e-12 apart the two agree: rounding noise around an exact 0
      // (an analytic 1e-17 against a difference of 0) is no error.
      double gap = std::abs(fd - analytic);
      double scale = std::max(std::abs(fd), std::abs(analytic));
      double rel = gap <= 1e-12 ? 0 : gap / scale;
      if (std::isnan(rel))
        rel = INFINITY;
      if (d == 0 || rel > result.maxRelError) {
        result.maxRelError = rel;
        result.analytic = analytic;
        result.finiteDifference = fd;
      }
    }
    results.push_back(result);
  }
  return results;
}
