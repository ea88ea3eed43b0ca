//===- SemaParams.cpp - Binding the entry function's parameters -----------===//
//
// Gives every size and parameter of the entry function a value (TILE-
// LANGUAGE.md 4.3, 4.4) from header literals, -D flags, input files and
// defaults. All sources must agree: a conflict is an error at the second
// source with a note at the first; unbound sizes and shapeless inputs are
// errors that name the flag to pass.
//
//===----------------------------------------------------------------------===//

#include "Binder.h"

using namespace tilec;
using namespace tilec::sema;

namespace {
/// Where a size got its value, for "all sources must agree" messages.
struct SizeSource {
  int64_t value = 0;
  SMLoc loc;             ///< the header token
  std::string text;      ///< "-D N=32", or "" for a header dimension
  std::string paramName; ///< the parameter whose dimension bound it
  unsigned dim = 0;
  std::string file; ///< the file that gave it, if any
};

/// The first header occurrence of a size name.
struct SizeSite {
  std::string param;
  unsigned dim;
  SMLoc loc;
};
/// A tensor parameter's shape from a file or a type-and-shape flag.
struct ShapeSource {
  TensorType type;
  std::string desc; ///< "'a.npy'" or "'-D X=f32[2,3]'"
  bool dtypeGiven = true;
  const Tensor *file = nullptr;
};

/// Binds the entry's parameters in two passes: shapes from files and flags
/// bind sizes; then each parameter becomes an input tensor or a constant.
class ParameterBinder {
public:
  ParameterBinder(Binder &b, const ast::Function &entry,
                  const BindOptions &options)
      : b(b), entry(entry), options(options) {}

  bool run();

private:
  bool readDefines();
  /// Binds size `p.dims[dim]` to `value` from `file`, checking agreement
  /// with every earlier source.
  bool bindSize(const ast::Param &p, unsigned dim, int64_t value,
                const std::string &file);
  bool bindShapeSource(const ast::Param &p);
  bool checkSizesBound();
  bool bindParameter(const ast::Param &p);

  bool error(SMLoc loc, const llvm::Twine &message,
             const Binder::Notes &notes = {}) {
    return b.error(loc, message, notes);
  }

  Binder &b;
  const ast::Function &entry;
  const BindOptions &options;
  std::map<std::string, SizeSite> sites; ///< first header occurrences
  std::map<std::string, const ast::Param *> params;
  std::map<std::string, const Define *> paramDefines;
  std::map<std::string, SizeSource> sizes;
  std::map<std::string, ShapeSource> shapes;
};

} // namespace

static std::string functionLabel(const ast::Function &fn) {
  return fn.name.empty() ? std::string("the entry function")
                         : "'" + fn.name + "'";
}

static Const constFromDefine(const Define &d) {
  return d.kind == Define::Kind::Float ? Const::weakFloat(d.floatValue)
                                       : Const::weakInt(d.intValue);
}

bool ParameterBinder::run() {
  for (const ast::Param &p : entry.params) {
    params[p.name] = &p;
    for (unsigned d = 0; d < p.dims.size(); ++d)
      if (!p.dims[d].isLiteral)
        sites.insert({p.dims[d].name, SizeSite{p.name, d, p.dims[d].loc}});
  }
  if (!readDefines())
    return false;
  for (const ast::Param &p : entry.params)
    if (!bindShapeSource(p))
      return false;
  if (!checkSizesBound())
    return false;
  for (const auto &[name, src] : sizes)
    b.scope->names[name] = Bound::constant(Const::weakInt(src.value));
  for (const ast::Param &p : entry.params)
    if (!bindParameter(p))
      return false;
  return true;
}

/// -D flags: sizes now, parameters later; anything else is ignored.
bool ParameterBinder::readDefines() {
  std::map<std::string, const Define *> seen;
  for (const Define &d : options.defines) {
    auto [prev, isNew] = seen.insert({d.name, &d});
    if (!isNew && prev->second->text != d.text) {
      SMLoc at = params.count(d.name) ? params[d.name]->loc : SMLoc();
      if (sites.count(d.name))
        at = sites[d.name].loc;
      return error(at, "'" + d.name + "' is given twice: '" +
                           prev->second->text + "' and '" + d.text + "'");
    }
    auto site = sites.find(d.name);
    if (site != sites.end()) {
      if (d.kind != Define::Kind::Int)
        return error(site->second.loc,
                     "size '" + d.name + "' must be an integer",
                     {{SMLoc(), "from '" + d.text + "'"}});
      if (d.intValue < 1)
        return error(site->second.loc,
                     "size '" + d.name + "' must be at least 1, got " +
                         std::to_string(d.intValue),
                     {{SMLoc(), "from '" + d.text + "'"}});
      SizeSource src;
      src.value = d.intValue;
      src.loc = site->second.loc;
      src.text = d.text;
      sizes[d.name] = src;
    } else if (params.count(d.name)) {
      paramDefines[d.name] = &d;
    } else {
      b.diag->warning(SMLoc(), "'" + d.text +
                                   "' names no size or parameter of " +
                                   functionLabel(entry) + "; ignored");
    }
  }
  return true;
}

bool ParameterBinder::bindSize(const ast::Param &p, unsigned dim,
                               int64_t value, const std::string &file) {
  const ast::Dim &d = p.dims[dim];
  auto it = sizes.find(d.name);
  if (it == sizes.end()) {
    SizeSource src;
    src.value = value;
    src.loc = d.loc;
    src.paramName = p.name;
    src.dim = dim;
    src.file = file;
    sizes[d.name] = src;
    return true;
  }
  const SizeSource &first = it->second;
  if (first.value == value)
    return true;
  std::string here = std::to_string(value);
  if (!first.text.empty())
    return error(d.loc, "size '" + d.name + "' is " + here + " in " + file +
                            " but " + std::to_string(first.value) +
                            " from '" + first.text + "'");
  return error(d.loc,
               "size '" + d.name + "' is " + here + " here (" + file +
                   ") but " + std::to_string(first.value) +
                   " at dimension " + std::to_string(first.dim) + " of '" +
                   first.paramName + "'",
               {{first.loc, "'" + d.name + "' is bound to " +
                                std::to_string(first.value) + " here (" +
                                first.file + ")"}});
}

/// Pass 1: files and type-and-shape flags give tensor parameters their
/// shapes and bind sizes.
bool ParameterBinder::bindShapeSource(const ast::Param &p) {
  auto fileIt = options.inputFiles.find(p.name);
  auto defIt = paramDefines.find(p.name);
  ShapeSource src;
  if (fileIt != options.inputFiles.end()) {
    src.type = fileIt->second.tensor.type;
    src.desc = "'" + fileIt->second.path + "'";
    src.file = &fileIt->second.tensor;
    if (defIt != paramDefines.end())
      return error(p.loc, "'" + p.name + "' is bound both by '" +
                              defIt->second->text + "' and by " + src.desc);
  } else if (defIt != paramDefines.end() &&
             defIt->second->kind == Define::Kind::TypeShape) {
    const Define &d = *defIt->second;
    src.dtypeGiven = d.dtype.has_value();
    src.type.dtype = d.dtype ? *d.dtype : p.dtype.value_or(options.defaultType);
    src.type.shape = d.shape;
    src.desc = "'" + d.text + "'";
  } else {
    return true;
  }
  const TensorType &ft = src.type;
  std::string file = src.desc;
  if (p.dtype && src.dtypeGiven && *p.dtype != ft.dtype)
    return error(p.loc, "'" + p.name + "' is declared " +
                            std::string(dtypeName(*p.dtype)) + " but " + file +
                            (src.file ? " holds " : " gives ") +
                            std::string(dtypeName(ft.dtype)));
  if (p.hasDims && p.dims.size() != ft.shape.size())
    return error(p.loc, "'" + p.name + "' is declared with " +
                            std::to_string(p.dims.size()) +
                            (p.dims.size() == 1 ? " dimension"
                                                : " dimensions") +
                            " but " + file + " has " +
                            std::to_string(ft.shape.size()));
  if (p.defaultValue && (!ft.shape.empty() || !src.file))
    return error(p.loc, "'" + p.name + "' is a scalar parameter but " +
                            file + " gives a tensor");
  for (unsigned d = 0; d < p.dims.size(); ++d) {
    std::string where = file + " dimension " + std::to_string(d);
    if (p.dims[d].isLiteral) {
      if (p.dims[d].value != ft.shape[d])
        return error(p.dims[d].loc,
                     "'" + p.name + "' has size " +
                         std::to_string(p.dims[d].value) +
                         " at dimension " + std::to_string(d) + " but " +
                         file + " has " + std::to_string(ft.shape[d]));
    } else if (!bindSize(p, d, ft.shape[d], where)) {
      return false;
    }
  }
  shapes[p.name] = src;
  return true;
}

/// Every size must be bound, every literal dimension at least 1.
bool ParameterBinder::checkSizesBound() {
  // Every size must be bound by now.
  for (const ast::Param &p : entry.params)
    for (unsigned d = 0; d < p.dims.size(); ++d) {
      const ast::Dim &dim = p.dims[d];
      if (!dim.isLiteral && !sizes.count(dim.name)) {
        const SizeSite &site = sites[dim.name];
        return error(site.loc, "size '" + dim.name + "' (dimension " +
                                   std::to_string(site.dim) + " of '" +
                                   site.param + "') is not bound; pass -D " +
                                   dim.name + "=<n>");
      }
      if (dim.isLiteral && dim.value < 1)
        return error(dim.loc, "size must be at least 1, got " +
                                  std::to_string(dim.value));
    }
  return true;
}

/// Pass 2: one parameter, in header order, becomes an input or a constant.
bool ParameterBinder::bindParameter(const ast::Param &p) {
  auto declare = [&](Const c) {
    if (p.dtype)
      c = convertConst(c, *p.dtype);
    b.scope->names[p.name] = Bound::constant(c);
    b.program.constants.push_back({p.name, toScalar(c, c.defaultType())});
  };
  auto input = [&](TensorType type) -> bool {
    auto id = b.newValue(p.name, type, p.loc);
    if (!id)
      return false;
    b.program.inputs.push_back(*id);
    b.scope->names[p.name] = Bound::tensor(*id);
    return true;
  };
  auto shapeIt = shapes.find(p.name);
  if (shapeIt != shapes.end()) {
    const ShapeSource &src = shapeIt->second;
    if (src.file && src.type.shape.empty() && !p.hasDims) {
      // A rank-0 file for a bare or scalar parameter gives a weak
      // constant: the file's type only says integer or float.
      const Tensor &t = *src.file;
      declare(isFloat(t.type.dtype) ? Const::weakFloat(t.getDouble(0))
                                    : Const::weakInt(t.getInt(0)));
      return true;
    }
    TensorType type = src.type;
    if (p.dtype)
      type.dtype = *p.dtype;
    return input(type);
  }
  auto defIt = paramDefines.find(p.name);
  if (defIt != paramDefines.end()) {
    const Define &d = *defIt->second;
    Binder::Notes flag = {{SMLoc(), "from '" + d.text + "'"}};
    if (p.hasDims && !p.dims.empty())
      return error(p.loc,
                   "'" + p.name + "' is a tensor with " +
                       plural(p.dims.size(), "dimension", "dimensions") +
                       "; '" + d.text +
                       "' can only bind a scalar parameter",
                   flag);
    declare(constFromDefine(d));
    return true;
  }
  if (p.defaultValue) {
    const ast::Number &n = *p.defaultValue;
    declare(n.isFloat ? Const::weakFloat(n.floatValue)
                      : Const::weakInt(n.intValue));
    return true;
  }
  if (!p.hasDims)
    return error(p.loc, "input '" + p.name +
                            "' has no shape; pass -D '" + p.name +
                            "=f32[d0,...]' for a tensor or -D " + p.name +
                            "=<number> for a constant, or declare " +
                            p.name + "[...]");
  TensorType type;
  type.dtype = p.dtype.value_or(options.defaultType);
  for (const ast::Dim &d : p.dims)
    type.shape.push_back(d.isLiteral ? d.value : sizes.at(d.name).value);
  return input(type);
}

bool Binder::bindEntryParameters(const ast::Function &entry,
                                 const BindOptions &options) {
  return ParameterBinder(*this, entry, options).run();
}
