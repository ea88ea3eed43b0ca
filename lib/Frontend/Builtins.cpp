//===- Builtins.cpp - The builtin table and name suggestions --------------===//
//
// The table follows docs/language.md section 8 row by row. suggestName lives
// here too because its main use is proposing a builtin for a misspelt call.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Builtins.h"
#include "tilec/Frontend/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace tilec;

namespace {
constexpr unsigned kVar = BuiltinInfo::kVariadic;
constexpr unsigned kNone = BuiltinInfo::kNoConstArgs;
using K = BuiltinKind;

const BuiltinInfo kBuiltins[] = {
    // 8.1 Math.
    {"exp", K::Math, 1, 1, kNone},
    {"log", K::Math, 1, 1, kNone},
    {"sqrt", K::Math, 1, 1, kNone},
    {"sin", K::Math, 1, 1, kNone},
    {"cos", K::Math, 1, 1, kNone},
    {"tan", K::Math, 1, 1, kNone},
    {"asin", K::Math, 1, 1, kNone},
    {"acos", K::Math, 1, 1, kNone},
    {"atan", K::Math, 1, 1, kNone},
    {"sinh", K::Math, 1, 1, kNone},
    {"cosh", K::Math, 1, 1, kNone},
    {"tanh", K::Math, 1, 1, kNone},
    {"asinh", K::Math, 1, 1, kNone},
    {"acosh", K::Math, 1, 1, kNone},
    {"atanh", K::Math, 1, 1, kNone},
    {"pow", K::Math, 2, 2, kNone},
    {"floor", K::Math, 1, 1, kNone},
    {"ceil", K::Math, 1, 1, kNone},
    {"round", K::Math, 1, 1, kNone},
    // 8.2 Inline-defined functions; the softmax sizes R and C are constants.
    {"abs", K::Inline, 1, 1, kNone},
    {"max", K::Inline, 2, 2, kNone},
    {"min", K::Inline, 2, 2, kNone},
    {"relu", K::Inline, 1, 1, kNone},
    {"sigmoid", K::Inline, 1, 1, kNone},
    {"builtin_softmax", K::Inline, 3, 3, 1},
    {"builtin_logsoftmax", K::Inline, 3, 3, 1},
    {"builtin_binary_crossentropy", K::Inline, 3, 3, kNone},
    {"reverse_grad", K::Inline, 2, 2, kNone},
    // 8.3 Casts: the width is a constant.
    {"as_float", K::Cast, 2, 2, 1},
    {"as_int", K::Cast, 2, 2, 1},
    {"as_uint", K::Cast, 2, 2, 1},
    {"as_bool", K::Cast, 1, 1, kNone},
    {"as_bfloat", K::Cast, 2, 2, 1},
    // 8.4 Shape and index functions.
    {"reshape", K::Shape, 1, kVar, 1},
    {"shape", K::Shape, 1, 1, kNone},
    {"index", K::Shape, 2, 2, 1},
    {"ident", K::Shape, 1, 1, kNone},
    {"simple_reduce", K::Shape, 1, kVar, 1},
    // 8.5 Gather and scatter.
    {"gather", K::Gather, 2, 2, kNone},
    {"scatter", K::Gather, 3, 3, kNone},
    // 8.6 Random numbers: the draw's sizes are constants.
    {"prng_step", K::Prng, 1, kVar, 1},
    {"prng_value", K::Prng, 1, 1, kNone},
    {"prng_state", K::Prng, 1, 1, kNone},
    // 8.7 Bind-time helpers. tuple takes any values; element's K is constant.
    {"mod", K::BindTime, 2, 2, 0},
    {"broadcast", K::BindTime, 2, 2, 0},
    {"match", K::BindTime, 2, 2, 0},
    {"assert_", K::BindTime, 1, 1, 0},
    {"tuple", K::BindTime, 1, kVar, kNone},
    {"element", K::BindTime, 2, 2, 1},
    // 8.8 Gradients: grad(L, X1, ..., Xn) has n results.
    {"grad", K::Gradient, 2, kVar, kNone},
    {"stop_grad", K::Gradient, 1, 1, kNone},
};
} // namespace

const BuiltinInfo *tilec::lookupBuiltin(llvm::StringRef name) {
  if (name.starts_with("assert_"))
    name = name.size() > 7 ? llvm::StringRef("assert_") : llvm::StringRef();
  for (const BuiltinInfo &info : kBuiltins)
    if (info.name == name)
      return &info;
  return nullptr;
}

bool tilec::isBuiltinFunction(llvm::StringRef name) {
  return lookupBuiltin(name) != nullptr;
}

const std::vector<std::string> &tilec::builtinNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> result;
    for (const BuiltinInfo &info : kBuiltins)
      result.push_back(info.name.str());
    return result;
  }();
  return names;
}

std::string tilec::describeArgCount(llvm::StringRef name, unsigned minArgs,
                                    unsigned maxArgs) {
  std::string text = "'" + name.str() + "' takes ";
  if (maxArgs == BuiltinInfo::kVariadic)
    text += "at least " + std::to_string(minArgs);
  else if (minArgs == maxArgs)
    text += std::to_string(minArgs);
  else
    text += std::to_string(minArgs) + " to " + std::to_string(maxArgs);
  bool plural = (maxArgs == BuiltinInfo::kVariadic ? minArgs : maxArgs) != 1;
  return text + (plural ? " arguments" : " argument");
}

std::string tilec::suggestName(llvm::StringRef name,
                               const std::vector<std::string> &candidates) {
  // A close spelling wins; otherwise a candidate that contains the name as a
  // whole word (softmax -> builtin_softmax), the shortest such.
  unsigned limit = std::max<unsigned>(1, name.size() / 3);
  std::string best;
  unsigned bestDistance = limit + 1;
  for (const std::string &candidate : candidates) {
    if (candidate == name || candidate.empty())
      continue;
    unsigned distance = name.edit_distance(candidate, /*AllowReplacements=*/true,
                                           /*MaxEditDistance=*/limit);
    // Replacing every character is no suggestion ('N' for 'X').
    if (distance < bestDistance && distance < name.size()) {
      bestDistance = distance;
      best = candidate;
    }
  }
  if (!best.empty() || name.size() < 3)
    return best;
  for (const std::string &candidate : candidates) {
    llvm::StringRef cand(candidate);
    if (cand.size() <= name.size())
      continue;
    bool wordSuffix = cand.ends_with(name) &&
                      cand[cand.size() - name.size() - 1] == '_';
    bool wordPrefix =
        cand.starts_with(name) && cand[name.size()] == '_';
    if ((wordSuffix || wordPrefix) &&
        (best.empty() || cand.size() < best.size()))
      best = candidate;
  }
  return best;
}
