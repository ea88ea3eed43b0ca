//===- SemaContraction.cpp - Binding contractions -------------------------===//
//
// Section 7 of docs/language.md on the exact sizes: index polynomials become
// rational affine functions (7.2); output sizes, accesses and constraint
// bounds are checked; the valid assignments form an IndexSystem whose exact
// ranges (7.9) and '=' uniqueness (7.6) the index solver decides.
//
//===----------------------------------------------------------------------===//

#include "Binder.h"

#include <set>

using namespace tilec;
using namespace tilec::sema;

namespace {

/// The index variables of one contraction, numbered in order of first
/// occurrence.
struct VarTable {
  std::vector<std::string> names;
  std::vector<SMLoc> locs;
  std::map<std::string, unsigned> ids;

  unsigned get(const std::string &name, SMLoc loc) {
    auto [it, inserted] = ids.insert({name, unsigned(names.size())});
    if (inserted) {
      names.push_back(name);
      locs.push_back(loc);
    }
    return it->second;
  }
};

/// The source text of a polynomial, for messages.
std::string polyText(const ast::Poly &p) {
  switch (p.kind) {
  case ast::Poly::Kind::IntLit:
    return std::to_string(p.intValue);
  case ast::Poly::Kind::IndexVar:
  case ast::Poly::Kind::ValueRef:
    return p.name;
  case ast::Poly::Kind::Neg:
    return "-" + polyText(*p.lhs);
  default:
    break;
  }
  const char *op = p.kind == ast::Poly::Kind::Add   ? " + "
                   : p.kind == ast::Poly::Kind::Sub ? " - "
                   : p.kind == ast::Poly::Kind::Mul ? " * "
                                                    : " / ";
  auto side = [](const ast::Poly &q) {
    bool compound = q.kind == ast::Poly::Kind::Add ||
                    q.kind == ast::Poly::Kind::Sub;
    return compound ? "(" + polyText(q) + ")" : polyText(q);
  };
  return side(*p.lhs) + op + side(*p.rhs);
}

/// Converts index polynomials to affine functions, reporting 9.4 errors.
class PolyBinder {
public:
  PolyBinder(Binder &b, VarTable &vars) : b(b), vars(vars) {}

  /// Binds each polynomial of `polys` in order, stopping at the first error.
  std::optional<std::vector<Affine>>
  bindAll(const std::vector<ast::PolyPtr> &polys) {
    std::vector<Affine> out;
    for (const auto &p : polys) {
      auto a = bind(*p);
      if (!a)
        return std::nullopt;
      out.push_back(*a);
    }
    return out;
  }

  std::optional<Affine> bind(const ast::Poly &p, unsigned depth = 0) {
    if (depth > kMaxDepth) {
      b.error(p.loc, "index expression nested too deeply");
      return std::nullopt;
    }
    switch (p.kind) {
    case ast::Poly::Kind::IntLit:
      return Affine{Rational(p.intValue), {}};
    case ast::Poly::Kind::IndexVar:
      return Affine::variable(vars.get(p.name, p.loc));
    case ast::Poly::Kind::ValueRef: {
      const Bound *v = b.lookup(p.name);
      if (!v) {
        b.error(p.loc, "use of undefined name '" + p.name + "'");
        return std::nullopt;
      }
      if (v->kind != Bound::Kind::Const || v->c.isFloat) {
        b.error(p.loc, "'" + p.name + "' is not an integer constant and "
                                      "cannot appear in an index expression");
        return std::nullopt;
      }
      if (v->c.type == DType::U64 && v->c.i < 0) {
        b.error(p.loc, "'" + p.name + "' is too large for an index "
                                      "expression");
        return std::nullopt;
      }
      return Affine{Rational(v->c.i), {}};
    }
    case ast::Poly::Kind::Neg: {
      auto a = bind(*p.lhs, depth + 1);
      if (!a)
        return std::nullopt;
      return checked(scale(*a, Rational(-1)), p);
    }
    default:
      break;
    }
    auto l = bind(*p.lhs, depth + 1);
    if (!l)
      return std::nullopt;
    auto r = bind(*p.rhs, depth + 1);
    if (!r)
      return std::nullopt;
    switch (p.kind) {
    case ast::Poly::Kind::Add:
      return checked(add(*l, *r), p);
    case ast::Poly::Kind::Sub:
      return checked(sub(*l, *r), p);
    case ast::Poly::Kind::Mul:
      if (!l->isConstant() && !r->isConstant()) {
        b.error(p.loc, "index expression is not affine: '" + polyText(p) +
                           "' multiplies two index variables");
        return std::nullopt;
      }
      return l->isConstant() ? checked(scale(*r, l->constant), p)
                             : checked(scale(*l, r->constant), p);
    default: {
      if (!r->isConstant()) {
        b.error(p.loc, "an index expression can only divide by a constant");
        return std::nullopt;
      }
      if (r->constant.isZero()) {
        b.error(p.loc, "division by zero in an index expression");
        return std::nullopt;
      }
      auto inv = div(Rational(1), r->constant);
      if (!inv)
        return overflow(p);
      return checked(scale(*l, *inv), p);
    }
    }
  }

private:
  std::optional<Affine> checked(std::optional<Affine> a, const ast::Poly &p) {
    return a ? a : overflow(p);
  }
  std::optional<Affine> overflow(const ast::Poly &p) {
    b.error(p.loc, "index arithmetic overflows 64 bits");
    return std::nullopt;
  }

  Binder &b;
  VarTable &vars;
};


/// The output type of a combination under an aggregation (7.4, 7.5).
DType outputType(ast::AggKind agg, DType combined) {
  bool counts = agg == ast::AggKind::Sum || agg == ast::AggKind::Prod;
  return counts && combined == DType::Bool ? DType::I32 : combined;
}

/// Renumbers affine functions onto the kept variables.
Affine remap(const Affine &a, const std::vector<int> &newIndex, unsigned n) {
  Affine out;
  out.constant = a.constant;
  out.coeffs.assign(n, Rational());
  for (unsigned v = 0; v < a.coeffs.size(); ++v)
    if (!a.coeffs[v].isZero())
      out.coeffs[newIndex[v]] = a.coeffs[v];
  return out;
}

} // namespace

bool Binder::bindContraction(const ast::Contraction &c, SMLoc stmtLoc) {
  const std::string &oname = c.output;
  size_t rank = c.outIndices.size();

  // Output sizes (7.7).
  if (!c.hasColon && rank > 0) {
    std::string sizes;
    for (size_t k = 0; k < rank; ++k)
      sizes += k ? ", <size>" : "<size>";
    std::string idx;
    for (size_t k = 0; k < rank; ++k)
      idx += (k ? ", " : "") + polyText(*c.outIndices[k]);
    return error(c.outputLoc, "output '" + oname +
                                  "' needs a size for each index: write '" +
                                  oname + "[" + idx + " : " + sizes + "]'");
  }
  if (c.outSizes.size() != rank)
    return error(c.outputLoc, "output '" + oname + "' has " +
                                  plural(rank, "index", "indices") + " but " +
                                  plural(c.outSizes.size(), "size", "sizes"));
  std::vector<int64_t> outShape;
  for (const auto &sizeExpr : c.outSizes) {
    auto s = bindExpr(*sizeExpr);
    if (!s || !requireData(*s))
      return false;
    if (!s->isConst())
      return error(sizeExpr->loc,
                   "output size must be a constant integer; " +
                       (s->name.empty() ? std::string("this is a tensor")
                                        : "'" + s->name + "' is a tensor"));
    if (s->c.isFloat)
      return error(sizeExpr->loc,
                   "output size must be an integer, got " + s->c.str());
    if (s->c.i < 1 || (s->c.type == DType::U64 && s->c.i < 0))
      return error(sizeExpr->loc,
                   "output size must be at least 1, got " + s->c.str());
    outShape.push_back(s->c.i);
  }

  // Index polynomials.
  VarTable vars;
  PolyBinder polys(*this, vars);
  auto outIdx = polys.bindAll(c.outIndices);
  if (!outIdx)
    return false;

  // Operands: tensors (constants materialize as rank-0 tensors).
  std::vector<ValueId> opValues;
  std::vector<std::vector<Affine>> opIdx;
  std::optional<DType> tensorDType;
  for (const ast::Access &acc : c.operands) {
    const Bound *v = lookup(acc.tensor);
    if (v && v->kind == Bound::Kind::Tensor)
      tensorDType = tensorDType ? joinDTypes(*tensorDType,
                                             program.values[v->id].type.dtype)
                                : program.values[v->id].type.dtype;
  }
  for (const ast::Access &acc : c.operands) {
    const Bound *v = lookup(acc.tensor);
    if (!v)
      return error(acc.loc, "use of undefined name '" + acc.tensor + "'");
    ValueId id;
    switch (v->kind) {
    case Bound::Kind::Tuple:
    case Bound::Kind::Handle:
      return error(acc.loc, "'" + acc.tensor + "' is a " +
                                (v->kind == Bound::Kind::Tuple
                                     ? "tuple"
                                     : "random-number handle") +
                                " and cannot be accessed");
    case Bound::Kind::Const: {
      if (!acc.indices.empty())
        return error(acc.loc, "'" + acc.tensor + "' is a constant; access it "
                                                 "as '" +
                                  acc.tensor + "[]'");
      // A weak constant next to a tensor takes the tensor's type when it
      // fits, as in an elementwise operation.
      Const k = v->c;
      DType t = k.defaultType();
      if (k.isWeak() && tensorDType) {
        TypeInput ins[2];
        ins[0].tensorType = *tensorDType;
        ins[1].constant = &k;
        TypeDecision d = decideType(ins, false);
        if (d.error.empty())
          t = d.type;
      }
      auto tensor = valueOf(cast(constOperand(k, acc.loc), t, acc.loc));
      if (!tensor)
        return false;
      id = *tensor;
      break;
    }
    case Bound::Kind::Tensor:
      id = v->id;
      break;
    }
    const TensorType &type = program.values[id].type;
    if (type.shape.size() != acc.indices.size())
      return error(acc.loc, "'" + acc.tensor + "' has " +
                                plural(type.shape.size(), "dimension",
                                       "dimensions") +
                                " but is accessed with " +
                                plural(acc.indices.size(), "index",
                                       "indices"));
    auto idx = polys.bindAll(acc.indices);
    if (!idx)
      return false;
    opValues.push_back(id);
    opIdx.push_back(std::move(*idx));
  }

  // Variables occurring in the output and operands (7.2).
  std::set<unsigned> used;
  auto collect = [&](const Affine &a) {
    for (unsigned v : a.occurringVars())
      used.insert(v);
  };
  for (const Affine &a : *outIdx)
    collect(a);
  for (const auto &idx : opIdx)
    for (const Affine &a : idx)
      collect(a);

  // Constraints (7.8).
  std::vector<std::pair<Affine, int64_t>> cons;
  for (const ast::Constraint &k : c.constraints) {
    size_t knownVars = vars.names.size();
    auto a = polys.bind(*k.poly);
    if (!a)
      return false;
    for (unsigned v : a->occurringVars())
      if (!used.count(v))
        return error(v < knownVars ? k.poly->loc : vars.locs[v],
                     "index variable '" + vars.names[v] +
                         "' is constrained but never used in the output or "
                         "an operand");
    auto bound = bindExpr(*k.bound);
    if (!bound || !requireData(*bound))
      return false;
    if (!bound->isConst() || bound->c.isFloat)
      return error(k.bound->loc,
                   "the bound of a constraint must be a constant integer");
    cons.push_back({*a, bound->c.i});
  }

  // Keep only occurring variables ("i - i" does not make i occur).
  std::vector<int> newIndex(vars.names.size(), -1);
  std::vector<unsigned> kept;
  for (unsigned v = 0; v < vars.names.size(); ++v)
    if (used.count(v)) {
      newIndex[v] = kept.size();
      kept.push_back(v);
    }
  unsigned n = kept.size();
  auto contraction = std::make_unique<typed::Contraction>();
  typed::Contraction &tc = *contraction;
  tc.agg = c.agg;
  tc.comb = c.comb;
  IndexSystem system;
  system.numVars = n;
  for (size_t k = 0; k < rank; ++k) {
    tc.outIndices.push_back(remap((*outIdx)[k], newIndex, n));
    system.constraints.push_back({tc.outIndices.back(), outShape[k]});
  }
  for (size_t o = 0; o < opValues.size(); ++o) {
    typed::Access access;
    access.value = opValues[o];
    access.loc = c.operands[o].loc;
    const TensorType &type = program.values[opValues[o]].type;
    for (size_t d = 0; d < opIdx[o].size(); ++d) {
      access.indices.push_back(remap(opIdx[o][d], newIndex, n));
      system.constraints.push_back({access.indices.back(), type.shape[d]});
    }
    tc.operands.push_back(std::move(access));
  }
  for (size_t k = 0; k < cons.size(); ++k) {
    typed::ContractionConstraint cc;
    cc.poly = remap(cons[k].first, newIndex, n);
    cc.bound = cons[k].second;
    cc.loc = c.constraints[k].loc;
    system.constraints.push_back({cc.poly, cc.bound});
    tc.constraints.push_back(std::move(cc));
  }
  std::vector<std::string> keptNames;
  for (unsigned v : kept)
    keptNames.push_back(vars.names[v]);

  // The parser guarantees the operand count of each combination; a
  // mismatch would index past the operands below.
  size_t wanted = c.comb == ast::CombKind::None   ? 1
                  : c.comb == ast::CombKind::Cond ? 3
                                                  : 2;
  if (opValues.size() != wanted)
    return error(c.aggLoc, "malformed contraction: " +
                               std::to_string(opValues.size()) +
                               " operands for this combination");

  // Types (7.4, 7.5).
  auto dtypeOf = [&](size_t o) {
    return program.values[opValues[o]].type.dtype;
  };
  DType combined;
  switch (c.comb) {
  case ast::CombKind::None:
    tc.combineType = combined = dtypeOf(0);
    break;
  case ast::CombKind::Mul:
  case ast::CombKind::Add:
    tc.combineType = combined = joinDTypes(dtypeOf(0), dtypeOf(1));
    break;
  case ast::CombKind::Eq:
    tc.combineType = joinDTypes(dtypeOf(0), dtypeOf(1));
    combined = DType::Bool;
    break;
  case ast::CombKind::Cond:
    tc.combineType = joinDTypes(dtypeOf(0), dtypeOf(1));
    combined = dtypeOf(2);
    break;
  }
  TensorType outType{outputType(c.agg, combined), outShape};

  // Ranges, feasibility (7.9).
  RangeResult ranges = computeRanges(system);
  switch (ranges.status) {
  case RangeResult::Status::Ok:
    break;
  case RangeResult::Status::Unbounded: {
    unsigned v = kept[ranges.var];
    return error(vars.locs[v], "index variable '" + vars.names[v] +
                                   "' is unbounded: no access or constraint "
                                   "limits it");
  }
  case RangeResult::Status::TooLarge:
    return error(c.outputLoc,
                 "this contraction's index space is too large to analyse "
                 "exactly (64-bit overflow or the solver's search limit)");
  case RangeResult::Status::Infeasible: {
    Notes notes;
    auto noteIfFractional = [&](const Affine &a, SMLoc loc) {
      if (neverIntegral(a))
        notes.push_back({loc, "'" + a.str(keptNames) +
                                  "' is never an integer"});
    };
    for (size_t k = 0; k < rank; ++k)
      noteIfFractional(tc.outIndices[k], c.outputLoc);
    for (const typed::Access &a : tc.operands)
      for (const Affine &p : a.indices)
        noteIfFractional(p, a.loc);
    for (const typed::ContractionConstraint &k : tc.constraints)
      noteIfFractional(k.poly, k.loc);
    std::string which =
        n == 0 ? std::string("no index values satisfy this contraction")
               : "no index values satisfy this contraction: '" +
                     keptNames[0] + "' has no valid value";
    return error(c.outputLoc, which, notes);
  }
  }
  for (unsigned k = 0; k < n; ++k)
    tc.vars.push_back(typed::IndexVar{keptNames[k], vars.locs[kept[k]],
                                      ranges.ranges[k].first,
                                      ranges.ranges[k].second});

  // '=' writes each cell at most once (7.6).
  if (c.agg == ast::AggKind::Assign) {
    DuplicateWriteResult check =
        checkDuplicateWrites(system, tc.outIndices, ranges.ranges);
    if (check.status == DuplicateWriteResult::Status::TooLarge)
      return error(c.aggLoc, "cannot decide whether '=' writes a cell of '" +
                                 oname + "' more than once: the index space "
                                 "is too large to search exactly");
    if (check.status == DuplicateWriteResult::Status::Duplicate) {
      const DuplicateWrite *dup = &check.pair;
      std::string cell = oname + "[";
      for (size_t k = 0; k < rank; ++k) {
        auto v = tc.outIndices[k].evaluate(dup->first);
        cell += (k ? ", " : "") + (v ? v->str() : std::string("?"));
      }
      cell += "]";
      auto point = [&](const std::vector<int64_t> &p) {
        std::string s = "(";
        for (unsigned k = 0; k < n; ++k)
          s += (k ? ", " : "") + keptNames[k] + " = " + std::to_string(p[k]);
        return s + ")";
      };
      return error(c.aggLoc,
                   "'=' writes " + cell + " more than once: " +
                       point(dup->first) + " and " + point(dup->second),
                   {{c.aggLoc, "use '+' or '>' to combine the values, or add "
                               "a constraint that makes each write unique"}});
    }
  }

  // default (7.5).
  if (c.defaultTensor) {
    const std::string &dname = *c.defaultTensor;
    const Bound *d = lookup(dname);
    if (!d)
      return error(c.defaultLoc, "use of undefined name '" + dname + "'");
    if (d->kind != Bound::Kind::Tensor)
      return error(c.defaultLoc, "'default' needs a tensor; '" + dname +
                                     "' is not one");
    const TensorType &dt = program.values[d->id].type;
    if (dt.shape != outShape)
      return error(c.defaultLoc, "'default' tensor '" + dname +
                                     "' has shape " + shapeStr(dt.shape) +
                                     " but the output has shape " +
                                     shapeStr(outShape));
    tc.defaultValue = d->id;
  }

  std::string full = scope->prefix + oname;
  auto id = newValue(full, outType, c.outputLoc);
  if (!id)
    return false;
  typed::Statement &st =
      addStatement(typed::Statement::Kind::Contraction, stmtLoc, full);
  st.results.push_back(*id);
  st.operands = opValues;
  st.contraction = std::move(contraction);
  scope->names[oname] = Bound::tensor(*id);
  return true;
}

//===----------------------------------------------------------------------===//
// Contractions built by builtins
//===----------------------------------------------------------------------===//

/// Emits `out = agg(input[...])` with the given output and operand indices
/// over variables whose ranges are known in advance.
static std::optional<ValueId>
emitReduction(Binder &b, ast::AggKind agg, ValueId input,
              std::vector<typed::IndexVar> vars, std::vector<Affine> outIdx,
              std::vector<Affine> inIdx, std::vector<int64_t> outShape,
              SMLoc loc) {
  DType t = b.program.values[input].type.dtype;
  std::string label = b.tempName();
  auto id = b.newValue(label, TensorType{outputType(agg, t), outShape}, loc);
  if (!id)
    return std::nullopt;
  auto c = std::make_unique<typed::Contraction>();
  c->agg = agg;
  c->comb = ast::CombKind::None;
  c->vars = std::move(vars);
  c->outIndices = std::move(outIdx);
  c->operands.push_back(typed::Access{input, std::move(inIdx), loc});
  c->combineType = t;
  typed::Statement &st =
      b.addStatement(typed::Statement::Kind::Contraction, loc, label);
  st.results.push_back(*id);
  st.operands.push_back(input);
  st.contraction = std::move(c);
  return id;
}

std::optional<ValueId> Binder::reduceRows(ast::AggKind agg, ValueId input,
                                          SMLoc loc) {
  std::vector<int64_t> shape = program.values[input].type.shape;
  std::vector<typed::IndexVar> vars = {{"r", loc, 0, shape[0] - 1},
                                       {"c", loc, 0, shape[1] - 1}};
  Affine zero;
  return emitReduction(*this, agg, input, vars, {Affine::variable(0), zero},
                       {Affine::variable(0), Affine::variable(1)}, {shape[0], 1}, loc);
}

std::optional<ValueId>
Binder::simpleReduce(ValueId input, const std::vector<int64_t> &shape,
                     const std::string &inputName, SMLoc loc) {
  std::vector<int64_t> in = program.values[input].type.shape;
  size_t n = in.size(), m = shape.size();
  bool ok = m <= n;
  for (size_t j = 0; ok && j < m; ++j) {
    int64_t x = in[n - m + j];
    ok = shape[j] == x || shape[j] == 1;
  }
  if (!ok) {
    error(loc, "simple_reduce: " + shapeStr(shape) + " does not broadcast to " +
                   inputName + " " + shapeStr(in));
    return std::nullopt;
  }
  std::vector<typed::IndexVar> vars;
  std::vector<Affine> inIdx, outIdx;
  for (size_t k = 0; k < n; ++k) {
    vars.push_back({"x" + std::to_string(k), loc, 0, in[k] - 1});
    inIdx.push_back(Affine::variable(k));
  }
  for (size_t j = 0; j < m; ++j) {
    size_t k = n - m + j;
    outIdx.push_back(shape[j] == in[k] && in[k] != 1 ? Affine::variable(k) : Affine());
  }
  return emitReduction(*this, ast::AggKind::Sum, input, vars, outIdx, inIdx,
                       shape, loc);
}
