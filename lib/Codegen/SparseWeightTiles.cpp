//===- SparseWeightTiles.cpp - Sparse weight-queue tiles of a layer -------===//
#include "SparseWeightTiles.h"
#include "accel/Target/SparseWeights.h"
#include <algorithm>
#include <map>
#include <tuple>

using namespace accel;
using namespace accel::codegen;
using namespace accel::codegen::detail;

const SparseBTile &SparseLayerTiles::at(size_t problem, size_t k,
                                        size_t n) const {
  const auto &p = tiles.at(problem);
  size_t nTiles = p.size() / std::max<size_t>(1, kChunks(problem));
  return *p.at(k * nTiles + n);
}

namespace {
/// Reads the dense rows x cols values of `box` (row-major); false when an
/// element is not a constant.
bool readBox(const DramBox &box, const SparseWeightSource &src,
             std::vector<float> &out) {
  out.assign(size_t(box.rows() * box.cols()), 0.0f);
  std::array<int64_t, 4> idx{0, 0, 0, 0};
  const size_t n = out.size();
  for (size_t e = 0; e < n; ++e) {
    // Row-major over the box dimensions: rows first, then columns, which
    // is also the (row, column) order of the tile.
    int64_t rem = int64_t(e), off = 0;
    for (int d = box.rank - 1; d >= 0; --d) {
      idx[d] = rem % box.shape[d];
      rem /= box.shape[d];
      off += idx[d] * box.stride[d];
    }
    if (!src.constantAt(uint64_t(int64_t(box.base) + off * 4), out[e]))
      return false;
  }
  return true;
}
} // namespace

bool accel::codegen::detail::encodeSparseTiles(
    const HardwareDesc &hw, const std::vector<GemmTiles> &problems,
    const GemmTiling &t, int64_t groupCols, int groups,
    const SparseWeightSource &src, SparseLayerTiles &out, std::string &reason) {
  out = SparseLayerTiles{};
  const uint64_t regionBytes = uint64_t(t.kc * t.nc * 4);
  const uint64_t wqBytes = hw.weightQueueBytes;
  std::vector<float> w;
  std::vector<SparsePair> pairs;
  std::vector<uint8_t> bytes;
  using Key = std::tuple<uint64_t, int, int, std::array<int64_t, 4>,
                         std::array<int64_t, 4>>;
  std::map<Key, std::shared_ptr<SparseBTile>> seen;
  for (const GemmTiles &p : problems) {
    std::vector<std::shared_ptr<SparseBTile>> tiles;
    const size_t nk = p.kChunks.size(), nn = p.nTiles.size();
    for (size_t k = 0; k < nk; ++k)
      for (size_t n = 0; n < nn; ++n) {
        DramBox box = p.bBox(k, n);
        int64_t K = box.rows(), N = box.cols();
        if (K != p.kChunks[k] || N != p.nTiles[n]) {
          reason = "a weight tile box does not match its K chunk x N tile";
          return false;
        }
        Key key{box.base, box.rank, box.rowDims, box.shape, box.stride};
        if (auto it = seen.find(key); it != seen.end()) {
          tiles.push_back(it->second);
          continue;
        }
        if (!readBox(box, src, w)) {
          reason = "the weight-queue operand is not a compile-time constant";
          return false;
        }
        for (float v : w)
          out.zeros += v == 0.0f;
        out.total += int64_t(w.size());
        auto shared = std::make_shared<SparseBTile>();
        SparseBTile &tile = *shared;
        for (int g = 0; g < groups; ++g) {
          int64_t c0 = g * groupCols;
          int64_t width = std::max<int64_t>(1, std::min(groupCols, N - c0));
          pairs.clear();
          if (c0 < N &&
              !encodeSparseTile(w.data() + c0, uint32_t(K), uint32_t(width),
                                uint64_t(N), pairs, reason))
            return false;
          // An empty list still carries one padding pair (rows >= 1).
          uint32_t count = uint32_t(std::max<size_t>(1, pairs.size()));
          if (uint64_t(count) * kSparsePairBytes > wqBytes) {
            reason = "a sparse list of " + std::to_string(count) +
                     " pairs exceeds the weight queue";
            return false;
          }
          if (!sparseTileBytes(pairs, count, bytes, reason))
            return false;
          tile.groups.push_back({uint32_t(tile.bytes.size()), count});
          tile.bytes.insert(tile.bytes.end(), bytes.begin(), bytes.end());
        }
        if (tile.bytes.size() > regionBytes) {
          reason = "a tile's sparse lists (" +
                   std::to_string(tile.bytes.size()) +
                   " bytes) exceed its dense region (" +
                   std::to_string(regionBytes) + " bytes): too dense";
          return false;
        }
        seen.emplace(key, shared);
        tiles.push_back(std::move(shared));
      }
    out.tiles.push_back(std::move(tiles));
    out.kChunkCounts.push_back(nk);
  }
  return true;
}

void accel::codegen::detail::placeSparseTiles(SparseLayerTiles &layer,
                                              const SparseWeightSource &src) {
  for (auto &p : layer.tiles)
    for (auto &tile : p)
      if (!tile->placed) {
        tile->dram = src.place(tile->bytes);
        tile->placed = true;
      }
}

DramBox accel::codegen::detail::sparseTileBox(const SparseBTile &tile) {
  DramBox b;
  b.base = tile.dram;
  b.rowDims = 0;
  b.dim(int64_t(tile.bytes.size() / 4), 1);
  return b;
}
