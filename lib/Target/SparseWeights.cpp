//===- SparseWeights.cpp - (value, index) weight lists --------------------===//
#include "accel/Target/SparseWeights.h"
#include <cstring>

namespace accel {

bool encodeSparseTile(const float *w, uint32_t K, uint32_t N, uint64_t ldw,
                      std::vector<SparsePair> &out, std::string &err) {
  out.clear();
  if (ldw < N) {
    err = "sparse encoding: leading dimension " + std::to_string(ldw) +
          " is smaller than the tile width " + std::to_string(N);
    return false;
  }
  if (uint64_t(K) * N >= kSparsePad) {
    err = "sparse encoding: a " + std::to_string(K) + " x " +
          std::to_string(N) + " tile does not fit 32-bit weight indices";
    return false;
  }
  for (uint32_t k = 0; k < K; ++k)
    for (uint32_t n = 0; n < N; ++n) {
      float v = w[uint64_t(k) * ldw + n];
      if (v != 0.0f)
        out.push_back({v, k * N + n});
    }
  return true;
}

bool sparseTileBytes(const std::vector<SparsePair> &pairs, uint32_t capacity,
                     std::vector<uint8_t> &out, std::string &err) {
  if (capacity && pairs.size() > capacity) {
    err = "sparse encoding: " + std::to_string(pairs.size()) +
          " non-zero weights exceed the list capacity " +
          std::to_string(capacity);
    return false;
  }
  size_t n = capacity ? capacity : pairs.size();
  out.assign(n * kSparsePairBytes, 0);
  for (size_t i = 0; i < n; ++i) {
    SparsePair p = i < pairs.size() ? pairs[i] : SparsePair{0.0f, kSparsePad};
    uint32_t bits;
    std::memcpy(&bits, &p.value, 4);
    for (int b = 0; b < 4; ++b) {
      out[i * 8 + b] = uint8_t(bits >> (8 * b));
      out[i * 8 + 4 + b] = uint8_t(p.index >> (8 * b));
    }
  }
  return true;
}

bool parseSparseTile(const uint8_t *bytes, uint32_t count, uint32_t K,
                     uint32_t N, std::vector<SparsePair> &out,
                     std::string &err) {
  out.clear();
  const uint64_t dense = uint64_t(K) * N;
  bool padding = false;
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t *b = bytes + uint64_t(i) * kSparsePairBytes;
    uint32_t bits = uint32_t(b[0]) | uint32_t(b[1]) << 8 |
                    uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
    uint32_t idx = uint32_t(b[4]) | uint32_t(b[5]) << 8 | uint32_t(b[6]) << 16 |
                   uint32_t(b[7]) << 24;
    if (idx == kSparsePad) {
      padding = true;
      continue;
    }
    if (padding) {
      err =
          "sparse weight pair " + std::to_string(i) + " follows a padding pair";
      return false;
    }
    if (idx >= dense) {
      err = "sparse weight pair " + std::to_string(i) + ": index " +
            std::to_string(idx) + " outside the " + std::to_string(K) + " x " +
            std::to_string(N) + " tile";
      return false;
    }
    if (!out.empty() && idx <= out.back().index) {
      err = "sparse weight pair " + std::to_string(i) + ": index " +
            std::to_string(idx) + " does not increase (previous " +
            std::to_string(out.back().index) + ")";
      return false;
    }
    SparsePair p;
    std::memcpy(&p.value, &bits, 4);
    p.index = idx;
    out.push_back(p);
  }
  return true;
}

std::vector<float> densifySparseTile(const std::vector<SparsePair> &pairs,
                                     uint32_t K, uint32_t N) {
  std::vector<float> d(uint64_t(K) * N, 0.0f);
  for (const SparsePair &p : pairs)
    if (p.index < d.size())
      d[p.index] = p.value;
  return d;
}

} // namespace accel
