//===- ValidatePieces.cpp - DRAM pieces of symbols ------------------------===//
//
// A symbol placed on several memory channels holds its dense row-major image
// in pieces (Symbol::pieces): byte ranges of the image at their own DRAM
// addresses, in ascending offset order, replicas of a range being pieces
// with equal offsets. The loader writes an input to every piece; an output
// is read from the first piece covering each byte.
//
//===----------------------------------------------------------------------===//
#include "ValidateParts.h"
#include <algorithm>

namespace accel {
namespace validate {
namespace {

std::string rangeStr(ByteRange r) {
  return "[" + int128String(r.lo) + ", " + int128String(r.hi) + ")";
}
std::string shapeStr(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

} // namespace

__int128 symbolElementBytes(DType t) {
  // i1 / i32 / i64 interface values are held as f32 words in DRAM.
  return t == DType::I1 || t == DType::I32 || t == DType::I64 ? 4
                                                              : dtypeBytes(t);
}

bool checkPieces(const Symbol &s, __int128 imageBytes, uint64_t dramSize,
                 std::vector<ByteRange> &ranges, std::string &msg) {
  using i128 = __int128;
  auto fail = [&](const std::string &m) {
    msg = m;
    return false;
  };
  if (s.dramAddr != s.pieces.front().dramAddr)
    return fail("DRAM address " + std::to_string(s.dramAddr) +
                " is not the address of its first piece (" +
                std::to_string(s.pieces.front().dramAddr) + ")");
  i128 elem = symbolElementBytes(s.dtype);
  i128 reach = 0; // image bytes [0, reach) are in some piece so far
  for (size_t i = 0; i < s.pieces.size(); ++i) {
    const DramPiece &pc = s.pieces[i];
    ByteRange img{i128(pc.offset), i128(pc.offset) + i128(pc.bytes)};
    ByteRange dram{i128(pc.dramAddr), i128(pc.dramAddr) + i128(pc.bytes)};
    std::string piece = "piece " + std::to_string(i) + " (image bytes " +
                        rangeStr(img) + " at " + std::to_string(pc.dramAddr) +
                        ")";
    if (pc.bytes == 0)
      return fail(piece + " is empty");
    if (pc.dramAddr % 4)
      return fail(piece + ": DRAM address " + std::to_string(pc.dramAddr) +
                  " is not 4-byte aligned (symbols hold f32 words)");
    if (dram.hi > i128(dramSize))
      return fail(piece + ": bytes " + rangeStr(dram) + " outside DRAM [0, " +
                  std::to_string(dramSize) + ")");
    if (img.hi > imageBytes)
      return fail(piece + " lies outside the image of " +
                  int128String(imageBytes) + " bytes (shape " +
                  shapeStr(s.shape) + ")");
    if (img.lo % elem || img.hi % elem)
      return fail(piece + " cuts a " + int128String(elem) + "-byte element");
    if (i && pc.offset < s.pieces[i - 1].offset)
      return fail(piece + " starts before piece " + std::to_string(i - 1) +
                  " (offset " + std::to_string(s.pieces[i - 1].offset) +
                  "): pieces must be in ascending offset order");
    if (img.lo > reach)
      return fail("image bytes " + rangeStr({reach, img.lo}) +
                  " are in no piece");
    reach = std::max(reach, img.hi);
    ranges.push_back(dram);
  }
  if (reach < imageBytes)
    return fail("image bytes " + rangeStr({reach, imageBytes}) +
                " are in no piece (shape " + shapeStr(s.shape) + ")");
  return true;
}

std::vector<ReadPart> outputReadParts(const Symbol &s) {
  using i128 = __int128;
  std::vector<ReadPart> parts;
  i128 reach = 0; // image bytes [0, reach) are read from earlier pieces
  for (size_t k = 0; k < s.pieces.size(); ++k) {
    const DramPiece &pc = s.pieces[k];
    i128 lo = std::max(reach, i128(pc.offset)),
         hi = i128(pc.offset) + i128(pc.bytes);
    reach = std::max(reach, hi);
    if (hi <= lo)
      continue;
    i128 base = i128(pc.dramAddr) - i128(pc.offset);
    parts.push_back({k, {lo, hi}, {base + lo, base + hi}});
  }
  return parts;
}

ByteRange boxRange(__int128 base, const uint32_t *shape, const int64_t *stride,
                   int n, uint32_t elemBytes) {
  __int128 minOff = 0, maxOff = 0;
  for (int d = 0; d < n; ++d) {
    __int128 ext = __int128(shape[d] ? shape[d] - 1 : 0) * stride[d];
    if (ext < 0)
      minOff += ext;
    else
      maxOff += ext;
  }
  return {base + minOff * elemBytes, base + maxOff * elemBytes + elemBytes};
}

} // namespace validate
} // namespace accel
