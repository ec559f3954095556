//===- SparseWeights.h - Compile-time sparse weight encoding ----*- C++ -*-===//
//
// Sparse weights are stored as non-zero value + weight index (spec: "sparse
// weights are stored as non-zero value + weight index (compile time)").
//
// Layout of one K x N weight tile in the storage unit (read by
// `LD sparse_weights`, operand record: rows = P pairs, cols = N, depth = K):
//
//   P consecutive 8-byte pairs at `addr`, no strides:
//     +0  f32 value      (little-endian IEEE-754)
//     +4  u32 index      = k * N + n   (dense position in the K x N tile)
//   Indices strictly increase (k-major order, the order the weight queue
//   streams them). A list may be padded to a fixed capacity with pairs
//   (0.0f, kSparsePad); padding only follows real pairs and is never
//   multiplied (it ends the list).
//
// Zero weights (+0.0 and -0.0) are dropped; every other value, NaN and inf
// included, is kept.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TARGET_SPARSEWEIGHTS_H
#define ACCEL_TARGET_SPARSEWEIGHTS_H

#include <cstdint>
#include <string>
#include <vector>

namespace accel {

struct SparsePair {
  float value = 0.0f;
  uint32_t index = 0; ///< k * N + n
  bool operator==(const SparsePair &o) const {
    return value == o.value && index == o.index;
  }
};

constexpr uint32_t kSparsePad = 0xFFFFFFFFu; ///< index of a padding pair
constexpr uint32_t kSparsePairBytes = 8;

/// Encodes the dense K x N tile `w` (element (k, n) at w[k*ldw + n]) as its
/// non-zero (value, index) pairs in k-major order. Returns false (and sets
/// `err`) if K*N does not fit a 32-bit index or ldw < N.
bool encodeSparseTile(const float *w, uint32_t K, uint32_t N, uint64_t ldw,
                      std::vector<SparsePair> &out, std::string &err);

/// Serialises pairs as storage bytes, padded with (0, kSparsePad) pairs up
/// to `capacity` pairs (0 = no padding). Returns false if there are more
/// pairs than `capacity`.
bool sparseTileBytes(const std::vector<SparsePair> &pairs, uint32_t capacity,
                     std::vector<uint8_t> &out, std::string &err);

/// Parses `count` pairs from storage bytes for a K x N tile: the real pairs
/// go to `out` (padding dropped). Errors: an index >= K*N that is not
/// padding, indices not strictly increasing, a real pair after padding.
bool parseSparseTile(const uint8_t *bytes, uint32_t count, uint32_t K,
                     uint32_t N, std::vector<SparsePair> &out,
                     std::string &err);

/// Expands pairs back into a dense K x N tile (row-major).
std::vector<float> densifySparseTile(const std::vector<SparsePair> &pairs,
                                     uint32_t K, uint32_t N);

} // namespace accel

#endif
