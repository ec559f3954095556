//===- Link.cpp - Several programs as one, on parts of one machine --------===//
#include "accel/Target/Link.h"

#include <algorithm>
#include <cstring>
#include <memory>

namespace accel {

bool subMachine(const HardwareDesc &full, const ClusterRect &rect,
                uint32_t parts, HardwareDesc &out,
                std::vector<uint32_t> &channels, std::string &err) {
  if (rect.rows == 0 || rect.cols == 0 || rect.row0 + rect.rows > full.rows ||
      rect.col0 + rect.cols > full.cols) {
    err = "clusters " + std::to_string(rect.rows) + "x" +
          std::to_string(rect.cols) + " at (" + std::to_string(rect.row0) +
          ", " + std::to_string(rect.col0) + ") are outside the " +
          std::to_string(full.rows) + "x" + std::to_string(full.cols) + " grid";
    return false;
  }
  uint64_t slice =
      full.channelRegionBytes() / std::max<uint32_t>(parts, 1) / 4096 * 4096;
  if (slice == 0) {
    err = "the DRAM of " + std::to_string(full.channels.size()) +
          " channels cannot be shared by " + std::to_string(parts) +
          " networks";
    return false;
  }
  channels.clear();
  if (full.channels.size() <= size_t(rect.rows) * rect.cols) {
    for (uint32_t k = 0; k < full.channels.size(); ++k)
      channels.push_back(k);
  } else {
    for (uint32_t y = rect.row0; y < rect.row0 + rect.rows; ++y)
      for (uint32_t x = rect.col0; x < rect.col0 + rect.cols; ++x)
        channels.push_back(full.channelOf(y * full.cols + x));
    std::sort(channels.begin(), channels.end());
    channels.erase(std::unique(channels.begin(), channels.end()),
                   channels.end());
  }
  out = full;
  out.rows = rect.rows;
  out.cols = rect.cols;
  out.channels.clear();
  for (uint32_t k : channels) {
    out.channels.push_back(full.channels[k]);
    out.channels.back().routerCluster = -1; // attached inside the rectangle
  }
  out.dramBytes = slice * std::max<uint64_t>(out.channels.size(), 1);
  return validateHardwareDesc(out, err);
}

namespace {

/// The full machine's cluster of cluster `c` of `rect` (both row-major).
uint32_t physicalCluster(const ClusterRect &rect, uint32_t fullCols,
                         uint32_t c) {
  return (rect.row0 + c / rect.cols) * fullCols + rect.col0 + c % rect.cols;
}

/// Moves one part's addresses and clusters into the full machine.
class Relocator {
public:
  Relocator(const HardwareDesc &full, const LinkPart &part, size_t index,
            size_t parts, std::string &err)
      : full(full), part(part), err(err) {
    region = full.channelRegionBytes();
    slice = region / std::max<size_t>(parts, 1) / 4096 * 4096;
    base = uint64_t(index) * slice;
    channels = std::max<uint64_t>(
        part.channels.empty() ? full.channels.size() : part.channels.size(), 1);
  }

  /// [a, a + bytes) of the part's machine -> the full machine: the same
  /// channel, the part's slice of its region.
  uint64_t range(uint64_t a, uint64_t bytes, const std::string &what) {
    uint64_t last = a + std::max<uint64_t>(bytes, 1) - 1;
    uint64_t k = a / slice;
    if (k >= channels || last / slice != k) {
      fail(what + " [" + std::to_string(a) + ", " + std::to_string(last + 1) +
           ") is not inside one channel's slice of " + std::to_string(slice) +
           " bytes");
      return a;
    }
    uint64_t ch = part.channels.empty() ? k : part.channels[size_t(k)];
    uint64_t moved = ch * region + base + (a - k * slice);
    end = std::max(end, moved + (last - a) + 1);
    return moved;
  }

  uint32_t cluster(uint32_t c) {
    uint32_t cols = part.rect.cols;
    if (c >= part.rect.rows * cols) {
      fail("cluster " + std::to_string(c) + " is outside its " +
           std::to_string(part.rect.rows) + "x" + std::to_string(cols) +
           " clusters");
      return 0;
    }
    return physicalCluster(part.rect, full.cols, c);
  }

  void dma(DmaDesc &d, const std::string &where) {
    if (d.dir == DmaDir::RemoteLoad)
      d.srcCluster = cluster(d.srcCluster);
    bool src = readsDram(d.dir);
    bool dst = writesDram(d.dir);
    if (src)
      d.src = box(d.src, d.shape, d.srcStride, d.elemBytes, where);
    if (dst)
      d.dst = box(d.dst, d.shape, d.dstStride, d.elemBytes, where);
  }

  void command(Command &c, const std::string &where) {
    switch (c.kind) {
    case CommandKind::Dma:
      dma(c.dma, where);
      break;
    case CommandKind::Send:
    case CommandKind::Signal:
      for (uint32_t &t : c.mesh->targets)
        t = cluster(t);
      std::sort(c.mesh->targets.begin(), c.mesh->targets.end());
      break;
    case CommandKind::Recur:
      if (c.recur->weightsInDram)
        c.recur->weights = range(c.recur->weights, c.recur->weightElems() * 4,
                                 where + " RECUR weights");
      break;
    default:
      break;
    }
  }

  void packet(ConstPacket &p) {
    p.cluster = cluster(p.cluster);
    for (PacketBlockRef &b : p.blocks)
      b.dramAddr = range(b.dramAddr, b.bytes, "constant packet block");
    p.markerAddr = range(p.markerAddr, p.marker.size(), "constant packet");
    // The marker's address table (docs/labels-and-splits.md): u64 fields,
    // Nb at 8, Nh at 16, Na at 24, the table at 32 + 16 Nb + 8 Nh.
    auto u64 = [&](size_t at) {
      uint64_t v = 0;
      if (at + 8 <= p.marker.size())
        std::memcpy(&v, p.marker.data() + at, 8);
      return v;
    };
    uint64_t nb = u64(8), nh = u64(16), na = u64(24);
    uint64_t table = 32 + 16 * nb + 8 * nh;
    for (uint64_t i = 0; i < na && table + 8 * (i + 1) <= p.marker.size();
         ++i) {
      uint64_t a = range(u64(table + 8 * i), 1, "constant packet address");
      std::memcpy(p.marker.data() + table + 8 * i, &a, 8);
    }
  }

  bool ok() const { return err.empty(); }
  uint64_t dramEnd() const { return end; }

private:
  uint64_t box(uint64_t addr, const uint32_t shape[4], const int64_t st[4],
               uint32_t elemBytes, const std::string &where) {
    int64_t lo = 0, hi = 0;
    for (int d = 0; d < 4; ++d) {
      int64_t span = int64_t(shape[d] - 1) * st[d] * int64_t(elemBytes);
      (span < 0 ? lo : hi) += span;
    }
    uint64_t first = uint64_t(int64_t(addr) + lo);
    uint64_t moved = range(first, uint64_t(hi - lo) + elemBytes, where);
    return moved + (addr - first);
  }

  void fail(const std::string &msg) {
    if (err.empty())
      err = "network " + part.name + ": " + msg;
  }

  const HardwareDesc &full;
  const LinkPart &part;
  std::string &err;
  uint64_t region = 0, slice = 0, base = 0, channels = 1, end = 0;
};

bool relocatePart(const HardwareDesc &full, LinkPart &part, size_t index,
                  size_t parts, uint64_t &dramEnd, std::string &err) {
  Relocator r(full, part, index, parts, err);
  Program &p = part.program;
  for (Symbol &s : p.symbols) {
    uint64_t bytes = s.numElements() * 4;
    if (s.pieces.empty())
      s.dramAddr = r.range(s.dramAddr, bytes, "tensor " + s.name);
    for (DramPiece &pc : s.pieces)
      pc.dramAddr = r.range(pc.dramAddr, pc.bytes, "tensor " + s.name);
    if (!s.pieces.empty())
      s.dramAddr = s.pieces.front().dramAddr;
    s.name = part.name + "." + s.name;
  }
  for (ConstSegment &c : p.constants) {
    c.dramAddr = r.range(c.dramAddr, c.size(), "constant");
    for (uint64_t &a : c.replicas)
      a = r.range(a, c.size(), "constant replica");
  }
  for (ConstPacket &pk : p.packets)
    r.packet(pk);
  for (size_t ci = 0; ci < p.clusters.size(); ++ci)
    for (size_t k = 0; k < p.clusters[ci].commands.size(); ++k)
      r.command(p.clusters[ci].commands[k], "cluster " + std::to_string(ci) +
                                                " command " +
                                                std::to_string(k));
  dramEnd = std::max(dramEnd, r.dramEnd());
  return r.ok();
}

void appendLayers(Program &out, LinkPart &part) {
  uint32_t first = uint32_t(out.layers.size());
  for (LayerInfo l : part.program.layers) {
    l.name = part.name + "." + l.name;
    out.layers.push_back(std::move(l));
  }
  for (ClusterStream &s : part.program.clusters)
    for (Command &c : s.commands)
      if (c.layer != Command::kNoLayer)
        c.layer += first;
}

bool hasBarrier(const Program &p) {
  for (const ClusterStream &s : p.clusters)
    for (const Command &c : s.commands)
      if (c.kind == CommandKind::Barrier)
        return true;
  return false;
}

} // namespace

bool linkPrograms(std::vector<LinkPart> &parts, const HardwareDesc &full,
                  LinkMode mode, Program &out, std::string &err,
                  std::vector<std::vector<size_t>> *partStarts) {
  err.clear();
  out = Program{};
  out.hwFingerprint = full.fingerprint();
  out.gridRows = full.rows;
  out.gridCols = full.cols;
  out.clusters.resize(full.numClusters());
  std::vector<std::string> owner(full.numClusters());
  uint64_t dramEnd = 0;
  uint32_t barrierId = 0;
  std::vector<std::shared_ptr<const void>> backings;
  for (size_t i = 0; i < parts.size(); ++i) {
    LinkPart &part = parts[i];
    Program &p = part.program;
    if (p.clusters.size() != size_t(part.rect.rows) * part.rect.cols) {
      err = "network " + part.name + ": compiled for " +
            std::to_string(p.clusters.size()) + " clusters, placed on " +
            std::to_string(part.rect.rows * part.rect.cols);
      return false;
    }
    if (mode == LinkMode::Parallel && hasBarrier(p)) {
      err = "network " + part.name +
            " synchronises with barriers, which "
            "would wait for the other networks' clusters (compile it with "
            "sync=events)";
      return false;
    }
    appendLayers(out, part);
    if (partStarts) {
      partStarts->emplace_back();
      for (const ClusterStream &s : out.clusters)
        partStarts->back().push_back(s.commands.size());
    }
    if (!relocatePart(full, part, i, parts.size(), dramEnd, err))
      return false;
    const uint32_t barrierBase = barrierId;
    for (size_t v = 0; v < p.clusters.size(); ++v) {
      uint32_t c = physicalCluster(part.rect, full.cols, uint32_t(v));
      if (mode == LinkMode::Parallel && !owner[c].empty()) {
        err = "networks " + owner[c] + " and " + part.name +
              " are both placed on cluster " + std::to_string(c);
        return false;
      }
      owner[c] = part.name;
      auto &dst = out.clusters[c].commands;
      for (Command &cmd : p.clusters[v].commands) {
        if (cmd.kind == CommandKind::Barrier) { // ids after the earlier parts'
          cmd.barrierId += barrierBase;
          barrierId = std::max(barrierId, cmd.barrierId + 1);
        }
        dst.push_back(std::move(cmd));
      }
    }
    if (mode == LinkMode::Sequential && i + 1 < parts.size()) {
      // The next network starts when this one is done on every cluster.
      for (ClusterStream &s : out.clusters) {
        Command w;
        w.kind = CommandKind::Wait;
        w.waitTags = 0xFF;
        w.waitPe = true;
        s.commands.push_back(w);
        Command b;
        b.kind = CommandKind::Barrier;
        b.barrierId = barrierId;
        s.commands.push_back(b);
      }
      ++barrierId;
    }
    for (Symbol &s : p.symbols)
      out.symbols.push_back(std::move(s));
    for (ConstSegment &c : p.constants)
      out.constants.push_back(std::move(c));
    // One constant packet per core (the binary's rule). Sequentially the
    // networks share every core: a core keeps the first network's packet.
    // The marker areas describe the layout and no command reads them
    // (docs/labels-and-splits.md), so nothing the program computes changes.
    for (ConstPacket &pk : p.packets) {
      bool taken = false;
      for (const ConstPacket &q : out.packets)
        taken = taken || (q.cluster == pk.cluster && q.core == pk.core);
      if (!taken)
        out.packets.push_back(std::move(pk));
    }
    if (p.backing)
      backings.push_back(p.backing); // borrowed constants: keep files mapped
  }
  if (!backings.empty())
    out.backing =
        std::make_shared<std::vector<std::shared_ptr<const void>>>(backings);
  out.dramSize = dramEnd;
  return true;
}

} // namespace accel
