//===- Split.cpp - Target dim, piece count and ranges ---------------------===//
//
// Steps S15 / S16 of spec/labels-and-splits.md ([0160]-[0173]): which
// splittable dim becomes the target, how many pieces of which length, and
// the inclusive ranges of the pieces.
//
//===----------------------------------------------------------------------===//
#include "accel/Split/Split.h"

#include <algorithm>

namespace accel::split {

std::optional<size_t> selectTargetDim(const std::vector<int64_t> &operationDims,
                                      uint64_t memoryChannels) {
  if (operationDims.empty())
    return std::nullopt;
  for (size_t i = 0; i < operationDims.size(); ++i)
    if (operationDims[i] >= 0 && uint64_t(operationDims[i]) >= memoryChannels)
      return i;
  size_t best = 0;
  for (size_t i = 1; i < operationDims.size(); ++i)
    if (operationDims[i] > operationDims[best])
      best = i;
  return best;
}

const char *roundingName(Rounding r) {
  switch (r) {
  case Rounding::Ceil:
    return "ceil";
  case Rounding::Floor:
    return "floor";
  case Rounding::Balanced:
    return "balanced";
  case Rounding::Clusters:
    return "clusters";
  }
  return "?";
}

bool parseRounding(const std::string &s, Rounding &out) {
  for (Rounding r : {Rounding::Ceil, Rounding::Floor, Rounding::Balanced,
                     Rounding::Clusters})
    if (s == roundingName(r)) {
      out = r;
      return true;
    }
  return false;
}

namespace {
int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
} // namespace

PieceCount pieceCount(int64_t D, uint64_t memoryChannels, uint64_t cores,
                      Rounding r) {
  PieceCount pc;
  // An empty (or negative, treated as empty) dim has no pieces.
  if (D <= 0) {
    pc.mode = 3;
    pc.pieces = 0;
    pc.length = 0;
    return pc;
  }
  // A machine has at least one channel and one core; larger counts than
  // any dim are capped at D by the conditions below anyway.
  uint64_t M = std::max<uint64_t>(memoryChannels, 1);
  uint64_t C = std::max<uint64_t>(cores, 1);
  uint64_t d = uint64_t(D);
  if (d >= C) {
    pc.mode = 1;
    pc.pieces = int64_t(C);
  } else if (d >= M) {
    pc.mode = 2;
    pc.pieces = int64_t(M);
  } else {
    pc.mode = 3;
    pc.pieces = D;
    pc.length = 1;
    return pc;
  }
  switch (r) {
  case Rounding::Ceil:
    pc.length = ceilDiv(D, pc.pieces);
    // ceil(D / p) can leave the last pieces empty (D = 9, p = 4 -> 3, 3, 3,
    // 0): the count is what the length really covers.
    pc.pieces = ceilDiv(D, pc.length);
    break;
  case Rounding::Floor:
    pc.length = D / pc.pieces; // >= 1 because D >= pieces
    break;
  case Rounding::Balanced:
  case Rounding::Clusters:
    pc.length = ceilDiv(D, pc.pieces);
    break;
  }
  return pc;
}

std::vector<PieceRange> pieceRanges(int64_t D, const PieceCount &pc,
                                    Rounding r) {
  std::vector<PieceRange> out;
  if (D <= 0 || pc.pieces <= 0)
    return out;
  int64_t p = std::min(pc.pieces, D);
  int64_t len = std::max<int64_t>(pc.length, 1);
  int64_t first = 0;
  for (int64_t k = 0; k < p && first < D; ++k) {
    int64_t n = len;
    if (r == Rounding::Balanced || r == Rounding::Clusters)
      n = D / p + (k < D % p ? 1 : 0);
    // The last piece takes whatever is left (Floor's remainder; a caller's
    // count that does not cover D) and no piece runs past D (Ceil's short
    // last piece).
    int64_t last = k == p - 1 ? D - 1 : std::min(first + n, D) - 1;
    out.push_back({first, last});
    first = last + 1;
  }
  return out;
}

std::vector<PieceRange> clusterBalancedRanges(int64_t D, int64_t pieces,
                                              uint64_t clusters) {
  const int64_t cl = int64_t(std::max<uint64_t>(clusters, 1));
  const int64_t per = pieces / cl;
  PieceCount pc;
  pc.pieces = pieces;
  pc.length = pieces > 0 ? ceilDiv(std::max<int64_t>(D, 0), pieces) : 0;
  if (D <= 0 || pieces <= 0 || pieces % cl != 0 || D / cl < per)
    return pieceRanges(D, pc, Rounding::Balanced);
  std::vector<PieceRange> out;
  for (int64_t c = 0; c < cl; ++c) {
    // Cluster c's share [D * c / cl, D * (c + 1) / cl), `per` pieces.
    int64_t begin = D * c / cl, share = D * (c + 1) / cl - begin;
    for (int64_t k = 0; k < per; ++k) {
      int64_t n = share / per + (k < share % per ? 1 : 0);
      out.push_back({begin, begin + n - 1});
      begin += n;
    }
  }
  return out;
}

std::vector<uint32_t> coreOfPieces(size_t pieces, uint64_t cores) {
  std::vector<uint32_t> out(pieces);
  uint64_t C = std::max<uint64_t>(cores, 1);
  for (size_t j = 0; j < pieces; ++j)
    out[j] = uint32_t(uint64_t(j) * C / pieces);
  return out;
}

} // namespace accel::split
