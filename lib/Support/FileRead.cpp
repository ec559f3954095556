//===- FileRead.cpp - Reading user-supplied files safely ------------------===//
#include "accel/Support/FileRead.h"

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <sys/stat.h>
#include <unistd.h>

namespace accel {
namespace {

/// "1048576 bytes (1 MiB)": exact, and readable for the round limits.
std::string bytesText(uint64_t n) {
  std::string s = std::to_string(n) + " bytes";
  static const char *units[] = {"KiB", "MiB", "GiB", "TiB"};
  uint64_t v = n;
  int unit = -1;
  while (v >= 1024 && v % 1024 == 0 && unit < 3) {
    v /= 1024;
    ++unit;
  }
  if (unit >= 0)
    s += " (" + std::to_string(v) + " " + units[unit] + ")";
  return s;
}

std::string cannotOpen(const std::string &path, const std::string &what) {
  return "cannot open " + what + " '" + path + "': " + std::strerror(errno);
}

const char *kindOf(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISFIFO(mode))
    return "a FIFO (named pipe)";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a regular file";
}

/// Checks an open descriptor's type and size.
bool checkStat(const struct stat &st, const std::string &prefix,
               uint64_t maxBytes, std::string &err) {
  if (!S_ISREG(st.st_mode)) {
    err = prefix + " is " + kindOf(st.st_mode) + ", not a regular file";
    return false;
  }
  if (uint64_t(st.st_size) > maxBytes) {
    err = prefix + " is " + bytesText(uint64_t(st.st_size)) +
          ", larger than the limit of " + bytesText(maxBytes);
    return false;
  }
  return true;
}

/// Opens without blocking (a FIFO would otherwise wait for a writer).
int openNonBlocking(const std::string &path, const std::string &what,
                    std::string &err) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    err = cannotOpen(path, what);
  return fd;
}

/// Appends everything `fd` yields, up to maxBytes; false past the limit.
bool readAll(int fd, uint64_t maxBytes, std::string &bytes, bool &tooLarge,
             std::string &why) {
  tooLarge = false;
  char chunk[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n == 0)
      return true;
    if (n < 0) {
      if (errno == EINTR)
        continue;
      why = std::strerror(errno);
      return false;
    }
    if (bytes.size() + uint64_t(n) > maxBytes) {
      tooLarge = true;
      return false;
    }
    bytes.append(chunk, size_t(n));
  }
}

std::string prefixOf(const std::string &path, const std::string &what) {
  return what + " '" + path + "'";
}

std::string changedSize(const std::string &prefix, size_t size) {
  return prefix + " changed size while being read (" + bytesText(size) +
         " when opened)";
}

/// Reads exactly `size` bytes of `fd` into placeFor(size), then checks that
/// the file ends there (a file rewritten while it is read is refused rather
/// than half taken).
bool readSized(int fd, size_t size,
               const std::function<uint8_t *(size_t)> &placeFor,
               const std::string &prefix, std::string &err) {
  uint8_t *to;
  try {
    to = placeFor(size);
  } catch (const std::bad_alloc &) {
    err = prefix + " (" + bytesText(size) + "): out of memory";
    return false;
  }
  for (size_t got = 0; got < size;) {
    ssize_t n = ::read(fd, to + got, size - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return err = prefix + ": read error: " + std::strerror(errno), false;
    if (n == 0)
      return err = changedSize(prefix, size), false;
    got += size_t(n);
  }
  // The file must end where fstat said.
  uint8_t extra;
  ssize_t n;
  do
    n = ::read(fd, &extra, 1);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    return err = prefix + ": read error: " + std::strerror(errno), false;
  if (n > 0)
    return err = changedSize(prefix, size), false;
  return true;
}

} // namespace

bool checkRegularFile(const std::string &path, const std::string &what,
                      uint64_t maxBytes, uint64_t &size, std::string &err) {
  std::string prefix = prefixOf(path, what);
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    err = cannotOpen(path, what);
    return false;
  }
  if (!checkStat(st, prefix, maxBytes, err))
    return false;
  size = uint64_t(st.st_size);
  return true;
}

bool readRegularFileInto(const std::string &path, const std::string &what,
                         uint64_t maxBytes,
                         const std::function<uint8_t *(size_t)> &placeFor,
                         std::string &err) {
  std::string prefix = prefixOf(path, what);
  int fd = openNonBlocking(path, what, err);
  if (fd < 0)
    return false;
  struct stat st;
  bool ok = ::fstat(fd, &st) == 0;
  if (!ok)
    err = prefix + ": cannot stat: " + std::strerror(errno);
  ok = ok && checkStat(st, prefix, maxBytes, err);
  if (ok) {
    // Back to blocking reads (a no-op for regular files, but explicit).
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    ok = readSized(fd, size_t(st.st_size), placeFor, prefix, err);
  }
  ::close(fd);
  return ok;
}

bool readRegularFile(const std::string &path, const std::string &what,
                     uint64_t maxBytes, std::string &bytes, std::string &err) {
  bytes.clear();
  bool ok = readRegularFileInto(
      path, what, maxBytes,
      [&bytes](size_t size) {
        bytes.resize(size);
        return reinterpret_cast<uint8_t *>(&bytes[0]);
      },
      err);
  if (!ok)
    bytes.clear();
  return ok;
}

bool readStdin(const std::string &what, uint64_t maxBytes, std::string &bytes,
               std::string &err) {
  bytes.clear();
  // A pipe is fine (its length is unknown until read); a redirected device
  // or directory is refused like a named one.
  struct stat st;
  if (::fstat(STDIN_FILENO, &st) == 0 && !S_ISFIFO(st.st_mode) &&
      !S_ISSOCK(st.st_mode) &&
      !checkStat(st, what + " on stdin", maxBytes, err))
    return false;
  bool tooLarge;
  std::string why;
  if (readAll(STDIN_FILENO, maxBytes, bytes, tooLarge, why))
    return true;
  err = tooLarge ? what + " on stdin is larger than the limit of " +
                       bytesText(maxBytes)
                 : what + " on stdin: read error: " + why;
  bytes.clear();
  return false;
}

bool resolvePathInside(const std::string &dir, const std::string &relative,
                       const std::string &what, std::string &resolved,
                       std::string &err) {
  if (relative.empty() || relative[0] == '/') {
    err = what + " '" + relative + "' must be a path relative to '" + dir +
          "'" + (relative.empty() ? "" : ", not an absolute path");
    return false;
  }
  std::string joined = (dir.empty() ? std::string(".") : dir) + "/" + relative;
  char *realDir = ::realpath(dir.empty() ? "." : dir.c_str(), nullptr);
  if (!realDir) {
    err = cannotOpen(dir, "directory");
    return false;
  }
  std::string canonDir(realDir);
  std::free(realDir);
  char *realFile = ::realpath(joined.c_str(), nullptr);
  if (!realFile) {
    err = cannotOpen(joined, what);
    return false;
  }
  resolved = realFile;
  std::free(realFile);
  std::string inside = canonDir == "/" ? canonDir : canonDir + "/";
  if (resolved.compare(0, inside.size(), inside) != 0) {
    err = what + " '" + relative + "' resolves to '" + resolved +
          "', outside the directory '" + canonDir + "'";
    return false;
  }
  return true;
}

} // namespace accel
