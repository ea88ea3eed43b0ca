//===- SemaCall.cpp - Calls of user functions -----------------------------===//
//
// A call is inlined (docs/language.md 4.6): the callee's parameters are bound
// to the argument values, its sizes bound afresh from the argument shapes at
// this call site, its names made fresh ("f.1.Y"), and its outputs become the
// call's values. Errors inside the callee get an "in call to 'f' here" note
// per call on the way from the entry.
//
//===----------------------------------------------------------------------===//

#include "Binder.h"

using namespace tilec;
using namespace tilec::sema;

const ast::Function *Binder::findFunction(llvm::StringRef name) const {
  for (const ast::Function &fn : module.functions)
    if (!fn.name.empty() && fn.name == name)
      return &fn;
  return nullptr;
}

std::optional<std::vector<Operand>> Binder::bindArgs(const ast::Expr &call) {
  std::vector<Operand> args;
  for (const auto &argExpr : call.operands) {
    auto arg = bindExpr(*argExpr);
    if (!arg)
      return std::nullopt;
    args.push_back(std::move(*arg));
  }
  return args;
}

std::optional<Operand> Binder::bindCall(const ast::Expr &call) {
  if (const ast::Function *callee = findFunction(call.name)) {
    if (callee->outputs.size() != 1) {
      std::string names;
      for (size_t k = 0; k < callee->outputs.size(); ++k)
        names += (k ? ", " : "") + callee->outputs[k].name;
      error(call.loc, "'" + call.name + "' has " +
                          std::to_string(callee->outputs.size()) +
                          " outputs; use '(" + names + ") = " + call.name +
                          "(...);'");
      return std::nullopt;
    }
    auto args = bindArgs(call);
    if (!args)
      return std::nullopt;
    auto results = inlineCall(*callee, call, std::move(*args));
    if (!results)
      return std::nullopt;
    return fromBound((*results)[0], "", call.loc);
  }
  const BuiltinInfo *info = lookupBuiltin(call.name);
  if (!info) {
    error(call.loc, "unknown function '" + call.name + "'");
    return std::nullopt;
  }
  if (!info->acceptsArgCount(call.operands.size())) {
    error(call.loc, describeArgCount(call.name, info->minArgs, info->maxArgs) +
                        ", got " + std::to_string(call.operands.size()));
    return std::nullopt;
  }
  auto args = bindArgs(call);
  if (!args)
    return std::nullopt;
  return bindBuiltin(*info, call, std::move(*args));
}

namespace {
/// Where a callee's size got its value at this call site.
struct ArgSize {
  int64_t value;
  unsigned argIndex; ///< 1-based
  SMLoc paramLoc;
};
} // namespace

std::optional<std::vector<Bound>>
Binder::inlineCall(const ast::Function &callee, const ast::Expr &call,
                   std::vector<Operand> args) {
  const std::string &fname = callee.name;
  if (callStack.size() >= kMaxCallDepth) {
    error(call.loc, "calls nested too deeply (more than " +
                        std::to_string(kMaxCallDepth) + " levels)");
    return std::nullopt;
  }
  for (const auto &frame : callStack)
    if (frame.first == fname) {
      error(call.loc, "recursive call of '" + fname + "'");
      return std::nullopt;
    }
  unsigned required = 0;
  for (const ast::Param &p : callee.params)
    if (!p.defaultValue)
      required = &p - callee.params.data() + 1;
  if (args.size() < required || args.size() > callee.params.size()) {
    error(call.loc, describeArgCount(fname, required, callee.params.size()) +
                        ", got " + std::to_string(args.size()));
    return std::nullopt;
  }

  Scope calleeScope;
  calleeScope.fn = &callee;
  calleeScope.prefix =
      fname + "." + std::to_string(++callCounter[fname]) + ".";
  std::map<std::string, ArgSize> sizes;

  // Parameters, bound in the caller's context: errors point at arguments.
  for (size_t k = 0; k < callee.params.size(); ++k) {
    const ast::Param &p = callee.params[k];
    std::string argText = "argument " + std::to_string(k + 1) + " of '" +
                          fname + "'";
    if (k >= args.size()) {
      const ast::Number &n = *p.defaultValue;
      Const c = n.isFloat ? Const::weakFloat(n.floatValue)
                          : Const::weakInt(n.intValue);
      if (p.dtype)
        c = convertConst(c, *p.dtype);
      calleeScope.names[p.name] = Bound::constant(c);
      continue;
    }
    Operand &arg = args[k];
    SMLoc argLoc = call.operands[k]->loc;
    if (arg.kind == Bound::Kind::Tuple || arg.kind == Bound::Kind::Handle) {
      error(argLoc, argText + " is a " +
                        (arg.kind == Bound::Kind::Tuple
                             ? "tuple; tuples can only be passed to element"
                             : "random-number handle; handles can only be "
                               "passed to prng_value and prng_state"));
      return std::nullopt;
    }
    if (p.defaultValue && !arg.isConst()) {
      error(argLoc, "parameter '" + p.name + "' of '" + fname +
                        "' takes a constant; argument " +
                        std::to_string(k + 1) + " is a tensor",
            {{p.loc, "'" + p.name + "' is declared here"}});
      return std::nullopt;
    }
    if (arg.isConst()) {
      if (p.hasDims && !p.dims.empty()) {
        error(argLoc, argText + " must be a tensor with " +
                          plural(p.dims.size(), "dimension", "dimensions") +
                          ", got a constant",
              {{p.loc, "'" + p.name + "' is declared here"}});
        return std::nullopt;
      }
      Const c = arg.c;
      if (p.dtype)
        c = convertConst(c, *p.dtype);
      calleeScope.names[p.name] = Bound::constant(c);
      continue;
    }
    const TensorType type = arg.type();
    if (p.dtype && *p.dtype != type.dtype) {
      error(argLoc, argText + " must be " + std::string(dtypeName(*p.dtype)) +
                        ", got " + std::string(dtypeName(type.dtype)),
            {{p.loc, "'" + p.name + "' is declared here"}});
      return std::nullopt;
    }
    if (p.hasDims) {
      if (p.dims.size() != type.shape.size()) {
        error(argLoc, argText + " must have " +
                          plural(p.dims.size(), "dimension", "dimensions") +
                          ", got " +
                          std::to_string(type.shape.size()),
              {{p.loc, "'" + p.name + "' is declared here"}});
        return std::nullopt;
      }
      for (unsigned d = 0; d < p.dims.size(); ++d) {
        const ast::Dim &dim = p.dims[d];
        int64_t got = type.shape[d];
        if (dim.isLiteral) {
          if (dim.value != got) {
            error(argLoc, argText + " must have size " +
                              std::to_string(dim.value) + " at dimension " +
                              std::to_string(d) + ", got " +
                              std::to_string(got),
                  {{dim.loc, "declared here"}});
            return std::nullopt;
          }
          continue;
        }
        auto it = sizes.find(dim.name);
        if (it == sizes.end()) {
          sizes[dim.name] = ArgSize{got, unsigned(k + 1), dim.loc};
        } else if (it->second.value != got) {
          error(argLoc,
                "size '" + dim.name + "' of '" + fname + "' is " +
                    std::to_string(it->second.value) + " from argument " +
                    std::to_string(it->second.argIndex) + " but " +
                    std::to_string(got) + " from argument " +
                    std::to_string(k + 1),
                {{dim.loc, "'" + dim.name + "' is dimension " +
                               std::to_string(d) + " of parameter '" +
                               p.name + "'"}});
          return std::nullopt;
        }
      }
    }
    auto id = valueOf(std::move(arg));
    if (!id)
      return std::nullopt;
    calleeScope.names[p.name] = Bound::tensor(*id);
  }
  for (const auto &[name, size] : sizes)
    calleeScope.names[name] =
        Bound::constant(Const::weakInt(size.value));

  // The body, in the callee's own scope.
  Scope *callerScope = scope;
  calleeScope.firstValue = program.values.size();
  scope = &calleeScope;
  callStack.push_back({fname, call.loc});
  bool ok = bindBody(callee);
  std::vector<Bound> results;
  for (size_t k = 0; ok && k < callee.outputs.size(); ++k) {
    const ast::Output &out = callee.outputs[k];
    const Bound *b = lookup(out.name);
    if (!b) {
      ok = error(out.loc, "output '" + out.name + "' is never defined");
      break;
    }
    // 4.5 holds for every function: a tuple or handle is not a result.
    if (const char *what = nonDataKind(*b)) {
      ok = error(out.loc, "output '" + out.name + "' is " + what +
                              "; outputs must be tensors or constants");
      break;
    }
    results.push_back(*b);
  }
  callStack.pop_back();
  scope = callerScope;
  if (!ok)
    return std::nullopt;
  return results;
}
