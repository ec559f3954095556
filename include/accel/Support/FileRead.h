//===- FileRead.h - Reading user-supplied files safely ----------*- C++ -*-===//
//
// Every file a user names (model, hardware description, bound or run input,
// binary, external data) is read through these functions. They refuse what
// is not a regular file before reading a byte: a directory, a character
// device such as /dev/zero or /dev/urandom (endless), a FIFO (blocks until a
// writer appears) or a socket; and they refuse a file larger than the stated
// limit, so a hostile input ends in a clear error naming the file and the
// limit instead of bad_alloc, an abort or a hang. Pure C++ (POSIX), no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_SUPPORT_FILEREAD_H
#define ACCEL_SUPPORT_FILEREAD_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace accel {

/// Size limits of the files the tools read (docs/importer.md lists them).
/// An ONNX model or TensorProto: protobuf parses at most 2 GiB - 1.
constexpr uint64_t kMaxProtobufFileBytes = (1ull << 31) - 1;
/// A hardware description (the presets are a few KiB of JSON).
constexpr uint64_t kMaxHardwareDescBytes = 1ull << 20;
/// An accelerator binary, a .npy tensor, an external-data file.
constexpr uint64_t kMaxDataFileBytes = 1ull << 34;

/// Checks that `path` names a regular file of at most `maxBytes` bytes and
/// returns its size. `what` says what the file was meant to be ("ONNX
/// model", "hardware description", ...) and appears in every message:
/// "cannot open <what> '<path>': <strerror>", "<what> '<path>' is a
/// character device, not a regular file", "<what> '<path>' is N bytes,
/// larger than the limit of M bytes".
bool checkRegularFile(const std::string &path, const std::string &what,
                      uint64_t maxBytes, uint64_t &size, std::string &err);

/// Reads the whole regular file `path` (at most `maxBytes` bytes) into
/// `bytes`; the same checks and messages as checkRegularFile. The type is
/// checked on the open descriptor, so a FIFO is refused without blocking.
bool readRegularFile(const std::string &path, const std::string &what,
                     uint64_t maxBytes, std::string &bytes, std::string &err);

/// Reads the whole regular file `path` (at most `maxBytes` bytes) into
/// memory the caller provides: after the checks of checkRegularFile,
/// `placeFor(size)` is called once with the file's size and returns where
/// its bytes go (huge pages, a string's buffer); it may throw
/// std::bad_alloc, reported as "<what> '<path>' (N bytes): out of memory".
/// Exactly the size fstat saw is read; a file that shrinks or grows while
/// it is read is refused ("... changed size while being read"), so the
/// bytes are one whole version of the file.
bool readRegularFileInto(const std::string &path, const std::string &what,
                         uint64_t maxBytes,
                         const std::function<uint8_t *(size_t)> &placeFor,
                         std::string &err);

/// Reads standard input (a pipe or a file) up to `maxBytes` bytes; more is
/// refused ("<what> on stdin is larger than ... bytes").
bool readStdin(const std::string &what, uint64_t maxBytes, std::string &bytes,
               std::string &err);

/// Resolves `relative` against the directory `dir` for a file that must
/// stay inside it (ONNX external data next to its model): refuses an
/// absolute path, and a path that leaves `dir` once `..` and every symlink
/// are resolved. On success `resolved` is the canonical path (the file
/// exists). `what` names the file in messages, like checkRegularFile.
bool resolvePathInside(const std::string &dir, const std::string &relative,
                       const std::string &what, std::string &resolved,
                       std::string &err);

} // namespace accel

#endif // ACCEL_SUPPORT_FILEREAD_H
