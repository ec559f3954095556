//===- StreamBuilder.cpp - Appending commands to cluster streams ----------===//
#include "accel/Codegen/Kernels.h"
#include <algorithm>
#include <cassert>
#include <stdexcept>

using namespace accel;
using namespace accel::codegen;

int64_t DramBox::rows() const {
  int64_t r = 1;
  for (int d = 0; d < rowDims && d < rank; ++d)
    r *= shape[d];
  return r;
}

int64_t DramBox::cols() const {
  int64_t c = 1;
  for (int d = rowDims; d < rank; ++d)
    c *= shape[d];
  return c;
}

DramBox &DramBox::dim(int64_t extent, int64_t strideElems) {
  if (rank >= 4)
    throw std::logic_error("DramBox supports at most 4 dimensions");
  shape[rank] = extent;
  stride[rank] = strideElems;
  ++rank;
  return *this;
}

StreamBuilder::StreamBuilder(Program &program, const HardwareDesc &hw,
                             SyncMode sync)
    : program_(program), hw_(hw), sync_(sync), tracker_(hw.numClusters()) {
  signals_.resize(hw.numClusters());
  active_.assign(hw.numClusters(), 0);
  program_.gridRows = hw.rows;
  program_.gridCols = hw.cols;
  program_.hwFingerprint = hw.fingerprint();
  program_.clusters.resize(hw.numClusters());
  regs_.resize(hw.numClusters());
  commandLayers_.resize(hw.numClusters());
  // Every buffer id the encoding allows, so that a CONFIG of a buffer the
  // hardware lacks is reported (capacityError) rather than out of range.
  for (auto &r : regs_)
    r.resize(std::max<uint32_t>(hw.instructionBuffers, 32));
}

void StreamBuilder::checkCapacity(uint32_t cluster, uint8_t ibuf,
                                  size_t instrs) {
  if (!capacityError_.empty())
    return;
  auto need = [&](const char *field, uint64_t have, uint64_t min,
                  const std::string &why) {
    capacityError_ = "hardware: cluster." + std::string(field) + " is " +
                     std::to_string(have) + " but the kernels need at least " +
                     std::to_string(min) + " (" + why + ")";
  };
  if (ibuf >= hw_.instructionBuffers)
    return need("instruction_buffers", hw_.instructionBuffers, ibuf + 1u,
                "they configure instruction buffer " + std::to_string(ibuf));
  if (instrs > hw_.instructionBufferDepth)
    return need("instruction_buffer_depth", hw_.instructionBufferDepth, instrs,
                "a sequence of " + std::to_string(instrs) + " instructions");
  const uint64_t entries = recordsOutside(cluster, {});
  if (entries > hw_.registerFileEntries)
    need("register_file_entries", hw_.registerFileEntries, entries,
         "the operand records of the configured buffers");
}

uint64_t
StreamBuilder::recordsOutside(uint32_t cluster,
                              std::initializer_list<uint8_t> ibufs) const {
  const auto &regs = regs_.at(cluster);
  uint64_t entries = 0;
  for (size_t b = 0; b < regs.size(); ++b)
    if (std::find(ibufs.begin(), ibufs.end(), b) == ibufs.end())
      entries += regs[b].size();
  return entries;
}

void StreamBuilder::push(uint32_t cluster, Command c) {
  active_.at(cluster) = 1;
  c.layer = layer_;
  ++numCommands_;
  program_.clusters.at(cluster).commands.push_back(std::move(c));
  commandLayers_.at(cluster).push_back(layerIndex_);
}

void StreamBuilder::config(uint32_t cluster, uint8_t ibuf,
                           std::vector<Instruction> instrs) {
  auto &regs = regs_.at(cluster).at(ibuf);
  regs.clear();
  for (auto &i : instrs)
    regs.push_back(i.operands);
  checkCapacity(cluster, ibuf, instrs.size());
  Command c;
  c.kind = CommandKind::Config;
  c.ibuf = ibuf;
  c.instrs = std::move(instrs);
  push(cluster, std::move(c));
}

void StreamBuilder::execute(uint32_t cluster, uint8_t ibuf,
                            const std::vector<OperandRecord> &records,
                            bool shift, bool last) {
  auto &regs = regs_.at(cluster).at(ibuf);
  assert(records.size() == regs.size() && "EXECUTE must match the CONFIG");
  Command c;
  c.kind = CommandKind::Execute;
  c.ibuf = ibuf;
  c.shift = shift;
  c.last = last;
  for (size_t i = 0; i < records.size(); ++i) {
    auto patch = [&](PatchField f, uint32_t have, uint32_t want) {
      if (have != want)
        c.patches.push_back({uint8_t(i), f, want});
    };
    patch(PatchField::Addr, regs[i].addr, records[i].addr);
    patch(PatchField::Rows, regs[i].rows, records[i].rows);
    patch(PatchField::Cols, regs[i].cols, records[i].cols);
    patch(PatchField::Depth, regs[i].depth, records[i].depth);
    patch(PatchField::Base, regs[i].base, records[i].base);
    regs[i].addr = records[i].addr;
    regs[i].base = records[i].base;
    regs[i].rows = records[i].rows;
    regs[i].cols = records[i].cols;
    regs[i].depth = records[i].depth;
  }
  push(cluster, std::move(c));
}

namespace {
/// Storage-side strides of a dense tile with row stride `rowStride` that
/// holds the box `b` (row dims row-major, column dims row-major).
void denseStrides(const DramBox &b, int64_t rowStride, int64_t *out) {
  int64_t s = 1;
  for (int d = b.rank - 1; d >= b.rowDims; --d) {
    out[d] = s;
    s *= b.shape[d];
  }
  s = rowStride;
  for (int d = b.rowDims - 1; d >= 0; --d) {
    out[d] = s;
    s *= b.shape[d];
  }
}

/// Descriptors hold boxes right-aligned: dimension 3 is the innermost.
constexpr int kDmaRank = 4;
int slotOf(const DramBox &b, int d) { return kDmaRank - b.rank + d; }

DmaDesc boxDesc(DmaDir dir, uint8_t tag, const DramBox &b) {
  DmaDesc d;
  d.dir = dir;
  d.tag = tag;
  d.elemBytes = 4;
  for (int i = 0; i < b.rank; ++i)
    d.shape[slotOf(b, i)] = uint32_t(b.shape[i]);
  return d;
}
} // namespace

void StreamBuilder::dmaLoad(uint32_t cluster, uint8_t tag, const DramBox &src,
                            uint32_t suAddr, int64_t suRowStride) {
  syncBefore(cluster, &src, nullptr);
  Command c;
  c.kind = CommandKind::Dma;
  c.dma = boxDesc(DmaDir::Load, tag, src);
  c.dma.src = src.base;
  c.dma.dst = suAddr;
  int64_t dense[4];
  denseStrides(src, suRowStride, dense);
  for (int i = 0; i < src.rank; ++i) {
    c.dma.srcStride[slotOf(src, i)] = src.stride[i];
    c.dma.dstStride[slotOf(src, i)] = dense[i];
  }
  push(cluster, std::move(c));
}

void StreamBuilder::dmaLoadStrided(uint32_t cluster, uint8_t tag,
                                   const DramBox &src, uint32_t suAddr,
                                   const std::array<int64_t, 4> &suStrides) {
  syncBefore(cluster, &src, nullptr);
  Command c;
  c.kind = CommandKind::Dma;
  c.dma = boxDesc(DmaDir::Load, tag, src);
  c.dma.src = src.base;
  c.dma.dst = suAddr;
  for (int i = 0; i < src.rank; ++i) {
    c.dma.srcStride[slotOf(src, i)] = src.stride[i];
    c.dma.dstStride[slotOf(src, i)] = suStrides[size_t(i)];
  }
  push(cluster, std::move(c));
}

void StreamBuilder::dmaLocalCopyStrided(
    uint32_t cluster, uint8_t tag, uint32_t srcAddr, const DramBox &box,
    uint32_t dstAddr, const std::array<int64_t, 4> &dstStrides) {
  Command c;
  c.kind = CommandKind::Dma;
  c.dma = boxDesc(DmaDir::LocalCopy, tag, box);
  c.dma.src = srcAddr;
  c.dma.dst = dstAddr;
  for (int i = 0; i < box.rank; ++i) {
    c.dma.srcStride[slotOf(box, i)] = box.stride[i];
    c.dma.dstStride[slotOf(box, i)] = dstStrides[size_t(i)];
  }
  push(cluster, std::move(c));
}

void StreamBuilder::dmaRemoteLoad(uint32_t cluster, uint8_t tag,
                                  uint32_t srcCluster, uint32_t srcAddr,
                                  const DramBox &box, uint32_t dstAddr,
                                  int64_t rowStride) {
  Command c;
  c.kind = CommandKind::Dma;
  c.dma = boxDesc(DmaDir::RemoteLoad, tag, box);
  c.dma.srcCluster = srcCluster;
  c.dma.src = srcAddr;
  c.dma.dst = dstAddr;
  int64_t dense[4];
  denseStrides(box, rowStride, dense);
  for (int i = 0; i < box.rank; ++i)
    c.dma.srcStride[slotOf(box, i)] = c.dma.dstStride[slotOf(box, i)] =
        dense[i];
  push(cluster, std::move(c));
}

TilePiece accel::codegen::denseTilePiece(const DramBox &box,
                                         int64_t rowStride) {
  TilePiece p;
  p.src = box;
  int64_t dense[4];
  denseStrides(box, rowStride, dense);
  for (int i = 0; i < box.rank; ++i)
    p.suStrides[size_t(i)] = dense[i];
  return p;
}

void StreamBuilder::dmaLoadPieces(uint32_t cluster, uint8_t tag,
                                  const std::vector<TilePiece> &pieces,
                                  uint32_t suAddr) {
  for (const TilePiece &p : pieces)
    dmaLoadStrided(cluster, tag, p.src, suAddr + uint32_t(p.offset * 4),
                   p.suStrides);
}

void StreamBuilder::dmaStore(uint32_t cluster, uint8_t tag, uint32_t suAddr,
                             int64_t suRowStride, const DramBox &dst) {
  int64_t dense[4] = {0, 0, 0, 0};
  denseStrides(dst, suRowStride, dense);
  dmaStoreStrided(cluster, tag, suAddr,
                  {dense[0], dense[1], dense[2], dense[3]}, dst);
}

void StreamBuilder::dmaStoreStrided(uint32_t cluster, uint8_t tag,
                                    uint32_t suAddr,
                                    const std::array<int64_t, 4> &suStrides,
                                    const DramBox &dst) {
  syncBefore(cluster, nullptr, &dst);
  Command c;
  c.kind = CommandKind::Dma;
  c.dma = boxDesc(DmaDir::Store, tag, dst);
  c.dma.src = suAddr;
  c.dma.dst = dst.base;
  for (int i = 0; i < dst.rank; ++i) {
    c.dma.srcStride[slotOf(dst, i)] = suStrides[size_t(i)];
    c.dma.dstStride[slotOf(dst, i)] = dst.stride[i];
  }
  push(cluster, std::move(c));
}

void StreamBuilder::dmaLocalCopy(uint32_t cluster, uint8_t tag,
                                 uint32_t srcAddr, const DramBox &src,
                                 uint32_t dstAddr, int64_t dstRowStride) {
  int64_t dense[4] = {0, 0, 0, 0};
  denseStrides(src, dstRowStride, dense);
  dmaLocalCopyStrided(cluster, tag, srcAddr, src, dstAddr,
                      {dense[0], dense[1], dense[2], dense[3]});
}

void StreamBuilder::dmaDramCopy(uint32_t cluster, uint8_t tag,
                                const DramBox &src, const DramBox &dst) {
  syncBefore(cluster, &src, &dst);
  Command c;
  c.kind = CommandKind::Dma;
  c.dma = boxDesc(DmaDir::DramCopy, tag, src);
  c.dma.src = src.base;
  c.dma.dst = dst.base;
  for (int i = 0; i < src.rank; ++i) {
    c.dma.srcStride[slotOf(src, i)] = src.stride[i];
    c.dma.dstStride[slotOf(src, i)] = dst.stride[i];
  }
  push(cluster, std::move(c));
}

void StreamBuilder::noteAddrWriteBack(uint32_t cluster, uint8_t ibuf,
                                      size_t instr, uint32_t addr) {
  regs_.at(cluster).at(ibuf).at(instr).addr = addr;
}

void StreamBuilder::noteBaseWriteBack(uint32_t cluster, uint8_t ibuf,
                                      size_t instr, uint32_t base) {
  regs_.at(cluster).at(ibuf).at(instr).base = base;
}

void StreamBuilder::wait(uint32_t cluster, uint8_t tagMask, bool pe) {
  Command c;
  c.kind = CommandKind::Wait;
  c.waitTags = tagMask;
  c.waitPe = pe;
  push(cluster, std::move(c));
}

void StreamBuilder::recur(uint32_t cluster, const RecurDesc &task) {
  Command c;
  c.kind = CommandKind::Recur;
  c.recur = task;
  push(cluster, std::move(c));
}

namespace {
/// The tracker sees a DMA as the bounding byte range of its DRAM box: the
/// simulator's hazard detection (accel-run --strict-hazards) compares
/// bounding ranges too, so every pair of accesses it could see in conflict
/// is ordered. Within that model the access is exact (a write retires the
/// older accesses of its range, having received from all of them).
SyncTracker::Part trackedPart(const DramBox &b, bool write) {
  SyncTracker::Part p;
  p.write = write;
  int64_t shape[4], stride[4];
  for (int d = 0; d < b.rank; ++d)
    shape[d] = b.shape[d], stride[d] = b.stride[d];
  bool exact;
  p.ranges = boxByteRanges(b.base, b.rank, shape, stride, 4, 1, exact);
  p.exact = true;
  return p;
}
} // namespace

void StreamBuilder::syncBefore(uint32_t cluster, const DramBox *src,
                               const DramBox *dst) {
  if (sync_ != SyncMode::Events)
    return;
  std::vector<SyncTracker::Part> parts;
  if (src)
    parts.push_back(trackedPart(*src, false));
  if (dst)
    parts.push_back(trackedPart(*dst, true));
  for (const SyncDep &d : tracker_.access(cluster, parts)) {
    // The producer was active in that layer (it accessed the bytes), so
    // endLayer gave it a SIGNAL there.
    auto &sigs = signals_.at(d.producer);
    auto it = std::lower_bound(sigs.begin(), sigs.end(), d.layer,
                               [](const std::pair<uint32_t, size_t> &s,
                                  uint32_t l) { return s.first < l; });
    assert(it != sigs.end() && it->first == d.layer && "no producer SIGNAL");
    Command &sig = program_.clusters[d.producer].commands[it->second];
    sig.mesh->targets.push_back(cluster);
    meshRecv(cluster, d.producer, 1);
    ++numRecvs_;
  }
}

void StreamBuilder::endLayer() {
  if (sync_ == SyncMode::Barrier) {
    uint32_t id = nextBarrier_++;
    for (uint32_t cl = 0; cl < numClusters(); ++cl) {
      wait(cl, 0xFF, true);
      Command c;
      c.kind = CommandKind::Barrier;
      c.barrierId = id;
      push(cl, std::move(c));
    }
    ++layerIndex_;
    return;
  }
  const uint32_t layer = tracker_.layer();
  for (uint32_t cl = 0; cl < numClusters(); ++cl) {
    if (!active_[cl])
      continue;
    wait(cl, 0xFF, true);
    // Targets are filled in as consumers appear (syncBefore); the semaphore
    // is the producing cluster's index (DESIGN: semaphores).
    signals_[cl].push_back({layer, program_.clusters[cl].commands.size()});
    meshSignal(cl, {}, cl);
    active_[cl] = 0;
  }
  tracker_.endLayer();
  ++layerIndex_;
}

void StreamBuilder::finish() {
  if (finished_ || sync_ != SyncMode::Events)
    return;
  finished_ = true;
  for (uint32_t cl = 0; cl < numClusters(); ++cl) {
    auto &cmds = program_.clusters[cl].commands;
    std::vector<char> drop(cmds.size(), 0);
    for (auto [layer, idx] : signals_[cl]) {
      auto &t = cmds[idx].mesh->targets;
      std::sort(t.begin(), t.end());
      t.erase(std::unique(t.begin(), t.end()), t.end());
      drop[idx] = t.empty();
    }
    auto &layers = commandLayers_[cl];
    size_t out = 0;
    for (size_t i = 0; i < cmds.size(); ++i) {
      if (drop[i])
        continue;
      if (out != i) {
        cmds[out] = std::move(cmds[i]);
        layers[out] = layers[i];
      }
      ++out;
    }
    cmds.resize(out);
    layers.resize(out);
  }
  signals_.assign(numClusters(), {});
}

std::vector<int64_t> accel::codegen::coalesce(const std::vector<int64_t> &shape,
                                              std::vector<View *> views) {
  std::vector<int64_t> outShape;
  std::vector<std::vector<int64_t>> outStrides(views.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1)
      continue;
    bool merge = !outShape.empty();
    for (size_t v = 0; merge && v < views.size(); ++v)
      merge = outStrides[v].back() == views[v]->strides[d] * shape[d];
    if (merge) {
      outShape.back() *= shape[d];
      for (size_t v = 0; v < views.size(); ++v)
        outStrides[v].back() = views[v]->strides[d];
      continue;
    }
    outShape.push_back(shape[d]);
    for (size_t v = 0; v < views.size(); ++v)
      outStrides[v].push_back(views[v]->strides[d]);
  }
  for (size_t v = 0; v < views.size(); ++v)
    views[v]->strides = outStrides[v];
  return outShape;
}
