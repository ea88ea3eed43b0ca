//===- PlaidMLPrinter.cpp - The bound program in PlaidML's Tile -----------===//
//
// Writes a typed::Program back as source text in the subset of Tile that
// PlaidML 0.7 reads. The program is already inlined and folded, so the work
// is to re-create, in source form, what binding derived:
//
//  * Names. Values get names PlaidML lexes as tensor names (see
//    PlaidMLNames); index variables keep theirs when they are plain
//    lower-case identifiers.
//  * Types. The header carries none: input types come from the tensors
//    bound to them. Every other type is re-derived by the reader from the
//    same rules, because the typed program already spells out each
//    promotion as a cast. Only a constant can lose its type, since a literal
//    is weak (docs/language.md 5.2); one is wrapped in a cast unless a
//    tensor beside it fixes its type, or its type is the literal's default.
//  * Shapes. A node's shape is the broadcast of its operands'; the rare node
//    whose shape comes from a constant broadcast to a larger shape (the
//    folded branch of a constant `?:`) is widened explicitly.
//  * Statements without a source form: `index()` needs a tensor of the
//    shape, and a bind-time literal (`shape(X)`) is rebuilt from `index()`.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/PlaidMLPrinter.h"

#include "Constant.h"
#include "TypeRules.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <map>
#include <set>

using namespace tilec;
using namespace tilec::typed;

namespace {

/// Hands out distinct tensor names (`[A-Z][A-Za-z0-9_]*`).
class PlaidMLNames {
public:
  /// A fresh name derived from `source`: its last dot-separated part with
  /// characters PlaidML does not allow dropped (an apostrophe becomes
  /// "_p"), leading underscores removed, the first letter capitalised, and
  /// "_2", "_3"... appended when the name is taken.
  std::string fresh(llvm::StringRef source) {
    llvm::StringRef last = source.rsplit('.').second;
    if (last.empty())
      last = source;
    std::string base;
    for (char c : last) {
      if (llvm::isAlnum(c) || c == '_')
        base += c;
      else if (c == '\'')
        base += "_p";
    }
    size_t start = base.find_first_not_of("_0123456789");
    base = start == std::string::npos ? "T" + base : base.substr(start);
    if (!base.empty() && llvm::isLower(base[0]))
      base[0] = llvm::toUpper(base[0]);
    if (!base.empty() && !llvm::isUpper(base[0]))
      base = "T" + base;
    std::string name = base;
    for (unsigned n = 2; used.count(name); ++n)
      name = base + "_" + std::to_string(n);
    used.insert(name);
    return name;
  }

private:
  std::set<std::string> used;
};

/// Whether `name` can be an index variable in both dialects.
bool isPlainIndexName(llvm::StringRef name) {
  if (name.empty() || !llvm::isLower(name[0]))
    return false;
  if (name == "function" || name == "default" || name == "no_defract" ||
      name == "no_reduce")
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// How tightly a printed form binds, loosest first (C's order, which tilec
/// follows; PlaidML differs only for '^' against '|' and for '?:', which
/// the printer therefore always parenthesises when nested).
enum class Prec {
  Select,
  BitOr,
  BitXor,
  BitAnd,
  Equality,
  Relational,
  Shift,
  Additive,
  Multiplicative,
  Unary,
  Primary
};

/// A printed expression with what its parent needs to know.
struct Text {
  std::string s;
  Prec prec;
  std::vector<int64_t> shape; ///< the shape the text denotes as printed
};

const char *binarySpelling(ExprOp op, Prec &prec) {
  switch (op) {
  case ExprOp::Mul:
    prec = Prec::Multiplicative;
    return "*";
  case ExprOp::Div:
    prec = Prec::Multiplicative;
    return "/";
  case ExprOp::Add:
    prec = Prec::Additive;
    return "+";
  case ExprOp::Sub:
    prec = Prec::Additive;
    return "-";
  case ExprOp::Shl:
    prec = Prec::Shift;
    return "<<";
  case ExprOp::Shr:
    prec = Prec::Shift;
    return ">>";
  case ExprOp::Lt:
    prec = Prec::Relational;
    return "<";
  case ExprOp::Gt:
    prec = Prec::Relational;
    return ">";
  case ExprOp::Le:
    prec = Prec::Relational;
    return "<=";
  case ExprOp::Ge:
    prec = Prec::Relational;
    return ">=";
  case ExprOp::Eq:
    prec = Prec::Equality;
    return "==";
  case ExprOp::Ne:
    prec = Prec::Equality;
    return "!=";
  case ExprOp::BitAnd:
    prec = Prec::BitAnd;
    return "&";
  case ExprOp::BitXor:
    prec = Prec::BitXor;
    return "^";
  case ExprOp::BitOr:
    prec = Prec::BitOr;
    return "|";
  default:
    return nullptr;
  }
}

bool isBitwise(Prec p) {
  return p == Prec::BitAnd || p == Prec::BitXor || p == Prec::BitOr;
}

/// The type a literal of `c`'s kind takes where nothing else decides it
/// (docs/language.md 5.2); nullopt for bool, which has no literal.
std::optional<DType> literalDefaultType(const Scalar &c) {
  if (isFloat(c.dtype))
    return DType::F32;
  if (c.dtype == DType::Bool)
    return std::nullopt;
  if (c.dtype == DType::U64 && c.i < 0)
    return std::nullopt; // beyond int64: no literal reaches it
  return fitsIn(c.i, DType::I32) ? DType::I32 : DType::I64;
}

/// The literal text of `c` (weak), parenthesised when negative so that it
/// can stand anywhere. Infinities and NaN, which have no literal, fold from
/// a division.
std::string literalText(const Scalar &c) {
  if (isFloat(c.dtype)) {
    if (std::isnan(c.f))
      return "(0.0 / 0.0)";
    if (std::isinf(c.f))
      return c.f < 0 ? "(-1.0 / 0.0)" : "(1.0 / 0.0)";
  }
  // Bool prints as 0 or 1 (for as_bool), a u64 beyond int64 as the negative
  // value whose conversion gives it.
  bool asSigned = c.dtype == DType::Bool || c.dtype == DType::U64;
  std::string text = asSigned ? std::to_string(c.i) : c.str();
  return text[0] == '-' ? "(" + text + ")" : text;
}

/// `as_float(X, 32)` and its siblings: the conversion of `arg` to `t`.
std::string castText(DType t, const std::string &arg) {
  std::string bits = std::to_string(dtypeBits(t));
  if (t == DType::Bool)
    return "as_bool(" + arg + ")";
  if (t == DType::BF16)
    return "as_bfloat(" + arg + ", 16)";
  if (isFloat(t))
    return "as_float(" + arg + ", " + bits + ")";
  if (isUnsigned(t))
    return "as_uint(" + arg + ", " + bits + ")";
  return "as_int(" + arg + ", " + bits + ")";
}

std::vector<int64_t> broadcastAll(const std::vector<const Text *> &parts) {
  std::vector<int64_t> shape;
  for (const Text *t : parts) {
    int64_t a = 0, b = 0;
    if (auto s = broadcastShapes(shape, t->shape, a, b))
      shape = *s;
  }
  return shape;
}

class Printer {
public:
  Printer(const Program &p, llvm::raw_ostream &os,
          const TilePrintOptions &options)
      : p(p), os(os), options(options) {}

  void print() {
    nameValues();
    for (size_t k = 0; k < p.statements.size(); ++k)
      statement(p.statements[k]);
    std::vector<std::string> outputs = outputNames();

    std::vector<std::string> params;
    for (ValueId id : p.inputs)
      params.push_back(options.typedHeader
                           ? names[id] + ": " + p.value(id).type.str()
                           : names[id] + dims(p.value(id).type.shape));
    std::string oneLine = llvm::join(params, ", ");
    os << "function " << options.functionName << "(";
    if (oneLine.size() <= 80)
      os << oneLine;
    else
      os << "\n  " << llvm::join(params, ",\n  ") << "\n";
    os << ") -> (" << llvm::join(outputs, ", ") << ") {\n" << body << "}\n";
  }

private:
  //===--------------------------------------------------------------------===//
  // Names
  //===--------------------------------------------------------------------===//

  /// Inputs and outputs first, so that they keep their names when valid;
  /// then everything else in order of definition. A value whose only role
  /// is to be copied (`P = softmax.1.P`, how an inlined call returns) is
  /// given the copy's name and the copy is not printed.
  void nameValues() {
    names.assign(p.values.size(), "");
    auto give = [&](ValueId id) {
      if (names[id].empty())
        names[id] = namer.fresh(p.value(id).name);
    };
    for (ValueId id : p.inputs) {
      give(id);
      defined.push_back(id);
    }
    for (ValueId id : p.outputs)
      give(id);
    std::set<ValueId> kept(p.inputs.begin(), p.inputs.end()), copies;
    kept.insert(p.outputs.begin(), p.outputs.end());
    for (const Statement &st : p.statements) {
      const Expr *e = st.expr.get();
      if (st.kind != Statement::Kind::Elementwise || e->op != ExprOp::Ref ||
          e->origin != ExprOrigin::None ||
          kept.count(e->ref) || copies.count(e->ref) ||
          p.value(e->ref).type != p.value(st.results[0]).type)
        continue;
      ValueId source = e->ref;
      names[source] = names[st.results[0]];
      if (names[source].empty())
        names[source] = names[st.results[0]] =
            namer.fresh(p.value(st.results[0]).name);
      kept.insert(source);
      copies.insert(st.results[0]);
      folded.insert(&st);
    }
    for (const Statement &st : p.statements)
      for (ValueId id : st.results)
        give(id);
  }

  /// The header's output list. An output that is an input or repeats an
  /// earlier output (possible in a typed program, never in PlaidML) gets a
  /// copy of its own.
  std::vector<std::string> outputNames() {
    std::vector<std::string> result;
    std::set<ValueId> seen(p.inputs.begin(), p.inputs.end());
    for (ValueId id : p.outputs) {
      if (seen.insert(id).second) {
        result.push_back(names[id]);
        continue;
      }
      std::string copy = namer.fresh(p.value(id).name);
      body += "  " + copy + " = " + names[id] + ";\n";
      result.push_back(copy);
    }
    return result;
  }

  /// "[D2, D3]" for an input of shape [2, 3]; "[]" for rank 0.
  std::string dims(const std::vector<int64_t> &shape) {
    std::vector<std::string> parts;
    for (int64_t d : shape) {
      auto [it, isNew] = sizeNames.try_emplace(d, "");
      if (isNew)
        it->second = namer.fresh("D" + std::to_string(d));
      parts.push_back(it->second);
    }
    return "[" + llvm::join(parts, ", ") + "]";
  }

  //===--------------------------------------------------------------------===//
  // Helper tensors
  //===--------------------------------------------------------------------===//

  /// A tensor of exactly `shape` defined so far, for `index()`; made from a
  /// constant by a copying contraction if there is none.
  std::string tensorOfShape(const std::vector<int64_t> &shape) {
    for (ValueId id : defined)
      if (p.value(id).type.shape == shape)
        return names[id];
    auto it = madeShapes.find(shape);
    if (it != madeShapes.end())
      return it->second;
    std::string zero = namer.fresh("Zero");
    std::string made = namer.fresh("Shape");
    std::vector<std::string> vars, sizes;
    for (size_t k = 0; k < shape.size(); ++k) {
      vars.push_back("i" + std::to_string(k));
      sizes.push_back(std::to_string(shape[k]));
    }
    body += "  " + zero + " = 0;\n  " + made + "[" + llvm::join(vars, ", ") +
            " : " + llvm::join(sizes, ", ") + "] = =(" + zero + "[]);\n";
    madeShapes[shape] = made;
    return made;
  }

  /// `text` (of a smaller shape) broadcast to `shape`: both branches of a
  /// `?:` whose condition has that shape, so that the type stays the
  /// branches' (a literal branch would bring its own).
  std::string widened(const std::string &text,
                      const std::vector<int64_t> &shape) {
    std::string cond = "index(" + tensorOfShape(shape) + ", 0) < 0";
    return "(" + cond + " ? (" + text + ") : (" + text + "))";
  }

  /// Row-major position of every element of a tensor of `shape`.
  std::string flatIndex(const std::vector<int64_t> &shape) {
    std::string source = tensorOfShape(shape);
    std::string text;
    int64_t stride = 1;
    for (size_t k = shape.size(); k-- > 0;) {
      std::string term = "index(" + source + ", " + std::to_string(k) + ")";
      if (stride != 1)
        term += " * " + std::to_string(stride);
      text = text.empty() ? term : term + " + " + text;
      stride *= shape[k];
    }
    return text;
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  /// A constant; `typeFixed` when a tensor operand beside it decides its
  /// type, so that a bare literal suffices. Bool has no literal, and a u64
  /// beyond int64 is reached only by converting a negative one.
  Text constant(const Scalar &c, bool typeFixed) {
    bool hugeU64 = c.dtype == DType::U64 && c.i < 0;
    bool bare = c.dtype != DType::Bool && !hugeU64 &&
                (typeFixed || literalDefaultType(c) == c.dtype);
    std::string lit = literalText(c);
    return {bare ? lit : castText(c.dtype, lit), Prec::Primary, {}};
  }

  /// `t` as an operand of a form with precedence `parent`.
  static std::string operand(const Text &t, Prec parent, bool rightSide) {
    bool paren = t.prec < parent ||
                 (t.prec == parent &&
                  (rightSide || parent == Prec::Relational ||
                   parent == Prec::Equality || parent == Prec::Unary)) ||
                 (isBitwise(parent) && isBitwise(t.prec) && t.prec != parent);
    return paren ? "(" + t.s + ")" : t.s;
  }

  static bool isConst(const Expr &e) { return e.op == ExprOp::Const; }

  Text call(const std::string &fn, const std::vector<Text> &args,
            const std::string &extra = "") {
    std::string s = fn + "(";
    for (size_t k = 0; k < args.size(); ++k)
      s += (k ? ", " : "") + args[k].s;
    return {s + extra + ")", Prec::Primary, {}};
  }

  Text expr(const Expr &e, bool typeFixed) {
    switch (e.op) {
    case ExprOp::Ref:
      if (e.origin == ExprOrigin::StopGrad)
        return {"stop_grad(" + names[e.ref] + ")", Prec::Primary,
                p.value(e.ref).type.shape};
      // A reverse_grad whose scale did not broadcast kept none (SemaGrad).
      if (e.origin == ExprOrigin::ReverseGrad && !e.args.empty())
        return {"reverse_grad(" + names[e.ref] + ", " +
                    expr(*e.args[0], false).s + ")",
                Prec::Primary, p.value(e.ref).type.shape};
      return {names[e.ref], Prec::Primary, p.value(e.ref).type.shape};
    case ExprOp::Const:
      return constant(e.constant, typeFixed);
    case ExprOp::Index:
      return {"index(" + tensorOfShape(e.type.shape) + ", " +
                  std::to_string(e.axis) + ")",
              Prec::Primary, e.type.shape};
    default:
      break;
    }

    // Operands whose type a tensor beside them fixes print as bare literals.
    std::vector<Text> args;
    for (size_t k = 0; k < e.args.size(); ++k) {
      bool fixed = false;
      if (e.op == ExprOp::Select)
        fixed = k == 0 || !isConst(*e.args[k == 1 ? 2 : 1]);
      else if (e.args.size() == 2)
        fixed = !isConst(*e.args[1 - k]);
      args.push_back(expr(*e.args[k], fixed));
    }
    Text t = compose(e, args);
    std::vector<const Text *> parts;
    for (const Text &a : args)
      parts.push_back(&a);
    t.shape = broadcastAll(parts);
    if (t.shape != e.type.shape)
      t = {widened(t.s, e.type.shape), Prec::Primary, e.type.shape};
    return t;
  }

  Text compose(const Expr &e, std::vector<Text> &args) {
    Prec prec = Prec::Primary;
    if (const char *op = binarySpelling(e.op, prec))
      return {operand(args[0], prec, false) + " " + op + " " +
                  operand(args[1], prec, true),
              prec,
              {}};
    switch (e.op) {
    case ExprOp::Neg:
      return {"-" + operand(args[0], Prec::Unary, true), Prec::Unary, {}};
    case ExprOp::BitNot:
      return {"~" + operand(args[0], Prec::Unary, true), Prec::Unary, {}};
    case ExprOp::Select:
      return {operand(args[0], Prec::Relational, false) + " ? " +
                  operand(args[1], Prec::Relational, false) + " : " +
                  operand(args[2], Prec::Relational, false),
              Prec::Select,
              {}};
    case ExprOp::Cast:
      return {castText(e.type.dtype, args[0].s), Prec::Primary, {}};
    default:
      return call(exprOpName(e.op), args);
    }
  }

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  void statement(const Statement &st) {
    if (folded.count(&st))
      return;
    std::string line;
    for (const ast::Attribute &a : st.attributes) {
      line += "[[" + a.name;
      if (!a.args.empty())
        line += "(" + llvm::join(a.args, ", ") + ")";
      line += "]] ";
    }
    const std::string &result = names[st.results[0]];
    switch (st.kind) {
    case Statement::Kind::Elementwise:
      line += result + " = " + elementwise(st) + ";";
      break;
    case Statement::Kind::Contraction:
      line += contraction(st);
      break;
    case Statement::Kind::Reshape: {
      line += result + " = reshape(" + names[st.operands[0]];
      for (int64_t d : p.value(st.results[0]).type.shape)
        line += ", " + std::to_string(d);
      line += ");";
      break;
    }
    case Statement::Kind::Gather:
    case Statement::Kind::Scatter: {
      std::vector<std::string> ops;
      for (ValueId id : st.operands)
        ops.push_back(names[id]);
      line +=
          result +
          (st.kind == Statement::Kind::Gather ? " = gather(" : " = scatter(") +
          llvm::join(ops, ", ") + ");";
      break;
    }
    case Statement::Kind::Prng: {
      std::string handle = namer.fresh("Handle");
      line += handle + " = prng_step(" + names[st.operands[0]];
      for (int64_t d : p.value(st.results[0]).type.shape)
        line += ", " + std::to_string(d);
      line += ");\n  " + result + " = prng_value(" + handle + ");\n  " +
              names[st.results[1]] + " = prng_state(" + handle + ");";
      break;
    }
    case Statement::Kind::Literal:
      line += result + " = " + literal(st) + ";";
      break;
    case Statement::Kind::Grad: {
      // Printed programs are expanded (lib/Autodiff); this is for a
      // placeholder printed while debugging.
      std::vector<std::string> results, ops;
      for (ValueId id : st.results)
        results.push_back(names[id]);
      for (ValueId id : st.operands)
        ops.push_back(names[id]);
      line += "(" + llvm::join(results, ", ") + ") = grad(" +
              llvm::join(ops, ", ") + ");";
      break;
    }
    }
    body += "  " + line + "\n";
    for (ValueId id : st.results)
      defined.push_back(id);
  }

  std::string elementwise(const Statement &st) {
    const Expr &e = *st.expr;
    // A constant standing alone keeps its type only through a cast.
    if (e.op == ExprOp::Const) {
      std::string c = castText(e.type.dtype, literalText(e.constant));
      const auto &shape = p.value(st.results[0]).type.shape;
      return shape.empty() ? c : widened(c, shape);
    }
    Text t = expr(e, false);
    const auto &shape = p.value(st.results[0]).type.shape;
    return t.shape == shape ? t.s : widened(t.s, shape);
  }

  /// A bind-time tensor: a `?:` chain over each element's position.
  std::string literal(const Statement &st) {
    const TensorType &type = p.value(st.results[0]).type;
    if (type.shape.empty())
      return castText(type.dtype, literalText(st.literal[0]));
    std::string position = flatIndex(type.shape);
    if (type.shape.size() > 1)
      position = "(" + position + ")";
    std::string text = constant(st.literal.back(), false).s;
    for (size_t k = st.literal.size() - 1; k-- > 0;) {
      std::string rest = k + 2 < st.literal.size() ? "(" + text + ")" : text;
      text = position + " == " + std::to_string(k) + " ? " +
             constant(st.literal[k], false).s + " : " + rest;
    }
    // A chain of literals alone would take their default type.
    return st.literal.size() == 1 ? widened(text, type.shape) : text;
  }

  std::string contraction(const Statement &st) {
    const Contraction &c = *st.contraction;
    std::vector<std::string> vars;
    std::set<std::string> taken;
    for (const IndexVar &v : c.vars)
      if (isPlainIndexName(v.name))
        taken.insert(v.name);
    for (size_t k = 0; k < c.vars.size(); ++k) {
      std::string name = c.vars[k].name;
      if (!isPlainIndexName(name)) {
        unsigned n = k;
        do
          name = "x" + std::to_string(n++);
        while (taken.count(name));
        taken.insert(name);
      }
      vars.push_back(name);
    }
    auto indices = [&](const std::vector<Affine> &idx) {
      std::vector<std::string> parts;
      for (const Affine &a : idx)
        parts.push_back(a.str(vars));
      return llvm::join(parts, ", ");
    };
    auto access = [&](const Access &a) {
      return names[a.value] + "[" + indices(a.indices) + "]";
    };

    std::vector<std::string> sizes;
    for (int64_t d : p.value(st.results[0]).type.shape)
      sizes.push_back(std::to_string(d));
    std::string out = names[st.results[0]] + "[" + indices(c.outIndices);
    if (!sizes.empty())
      out += " : " + llvm::join(sizes, ", ");
    out += "] = " + std::string(ast::spelling(c.agg)) + "(";
    switch (c.comb) {
    case ast::CombKind::None:
      out += access(c.operands[0]);
      break;
    case ast::CombKind::Mul:
      out += access(c.operands[0]) + " * " + access(c.operands[1]);
      break;
    case ast::CombKind::Add:
      out += access(c.operands[0]) + " + " + access(c.operands[1]);
      break;
    case ast::CombKind::Eq:
      out += access(c.operands[0]) + " == " + access(c.operands[1]);
      break;
    case ast::CombKind::Cond:
      out += access(c.operands[0]) + " == " + access(c.operands[1]) + " ? " +
             access(c.operands[2]);
      break;
    }
    out += ")";
    for (const ContractionConstraint &k : c.constraints)
      out += ", " + k.poly.str(vars) + " < " + std::to_string(k.bound);
    if (c.defaultValue)
      out += " default " + names[*c.defaultValue];
    return out + ";";
  }

  const Program &p;
  llvm::raw_ostream &os;
  const TilePrintOptions &options;
  PlaidMLNames namer;
  std::vector<std::string> names;           ///< per ValueId
  std::vector<ValueId> defined;             ///< in order of definition
  std::map<int64_t, std::string> sizeNames; ///< header size -> its name
  std::map<std::vector<int64_t>, std::string> madeShapes;
  std::set<const Statement *> folded; ///< copies printed as their source
  std::string body;
};

} // namespace

void tilec::typed::printPlaidML(const Program &program, llvm::raw_ostream &os,
                                const TilePrintOptions &options) {
  Printer(program, os, options).print();
}
