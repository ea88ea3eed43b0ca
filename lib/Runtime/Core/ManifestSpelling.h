//===- ManifestSpelling.h - How manifest enums are spelled in JSON -*- C++
//-*-===//
//
// One table per enum, shared by the printer and the parser so the two
// spellings cannot drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_CORE_MANIFESTSPELLING_H
#define TILEC_LIB_RUNTIME_CORE_MANIFESTSPELLING_H

#include "tilec/Runtime/Manifest.h"

#include <optional>
#include <string_view>

namespace tilec::rt {

/// "input", "output", "temporary".
std::string_view bufferRoleName(BufferRole role);
std::optional<BufferRole> parseBufferRole(std::string_view name);
/// "read", "write", "read_write".
std::string_view accessName(Access access);
std::optional<Access> parseAccess(std::string_view name);

} // namespace tilec::rt

#endif // TILEC_LIB_RUNTIME_CORE_MANIFESTSPELLING_H
