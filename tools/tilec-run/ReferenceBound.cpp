//===- ReferenceBound.cpp - A reference output's bound file ---------------===//

#include "ReferenceBound.h"

#include "tilec/Support/Compare.h"
#include "tilec/Support/Npy.h"

#include <filesystem>

using namespace tilec;

Result<std::optional<Tensor>>
tilec::run::readReferenceBound(const std::string &npyPath) {
  std::string path = boundPathFor(npyPath);
  std::error_code error;
  if (!std::filesystem::exists(path, error))
    return std::optional<Tensor>();
  Result<Tensor> bound = readNpy(path);
  if (!bound)
    return bound.status();
  if (bound->type.dtype != DType::F64)
    return Status::error(path + ": a bound file holds float64, not " +
                         bound->type.str());
  return std::optional<Tensor>(std::move(*bound));
}
