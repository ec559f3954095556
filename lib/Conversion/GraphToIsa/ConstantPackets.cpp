//===- ConstantPackets.cpp - Split constants as per-core packets ----------===//
//
// docs/labels-and-splits.md, "Lowering: reduction trees, constant packets,
// materialisation" (spec [0112]-[0125], DESIGN-11 "Constant packets"): a
// weight constant whose dynamic label splits it is stored piece-major with
// its split dim outermost, one slab per cluster (the contiguous range of
// pieces the cluster's slice reads) in DRAM of the cluster's local channel;
// the kernel's weight boxes of that cluster are redirected to the slab.
// Every core (PE) gets one packet: its block of every split constant (the
// pieces coreOfPieces deals it) and a marker area (split::layoutPacket:
// constant total, block offsets relative to the cluster's first slab and
// sizes, hidden sizes, the DRAM address table of the layers' inputs and
// outputs), written before execution.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "accel/Split/Split.h"
#include "accel/Transforms/Passes.h"
#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace accel;
using namespace accel::codegen;
using namespace accel::lowering;

namespace {
/// Bytes [lo, hi) a box of f32 with non-negative strides touches; empty
/// (lo == hi) for a box without elements.
std::pair<uint64_t, uint64_t> spanOf(const DramBox &b) {
  int64_t far = 0;
  for (int d = 0; d < b.rank; ++d) {
    if (b.shape[d] == 0)
      return {b.base, b.base};
    far += (b.shape[d] - 1) * b.stride[d];
  }
  return {b.base, b.base + uint64_t(far) * 4 + 4};
}

/// Calls fn(box) for every weight box the cluster's kernel loads.
template <typename Fn>
void forEachWeightBox(const ClusterGemmWork &w, int64_t pes, bool weightIsA,
                      Fn fn) {
  const int64_t mcMax = std::max<int64_t>(1, w.tiling.peRows * pes);
  for (const GemmTiles &p : w.problems)
    for (size_t ki = 0; ki < p.kChunks.size(); ++ki) {
      if (weightIsA) {
        for (int64_t m0 = 0; m0 < p.m; m0 += mcMax)
          fn(p.aBox(m0, std::min(mcMax, p.m - m0), ki));
      } else {
        for (size_t ni = 0; ni < p.nTiles.size(); ++ni)
          fn(p.bBox(ki, ni));
      }
    }
}
} // namespace

uint64_t Lowering::allocateInChannel(uint32_t channel, int64_t elements) {
  // The linear plan's allocator: with dram-placement=channels the planner
  // (placeOnChannels) moves every buffer afterwards into the region of the
  // channel local to its readers, i.e. a slab into its cluster's channel.
  (void)channel;
  return allocate(elements);
}

LogicalResult Lowering::placeWeightSlabs(Operation *op,
                                         std::vector<ClusterGemmWork> &work,
                                         bool weightIsA) {
  if (op->getNumOperands() < 2)
    return success();
  Value weight = op->getOperand(1);
  auto cst = weight.getDefiningOp<arith::ConstantOp>();
  auto labels =
      cst ? cst->getAttrOfType<ArrayAttr>(kLabelsAttrName) : ArrayAttr();
  auto label =
      labels && !labels.empty() ? dyn_cast<LabelAttr>(labels[0]) : LabelAttr();
  if (!label)
    return success();
  DynamicLabelAttr dyn = label.getDynamicLabel();
  StaticLabelAttr stat = label.getStaticLabel();
  ArrayRef<int64_t> ranges = dyn.getRanges();
  if (dyn.getSplitDim().empty() || ranges.size() < 2)
    return success();
  // Only a split dim outermost in the stored order gives contiguous pieces;
  // a constant split on an inner dim stays dense (documented limitation).
  if (stat.getOrder().empty() || stat.getOrder()[0] != dyn.getSplitDim()[0])
    return success();
  auto addrIt = addr_.find(weight);
  if (addrIt == addr_.end())
    return success();
  const uint64_t wBase = addrIt->second;
  auto dense =
      std::find_if(program_.constants.begin(), program_.constants.end(),
                   [&](const ConstSegment &s) { return s.dramAddr == wBase; });
  if (dense == program_.constants.end() || dense->empty())
    return success(); // a splat filled at run time: nothing to pack
  // Every weight box of `op` is redirected to the slabs below, so a constant
  // no other op reads is dead in its dense form: the binary then carries the
  // slabs only, not the weights twice. Slabs of a borrowed constant borrow
  // too (the attribute outlives the program); others copy.
  ConstSegment whole;
  if (weight.hasOneUse()) {
    whole = std::move(*dense);
    program_.constants.erase(dense);
  } else {
    whole = *dense;
  }
  const uint64_t wEnd = wBase + whole.size();
  const int64_t outer = stat.getDims().empty() ? 1 : stat.getDims()[0];
  const uint64_t rowBytes =
      whole.size() / uint64_t(std::max<int64_t>(1, outer));
  const size_t pieces = ranges.size() / 2;
  const uint32_t pes = hw_.pesPerCluster;
  std::vector<uint32_t> coreOf =
      split::coreOfPieces(pieces, uint64_t(hw_.numClusters()) * pes);
  const std::string name = "w" + std::to_string(splitConstants_++);
  const uint64_t in =
      addr_.count(op->getOperand(0)) ? addr_.lookup(op->getOperand(0)) : 0;
  const uint64_t out =
      op->getNumResults() ? bufferFor(op->getResult(0)) : uint64_t(0);
  const std::string layer = "layer" + std::to_string(packetLayers_++);

  for (uint32_t cl = 0; cl < work.size(); ++cl) {
    uint64_t lo = UINT64_MAX, hi = 0;
    forEachWeightBox(work[cl], pes, weightIsA, [&](const DramBox &b) {
      auto [l, h] = spanOf(b);
      if (l >= wBase && l < wEnd && h > l) {
        lo = std::min(lo, l);
        hi = std::max(hi, h);
      }
    });
    if (hi <= lo)
      continue;
    if (hi > wEnd)
      return op->emitOpError("internal error: a weight box of cluster ")
             << cl << " reads past the constant";
    // The slab: piece-major rows [lo, hi) of the constant, in the cluster's
    // local channel.
    ConstSegment slab = whole.slice(
        lo - wBase, hi - lo,
        allocateInChannel(hw_.channelOf(cl), int64_t((hi - lo + 3) / 4)));
    const int64_t delta = int64_t(slab.dramAddr) - int64_t(lo);
    const uint64_t slabAddr = slab.dramAddr;
    program_.constants.push_back(std::move(slab));
    auto redirect = [lo, hi, delta](DramBox b) {
      if (b.base >= lo && b.base < hi)
        b.base = uint64_t(int64_t(b.base) + delta);
      return b;
    };
    for (GemmTiles &p : work[cl].problems) {
      if (weightIsA) {
        auto f = p.aBox;
        p.aBox = [f, redirect](int64_t m0, int64_t mc, size_t k) {
          return redirect(f(m0, mc, k));
        };
      } else {
        auto f = p.bBox;
        p.bBox = [f, redirect](size_t k, size_t n) {
          return redirect(f(k, n));
        };
      }
    }
    // The cores' blocks: their pieces inside the slab, merged per core.
    for (size_t j = 0; j < pieces; ++j) {
      if (coreOf[j] / pes != cl)
        continue;
      uint64_t plo = std::max(lo, wBase + uint64_t(ranges[2 * j]) * rowBytes);
      uint64_t phi =
          std::min(hi, wBase + uint64_t(ranges[2 * j + 1] + 1) * rowBytes);
      if (phi <= plo)
        continue;
      PacketUnderConstruction &pk = packets_[{cl, coreOf[j] % pes}];
      uint64_t at = plo + uint64_t(delta);
      if (!pk.blocks.empty() && pk.blocks.back().name == name &&
          pk.blocks.back().dramAddr + pk.blocks.back().bytes == at) {
        pk.blocks.back().bytes += phi - plo;
      } else {
        pk.blocks.push_back({name, at, phi - plo});
        pk.addresses.push_back({layer + ".input", in});
        pk.addresses.push_back({layer + ".output", out});
      }
    }
    (void)slabAddr;
  }
  return success();
}

void Lowering::finishConstantPackets() {
  for (auto &[key, pk] : packets_) {
    const auto [cl, core] = key;
    // Block offsets relative to the cluster's packet base: its lowest slab.
    uint64_t base = UINT64_MAX;
    for (const auto &[k2, other] : packets_)
      if (k2.first == cl)
        for (const PacketBlockRef &b : other.blocks)
          base = std::min(base, b.dramAddr);
    std::vector<std::pair<std::string, uint64_t>> consts;
    for (const PacketBlockRef &b : pk.blocks)
      consts.push_back({b.name, b.bytes});
    std::vector<std::string> names;
    std::vector<uint64_t> values;
    for (const auto &[n, v] : pk.addresses) {
      names.push_back(n);
      values.push_back(v);
    }
    split::ConstantPacket layout = split::layoutPacket(consts, {}, names);
    for (size_t i = 0; i < layout.constants.size(); ++i)
      layout.constants[i].offset = pk.blocks[i].dramAddr - base;
    ConstPacket p;
    p.cluster = cl;
    p.core = core;
    p.blocks = pk.blocks;
    p.marker = layout.marker(values);
    p.markerAddr = allocateInChannel(hw_.channelOf(cl),
                                     int64_t((p.marker.size() + 3) / 4));
    program_.packets.push_back(std::move(p));
    packetTables_.push_back({layout.addressTableOffset(), values});
  }
}

void Lowering::relocatePacketMarkers(const std::vector<DramBuffer> &buffers,
                                     const ChannelPlan &plan) {
  // A core's address table names the copies its own cluster reads.
  auto put = [](std::vector<uint8_t> &m, uint64_t at, uint64_t v) {
    for (int b = 0; b < 8 && at + uint64_t(b) < m.size(); ++b)
      m[at + uint64_t(b)] = uint8_t(v >> (8 * b));
  };
  // The cluster's packet base moved with its slabs (relocateBuffers moved
  // the blocks): block offsets relative to the new lowest slab.
  std::map<uint32_t, uint64_t> base;
  for (const ConstPacket &p : program_.packets)
    for (const PacketBlockRef &b : p.blocks) {
      auto [it, fresh] = base.insert({p.cluster, b.dramAddr});
      if (!fresh)
        it->second = std::min(it->second, b.dramAddr);
    }
  for (size_t k = 0; k < packetTables_.size() && k < program_.packets.size();
       ++k) {
    auto &[offset, values] = packetTables_[k];
    ConstPacket &p = program_.packets[k];
    for (size_t j = 0; j < p.blocks.size(); ++j)
      put(p.marker, 8 * (4 + 2 * j), p.blocks[j].dramAddr - base[p.cluster]);
    for (size_t j = 0; j < values.size(); ++j)
      put(p.marker, offset + 8 * j,
          relocatedAddress(buffers, plan, values[j], hw_.channelOf(p.cluster)));
  }
}
