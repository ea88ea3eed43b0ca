//===- Version.h - tilec's version --------------------------------*- C++ -*-===//
//
// One place for the version that --version prints and that artefacts
// (launch manifests) record, so a manifest says which tilec wrote it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_VERSION_H
#define TILEC_SUPPORT_VERSION_H

namespace tilec {

inline constexpr const char *kTilecVersion = "0.2.0-dev";

} // namespace tilec

#endif // TILEC_SUPPORT_VERSION_H
