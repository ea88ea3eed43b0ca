//===- Sema.cpp - Binding the entry function ------------------------------===//
//
// The driver of phase 2 (docs/language.md 1.3): binds the entry function's
// parameters (SemaParams.cpp), its statements in order, and turns its
// outputs into values (4.5). Also the binder's shared services: diagnostics
// with call notes, value creation, statements and scopes.
//
//===----------------------------------------------------------------------===//

#include "Binder.h"

using namespace tilec;
using namespace tilec::sema;

//===----------------------------------------------------------------------===//
// Shared services
//===----------------------------------------------------------------------===//

bool Binder::error(SMLoc loc, const llvm::Twine &message, const Notes &notes) {
  diag->error(loc, message);
  for (const auto &[noteLoc, text] : notes)
    diag->note(noteLoc, text);
  for (auto it = callStack.rbegin(); it != callStack.rend(); ++it)
    diag->note(it->second, "in call to '" + it->first + "' here");
  return false;
}

std::optional<ValueId> Binder::newValue(const std::string &name,
                                        const TensorType &type, SMLoc loc) {
  if (type.shape.size() > kMaxRank) {
    error(loc, "tensor '" + name + "' has " +
                   std::to_string(type.shape.size()) +
                   " dimensions; at most " + std::to_string(kMaxRank) +
                   " are supported");
    return std::nullopt;
  }
  int64_t count = elementCount(type.shape);
  if (count < 0 || count > kMaxElements) {
    error(loc, "tensor '" + name + "' is too large: " +
                   (count < 0 ? std::string("its element count overflows "
                                            "64 bits")
                              : std::to_string(count) + " elements") +
                   " (at most 2^40 are supported)");
    return std::nullopt;
  }
  program.values.push_back(typed::Value{name, type, loc});
  return static_cast<ValueId>(program.values.size() - 1);
}

std::string Binder::tempName() { return "_t" + std::to_string(tempCounter++); }

typed::Statement &Binder::addStatement(typed::Statement::Kind kind, SMLoc loc,
                                       std::string label) {
  typed::Statement st;
  st.kind = kind;
  st.loc = loc;
  st.attributes = attributes;
  st.label = std::move(label);
  program.statements.push_back(std::move(st));
  return program.statements.back();
}

const Bound *Binder::lookup(const std::string &name) const {
  auto it = scope->names.find(name);
  return it == scope->names.end() ? nullptr : &it->second;
}

bool Binder::define(const std::string &name, SMLoc loc, Operand value) {
  Bound b;
  b.kind = value.kind;
  switch (value.kind) {
  case Bound::Kind::Const:
    b.c = value.c;
    break;
  case Bound::Kind::Tuple:
    b.elems = std::move(value.elems);
    break;
  case Bound::Kind::Handle:
    b.handle = value.handle;
    if (handles[value.handle].name.empty())
      handles[value.handle].name = name;
    break;
  case Bound::Kind::Tensor:
    if (isPlainRef(value)) {
      b.id = value.expr->ref; // another name for the same value (6)
      // A builtin's temporary takes the name it is first given.
      typed::Value &v = program.values[b.id];
      if (b.id >= scope->firstValue &&
          llvm::StringRef(v.name).starts_with("_t")) {
        v.name = scope->prefix + name;
        // The statement defining it is recent: search from the end.
        for (auto st = program.statements.rbegin();
             st != program.statements.rend(); ++st)
          if (llvm::is_contained(st->results, b.id)) {
            if (llvm::StringRef(st->label).starts_with("_t"))
              st->label = v.name;
            break;
          }
      }
      break;
    }
    std::string full = scope->prefix + name;
    auto id = newValue(full, value.type(), loc);
    if (!id)
      return false;
    typed::Statement &st =
        addStatement(typed::Statement::Kind::Elementwise, loc, full);
    st.results.push_back(*id);
    st.expr = std::move(value.expr);
    b.id = *id;
    break;
  }
  scope->names[name] = std::move(b);
  return true;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

bool Binder::bindStatement(const ast::Statement &stmt) {
  // Attributes of a call apply to everything the call expands to.
  size_t outerAttrs = attributes.size();
  attributes.insert(attributes.end(), stmt.attributes.begin(),
                    stmt.attributes.end());
  bool ok = false;
  switch (stmt.kind) {
  case ast::Statement::Kind::Assignment: {
    const ast::Assignment &a = *stmt.assignment;
    auto value = bindExpr(*a.value);
    ok = value && define(a.name, a.loc, std::move(*value));
    break;
  }
  case ast::Statement::Kind::Contraction:
    ok = bindContraction(*stmt.contraction, stmt.loc);
    break;
  case ast::Statement::Kind::MultiAssign: {
    const ast::MultiAssign &m = *stmt.multiAssign;
    const ast::Expr &call = *m.call;
    const ast::Function *callee = findFunction(call.name);
    if (!callee && call.name == "grad") {
      std::optional<std::vector<Operand>> results;
      if (auto args = bindArgs(call))
        results = bindGrad(call, std::move(*args));
      ok = results.has_value();
      for (size_t k = 0; ok && k < m.names.size(); ++k)
        ok = define(m.names[k], m.nameLocs[k], std::move((*results)[k]));
      break;
    }
    if (!callee) {
      // Other builtins have one result.
      if (m.names.size() != 1) {
        ok = error(m.nameLocs[0], "'" + call.name + "' has 1 output but " +
                                      std::to_string(m.names.size()) +
                                      " names are given");
        break;
      }
      auto value = bindCall(call);
      ok = value && define(m.names[0], m.nameLocs[0], std::move(*value));
      break;
    }
    if (callee->outputs.size() != m.names.size()) {
      ok = error(m.nameLocs[0],
                 "'" + call.name + "' has " +
                     plural(callee->outputs.size(), "output", "outputs") +
                     " but " + plural(m.names.size(), "name is", "names are") +
                     " given");
      break;
    }
    std::optional<std::vector<Bound>> results;
    if (auto args = bindArgs(call))
      results = inlineCall(*callee, call, std::move(*args));
    ok = results.has_value();
    if (!ok)
      break;
    for (size_t k = 0; k < m.names.size() && ok; ++k) {
      std::optional<Operand> op =
          fromBound((*results)[k], m.names[k], m.nameLocs[k]);
      ok = op && define(m.names[k], m.nameLocs[k], std::move(*op));
    }
    break;
  }
  }
  attributes.resize(outerAttrs);
  return ok;
}

bool Binder::bindBody(const ast::Function &fn) {
  for (const ast::Statement &stmt : fn.statements)
    if (!bindStatement(stmt))
      return false;
  return true;
}

bool Binder::bindOutputs(const ast::Function &entry) {
  // Outputs (4.5): each a value of its own, named as in the header.
  for (const ast::Output &out : entry.outputs) {
    const Bound *b = lookup(out.name);
    if (!b)
      return error(out.loc, "output '" + out.name + "' is never defined");
    if (const char *what = nonDataKind(*b))
      return error(out.loc, "output '" + out.name + "' is " + what +
                                "; outputs must be tensors or constants");
    bool reuse = b->kind == Bound::Kind::Tensor &&
                 program.values[b->id].name == out.name;
    for (ValueId o : program.outputs)
      reuse &= o != b->id;
    for (ValueId in : program.inputs)
      reuse &= in != b->id;
    if (reuse) {
      program.outputs.push_back(b->id);
      continue;
    }
    auto op = fromBound(*b, out.name, out.loc);
    if (!op)
      return false;
    DType t = op->isConst() ? op->c.defaultType() : op->type().dtype;
    std::vector<int64_t> shape;
    if (op->isTensor())
      shape = op->type().shape;
    auto id = newValue(out.name, TensorType{t, shape}, out.loc);
    if (!id)
      return false;
    typed::Statement &st =
        addStatement(typed::Statement::Kind::Elementwise, out.loc, out.name);
    st.results.push_back(*id);
    st.expr = exprOf(std::move(*op), t);
    if (st.expr->type.shape != shape)
      st.expr->type.shape = shape;
    program.outputs.push_back(*id);
  }

  // Every random-number handle must be drawn from exactly once (8.6).
  for (const PrngHandle &h : handles)
    if (h.valueUses != 1 || h.stateUses != 1)
      return error(h.loc, "handle '" +
                              (h.name.empty() ? std::string("<unnamed>")
                                              : h.name) +
                              "' must be passed to exactly one prng_value "
                              "and one prng_state");
  return true;
}

std::optional<typed::Program> Binder::run(const ast::Function &entry,
                                          const BindOptions &options) {
  Scope entryScope;
  entryScope.fn = &entry;
  scope = &entryScope;
  program.entryName = entry.name;

  if (!bindEntryParameters(entry, options))
    return std::nullopt;

  if (!bindBody(entry))
    return std::nullopt;

  if (!bindOutputs(entry))
    return std::nullopt;
  scope = nullptr;
  return std::move(program);
}

//===----------------------------------------------------------------------===//
// Public entry points
//===----------------------------------------------------------------------===//

const ast::Function *tilec::findEntry(const ast::Module &module,
                                      llvm::StringRef entryName) {
  if (module.functions.empty())
    return nullptr;
  llvm::StringRef wanted = entryName.empty() ? "main" : entryName;
  for (const ast::Function &fn : module.functions)
    if (!fn.name.empty() && fn.name == wanted)
      return &fn;
  if (!entryName.empty())
    return nullptr;
  return &module.functions.back();
}

std::vector<std::string> tilec::functionNames(const ast::Module &module) {
  std::vector<std::string> names;
  for (const ast::Function &fn : module.functions)
    if (!fn.name.empty())
      names.push_back(fn.name);
  return names;
}

std::optional<typed::Program> tilec::bindProgram(const ast::Module &module,
                                                 const ast::Function &entry,
                                                 const BindOptions &options,
                                                 DiagnosticEngine &diag) {
  Binder binder(module, diag);
  return binder.run(entry, options);
}
