//===- BinaryBytes.h - Patching and walking binaries in Target tests -----===//
//
// The corruption tests write fields of a binary in place, make its header
// consistent again so that the reader's structural checks are reached, and
// find the cluster streams' first commands (docs/binary-format.md).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TEST_UNIT_TARGET_BINARYBYTES_H
#define ACCEL_TEST_UNIT_TARGET_BINARYBYTES_H

#include "accel/Target/Binary.h"
#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace accel {
namespace target_test {

inline void put32(std::vector<uint8_t> &b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    b.at(at + i) = uint8_t(v >> (8 * i));
}
inline void put64(std::vector<uint8_t> &b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    b.at(at + i) = uint8_t(v >> (8 * i));
}
inline uint64_t get64(const std::vector<uint8_t> &b, size_t at) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= uint64_t(b[at + i]) << (8 * i);
  return v;
}

/// Makes the header's size and checksum consistent again so that the
/// reader's structural checks are reached.
inline void fixHeader(std::vector<uint8_t> &b) {
  if (b.size() < kBinaryHeaderBytes)
    return;
  put64(b, 40, b.size());
  put32(b, kBinaryChecksumOffset,
        crc32(b.data() + kBinaryHeaderBytes, b.size() - kBinaryHeaderBytes));
}

/// Offset of the lead byte of the first command of each of the first
/// `clusters` cluster streams.
inline std::vector<size_t> firstCommandOffsets(const std::vector<uint8_t> &b,
                                               size_t clusters) {
  size_t pos = kBinaryHeaderBytes;
  for (int s = 0; s < 4; ++s) // skip SYMB, CNST, PCKT and LAYR
    pos += 16 + size_t(get64(b, pos + 8));
  std::vector<size_t> at;
  for (size_t c = 0; c < clusters; ++c) {
    at.push_back(pos + 16 + 4 + 4); // STRM header, command count, layer id
    pos += 16 + size_t(get64(b, pos + 8));
  }
  return at;
}

/// Offset of the lead byte of the first command of cluster 0's stream.
inline size_t firstCommandOffset(const std::vector<uint8_t> &b) {
  return firstCommandOffsets(b, 1)[0];
}

/// The reader's message for bytes it must refuse.
inline std::string readErr(const std::vector<uint8_t> &b) {
  Program p;
  std::string err;
  EXPECT_FALSE(readBinary(b.data(), b.size(), p, err));
  return err;
}

} // namespace target_test
} // namespace accel

#endif // ACCEL_TEST_UNIT_TARGET_BINARYBYTES_H
