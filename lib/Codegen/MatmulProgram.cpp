//===- MatmulProgram.cpp - A standalone matmul layer as a Program ---------===//
//
// The same GemmTiles as the graph-to-ISA lowering of graph.matmul (dense
// row-major operands, N tiles of nc columns, K chunks of kc), for tests and
// benchmarks that run the simulator without going through MLIR.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/Kernels.h"

using namespace accel;
using namespace accel::codegen;

namespace {
std::vector<int64_t> splitInto(int64_t total, int64_t step) {
  std::vector<int64_t> c;
  for (int64_t o = 0; o < total; o += step)
    c.push_back(std::min(step, total - o));
  return c;
}
std::vector<int64_t> offsets(const std::vector<int64_t> &sizes) {
  std::vector<int64_t> o(sizes.size() + 1, 0);
  for (size_t i = 0; i < sizes.size(); ++i)
    o[i + 1] = o[i] + sizes[i];
  return o;
}
} // namespace

Program accel::codegen::matmulLayerProgram(const HardwareDesc &hw,
                                           const tiling::GemmProblem &gp,
                                           bool bias,
                                           const tiling::Mapping *forced,
                                           tiling::TileDecision *used) {
  const int64_t m = gp.m, n = gp.n, k = gp.k,
                cnt = std::max<int64_t>(1, gp.count);
  Program prog;
  prog.hwFingerprint = hw.fingerprint();
  prog.gridRows = hw.rows;
  prog.gridCols = hw.cols;
  prog.clusters.resize(hw.numClusters());
  uint64_t a = 0, b = a + uint64_t(cnt * m * k * 4),
           c = b + uint64_t(cnt * k * n * 4), i = c + uint64_t(cnt * m * n * 4);
  prog.dramSize = i + uint64_t(n * 4);
  prog.symbols.push_back({"a", true, DType::F32, {cnt, m, k}, a});
  prog.symbols.push_back({"b", true, DType::F32, {cnt, k, n}, b});
  if (bias)
    prog.symbols.push_back({"bias", true, DType::F32, {n}, i});
  prog.symbols.push_back({"c", false, DType::F32, {cnt, m, n}, c});

  if (used)
    *used = gemmDecision(hw, gp, bias, forced);
  GemmTiling t = gemmTilingFor(hw, gp, k, bias, forced);
  std::vector<int64_t> kChunks = splitInto(k, t.kc),
                       nTiles = splitInto(n, t.nc);
  std::vector<int64_t> k0 = offsets(kChunks), n0 = offsets(nTiles);
  std::vector<GemmTiles> problems;
  for (int64_t q = 0; q < cnt; ++q) {
    uint64_t A = a + uint64_t(q * m * k * 4), B = b + uint64_t(q * k * n * 4),
             C = c + uint64_t(q * m * n * 4);
    GemmTiles g;
    g.m = m;
    g.kChunks = kChunks;
    g.nTiles = nTiles;
    g.aBox = [=](int64_t m0, int64_t mc, size_t ki) {
      DramBox box;
      box.base = A + uint64_t((m0 * k + k0[ki]) * 4);
      box.dim(mc, k).dim(kChunks[ki], 1);
      return box;
    };
    g.bBox = [=](size_t ki, size_t ni) {
      DramBox box;
      box.base = B + uint64_t((k0[ki] * n + n0[ni]) * 4);
      box.dim(kChunks[ki], n).dim(nTiles[ni], 1);
      return box;
    };
    g.cBox = [=](int64_t m0, int64_t mc, size_t ni) {
      DramBox box;
      box.base = C + uint64_t((m0 * n + n0[ni]) * 4);
      box.dim(mc, n).dim(nTiles[ni], 1);
      return box;
    };
    if (bias)
      g.initBox = [=](int64_t, int64_t mc, size_t ni) {
        DramBox box;
        box.base = i + uint64_t(n0[ni] * 4);
        box.dim(mc, 0).dim(nTiles[ni], 1);
        return box;
      };
    problems.push_back(std::move(g));
  }
  StreamBuilder sb(prog, hw);
  emitGemmLayer(sb, problems, t, {});
  return prog;
}
