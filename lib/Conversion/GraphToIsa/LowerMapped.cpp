//===- LowerMapped.cpp - GEMM-shaped ops under an accel.mapping -----------===//
//
// docs/mapping.md: the array partition of `accel.mapping` gives every
// cluster (r, c) one slice of M, N and K (clusterSlice); the per-cluster
// tile sizes are accel.tiling's, clamped to the slice; the dataflow picks
// the loop nest of the mapped kernel (emitMappedGemmLayer). M and N splits
// write disjoint parts of the output (concatenation in place); a K split
// writes one dense partial-sum buffer per K part, which SFU add layers sum
// first across each grid row, then across rows (emitPartialSumCombine), the
// last one applying a fused ReLU. Bias / C initialises only K part 0.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "accel/Transforms/Passes.h"
#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>

using namespace mlir;
using namespace accel;
using namespace accel::codegen;
using namespace accel::lowering;

namespace {
/// `band` with each (chunk, N tile, group size) computed once: the strip
/// planners ask for the same bands again for every storage split they price
/// (planSharedStrip: every home size of every member), and a padded band's
/// pieces (padWindowPieces) were a sixth of the FPN detector's compile
/// time. Copies of the function share the cache; the lowering is
/// single-threaded.
using BandRef = std::shared_ptr<const ImageBand>;
using BandFn = std::function<BandRef(size_t, size_t, int64_t)>;
BandFn memoizedBands(size_t nTiles, BandFn band) {
  // Per group size (the strip planners price several budgets, each with
  // its own sizes), per (chunk, tile).
  auto cache = std::make_shared<
      std::unordered_map<int64_t, std::unordered_map<size_t, BandRef>>>();
  return [=](size_t ki, size_t ni, int64_t groupElems) {
    std::unordered_map<size_t, BandRef> &bands = (*cache)[groupElems];
    const size_t key = ki * nTiles + ni;
    auto it = bands.find(key);
    if (it == bands.end())
      it = bands.emplace(key, band(ki, ni, groupElems)).first;
    return it->second;
  };
}

StationaryOperand stationaryFor(tiling::Dataflow d, bool activationIsA) {
  switch (d) {
  case tiling::Dataflow::InputStationary:
    return activationIsA ? StationaryOperand::A : StationaryOperand::B;
  case tiling::Dataflow::WeightStationary:
    return activationIsA ? StationaryOperand::B : StationaryOperand::A;
  case tiling::Dataflow::OutputStationary:
    break;
  }
  return StationaryOperand::C;
}

/// The cluster's tiling: the layer's, clamped to the slice.
GemmTiling clampTiling(const HardwareDesc &hw, GemmTiling t, int64_t ms,
                       int64_t ns, int64_t ks) {
  t.peRows = std::max<int64_t>(
      1,
      std::min(t.peRows, ceilDiv(ms, std::max<uint32_t>(1, hw.pesPerCluster))));
  t.nc = std::max<int64_t>(1, std::min(t.nc, ns));
  t.kc = std::max<int64_t>(1, std::min(t.kc, ks));
  return t;
}

/// N tiles covering output pixels [p0, p1) of an OH x OW image: a leading
/// piece of a row, blocks of whole rows (or pieces of long rows), a trailing
/// piece; each at most nc pixels.
} // namespace

std::vector<tiling::ClusterSlice>
Lowering::cutSlices(int64_t M, int64_t N, int64_t K, int64_t count) const {
  const int64_t R = hw_.rows, C = hw_.cols;
  std::vector<tiling::ClusterSlice> slices(size_t(R * C));
  for (int64_t r = 0; r < R; ++r)
    for (int64_t c = 0; c < C; ++c) {
      tiling::ClusterSlice s =
          tiling::clusterSlice(mapping_->array, R, C, r, c, M, N, K, count);
      if (!mappingRanges_.empty()) {
        // A split decision: cluster r*C+c owns [b_i, b_i+1) of the dim both
        // grid dims split (readMapping checked the boundary count).
        const size_t i = size_t(r * C + c);
        tiling::Range1 range{mappingRanges_[i],
                             mappingRanges_[i + 1] - mappingRanges_[i]};
        switch (mapping_->array.dims[0]) {
        case tiling::SplitDim::M:
          s.m = range;
          break;
        case tiling::SplitDim::N:
          s.n = range;
          break;
        default:
          s.k = range;
          break;
        }
      }
      slices[size_t(r * C + c)] = s;
    }
  return slices;
}

std::vector<ClusterGemmWork> Lowering::mappedSlices(
    int64_t M, int64_t N, int64_t K,
    llvm::function_ref<void(const tiling::ClusterSlice &, ClusterGemmWork &)>
        fill,
    int64_t count) const {
  std::vector<ClusterGemmWork> work(size_t(hw_.rows * hw_.cols));
  slices_ = cutSlices(M, N, K, count);
  // All slices first: a cluster's channel sharers are the other busy
  // clusters on its memory channel (chooseSliceTiles prices the sharing).
  for (uint32_t i = 0; i < slices_.size(); ++i)
    if (!slices_[i].empty()) {
      work[i].channelSharers = tiling::channelSharers(hw_, slices_, i);
      work[i].channel = hw_.channels.empty() ? 0 : hw_.channelOf(i);
      fill(slices_[i], work[i]);
    }
  return work;
}

GemmTiling Lowering::sliceTiling(const tiling::ClusterSlice &s,
                                 const ClusterGemmWork &w, const GemmTiling &t,
                                 bool init, int64_t count, bool activationIsA,
                                 bool bias, bool *bands) const {
  GemmTiling chosen = t;
  if (bands)
    *bands = false;
  if (!opts_.layerSliceTiles || (bands && convWindow_.Cg > 0)) {
    // The same tiles the cost model priced (select-mapping).
    const int64_t pes = std::max<uint32_t>(1, hw_.pesPerCluster);
    tiling::MappingProblem mp;
    mp.gemm.count = count;
    mp.activationIsA = activationIsA;
    mp.tileM = t.peRows * pes;
    mp.tileN = t.nc;
    mp.tileK = t.kc;
    mp.outerM = t.outerM;
    mp.sharedC = t.sharedC;
    mp.rowInit = !activationIsA && bias;
    mp.conv = convWindow_;
    tiling::SliceTiles st{mp.tileM, mp.tileN, mp.tileK};
    if (!opts_.layerSliceTiles)
      st = tiling::chooseSliceTiles(mp, hw_, mapping_->dataflow, s.m.size,
                                    s.n.size, s.k.size, bias && s.part.k == 0,
                                    w.channelSharers, w.channel);
    if (bands && mp.conv.Cg > 0)
      *bands = tiling::convBandsPay(mp, hw_, mapping_->dataflow, s.m.size,
                                    s.n.size, s.k.size, bias && s.part.k == 0,
                                    w.channelSharers, w.channel, st);
    chosen.peRows = ceilDiv(st.tileM, pes);
    chosen.nc = st.tileN;
    chosen.kc = st.tileK;
  }
  GemmTiling ct = clampTiling(hw_, chosen, s.m.size, s.n.size, s.k.size);
  // A shared C region (GemmTiling::sharedC) pays off for output stationary
  // slices with several K chunks per tile (every chunk is at most kc deep);
  // with one chunk each tile would wait for the previous tile's store.
  bool shared = mapping_->dataflow == tiling::Dataflow::OutputStationary &&
                s.k.size > ct.kc;
  GemmTiling fitted = fitMappedTiling(hw_, ct, init, shared);
  // A convolution's bias under output stationary: one value per row. The
  // tiles stay those fitted with a whole init tile (what the cost model
  // priced); the smaller region leaves the strips more room.
  fitted.rowInit = !activationIsA && bias &&
                   mapping_->dataflow == tiling::Dataflow::OutputStationary;
  return fitted;
}

GemmTiling Lowering::convChunkTiling(GemmTiling t,
                                     const std::vector<ConvKChunk> &chunks,
                                     bool init) const {
  t.kc = std::min(t.kc, deepestChunk(chunks));
  return fitMappedTiling(hw_, t, init, t.sharedC && chunks.size() > 1);
}

std::vector<ConvNTile> accel::lowering::convNTiles(int64_t OW, int64_t p0,
                                                   int64_t p1, int64_t nc) {
  std::vector<ConvNTile> v;
  for (int64_t p = p0; p < p1;) {
    int64_t oh = p / OW, ow = p % OW;
    if (ow != 0 || p1 - p < OW || OW > nc) {
      int64_t end = std::min(p1, (oh + 1) * OW);
      int64_t w = std::min(nc, end - p);
      v.push_back({oh, 1, ow, w});
      p += w;
    } else {
      int64_t rows = std::min((p1 - p) / OW, nc / OW);
      v.push_back({oh, rows, 0, OW});
      p += rows * OW;
    }
  }
  return v;
}

std::vector<ConvNTile> accel::lowering::convBlockNTiles(const ConvGeom &g,
                                                        int64_t p0, int64_t p1,
                                                        int64_t nc) {
  const int64_t OW = g.OW;
  const int64_t r0 = ceilDiv(p0, OW), r1 = p1 / OW; // whole rows [r0, r1)
  if (r1 - r0 < 2)
    return convNTiles(OW, p0, p1, nc);
  // Band rows of 64 bytes at least, as a DRAM burst moves them.
  constexpr int64_t kMinBlockCols = 64 / 4;
  const int64_t rowTiles = int64_t(convNTiles(OW, r0 * OW, r1 * OW, nc).size());
  const codegen::BandBlock b =
      codegen::chooseBandBlock({g.sh, g.sw, g.dh, g.dw}, g.KH, g.KW, r1 - r0,
                               OW, nc, kMinBlockCols, rowTiles);
  std::vector<ConvNTile> v = convNTiles(OW, p0, r0 * OW, nc);
  for (int64_t oh = r0; oh < r1; oh += b.rows)
    for (int64_t ow = 0; ow < OW; ow += b.cols)
      v.push_back(
          {oh, std::min(b.rows, r1 - oh), ow, std::min(b.cols, OW - ow)});
  for (const ConvNTile &t : convNTiles(OW, r1 * OW, p1, nc))
    v.push_back(t);
  return v;
}

LogicalResult Lowering::readMapping(Operation *op) {
  mapping_.reset();
  mappingRanges_.clear();
  Attribute a = op->getAttr(kMappingAttrName);
  if (!a)
    return success();
  tiling::MappingChoice c;
  std::string err;
  if (!parseMappingAttr(a, c, err))
    return op->emitOpError("invalid ") << kMappingAttrName << ": " << err;
  if (tiling::splitsBatch(c.array)) {
    // Whole batch instances per cluster: the instances are separate GEMMs
    // of a batched matmul only (a conv's images / groups are not cut so).
    if (!isa<graph::MatMulOp>(op))
      return op->emitOpError()
             << kMappingAttrName
             << ": array = " << tiling::partitionName(c.array)
             << " splits the batch, which only a graph.matmul has";
    if (c.array.dims[0] == tiling::SplitDim::K ||
        c.array.dims[1] == tiling::SplitDim::K)
      return op->emitOpError()
             << kMappingAttrName
             << ": array = " << tiling::partitionName(c.array)
             << " combines a batch split with a K split (unsupported)";
  }
  mapping_ = c;
  mappingRanges_ = mappingRanges(a);
  const size_t clusters = size_t(hw_.rows) * hw_.cols;
  if (!mappingRanges_.empty() && mappingRanges_.size() != clusters + 1)
    return op->emitOpError()
           << kMappingAttrName << ": " << mappingRanges_.size() - 1
           << " cluster ranges for a grid of " << clusters << " clusters";
  return success();
}

Lowering::MappedOutput Lowering::beginMapped(uint64_t out, int64_t outElems) {
  MappedOutput mo;
  mo.f = tiling::splitFactors(mapping_->array, hw_.rows, hw_.cols);
  mo.out = out;
  mo.outElems = outElems;
  mo.partials = mo.f.k > 1 ? allocate(mo.f.k * outElems) : 0;
  mo.reloads = mapping_->dataflow != tiling::Dataflow::OutputStationary;
  return mo;
}

LogicalResult Lowering::finishMapped(Operation *op,
                                     const std::vector<ClusterGemmWork> &work,
                                     bool activationIsA,
                                     const GemmEpilogue &epi,
                                     const MappedOutput &mo) {
  const tiling::SplitFactors &f = mo.f;
  std::vector<ClusterGemmWork> withScratch = work;
  StationaryOperand st = stationaryFor(mapping_->dataflow, activationIsA);
  for (ClusterGemmWork &w : withScratch) {
    if (int64_t e = mappedPsumScratchElems(w, st))
      w.psumScratch = allocate(e);
    // The 1.0 of a per-row bias's depth-1 MAC (ClusterGemmWork::ones).
    if (w.tiling.rowInit)
      w.ones = oneConstant();
  }
  if (failed(placeWeightSlabs(op, withScratch, !activationIsA)))
    return failure();
  GemmEpilogue clusterEpi = epi;
  // The K split's combine applies one function; the post steps need a free
  // instruction buffer and room for the tiles.
  if (f.k > 1 || !mappedPostFits(hw_, withScratch, st, clusterEpi))
    keepChainedOnly(clusterEpi);
  SfuFunc combineFunc = epi.func;
  if (f.k > 1) {
    clusterEpi.func = SfuFunc::None; // applied after the partial sums
    // The combine applies a function without immediate; one with an
    // immediate (fused epilogue) joins the tail layer.
    if (epi.funcImm != 0.0f) {
      tail_.insert(tail_.begin(), EpilogueStep{epi.func, epi.funcImm, false});
      combineFunc = SfuFunc::None;
    }
  }
  std::string err;
  if (!emitMappedGemmLayer(sb_, withScratch, st, kernelEpilogue(clusterEpi),
                           err))
    return op->emitOpError("cannot realise ")
           << kMappingAttrName << ": " << err;
  if (f.k > 1)
    if (std::optional<ReductionExchange> x = reductionExchangeFor(op))
      return emitReductionTree(op, withScratch, mo, *x, combineFunc);
  if (f.k > 1 && !emitPartialSumCombine(
                     sb_, mo.partials, mo.outElems, f.kRows, f.kCols, mo.out,
                     combineFunc, [&](int64_t n) { return allocate(n); }, err))
    return op->emitOpError("cannot combine the partial sums of a K split: ")
           << err;
  return success();
}

GemmTiles accel::lowering::matrixGemmTiles(
    const Mat2D &A, const Mat2D &B, const Mat2D &C, const Mat2D *I, int64_t m,
    int64_t mOff, const std::vector<int64_t> &kChunks,
    const std::vector<int64_t> &k0, const std::vector<int64_t> &nTiles,
    const std::vector<int64_t> &n0, int64_t cShift) {
  // Rows [mOff + m0, + mc) and columns [c0, + cols) of a matrix.
  auto box = [](uint64_t base, const Mat2D &x, int64_t r0, int64_t rows,
                int64_t c0, int64_t cols) {
    DramBox b;
    b.base = base + uint64_t((r0 * x.s0 + c0 * x.s1) * 4);
    b.dim(rows, x.s0).dim(cols, x.s1);
    return b;
  };
  GemmTiles p;
  p.m = m;
  p.kChunks = kChunks;
  p.nTiles = nTiles;
  p.aBox = [=](int64_t m0, int64_t mc, size_t ki) {
    return box(A.base, A, mOff + m0, mc, k0[ki], kChunks[ki]);
  };
  p.bBox = [=](size_t ki, size_t ni) {
    return box(B.base, B, k0[ki], kChunks[ki], n0[ni], nTiles[ni]);
  };
  const uint64_t cBase = uint64_t(int64_t(C.base) + cShift);
  p.cBox = [=](int64_t m0, int64_t mc, size_t ni) {
    return box(cBase, C, mOff + m0, mc, n0[ni], nTiles[ni]);
  };
  if (I) {
    Mat2D init = *I;
    p.initBox = [=](int64_t m0, int64_t mc, size_t ni) {
      return box(init.base, init, mOff + m0, mc, n0[ni], nTiles[ni]);
    };
  }
  return p;
}

LogicalResult Lowering::emitMappedMatmuls(
    Operation *op, const std::vector<std::array<Mat2D, 3>> &batches, int64_t m,
    int64_t n, int64_t k, const std::vector<Mat2D> &init,
    const GemmEpilogue &epi, const GemmTiling &t) {
  // Outputs are dense [m, n] matrices, batch b at out + b * m * n.
  const uint64_t outBase = batches.front()[2].base;
  for (size_t b = 0; b < batches.size(); ++b) {
    const Mat2D &c = batches[b][2];
    if (c.s0 != n || c.s1 != 1 ||
        c.base != outBase + uint64_t(int64_t(b) * m * n * 4))
      return op->emitOpError("internal error: mapped GEMM outputs must be "
                             "dense and consecutive");
  }
  const MappedOutput mo = beginMapped(outBase, int64_t(batches.size()) * m * n);

  auto fill = [&](const tiling::ClusterSlice &s, ClusterGemmWork &w) {
    w.tiling = sliceTiling(s, w, t, !init.empty() || mo.reloads, s.b.size,
                           /*activationIsA=*/true, !init.empty());
    std::vector<int64_t> kChunks = chunks(s.k.size, w.tiling.kc),
                         nTiles = chunks(s.n.size, w.tiling.nc);
    std::vector<int64_t> k0 = prefix(kChunks), n0 = prefix(nTiles);
    for (int64_t &v : k0)
      v += s.k.begin;
    for (int64_t &v : n0)
      v += s.n.begin;
    const int64_t mOff = s.m.begin;
    // A K part writes its own partial-sum copy of the output.
    const int64_t cShift = int64_t(mo.partOut(s.part.k)) - int64_t(outBase);
    // Only K part 0 starts from the initial values.
    const bool withInit = !init.empty() && s.part.k == 0;
    // The cluster's batch instances (a B split gives it whole ones).
    for (int64_t b = s.b.begin; b < s.b.begin + s.b.size; ++b)
      w.problems.push_back(
          matrixGemmTiles(batches[b][0], batches[b][1], batches[b][2],
                          withInit ? &init[b] : nullptr, s.m.size, mOff,
                          kChunks, k0, nTiles, n0, cShift));
  };
  return finishMapped(op, mappedSlices(m, n, k, fill, int64_t(batches.size())),
                      /*activationIsA=*/true, epi, mo);
}

LogicalResult Lowering::emitMappedConv(Operation *op, const ConvGeom &g,
                                       const GemmTiling &t,
                                       const GemmEpilogue &epi,
                                       const std::vector<PadBand> &bands) {
  if (convWeightsToQueue(g)) {
    assert(bands.empty() && "the weight-queue kernel reads one padded input");
    return emitMappedConvWeightsInQueue(op, g, t, epi);
  }
  const int64_t M = g.Og, Npix = g.OH * g.OW, K = g.Cg * g.KH * g.KW;
  const MappedOutput mo = beginMapped(g.out, g.N * g.O * g.OH * g.OW);
  // Input bands: not for a 1 x 1 kernel (nothing to share between kernel
  // positions). The kernel takes them per cluster where they move less
  // than the plain tiles (conv-bands=on, the default) and, with
  // conv-bands=auto, only where the cluster's loads are at least half its
  // MAC time (docs/mapping.md, "Convolution input bands").
  const bool useBands = opts_.convBands && g.KH * g.KW > 1;
  const double bandsMinChannelShare = opts_.convBandsAlways ? 0.0 : 0.5;
  convWindow_ = {};
  if (useBands)
    convWindow_ = {g.Cg, g.KH, g.KW, g.OW, g.sh, g.sw, g.dh, g.dw};
  const uint64_t inputBytes = uint64_t(g.N * g.C * g.Hp * g.Wp) * 4;
  const bool bandsFromDram =
      useBands && inputBytes > uint64_t(hw_.storageBytes) * hw_.numClusters();
  const bool blockBands = bandsFromDram && opts_.convBandBlocks;

  auto fill = [&](const tiling::ClusterSlice &s, ClusterGemmWork &w) {
    w.bandsMinChannelShare = bandsMinChannelShare;
    // Band groups where the bands come from DRAM, as the blocks below: on
    // a map the residency keeps on chip the larger band slots cost the
    // layers after it their residency (MobileNetV2 on bandwidth-starved
    // +3.8 %, its block_0_project reading 1.21 -> 1.71 MB).
    w.bandGroups = bandsFromDram && opts_.convBandGroups;
    w.partialFilterStrip = true;
    w.shareFilterStrip = opts_.filterShare;
    w.tiling = sliceTiling(s, w, t, g.hasBias || mo.reloads, g.N * g.groups,
                           /*activationIsA=*/false, g.hasBias);
    std::vector<ConvNTile> ntiles =
        convNTiles(g.OW, s.n.begin, s.n.begin + s.n.size, w.tiling.nc);
    std::vector<ConvKChunk> kchunks =
        convKChunks(g, s.k.begin, s.k.begin + s.k.size, w.tiling.kc,
                    chunksMaySpanKernelRows(g, ntiles));
    // With bands the halo of a piece of one row is two thirds of a 3 x 3
    // kernel's band: blocks of rows x columns share more of it. Only for
    // an input larger than all storage units, which the bands read from
    // DRAM (smaller maps stay on chip, where the blocks' output boxes
    // broke the runs the residency keeps: MobileNetV3-Small's stem twice
    // as slow), and not when the blocks' chunks, which cannot span kernel
    // rows, would be more (shallower EXECUTEs: a 7 x 7 kernel over 3
    // channels).
    if (blockBands) {
      std::vector<ConvNTile> blocks =
          convBlockNTiles(g, s.n.begin, s.n.begin + s.n.size, w.tiling.nc);
      std::vector<ConvKChunk> blockChunks =
          convKChunks(g, s.k.begin, s.k.begin + s.k.size, w.tiling.kc,
                      chunksMaySpanKernelRows(g, blocks));
      if (blockChunks.size() <= kchunks.size())
        ntiles = std::move(blocks), kchunks = std::move(blockChunks);
    }
    w.tiling = convChunkTiling(w.tiling, kchunks, g.hasBias || mo.reloads);
    // Input bands: the chunks of one channel range next to each other (the
    // kernel copies them from one band), and the kernel rows / columns each
    // channel range's band covers.
    const bool withBands = useBands;
    std::map<std::pair<int64_t, int64_t>, std::array<int64_t, 4>> bandSpan;
    std::vector<size_t> bandOrder;
    if (withBands) {
      for (size_t i = 0; i < kchunks.size(); ++i)
        bandOrder.push_back(i);
      std::stable_sort(bandOrder.begin(), bandOrder.end(),
                       [&](size_t a, size_t b) {
                         return std::make_pair(kchunks[a].c0, kchunks[a].cc) <
                                std::make_pair(kchunks[b].c0, kchunks[b].cc);
                       });
      for (const ConvKChunk &c : kchunks) {
        auto [it, fresh] = bandSpan.try_emplace(
            std::make_pair(c.c0, c.cc),
            std::array<int64_t, 4>{c.kh, c.kh + c.nkh - 1, c.kw,
                                   c.kw + c.nkw - 1});
        if (!fresh) {
          std::array<int64_t, 4> &v = it->second;
          v[0] = std::min(v[0], c.kh), v[1] = std::max(v[1], c.kh + c.nkh - 1);
          v[2] = std::min(v[2], c.kw), v[3] = std::max(v[3], c.kw + c.nkw - 1);
        }
      }
    }
    const int64_t mOff = s.m.begin;
    const uint64_t out = mo.partOut(s.part.k);
    const bool bias = g.hasBias && s.part.k == 0;
    for (int64_t n = 0; n < g.N; ++n)
      for (int64_t grp = 0; grp < g.groups; ++grp) {
        GemmTiles p;
        p.m = s.m.size;
        for (const ConvNTile &nt : ntiles)
          p.nTiles.push_back(nt.ohc * nt.owc);
        for (const ConvKChunk &kc : kchunks)
          p.kChunks.push_back(kc.depth());
        p.aBox = [=](int64_t m0, int64_t mc, size_t ki) {
          const ConvKChunk &c = kchunks[ki];
          DramBox b;
          b.base =
              g.w + uint64_t((grp * g.Og + mOff + m0) * g.Cg * g.KH * g.KW +
                             convFilterOffset(g, c)) *
                        4;
          b.dim(mc, g.Cg * g.KH * g.KW);
          appendFilterKDims(b, g, c);
          return b;
        };
        // The input this cluster reads: the padded buffer, its band, or
        // (conv-padding=window) the unpadded input.
        const ConvGeom gx = g.pad.on ? convGeomUnpadded(g)
                                     : convGeomOnBand(g, bands, s.n.begin,
                                                      s.n.begin + s.n.size);
        auto imageBox = [=](size_t ki, size_t ni) {
          const ConvKChunk &c = kchunks[ki];
          const ConvNTile &t2 = ntiles[ni];
          DramBox b;
          b.base =
              gx.x +
              uint64_t(((n * gx.C + grp * gx.Cg) * gx.Hp + t2.oh0 * gx.sh) *
                           gx.Wp +
                       t2.ow0 * gx.sw + convInputOffset(gx, c)) *
                  4;
          // Rows: the chunk's K dims; columns: the pixel box.
          b.rowDims = appendInputKDims(b, gx, c);
          if (t2.ohc > 1)
            b.dim(t2.ohc, gx.sh * gx.Wp);
          b.dim(t2.owc, gx.sw);
          return b;
        };
        p.bBox = imageBox;
        if (g.pad.on)
          p.bPieces = [=](size_t ki, size_t ni, int64_t rowStride) {
            return convImagePieces(g, n, grp, kchunks[ki], ntiles[ni],
                                   /*aForm=*/false, rowStride,
                                   imageBox(ki, ni));
          };
        p.bandOrder = bandOrder;
        // The N tiles' band groups, per channel range and group size.
        std::vector<PixelBox> pixelBoxes;
        for (const ConvNTile &nt : ntiles)
          pixelBoxes.push_back(PixelBox{nt.oh0, nt.ohc, nt.ow0, nt.owc});
        auto groupCache = std::make_shared<
            std::map<std::tuple<std::array<int64_t, 4>, int64_t, int64_t>,
                     BandGroups>>();
        auto groupsFor = [=](const std::array<int64_t, 4> &span, int64_t cc,
                             int64_t groupElems) -> const BandGroups & {
          auto key = std::make_tuple(span, cc, groupElems);
          auto it = groupCache->find(key);
          if (it == groupCache->end())
            it = groupCache
                     ->emplace(
                         key, groupBandBoxes(ConvWindow{g.sh, g.sw, g.dh, g.dw},
                                             pixelBoxes, span[0], span[1],
                                             span[2], span[3], cc, groupElems))
                     .first;
          return it->second;
        };
        if (withBands)
          p.bBand = memoizedBands(
              ntiles.size(),
              [=](size_t ki, size_t ni, int64_t groupElems) -> BandRef {
                const ConvKChunk &c = kchunks[ki];
                const std::array<int64_t, 4> &span =
                    bandSpan.at(std::make_pair(c.c0, c.cc));
                const ConvWindow win{g.sh, g.sw, g.dh, g.dw};
                // The band of the N tile's group (itself when not grouped).
                const BandGroups &groups = groupsFor(span, c.cc, groupElems);
                const size_t gi = groups.groupOf[ni];
                const PixelBox &gb = groups.box[gi];
                const BandLayout lay =
                    convBandLayout(win, gb.oh0, gb.ohc, gb.ow0, gb.owc, span[0],
                                   span[1], span[2], span[3], c.cc);
                const ConvNTile &t2 = ntiles[ni];
                ImageBand band;
                band.id = (int64_t(gi) * (g.Cg + 1) + c.c0) * (g.Cg + 1) + c.cc;
                band.elems = lay.elems();
                band.tile = convBandTile(win, lay, c.kh - span[0], c.nkh,
                                         c.kw - span[2], c.nkw, 0, c.cc, t2.ohc,
                                         t2.owc);
                band.tile.base += uint64_t(bandOffsetInGroup(
                    win, lay, gb, PixelBox{t2.oh0, t2.ohc, t2.ow0, t2.owc}));
                if (g.pad.on) {
                  // The padded band from the unpadded input: its clipped box
                  // and zero runs (PadWindow.h), as a one-position window.
                  PadWindowTile w;
                  w.planes = g.x + uint64_t((n * g.C + grp * g.Cg + c.c0) *
                                            g.pad.H * g.pad.W * 4);
                  w.zeros = g.pad.zeros;
                  w.H = g.pad.H, w.W = g.pad.W;
                  w.padT = g.pad.top, w.padL = g.pad.left;
                  w.cc = c.cc;
                  w.oh0 = lay.r0, w.ohc = lay.rows, w.ow0 = lay.c0,
                  w.owc = lay.cols;
                  w.posStride = 0, w.chanStride = lay.rows * lay.cols,
                  w.pixStride = 1;
                  band.load = padWindowPieces(w);
                } else {
                  TilePiece piece;
                  piece.src.base =
                      gx.x +
                      uint64_t(
                          (((n * gx.C + grp * gx.Cg + c.c0) * gx.Hp + lay.r0) *
                               gx.Wp +
                           lay.c0) *
                          4);
                  piece.src.dim(c.cc, gx.Hp * gx.Wp)
                      .dim(lay.rows, gx.Wp)
                      .dim(lay.cols, 1);
                  piece.suStrides = {lay.rows * lay.cols, lay.cols, 1, 0};
                  band.load = {piece};
                }
                return std::make_shared<const ImageBand>(std::move(band));
              });
        p.cBox = [=](int64_t m0, int64_t mc, size_t ni) {
          const ConvNTile &t2 = ntiles[ni];
          DramBox b;
          b.base =
              out +
              uint64_t(((n * g.O + grp * g.Og + mOff + m0) * g.OH + t2.oh0) *
                           g.OW +
                       t2.ow0) *
                  4;
          b.dim(mc, g.OH * g.OW).dim(t2.ohc, g.OW).dim(t2.owc, 1);
          return b;
        };
        if (bias) {
          p.initBox = [=](int64_t m0, int64_t mc, size_t ni) {
            const ConvNTile &t2 = ntiles[ni];
            DramBox b;
            b.base = g.bias + uint64_t((grp * g.Og + mOff + m0) * 4);
            b.dim(mc, 1).dim(t2.ohc, 0).dim(t2.owc, 0);
            return b;
          };
          p.initRows = [=](int64_t m0, int64_t mc) {
            DramBox b;
            b.base = g.bias + uint64_t((grp * g.Og + mOff + m0) * 4);
            b.dim(mc, 1);
            return b;
          };
        }
        w.problems.push_back(std::move(p));
      }
  };
  std::vector<ClusterGemmWork> work = mappedSlices(M, Npix, K, fill);
  convWindow_ = {};
  return finishMapped(op, work, /*activationIsA=*/false, epi, mo);
}
