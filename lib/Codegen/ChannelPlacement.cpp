//===- ChannelPlacement.cpp - DRAM buffers on memory channels -------------===//
#include "accel/Codegen/ChannelPlacement.h"
#include <algorithm>

using namespace accel;
using namespace accel::codegen;

int64_t accel::codegen::bufferOf(const std::vector<DramBuffer> &buffers,
                                 uint64_t a) {
  auto it = std::upper_bound(
      buffers.begin(), buffers.end(), a,
      [](uint64_t x, const DramBuffer &b) { return x < b.addr; });
  if (it == buffers.begin())
    return -1;
  --it;
  if (a >= it->addr + it->bytes)
    return -1;
  return it - buffers.begin();
}

namespace {

/// Bounding byte range of the DRAM side of a DMA (`src` side when
/// `srcSide`).
void dramBounds(const DmaDesc &d, bool srcSide, uint64_t &lo, uint64_t &hi) {
  uint64_t base = srcSide ? d.src : d.dst;
  const int64_t *stride = srcSide ? d.srcStride : d.dstStride;
  int64_t below = 0, above = 0;
  for (int i = 0; i < 4; ++i) {
    int64_t span = int64_t(d.shape[i] - 1) * stride[i];
    (span < 0 ? below : above) += span;
  }
  lo = base + uint64_t(below) * d.elemBytes; // below <= 0: wraps back
  hi = base + uint64_t(above) * d.elemBytes + d.elemBytes;
}

/// Calls `f(srcSide)` for each side of `d` that is in DRAM (the source of a
/// load, the destination of a store, both of a DRAM copy).
template <typename F> void forEachDramSide(const DmaDesc &d, F f) {
  if (readsDram(d.dir))
    f(true);
  if (writesDram(d.dir))
    f(false);
}

/// Calls `f(b, a, e)` for every buffer b that overlaps [lo, hi) (ascending,
/// disjoint buffers), with [a, e) the overlap.
template <typename F>
void forEachOverlap(const std::vector<DramBuffer> &buffers, uint64_t lo,
                    uint64_t hi, F f) {
  int64_t first = bufferOf(buffers, lo);
  for (size_t b = size_t(std::max<int64_t>(first, 0));
       first >= 0 && b < buffers.size() && buffers[b].addr < hi; ++b)
    f(b, std::max(lo, buffers[b].addr),
      std::min(hi, buffers[b].addr + buffers[b].bytes));
}

/// Adds bytes that `layer`'s commands on a cluster of channel `ch` move to
/// the buffer's totals and to its per-layer entry.
void addTraffic(BufferTraffic &t, uint32_t layer, uint32_t ch, uint64_t read,
                uint64_t written) {
  t.read[ch] += read;
  t.written[ch] += written;
  if (layer == Command::kNoLayer)
    layer = kNoLayerTraffic;
  for (LayerTraffic &e : t.layers)
    if (e.layer == layer && e.channel == ch) {
      e.read += read;
      e.written += written;
      return;
    }
  t.layers.push_back({layer, ch, read, written});
}

uint64_t regionEnd(const HardwareDesc &hw, uint32_t ch) {
  uint64_t r = hw.channelRegionBytes();
  return ch + 1 >= hw.channels.size() ? hw.dramBytes : (ch + 1) * r;
}

/// The DRAM byte ranges [lo, hi) of every DMA side, constant-packet block
/// and marker area of `p`.
std::vector<std::pair<uint64_t, uint64_t>> dramBoxes(const Program &p) {
  std::vector<std::pair<uint64_t, uint64_t>> boxes;
  for (const ClusterStream &cl : p.clusters)
    for (const Command &c : cl.commands) {
      if (c.kind == CommandKind::Recur && c.recur->weightsInDram)
        boxes.push_back(
            {c.recur->weights, c.recur->weights + c.recur->weightElems() * 4});
      if (c.kind != CommandKind::Dma || c.dma.numElements() == 0)
        continue;
      forEachDramSide(c.dma, [&](bool srcSide) {
        uint64_t lo, hi;
        dramBounds(c.dma, srcSide, lo, hi);
        boxes.push_back({lo, hi});
      });
    }
  for (const ConstPacket &k : p.packets) {
    for (const PacketBlockRef &b : k.blocks)
      if (b.bytes)
        boxes.push_back({b.dramAddr, b.dramAddr + b.bytes});
    if (!k.marker.empty())
      boxes.push_back({k.markerAddr, k.markerAddr + k.marker.size()});
  }
  std::sort(boxes.begin(), boxes.end());
  return boxes;
}

} // namespace

bool accel::codegen::cutSegments(const Program &p,
                                 const std::vector<DramBuffer> &buffers,
                                 uint64_t alignment,
                                 std::vector<DramBuffer> &segments,
                                 std::string &err) {
  // Cut points: where a group of overlapping boxes starts (no box before it
  // reaches past that byte).
  std::vector<uint64_t> cuts;
  uint64_t reach = 0;
  bool first = true;
  for (auto [lo, hi] : dramBoxes(p)) {
    int64_t b = bufferOf(buffers, lo);
    if (b >= 0 && hi > buffers[size_t(b)].addr + buffers[size_t(b)].bytes) {
      err = "a DRAM access [" + std::to_string(lo) + ", " + std::to_string(hi) +
            ") spans two planned buffers";
      return false;
    }
    if ((first || lo >= reach) && lo % std::max<uint64_t>(alignment, 1) == 0)
      cuts.push_back(lo);
    reach = first ? hi : std::max(reach, hi);
    first = false;
  }
  segments.clear();
  for (const DramBuffer &b : buffers) {
    uint64_t start = b.addr, end = b.addr + b.bytes;
    for (auto it = std::upper_bound(cuts.begin(), cuts.end(), start);
         it != cuts.end() && *it < end; ++it) {
      segments.push_back({start, *it - start});
      start = *it;
    }
    segments.push_back({start, end - start});
  }
  return true;
}

uint64_t ChannelPlan::copyFor(size_t b, uint32_t ch) const {
  if (b < replicas.size())
    for (auto [c, a] : replicas[b])
      if (c == ch)
        return a;
  return addr.at(b);
}

bool accel::codegen::measureBufferTraffic(
    const Program &p, const HardwareDesc &hw,
    const std::vector<DramBuffer> &buffers, std::vector<BufferTraffic> &traffic,
    std::string &err) {
  const size_t nch = std::max<size_t>(hw.channels.size(), 1);
  traffic.assign(buffers.size(), BufferTraffic{std::vector<uint64_t>(nch, 0),
                                               std::vector<uint64_t>(nch, 0)});
  for (size_t cl = 0; cl < p.clusters.size(); ++cl) {
    uint32_t ch = hw.channelOf(uint32_t(cl));
    for (const Command &c : p.clusters[cl].commands) {
      if (c.kind == CommandKind::Recur && c.recur->weightsInDram) {
        // The engine streams (or once loads) the weights from DRAM.
        int64_t b = bufferOf(buffers, c.recur->weights);
        if (b >= 0)
          addTraffic(traffic[size_t(b)], c.layer, ch,
                     c.recur->weightElems() * 4 * c.recur->steps, 0);
        continue;
      }
      if (c.kind != CommandKind::Dma || c.dma.numElements() == 0)
        continue;
      bool ok = true;
      forEachDramSide(c.dma, [&](bool srcSide) {
        uint64_t lo, hi;
        dramBounds(c.dma, srcSide, lo, hi);
        int64_t b = bufferOf(buffers, lo);
        if (!ok || b < 0 || hi > buffers[b].addr + buffers[b].bytes) {
          if (ok)
            err = "a DMA of cluster " + std::to_string(cl) + " touches DRAM [" +
                  std::to_string(lo) + ", " + std::to_string(hi) +
                  ") outside one planned buffer";
          ok = false;
          return;
        }
        uint64_t bytes = c.dma.numElements() * c.dma.elemBytes;
        addTraffic(traffic[b], c.layer, ch, srcSide ? bytes : 0,
                   srcSide ? 0 : bytes);
      });
      if (!ok)
        return false;
    }
  }
  // A core's marker area is read by that core before execution (spec
  // [0112]): it belongs to its cluster's local channel.
  for (const ConstPacket &k : p.packets) {
    int64_t b = bufferOf(buffers, k.markerAddr);
    if (b >= 0 && !k.marker.empty())
      addTraffic(traffic[size_t(b)], Command::kNoLayer,
                 uint32_t(std::min<size_t>(hw.channelOf(k.cluster), nch - 1)),
                 k.marker.size(), 0);
  }
  return true;
}

namespace {

/// One bump allocator per channel region (channel k's from k * R); resets
/// the plan's allocated bytes and DRAM size and keeps them up to date.
class RegionBump {
public:
  RegionBump(const HardwareDesc &hw, ChannelPlan &plan) : hw_(hw), plan_(plan) {
    const size_t nch = std::max<size_t>(hw.channels.size(), 1);
    for (size_t ch = 0; ch < nch; ++ch)
      next_.push_back(uint64_t(ch) * hw.channelRegionBytes());
    plan.allocated.assign(nch, 0);
    plan.dramSize = 0;
  }
  /// Room for `bytes` more in channel ch's region.
  bool fits(uint32_t ch, uint64_t bytes) const {
    uint64_t end = regionEnd(hw_, ch);
    return next_[ch] <= end && bytes <= end - next_[ch];
  }
  uint64_t take(uint32_t ch, uint64_t bytes) {
    uint64_t a = next_[ch];
    next_[ch] += bytes;
    plan_.allocated[ch] += bytes;
    plan_.dramSize = std::max(plan_.dramSize, next_[ch]);
    return a;
  }

private:
  const HardwareDesc &hw_;
  ChannelPlan &plan_;
  std::vector<uint64_t> next_;
};

bool vetoed(const CopyVeto &veto, size_t b, uint32_t ch) {
  return b < veto.size() &&
         std::find(veto[b].begin(), veto[b].end(), ch) != veto[b].end();
}

/// planChannels before the copies are priced (writeCopyFactor alone).
bool planChannelsOnce(const HardwareDesc &hw,
                      const std::vector<DramBuffer> &buffers,
                      const std::vector<BufferTraffic> &traffic,
                      ChannelPlan &plan, std::string &err,
                      const PlacementOptions &opts) {
  const uint32_t nch = uint32_t(std::max<size_t>(hw.channels.size(), 1));
  // Channels local to some cluster: where an untouched buffer may go.
  std::vector<char> local(nch, 0);
  for (uint32_t c = 0; c < hw.numClusters(); ++c)
    local[std::min(hw.channelOf(c), nch - 1)] = 1;
  plan.channel.assign(buffers.size(), 0);
  plan.addr.assign(buffers.size(), 0);
  plan.replicas.assign(buffers.size(), {});
  RegionBump regions(hw, plan);
  // DMA bytes of the buffers placed so far, per channel (opts.balance).
  std::vector<uint64_t> load(nch, 0);
  std::vector<double> bandwidth(nch, 1.0);
  for (uint32_t ch = 0; ch < nch && ch < hw.channels.size(); ++ch)
    bandwidth[ch] = std::max(1e-9, double(hw.channels[ch].bytesPerCycle));
  auto fits = [&](uint32_t ch, uint64_t bytes) {
    return regions.fits(ch, bytes);
  };
  auto take = [&](uint32_t ch, uint64_t bytes) {
    return regions.take(ch, bytes);
  };
  for (size_t i = 0; i < buffers.size(); ++i) {
    const BufferTraffic &t = traffic.at(i);
    bool written = std::any_of(t.written.begin(), t.written.end(),
                               [](uint64_t b) { return b != 0; });
    // Who owns it: its writers (whole buffers), or everybody who moves its
    // bytes (opts.balance: the channel that carries them matters, not who
    // produced them).
    std::vector<uint64_t> score = written ? t.written : t.read;
    if (opts.balance && written)
      for (uint32_t ch = 0; ch < nch; ++ch)
        score[ch] += t.read[ch];
    uint64_t best = *std::max_element(score.begin(), score.end());
    uint64_t total = 0;
    for (uint64_t b : score)
      total += b;
    // No channel's clusters own most of it: place for balance.
    const bool shared = opts.balance && best != 0 &&
                        best * kOwnedDen < total * kOwnedNum &&
                        !(opts.replicate && !written);
    const std::vector<uint64_t> &fill = opts.balance ? load : plan.allocated;
    // Candidates in preference order: near-best score first (balanced by
    // `fill`), then the others by score.
    std::vector<uint32_t> order(nch);
    for (uint32_t ch = 0; ch < nch; ++ch)
      order[ch] = ch;
    auto tier = [&](uint32_t ch) {
      if (best == 0 || shared)
        return local[ch] ? 0 : 1;
      return score[ch] * kTieFraction >= best * (kTieFraction - 1) ? 0 : 1;
    };
    // DMA bytes are balanced by their time, not their count: a channel of
    // half the bandwidth is as busy with half the bytes (hw/asymmetric.json's
    // 128 and 16 B/cycle). Allocated bytes are space, compared as they are.
    auto fillKey = [&](uint32_t ch) {
      return opts.balance ? double(fill[ch]) / bandwidth[ch] : double(fill[ch]);
    };
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      if (tier(a) != tier(b))
        return tier(a) < tier(b);
      if (tier(a) == 0 && fillKey(a) != fillKey(b))
        return fillKey(a) < fillKey(b);
      return score[a] > score[b];
    });
    const uint64_t bytes = buffers[i].bytes;
    bool placed = false;
    for (uint32_t ch : order) {
      if (!fits(ch, bytes))
        continue;
      plan.channel[i] = ch;
      plan.addr[i] = take(ch, bytes);
      placed = true;
      break;
    }
    if (!placed) {
      err = "a DRAM buffer of " + std::to_string(bytes) +
            " bytes fits no memory channel's region";
      return false;
    }
    if (opts.replicate) {
      // One more copy on every other channel whose clusters read it and
      // whose region has room (else they read remotely). A buffer the
      // program writes is copied only where its reads there outweigh the
      // writes every copy costs (each write goes to all copies).
      uint64_t writes = 0;
      for (uint64_t b : t.written)
        writes += b;
      for (uint32_t ch = 0; ch < nch; ++ch)
        if (ch != plan.channel[i] && t.read[ch] != 0 && fits(ch, bytes) &&
            !(written && t.read[ch] <= opts.writeCopyFactor * writes))
          plan.replicas[i].push_back({ch, take(ch, bytes)});
    }
    for (uint32_t ch = 0; ch < nch; ++ch) {
      bool ownCopy = ch == plan.channel[i];
      for (auto [c, a] : plan.replicas[i])
        ownCopy |= c == ch;
      load[ownCopy ? ch : plan.channel[i]] += t.read[ch];
      load[plan.channel[i]] += t.written[ch];
      for (auto [c, a] : plan.replicas[i])
        load[c] += t.written[ch];
    }
  }
  return true;
}

} // namespace

bool accel::codegen::planChannels(const HardwareDesc &hw,
                                  const std::vector<DramBuffer> &buffers,
                                  const std::vector<BufferTraffic> &traffic,
                                  ChannelPlan &plan, std::string &err,
                                  const PlacementOptions &opts) {
  if (!planChannelsOnce(hw, buffers, traffic, plan, err, opts))
    return false;
  if (!opts.replicate || opts.layerMacs.empty())
    return true;
  // Price the copies with every buffer placed, then drop the ones that do
  // not shorten any layer. Planning again without them could move
  // primaries (the balance counts the copies' bytes) and so make copies
  // nobody priced; the same decisions are laid out again instead.
  CopyVeto veto =
      unprofitableCopies(hw, buffers, traffic, plan, opts.layerMacs);
  dropCopies(hw, buffers, veto, plan);
  return true;
}

namespace {
/// Lays the buffers out again in `order`, each region a bump allocator:
/// a buffer's primary, then its copies, on their channels.
void layOutInOrder(const HardwareDesc &hw,
                   const std::vector<DramBuffer> &buffers,
                   const std::vector<size_t> &order, ChannelPlan &plan) {
  RegionBump regions(hw, plan);
  for (size_t b : order) {
    plan.addr[b] = regions.take(plan.channel[b], buffers[b].bytes);
    for (auto &r : plan.replicas[b])
      r.second = regions.take(r.first, buffers[b].bytes);
  }
}
} // namespace

void accel::codegen::dropCopies(const HardwareDesc &hw,
                                const std::vector<DramBuffer> &buffers,
                                const CopyVeto &veto, ChannelPlan &plan) {
  std::vector<size_t> order;
  for (size_t b = 0; b < buffers.size(); ++b) {
    auto &reps = plan.replicas[b];
    reps.erase(std::remove_if(reps.begin(), reps.end(),
                              [&](const std::pair<uint32_t, uint64_t> &r) {
                                return vetoed(veto, b, r.first);
                              }),
               reps.end());
    order.push_back(b);
  }
  // In the original order, so every buffer lands no higher than before.
  layOutInOrder(hw, buffers, order, plan);
}

std::vector<bool>
accel::codegen::constantBuffers(const Program &p,
                                const std::vector<DramBuffer> &buffers) {
  std::vector<bool> constant(buffers.size(), false);
  for (const ConstSegment &c : p.constants) {
    const uint64_t end = c.dramAddr + c.size();
    forEachOverlap(buffers, c.dramAddr, end,
                   [&](size_t b, uint64_t, uint64_t) { constant[b] = true; });
  }
  return constant;
}

void accel::codegen::layOutConstantsFirst(
    const HardwareDesc &hw, const std::vector<DramBuffer> &buffers,
    const std::vector<bool> &constant, ChannelPlan &plan) {
  // The constants ordered by where their copies are (primary channel, then
  // the copies' channels), so that constants copied alike are neighbours on
  // every channel they are on, in the same order: one run each.
  std::vector<std::pair<std::vector<uint32_t>, size_t>> constants;
  std::vector<size_t> order;
  for (size_t b = 0; b < buffers.size(); ++b) {
    if (!(b < constant.size() && constant[b])) {
      order.push_back(b);
      continue;
    }
    std::vector<uint32_t> copies{plan.channel[b]};
    for (const auto &r : plan.replicas[b])
      copies.push_back(r.first);
    constants.emplace_back(std::move(copies), b);
  }
  std::sort(constants.begin(), constants.end()); // buffer order breaks ties
  std::vector<size_t> first;
  for (const auto &c : constants)
    first.push_back(c.second);
  first.insert(first.end(), order.begin(), order.end());
  layOutInOrder(hw, buffers, first, plan);
}

namespace {

/// Appends piece `q` to `pieces`, extending a piece that ends where `q`
/// starts in both the image and DRAM.
void appendPiece(std::vector<DramPiece> &pieces, const DramPiece &q) {
  for (DramPiece &x : pieces)
    if (x.offset + x.bytes == q.offset && x.dramAddr + x.bytes == q.dramAddr) {
      x.bytes += q.bytes;
      return;
    }
  pieces.push_back(q);
}

/// The pieces of `s`'s image [lo, lo + bytes) over the planned buffers
/// (replicas too for an input); a single piece becomes the dense address.
void relocateSymbol(Symbol &s, const std::vector<DramBuffer> &buffers,
                    const ChannelPlan &plan) {
  const uint64_t lo = s.dramAddr, hi = lo + s.numElements() * 4;
  int64_t first = bufferOf(buffers, lo);
  if (first < 0 || !s.pieces.empty())
    return;
  if (hi == lo) { // an empty image: just the address
    s.dramAddr = plan.addr[size_t(first)] + (lo - buffers[size_t(first)].addr);
    return;
  }
  std::vector<DramPiece> pieces;
  forEachOverlap(buffers, lo, hi, [&](size_t b, uint64_t a, uint64_t e) {
    uint64_t off = a - buffers[b].addr;
    appendPiece(pieces, {a - lo, e - a, plan.addr[b] + off});
    if (s.isInput)
      for (auto [ch, r] : plan.replicas[b])
        appendPiece(pieces, {a - lo, e - a, r + off});
  });
  std::stable_sort(pieces.begin(), pieces.end(),
                   [](const DramPiece &x, const DramPiece &y) {
                     return x.offset < y.offset;
                   });
  s.dramAddr = pieces.front().dramAddr;
  if (pieces.size() > 1)
    s.pieces = std::move(pieces);
}

/// `c` cut at buffer ends, each part at its planned address with the
/// buffer's replicas; contiguous parts stay one segment. The bytes of a
/// segment inside one buffer are moved, not copied (weights are large), and
/// the parts of a borrowed segment borrow its bytes too.
std::vector<ConstSegment> relocateConstant(ConstSegment &&c,
                                           const std::vector<DramBuffer> &bufs,
                                           const ChannelPlan &plan) {
  std::vector<ConstSegment> parts;
  if (bufferOf(bufs, c.dramAddr) < 0 || c.empty()) {
    parts.push_back(std::move(c));
    return parts;
  }
  const uint64_t lo = c.dramAddr, hi = lo + c.size();
  forEachOverlap(bufs, lo, hi, [&](size_t b, uint64_t a, uint64_t e) {
    uint64_t off = a - bufs[b].addr;
    ConstSegment part;
    part.dramAddr = plan.addr[b] + off;
    for (auto [ch, r] : plan.replicas[b])
      part.replicas.push_back(r + off);
    if (a == lo && e == hi) { // the only part: all of `c`
      part.bytes = std::move(c.bytes);
      part.borrowed = c.borrowed;
      part.borrowedSize = c.borrowedSize;
      parts.push_back(std::move(part));
      return;
    }
    const uint8_t *from = c.data() + (a - lo), *to = c.data() + (e - lo);
    if (!parts.empty()) {
      ConstSegment &last = parts.back();
      uint64_t n = last.size();
      bool contiguous = last.dramAddr + n == part.dramAddr &&
                        last.replicas.size() == part.replicas.size() &&
                        (!c.borrowed || last.borrowed + n == from);
      for (size_t k = 0; contiguous && k < part.replicas.size(); ++k)
        contiguous = last.replicas[k] + n == part.replicas[k];
      if (contiguous) {
        if (c.borrowed)
          last.borrowedSize += uint64_t(to - from);
        else
          last.bytes.insert(last.bytes.end(), from, to);
        return;
      }
    }
    ConstSegment cut = c.slice(a - lo, e - a, part.dramAddr);
    cut.replicas = std::move(part.replicas);
    parts.push_back(std::move(cut));
  });
  return parts;
}

} // namespace

uint64_t
accel::codegen::relocatedAddress(const std::vector<DramBuffer> &buffers,
                                 const ChannelPlan &plan, uint64_t a,
                                 uint32_t ch) {
  int64_t b = bufferOf(buffers, a);
  return b < 0 ? a
               : plan.copyFor(size_t(b), ch) + (a - buffers[size_t(b)].addr);
}

void accel::codegen::relocateBuffers(Program &p, const HardwareDesc &hw,
                                     const std::vector<DramBuffer> &buffers,
                                     const ChannelPlan &plan) {
  auto move = [&](uint64_t &a, uint32_t ch) {
    a = relocatedAddress(buffers, plan, a, ch);
  };
  for (size_t cl = 0; cl < p.clusters.size(); ++cl) {
    uint32_t ch = hw.channelOf(uint32_t(cl));
    CommandList &cmds = p.clusters[cl].commands;
    // In place; a write to a replicated buffer is followed by one copy of
    // the DMA per other replica (`extra`, index -> its copies), spliced in
    // afterwards so the stream is rebuilt only when there are any.
    std::vector<std::pair<size_t, CommandList>> extra;
    for (size_t k = 0; k < cmds.size(); ++k) {
      Command &c = cmds[k];
      if (c.kind == CommandKind::Recur && c.recur->weightsInDram)
        move(c.recur->weights, ch);
      if (c.kind != CommandKind::Dma || c.dma.numElements() == 0)
        continue;
      if (readsDram(c.dma.dir))
        move(c.dma.src, ch);
      const bool writes = writesDram(c.dma.dir);
      const uint64_t linearDst = c.dma.dst;
      if (writes)
        move(c.dma.dst, ch);
      int64_t b = writes ? bufferOf(buffers, linearDst) : -1;
      if (b < 0 || plan.replicas[size_t(b)].empty())
        continue;
      // A write reaches every copy: the same DMA once more per other copy.
      const uint64_t off = linearDst - buffers[size_t(b)].addr;
      std::vector<uint64_t> copies{plan.addr[size_t(b)]};
      for (auto [rc, ra] : plan.replicas[size_t(b)])
        copies.push_back(ra);
      CommandList more;
      for (uint64_t base : copies)
        if (base + off != c.dma.dst) {
          more.push_back(c);
          more.back().dma.dst = base + off;
        }
      if (!more.empty())
        extra.push_back({k, std::move(more)});
    }
    if (extra.empty())
      continue;
    size_t total = cmds.size();
    for (auto &e : extra)
      total += e.second.size();
    CommandList out;
    out.reserve(total);
    size_t next = 0;
    for (size_t k = 0; k < cmds.size(); ++k) {
      out.push_back(std::move(cmds[k]));
      if (next < extra.size() && extra[next].first == k) {
        for (Command &m : extra[next].second)
          out.push_back(std::move(m));
        ++next;
      }
    }
    cmds = std::move(out);
  }
  for (Symbol &s : p.symbols)
    relocateSymbol(s, buffers, plan);
  std::vector<ConstSegment> constants;
  constants.reserve(p.constants.size());
  for (ConstSegment &c : p.constants)
    for (ConstSegment &part : relocateConstant(std::move(c), buffers, plan))
      constants.push_back(std::move(part));
  // Readers look constants up by address (ascending, as linear plans are).
  std::stable_sort(constants.begin(), constants.end(),
                   [](const ConstSegment &a, const ConstSegment &b) {
                     return a.dramAddr < b.dramAddr;
                   });
  p.constants = std::move(constants);
  for (ConstPacket &k : p.packets) {
    uint32_t ch = hw.channelOf(k.cluster);
    for (PacketBlockRef &b : k.blocks)
      move(b.dramAddr, ch);
    move(k.markerAddr, ch);
  }
  p.dramSize = plan.dramSize;
}
