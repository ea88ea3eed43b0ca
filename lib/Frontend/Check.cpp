//===- Check.cpp - Phase-1 semantic checks --------------------------------===//
//
// The checks of docs/language.md 1.3 that need no sizes, run on every
// function of the file: single definition and definition before use (4.2),
// output lists (4.5), function names, calls and argument counts, and
// recursion (4.6). The binder relies on them: it never meets an undefined
// name, a wrong argument count or a recursive call.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Builtins.h"
#include "tilec/Frontend/Parser.h"

#include "llvm/ADT/StringMap.h"

#include <map>

using namespace tilec;
using namespace tilec::ast;

namespace {

/// Where a name of a function's scope is defined.
struct Definition {
  enum class Kind { Param, Size, Statement } kind;
  SMLoc loc;
  /// Size: the parameter and dimension it names.
  std::string paramName;
  unsigned dim = 0;
  /// Statement: its index in the body.
  size_t statement = 0;
};

/// Checks one function's names; knows the module's functions for calls.
class FunctionChecker {
public:
  FunctionChecker(const Function &fn,
                  const llvm::StringMap<const Function *> &functions,
                  DiagnosticEngine &diag)
      : fn(fn), functions(functions), diag(diag) {}

  /// Runs every check; `calls` receives (callee, call location) pairs for the
  /// recursion check.
  void run(std::vector<std::pair<const Function *, SMLoc>> &calls);

private:
  void defineHeader();
  void define(llvm::StringRef name, Definition def);
  void noteDefinition(llvm::StringRef name, const Definition &def);
  void checkStatement(const Statement &stmt);
  void useName(llvm::StringRef name, SMLoc loc);
  void useExpr(const Expr &expr);
  void usePoly(const Poly &poly);
  void checkCall(const Expr &call, bool inExpression);
  void checkOutputs();

  const Function &fn;
  const llvm::StringMap<const Function *> &functions;
  DiagnosticEngine &diag;
  std::vector<std::pair<const Function *, SMLoc>> *calls = nullptr;

  /// Names defined so far (header, then statements in order).
  llvm::StringMap<Definition> scope;
  /// Every name a statement defines, first definition wins.
  llvm::StringMap<Definition> statementDefs;
  size_t currentStatement = 0;
  /// Undefined names already reported, so each is reported once.
  llvm::StringMap<bool> reportedUndefined;
};

void FunctionChecker::noteDefinition(llvm::StringRef name,
                                     const Definition &def) {
  if (def.kind == Definition::Kind::Size)
    diag.note(def.loc, "'" + name + "' is the size of dimension " +
                           llvm::Twine(def.dim) + " of '" + def.paramName +
                           "'");
  else
    diag.note(def.loc, "'" + name + "' is first defined here");
}

void FunctionChecker::define(llvm::StringRef name, Definition def) {
  auto it = scope.find(name);
  if (it != scope.end()) {
    diag.error(def.loc, "redefinition of '" + name + "'");
    noteDefinition(name, it->second);
    return;
  }
  scope.try_emplace(name, std::move(def));
}

void FunctionChecker::defineHeader() {
  for (const Param &param : fn.params) {
    define(param.name, {Definition::Kind::Param, param.loc, "", 0, 0});
    for (unsigned d = 0; d < param.dims.size(); ++d) {
      const Dim &dim = param.dims[d];
      if (dim.isLiteral)
        continue;
      // A repeated size name is an equality requirement, not a
      // redefinition (4.2) -- unless the name is something else already.
      auto it = scope.find(dim.name);
      if (it != scope.end() && it->second.kind == Definition::Kind::Size)
        continue;
      define(dim.name, {Definition::Kind::Size, dim.loc, param.name, d, 0});
    }
  }
}

void FunctionChecker::run(
    std::vector<std::pair<const Function *, SMLoc>> &callsOut) {
  calls = &callsOut;
  defineHeader();
  // Remember every statement's definitions up front, to tell "used before
  // its definition" from "undefined".
  for (size_t i = 0; i < fn.statements.size(); ++i) {
    const Statement &stmt = fn.statements[i];
    auto add = [&](const std::string &name, SMLoc loc) {
      statementDefs.try_emplace(
          name, Definition{Definition::Kind::Statement, loc, "", 0, i});
    };
    switch (stmt.kind) {
    case Statement::Kind::Assignment:
      add(stmt.assignment->name, stmt.assignment->loc);
      break;
    case Statement::Kind::Contraction:
      add(stmt.contraction->output, stmt.contraction->outputLoc);
      break;
    case Statement::Kind::MultiAssign:
      for (size_t n = 0; n < stmt.multiAssign->names.size(); ++n)
        add(stmt.multiAssign->names[n], stmt.multiAssign->nameLocs[n]);
      break;
    }
  }
  for (currentStatement = 0; currentStatement < fn.statements.size() &&
                             !diag.reachedErrorLimit();
       ++currentStatement)
    checkStatement(fn.statements[currentStatement]);
  checkOutputs();
}

void FunctionChecker::checkStatement(const Statement &stmt) {
  auto defineResult = [&](const std::string &name, SMLoc loc) {
    define(name, {Definition::Kind::Statement, loc, "", 0, currentStatement});
  };
  switch (stmt.kind) {
  case Statement::Kind::Assignment:
    useExpr(*stmt.assignment->value);
    defineResult(stmt.assignment->name, stmt.assignment->loc);
    break;
  case Statement::Kind::MultiAssign: {
    const MultiAssign &multi = *stmt.multiAssign;
    for (const ExprPtr &arg : multi.call->operands)
      useExpr(*arg);
    checkCall(*multi.call, /*inExpression=*/false);
    // The number of results against the callee's outputs.
    size_t given = multi.names.size();
    auto it = functions.find(multi.call->name);
    size_t outputs = 0;
    if (it != functions.end())
      outputs = it->second->outputs.size();
    else if (isBuiltinFunction(multi.call->name))
      outputs = builtinResultCount(multi.call->name,
                                   multi.call->operands.size());
    if (outputs != 0 && outputs != given)
      diag.error(multi.nameLocs.front(),
                 "'" + multi.call->name + "' has " + llvm::Twine(outputs) +
                     (outputs == 1 ? " output" : " outputs") + " but " +
                     llvm::Twine(given) +
                     (given == 1 ? " name is given" : " names are given"));
    for (size_t n = 0; n < given; ++n)
      defineResult(multi.names[n], multi.nameLocs[n]);
    break;
  }
  case Statement::Kind::Contraction: {
    const Contraction &c = *stmt.contraction;
    for (const PolyPtr &poly : c.outIndices)
      usePoly(*poly);
    for (const ExprPtr &size : c.outSizes)
      useExpr(*size);
    for (const Access &access : c.operands) {
      useName(access.tensor, access.loc);
      for (const PolyPtr &poly : access.indices)
        usePoly(*poly);
    }
    for (const Constraint &constraint : c.constraints) {
      usePoly(*constraint.poly);
      useExpr(*constraint.bound);
    }
    if (c.defaultTensor)
      useName(*c.defaultTensor, c.defaultLoc);
    defineResult(c.output, c.outputLoc);
    break;
  }
  }
}

void FunctionChecker::useName(llvm::StringRef name, SMLoc loc) {
  if (scope.count(name))
    return;
  auto later = statementDefs.find(name);
  if (later != statementDefs.end()) {
    if (later->second.statement == currentStatement) {
      diag.error(loc, "'" + name + "' is used in its own definition");
    } else if (later->second.statement > currentStatement) {
      diag.error(loc, "'" + name + "' is used before its definition");
      diag.note(later->second.loc, "'" + name + "' is defined here");
    }
    // An earlier statement that failed to define it (a redefinition) was
    // already reported.
    return;
  }
  if (!reportedUndefined.try_emplace(name, true).second)
    return;
  diag.error(loc, "use of undefined name '" + name + "'");
  if (diag.reachedErrorLimit())
    return; // Nothing more is printed: skip the search for a suggestion.
  std::vector<std::string> candidates;
  for (const auto &entry : scope)
    candidates.push_back(entry.getKey().str());
  for (const auto &entry : statementDefs)
    candidates.push_back(entry.getKey().str());
  std::string suggestion = suggestName(name, candidates);
  if (!suggestion.empty())
    diag.note(loc, "did you mean '" + suggestion + "'?");
}

void FunctionChecker::useExpr(const Expr &expr) {
  switch (expr.kind) {
  case Expr::Kind::ValueRef:
    useName(expr.name, expr.loc);
    return;
  case Expr::Kind::Call:
    for (const ExprPtr &arg : expr.operands)
      useExpr(*arg);
    checkCall(expr, /*inExpression=*/true);
    return;
  default:
    for (const ExprPtr &operand : expr.operands)
      useExpr(*operand);
    return;
  }
}

void FunctionChecker::usePoly(const Poly &poly) {
  if (poly.kind == Poly::Kind::ValueRef)
    useName(poly.name, poly.loc);
  if (poly.lhs)
    usePoly(*poly.lhs);
  if (poly.rhs)
    usePoly(*poly.rhs);
}

/// "(A, B)" for two results: the shape of a multiple assignment.
std::string exampleNames(size_t count) {
  std::string text = "(";
  for (size_t i = 0; i < count; ++i) {
    if (i)
      text += ", ";
    text += i < 26 ? std::string(1, char('A' + i)) : "R" + std::to_string(i);
  }
  return text + ")";
}

void FunctionChecker::checkCall(const Expr &call, bool inExpression) {
  unsigned got = call.operands.size();
  auto it = functions.find(call.name);
  if (it != functions.end()) {
    const Function &callee = *it->second;
    calls->push_back({&callee, call.loc});
    // Trailing parameters with defaults may be left out (4.6).
    unsigned maxArgs = callee.params.size();
    unsigned minArgs = maxArgs;
    while (minArgs > 0 && callee.params[minArgs - 1].defaultValue)
      --minArgs;
    if (got < minArgs || got > maxArgs)
      diag.error(call.loc, describeArgCount(call.name, minArgs, maxArgs) +
                               ", got " + llvm::Twine(got));
    if (inExpression && callee.outputs.size() != 1)
      diag.error(call.loc, "'" + call.name + "' has " +
                               llvm::Twine(callee.outputs.size()) +
                               " outputs; use '" +
                               exampleNames(callee.outputs.size()) + " = " +
                               call.name + "(…);'");
    return;
  }
  if (const BuiltinInfo *builtin = lookupBuiltin(call.name)) {
    if (!builtin->acceptsArgCount(got))
      diag.error(call.loc, describeArgCount(call.name, builtin->minArgs,
                                            builtin->maxArgs) +
                               ", got " + llvm::Twine(got));
    else if (size_t results = builtinResultCount(call.name, got);
             inExpression && results != 1)
      diag.error(call.loc, "'" + call.name + "' has " + llvm::Twine(results) +
                               " results; use '" + exampleNames(results) +
                               " = " + call.name + "(…);'");
    return;
  }
  diag.error(call.loc, "unknown function '" + call.name + "'");
  if (diag.reachedErrorLimit())
    return;
  std::vector<std::string> candidates;
  for (const std::string &name : builtinNames())
    if (name != "assert_")
      candidates.push_back(name);
  for (const auto &entry : functions)
    candidates.push_back(entry.getKey().str());
  std::string suggestion = suggestName(call.name, candidates);
  if (!suggestion.empty())
    diag.note(call.loc, "did you mean '" + suggestion + "'?");
}

void FunctionChecker::checkOutputs() {
  llvm::StringMap<SMLoc> listed;
  for (const Output &out : fn.outputs) {
    if (!listed.try_emplace(out.name, out.loc).second) {
      diag.error(out.loc, "'" + out.name + "' is listed twice as an output");
      diag.note(listed[out.name], "first listed here");
      continue;
    }
    auto it = scope.find(out.name);
    std::string copy = out.name == "Y" ? "Z" : "Y";
    if (it != scope.end() && it->second.kind == Definition::Kind::Param) {
      diag.error(out.loc, "output '" + out.name +
                              "' is a parameter; outputs are computed in the "
                              "body (write '" +
                              copy + " = " + out.name + ";')");
    } else if (it != scope.end() && it->second.kind == Definition::Kind::Size) {
      diag.error(out.loc, "output '" + out.name +
                              "' is a size; outputs are computed in the "
                              "body (write '" +
                              copy + " = " + out.name + ";')");
    } else if (!statementDefs.count(out.name)) {
      diag.error(out.loc, "output '" + out.name + "' is never defined");
    }
  }
}

/// The function-level rules of 4.6: unique names that are not builtins, only
/// the last function unnamed. Fills `functions` with the first of each name.
void checkFunctionNames(const Module &module,
                        llvm::StringMap<const Function *> &functions,
                        DiagnosticEngine &diag) {
  for (size_t i = 0; i < module.functions.size(); ++i) {
    const Function &fn = module.functions[i];
    if (fn.name.empty()) {
      if (i + 1 != module.functions.size())
        diag.error(fn.loc, "only the last function of a file may be unnamed");
      continue;
    }
    if (isBuiltinFunction(fn.name)) {
      diag.error(fn.nameLoc, "'" + fn.name +
                                 "' is a builtin function and cannot be "
                                 "redefined");
    }
    auto [it, inserted] = functions.try_emplace(fn.name, &fn);
    if (!inserted) {
      diag.error(fn.nameLoc, "redefinition of function '" + fn.name + "'");
      diag.note(it->second->nameLoc, "'" + fn.name + "' is first defined here");
    }
  }
}

/// Reports each cycle of the call graph once, at the call that closes it.
class RecursionChecker {
public:
  RecursionChecker(
      const std::map<const Function *,
                     std::vector<std::pair<const Function *, SMLoc>>> &graph,
      DiagnosticEngine &diag)
      : graph(graph), diag(diag) {}

  void visit(const Function *fn) {
    // An explicit stack keeps deep call chains off the native stack.
    struct Frame {
      const Function *fn;
      size_t next;
    };
    if (state[fn] != 0)
      return;
    std::vector<Frame> stack{{fn, 0}};
    state[fn] = 1;
    while (!stack.empty()) {
      Frame &top = stack.back();
      auto edges = graph.find(top.fn);
      if (edges == graph.end() || top.next == edges->second.size()) {
        state[top.fn] = 2;
        stack.pop_back();
        continue;
      }
      auto [callee, loc] = edges->second[top.next++];
      int calleeState = state[callee];
      if (calleeState == 0) {
        state[callee] = 1;
        stack.push_back({callee, 0});
      } else if (calleeState == 1) {
        reportCycle(stack, callee, loc);
      }
    }
  }

private:
  template <typename Stack>
  void reportCycle(const Stack &stack, const Function *callee, SMLoc loc) {
    size_t start = 0;
    while (stack[start].fn != callee)
      ++start;
    std::string text = "recursive call: '" + stack[start].fn->name + "' calls";
    for (size_t i = start + 1; i < stack.size(); ++i)
      text += " '" + stack[i].fn->name + "', which calls";
    text += " '" + callee->name + "'";
    diag.error(loc, text);
  }

  const std::map<const Function *,
                 std::vector<std::pair<const Function *, SMLoc>>> &graph;
  DiagnosticEngine &diag;
  std::map<const Function *, int> state; ///< 0 new, 1 on the stack, 2 done
};

} // namespace

bool tilec::checkModule(const Module &module, DiagnosticEngine &diag) {
  unsigned errorsBefore = diag.errorCount();
  llvm::StringMap<const Function *> functions;
  checkFunctionNames(module, functions, diag);
  std::map<const Function *, std::vector<std::pair<const Function *, SMLoc>>>
      graph;
  for (const Function &fn : module.functions) {
    if (diag.reachedErrorLimit())
      break;
    FunctionChecker(fn, functions, diag).run(graph[&fn]);
  }
  RecursionChecker recursion(graph, diag);
  for (const Function &fn : module.functions)
    recursion.visit(&fn);
  return diag.errorCount() == errorsBefore;
}
