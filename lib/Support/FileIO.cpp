//===- FileIO.cpp - Whole-file reads and atomic writes --------------------===//
//
// POSIX calls rather than iostreams: mkstemp gives a temporary name nobody
// else holds, and the error of each step is errno, which strerror turns into
// the message the user sees.
//
//===----------------------------------------------------------------------===//

#include "tilec/Support/FileIO.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace tilec;

static Status fileError(const std::string &path, const char *what, int err) {
  return Status::error(path + ": " + what + ": " + std::strerror(err));
}

Result<std::string> tilec::readFileBytes(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fileError(path, "cannot read", errno);
  struct stat info;
  if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
    ::close(fd);
    return fileError(path, "cannot read", EISDIR);
  }
  std::string bytes;
  char chunk[1 << 16];
  while (true) {
    ssize_t got = ::read(fd, chunk, sizeof(chunk));
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      int err = errno;
      ::close(fd);
      return fileError(path, "cannot read", err);
    }
    if (got == 0)
      break;
    bytes.append(chunk, size_t(got));
  }
  ::close(fd);
  return bytes;
}

/// Writes all of `bytes` to `fd`; returns 0 or the errno of the failure.
static int writeAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t put = ::write(fd, bytes.data(), bytes.size());
    if (put < 0 && errno == EINTR)
      continue;
    if (put < 0)
      return errno;
    bytes.remove_prefix(size_t(put));
  }
  return 0;
}

Status tilec::writeFileAtomically(const std::string &path,
                                  std::string_view bytes) {
  std::string tempPath = path + ".tmp-XXXXXX";
  std::vector<char> name(tempPath.begin(), tempPath.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0)
    return fileError(path, "cannot write", errno);
  tempPath = name.data();
  // mkstemp creates the file 0600; give it the permissions a plain
  // open(O_CREAT, 0666) would, the umask applied.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  int err = writeAll(fd, bytes);
  if (::close(fd) != 0 && err == 0)
    err = errno;
  if (err == 0 && std::rename(tempPath.c_str(), path.c_str()) != 0)
    err = errno;
  if (err != 0) {
    ::unlink(tempPath.c_str());
    return fileError(path, "cannot write", err);
  }
  return Status::success();
}
