//===- Interpreter.cpp - The reference interpreter's driver ---------------===//
//
// Runs the statements of a typed program in order, one whole tensor at a
// time, dispatching each statement kind to its evaluator. Values are kept by
// ValueId; each is written exactly once. interpretWithBounds also keeps every
// value's radii (Bounds.h) beside it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Interp/Interpreter.h"
#include "InterpInternal.h"

#include <algorithm>

using namespace tilec;
using namespace tilec::interp;
using typed::Statement;

/// Checks that a statement's operand and result ids exist.
static llvm::Error checkIds(const typed::Program &program, const Statement &s,
                            size_t operands, size_t results) {
  if (s.operands.size() != operands || s.results.size() != results)
    return malformedError("statement '" + s.label +
                          "' has the wrong number of operands or results");
  for (typed::ValueId id : s.results)
    if (id >= program.values.size())
      return malformedError("result id out of range");
  return llvm::Error::success();
}

/// Checks that every operand of `s` has been computed with its declared type.
static llvm::Error checkOperandsReady(const typed::Program &program,
                                      const Statement &s,
                                      const std::vector<Tensor> &values) {
  for (typed::ValueId id : s.operands) {
    if (id >= values.size())
      return malformedError("operand id out of range");
    const Tensor &t = values[id];
    const TensorType &want = program.value(id).type;
    if (t.type != want ||
        t.data.size() != size_t(want.numElements()) * dtypeBytes(want.dtype))
      return malformedError("'" + program.value(id).name +
                            "' is used before it is computed");
  }
  return llvm::Error::success();
}

/// Executes one statement, storing its results into `values` and, when
/// `radii` is given, their radii into it.
static llvm::Error execute(const typed::Program &program, const Statement &s,
                           std::vector<Tensor> &values, ValueRadii *radii) {
  auto resultType = [&](unsigned k) -> const TensorType & {
    return program.value(s.results[k]).type;
  };
  auto store = [&](unsigned k, llvm::Expected<Tensor> t) -> llvm::Error {
    if (!t)
      return t.takeError();
    values[s.results[k]] = std::move(*t);
    return llvm::Error::success();
  };

  if (auto err = checkOperandsReady(program, s, values))
    return err;
  // Where the first result's radii go (null: no bounds).
  Radii *radius = radii && !s.results.empty() && s.results[0] < radii->size()
                      ? &(*radii)[s.results[0]]
                      : nullptr;
  auto operandRadius = [&](unsigned k) -> const Radii * {
    return radii ? &(*radii)[s.operands[k]] : nullptr;
  };
  switch (s.kind) {
  case Statement::Kind::Elementwise:
    if (auto err = checkIds(program, s, 0, 1))
      return err;
    if (!s.expr)
      return malformedError("elementwise statement without an expression");
    return store(0, evaluateElementwise(*s.expr, values, radii, radius));
  case Statement::Kind::Contraction:
    if (auto err = checkIds(program, s, s.operands.size(), 1))
      return err;
    if (!s.contraction)
      return malformedError("contraction statement without a contraction");
    return store(0, evaluateContraction(*s.contraction, resultType(0), values,
                                        radii, radius));
  case Statement::Kind::Reshape:
    if (auto err = checkIds(program, s, 1, 1))
      return err;
    if (radius)
      *radius = *operandRadius(0); // the same elements in another shape
    return store(0, reshapeTensor(values[s.operands[0]], resultType(0)));
  case Statement::Kind::Gather:
    if (auto err = checkIds(program, s, 2, 1))
      return err;
    return store(0, gatherTensor(values[s.operands[0]], values[s.operands[1]],
                                 resultType(0), operandRadius(0), radius));
  case Statement::Kind::Scatter:
    if (auto err = checkIds(program, s, 3, 1))
      return err;
    return store(0, scatterTensor(values[s.operands[0]], values[s.operands[1]],
                                  values[s.operands[2]], resultType(0),
                                  operandRadius(0), radius));
  case Statement::Kind::Prng: {
    if (auto err = checkIds(program, s, 1, 2))
      return err;
    auto drawn = prngDraw(values[s.operands[0]], resultType(0));
    if (!drawn)
      return drawn.takeError();
    values[s.results[0]] = std::move(drawn->first);
    values[s.results[1]] = std::move(drawn->second);
    return llvm::Error::success();
  }
  case Statement::Kind::Literal:
    if (auto err = checkIds(program, s, 0, 1))
      return err;
    return store(0, literalTensor(s.literal, resultType(0)));
  case Statement::Kind::Grad:
    return malformedError("'grad' was not expanded (lib/Autodiff runs "
                          "before the interpreter)");
  }
  return malformedError("unknown statement kind");
}

/// The bound tensor of an output of type `type` with radii `radius`.
static Tensor boundTensor(const TensorType &type, const Radii &radius) {
  if (!isFloat(type.dtype))
    return Tensor(); // exact
  Tensor bound(TensorType{DType::F64, type.shape});
  for (size_t k = 0; k < radius.size(); ++k)
    bound.setDouble(int64_t(k), radius[k].bound());
  return bound;
}

/// Runs the program; with `radii`, also fills every value's radii and
/// `bounds` with the outputs'.
static llvm::Expected<std::vector<Tensor>>
run(const typed::Program &program, std::vector<Tensor> inputs,
    ValueRadii *radii, std::vector<Tensor> *bounds) {
  if (inputs.size() != program.inputs.size())
    return malformedError("expected " + llvm::Twine(program.inputs.size()) +
                          " inputs, got " + llvm::Twine(inputs.size()));
  std::vector<Tensor> values(program.values.size());
  if (radii)
    radii->assign(program.values.size(), Radii());
  for (size_t k = 0; k < inputs.size(); ++k) {
    typed::ValueId id = program.inputs[k];
    if (id >= values.size())
      return malformedError("input id out of range");
    const TensorType &want = program.value(id).type;
    if (inputs[k].type != want)
      return malformedError("input '" + program.value(id).name + "' is " +
                            inputs[k].type.str() + " but the program wants " +
                            want.str());
    if (inputs[k].data.size() !=
        size_t(want.numElements()) * dtypeBytes(want.dtype))
      return malformedError("input '" + program.value(id).name +
                            "' has the wrong number of bytes");
    values[id] = std::move(inputs[k]);
  }
  for (const Statement &s : program.statements)
    if (auto err = execute(program, s, values, radii))
      return std::move(err);

  std::vector<Tensor> outputs;
  for (size_t k = 0; k < program.outputs.size(); ++k) {
    typed::ValueId id = program.outputs[k];
    if (id >= values.size())
      return malformedError("output id out of range");
    // Move unless a later output names the same value again.
    bool repeated =
        std::find(program.outputs.begin() + k + 1, program.outputs.end(), id) !=
        program.outputs.end();
    outputs.push_back(repeated ? values[id] : std::move(values[id]));
    if (bounds)
      bounds->push_back(boundTensor(outputs.back().type, (*radii)[id]));
  }
  return outputs;
}

llvm::Expected<std::vector<Tensor>>
tilec::interpret(const typed::Program &program, std::vector<Tensor> inputs) {
  return run(program, std::move(inputs), nullptr, nullptr);
}

llvm::Expected<ReferenceOutputs>
tilec::interpretWithBounds(const typed::Program &program,
                           std::vector<Tensor> inputs, ReferenceRules rules) {
  ValueRadii radii;
  radii.tf32Products = rules.tf32Products;
  ReferenceOutputs reference;
  auto outputs = run(program, std::move(inputs), &radii, &reference.bounds);
  if (!outputs)
    return outputs.takeError();
  reference.outputs = std::move(*outputs);
  return reference;
}
