//===- MeshReduction.cpp - Reduction trees of K-split partial sums --------===//
//
// The pairwise tree of split::reductionTree over the K parts of every output
// region (docs/labels-and-splits.md, "Lowering: reduction trees, constant
// packets, materialisation"):
//
//  - Mesh: chunk by chunk, every member loads its own partial chunk into
//    its storage (sum slot S, two of them alternating by chunk parity); at
//    each level where it is the destination it RECVs the source's running
//    sum into its receive slot R(level, parity), adds it (SPU add, the root's
//    last add applies the fused function) and SIGNALs the source a credit
//    (the slot may be reused); as a source it SENDs S into the destination's
//    R(level, parity), after taking the credit of chunk c-2. The root stores
//    the finished chunk to the output. Only the partial loads and the output
//    store touch DRAM. A destination hands out the first credit of each
//    parity only when its earlier work is done: a source that finished its
//    own part earlier would otherwise send into storage still in use.
//  - Memory: the same tree level by level through DRAM: a source SIGNALs its
//    destination once its sum is complete (its DMAs done); the destination
//    RECVs, loads its own and the source's sums chunk by chunk, adds and
//    stores into its own partial buffer (the root at the last level: the
//    output, with the fused function).
//
// Semaphores: a data arrival or a "sum complete" signal counts on id
// numClusters + the producing cluster's index, a credit on numClusters + the
// index of the cluster that frees the slot. The producing cluster's index
// itself (DESIGN-11) is the end-of-layer signal of the dependency tracker
// (sync=events); a separate range keeps a tree RECV from taking a layer
// signal of the same producer that happens to arrive first.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/Reduction.h"
#include "accel/Split/Split.h"
#include <algorithm>
#include <set>

using namespace accel;
using namespace accel::codegen;

namespace {
constexpr uint8_t kIbufAdd = 0, kIbufAddFunc = 1, kIbufFunc = 2;
constexpr uint8_t kSlotSum = 0, kSlotIn = 8;

uint8_t loadTag(int par) { return uint8_t(par); }
uint8_t sendTag(int par) { return uint8_t(2 + par); }
uint8_t storeTag(int par) { return uint8_t(4 + par); }
uint8_t bit(uint8_t tag) { return uint8_t(1u << tag); }

/// The tree's semaphore of cluster `producer` (file comment).
uint32_t treeSem(const StreamBuilder &sb, uint32_t producer) {
  return sb.numClusters() + producer;
}

/// Tile geometry shared by every chunk: rows of at most `colTile` elements
/// (the storage row stride), `peRows` rows per PE, at most `rowCap` rows.
struct Geometry {
  int64_t colTile = 1, peRows = 1, rowCap = 1;
  uint32_t regionBytes = 0;
};

int64_t rowsOf(const DramBox &b) {
  int64_t r = 1;
  for (int d = 0; d + 1 < b.rank; ++d)
    r *= b.shape[d];
  return r;
}
int64_t colsOf(const DramBox &b) { return b.rank ? b.shape[b.rank - 1] : 1; }

DramBox shifted(DramBox b, int64_t bytes) {
  b.base = uint64_t(int64_t(b.base) + bytes);
  return b;
}

/// The chunk instruction sequences: LD the sum (and the received operand),
/// SPU add and / or the fused function, ST back over the sum.
std::vector<Instruction> chunkSequence(const Geometry &g, bool add,
                                       SfuFunc func) {
  OperandRecord base;
  base.rowStride = int32_t(g.colTile);
  base.peRows = uint32_t(g.peRows);
  base.rows = uint32_t(g.rowCap);
  base.cols = uint32_t(g.colTile);
  std::vector<Instruction> seq;
  auto ld = [&](uint8_t slot) {
    seq.push_back(makeInstruction(Opcode::LD, uint8_t(LoadStream::Activations),
                                  slot, 0, base));
  };
  ld(kSlotSum);
  if (add)
    ld(kSlotIn);
  if (add) {
    OperandRecord r = base;
    r.func = SfuFunc::Add;
    r.depth = kSlotIn;
    Instruction spu =
        makeInstruction(Opcode::SPU, uint8_t(SpuType::Binary), kSlotSum, 0, r);
    spu.fields.outSlot = kSlotSum;
    seq.push_back(spu);
  }
  if (func != SfuFunc::None) {
    OperandRecord r = base;
    r.func = func;
    Instruction spu =
        makeInstruction(Opcode::SPU, uint8_t(SpuType::Unary), kSlotSum, 0, r);
    spu.fields.outSlot = kSlotSum;
    seq.push_back(spu);
  }
  seq.push_back(makeInstruction(Opcode::ST, uint8_t(StoreSource::InputBuffer),
                                kSlotSum, 0, base));
  return seq;
}

/// The records of `seq` for one chunk: the sum at `sumAddr`, the received
/// operand at `inAddr`, rows x cols.
std::vector<OperandRecord> chunkRecords(const std::vector<Instruction> &seq,
                                        uint32_t sumAddr, uint32_t inAddr,
                                        int64_t rows, int64_t cols) {
  std::vector<OperandRecord> recs;
  for (const Instruction &i : seq) {
    OperandRecord r = i.operands;
    r.rows = uint32_t(rows);
    r.cols = uint32_t(cols);
    if (i.fields.op == Opcode::LD)
      r.addr = i.fields.slot == kSlotIn ? inAddr : sumAddr;
    if (i.fields.op == Opcode::ST)
      r.addr = sumAddr;
    recs.push_back(r);
  }
  return recs;
}

/// What one member does in its group's tree.
struct Role {
  std::vector<std::pair<size_t, uint32_t>> receives; ///< (level, src member)
  int sendLevel = -1;
  uint32_t sendTo = 0; ///< member index
};

std::vector<Role>
rolesOf(size_t members,
        const std::vector<std::vector<std::pair<uint32_t, uint32_t>>> &tree) {
  std::vector<Role> roles(members);
  for (size_t l = 0; l < tree.size(); ++l)
    for (auto [dst, src] : tree[l]) {
      roles[dst].receives.push_back({l, src});
      roles[src].sendLevel = int(l);
      roles[src].sendTo = dst;
    }
  return roles;
}

/// Configures the sequences one member uses; returns them by buffer id.
struct Sequences {
  std::vector<Instruction> add, addFunc, func;
};
Sequences configure(StreamBuilder &sb, uint32_t cl, const Geometry &g,
                    const Role &role, bool root, SfuFunc func) {
  Sequences s;
  if (!role.receives.empty()) {
    s.add = chunkSequence(g, true, SfuFunc::None);
    sb.config(cl, kIbufAdd, s.add);
    if (root && func != SfuFunc::None) {
      s.addFunc = chunkSequence(g, true, func);
      sb.config(cl, kIbufAddFunc, s.addFunc);
    }
  } else if (root && func != SfuFunc::None) {
    s.func = chunkSequence(g, false, func);
    sb.config(cl, kIbufFunc, s.func);
  }
  return s;
}

void emitMeshMember(StreamBuilder &sb, const ReductionGroup &grp, size_t i,
                    const Role &role, size_t levels,
                    const std::vector<DramBox> &chunks, const Geometry &g,
                    SfuFunc func) {
  const uint32_t cl = grp.members[i].cluster;
  const bool root = i == 0;
  auto sumAddr = [&](int par) { return uint32_t(par) * g.regionBytes; };
  auto recvAddr = [&](size_t level, int par) {
    return uint32_t(2 + 2 * level + size_t(par)) * g.regionBytes;
  };
  (void)levels;
  Sequences seqs = configure(sb, cl, g, role, root, func);
  // The receive slots are free only once this member's earlier work is done
  // (a source may finish its own earlier and send at once): the first
  // credits of both parities go out after that.
  const size_t firstCredits = std::min<size_t>(2, chunks.size());
  if (!role.receives.empty())
    sb.wait(cl, 0xFF, true);
  for (auto [level, src] : role.receives)
    for (size_t k = 0; k < firstCredits; ++k)
      sb.meshSignal(cl, {grp.members[src].cluster}, treeSem(sb, cl));
  for (size_t c = 0; c < chunks.size(); ++c) {
    const int par = int(c % 2);
    const DramBox &chunk = chunks[c];
    const int64_t rows = rowsOf(chunk), cols = colsOf(chunk);
    // S[par] is free once chunk c-2 has left (SEND) or been stored.
    sb.wait(cl, uint8_t(bit(sendTag(par)) | bit(storeTag(par))), true);
    sb.dmaLoad(cl, loadTag(par), shifted(chunk, grp.members[i].shiftBytes),
               sumAddr(par), g.colTile);
    sb.wait(cl, bit(loadTag(par)), false);
    for (size_t k = 0; k < role.receives.size(); ++k) {
      auto [level, src] = role.receives[k];
      const uint32_t srcCl = grp.members[src].cluster;
      sb.meshRecv(cl, treeSem(sb, srcCl), 1);
      const bool withFunc =
          root && func != SfuFunc::None && k + 1 == role.receives.size();
      const std::vector<Instruction> &seq = withFunc ? seqs.addFunc : seqs.add;
      sb.execute(
          cl, withFunc ? kIbufAddFunc : kIbufAdd,
          chunkRecords(seq, sumAddr(par), recvAddr(level, par), rows, cols),
          false, true);
      sb.wait(cl, 0, true);
      if (c + 2 < chunks.size()) // credit: R(level, par) is free for c + 2
        sb.meshSignal(cl, {srcCl}, treeSem(sb, cl));
    }
    if (root && role.receives.empty() && func != SfuFunc::None) {
      sb.execute(cl, kIbufFunc,
                 chunkRecords(seqs.func, sumAddr(par), 0, rows, cols), false,
                 true);
      sb.wait(cl, 0, true);
    }
    if (role.sendLevel >= 0) {
      const uint32_t dstCl = grp.members[role.sendTo].cluster;
      // The destination's slot is free (its first credits, then chunk
      // c-2 consumed).
      sb.meshRecv(cl, treeSem(sb, dstCl), 1);
      MeshOp op;
      op.targets = {dstCl};
      op.src = sumAddr(par);
      op.dst = recvAddr(size_t(role.sendLevel), par);
      op.bytes = uint32_t(((rows - 1) * g.colTile + cols) * 4);
      op.sem = treeSem(sb, cl);
      op.tag = sendTag(par);
      sb.meshSend(cl, op);
    }
    if (root)
      sb.dmaStore(cl, storeTag(par), sumAddr(par), g.colTile,
                  shifted(chunk, grp.outShiftBytes));
  }
}

void emitMemoryMember(StreamBuilder &sb, const ReductionGroup &grp, size_t i,
                      const Role &role, const std::vector<DramBox> &chunks,
                      const Geometry &g, SfuFunc func) {
  const uint32_t cl = grp.members[i].cluster;
  const bool root = i == 0;
  auto sumAddr = [&](int par) { return uint32_t(par) * g.regionBytes; };
  auto inAddr = [&](int par) { return uint32_t(2 + par) * g.regionBytes; };
  Sequences seqs = configure(sb, cl, g, role, root, func);
  for (size_t k = 0; k < role.receives.size(); ++k) {
    const uint32_t src = role.receives[k].second;
    const uint32_t srcCl = grp.members[src].cluster;
    const bool last = root && k + 1 == role.receives.size();
    const bool withFunc = last && func != SfuFunc::None;
    sb.wait(cl, 0xFF, true);                // this member's own sum is in DRAM
    sb.meshRecv(cl, treeSem(sb, srcCl), 1); // ... and the source's
    for (size_t c = 0; c < chunks.size(); ++c) {
      const int par = int(c % 2);
      const DramBox &chunk = chunks[c];
      sb.wait(cl, bit(storeTag(par)), true);
      sb.dmaLoad(cl, loadTag(par), shifted(chunk, grp.members[i].shiftBytes),
                 sumAddr(par), g.colTile);
      sb.dmaLoad(cl, loadTag(par), shifted(chunk, grp.members[src].shiftBytes),
                 inAddr(par), g.colTile);
      sb.wait(cl, bit(loadTag(par)), false);
      const std::vector<Instruction> &seq = withFunc ? seqs.addFunc : seqs.add;
      sb.execute(cl, withFunc ? kIbufAddFunc : kIbufAdd,
                 chunkRecords(seq, sumAddr(par), inAddr(par), rowsOf(chunk),
                              colsOf(chunk)),
                 false, true);
      sb.wait(cl, 0, true);
      sb.dmaStore(
          cl, storeTag(par), sumAddr(par), g.colTile,
          shifted(chunk, last ? grp.outShiftBytes : grp.members[i].shiftBytes));
    }
  }
  if (root && role.receives.empty()) {
    // A single K part: its partial (with the function) is the output.
    for (size_t c = 0; c < chunks.size(); ++c) {
      const int par = int(c % 2);
      const DramBox &chunk = chunks[c];
      sb.wait(cl, bit(storeTag(par)), true);
      sb.dmaLoad(cl, loadTag(par), shifted(chunk, grp.members[i].shiftBytes),
                 sumAddr(par), g.colTile);
      sb.wait(cl, bit(loadTag(par)), false);
      if (func != SfuFunc::None) {
        sb.execute(cl, kIbufFunc,
                   chunkRecords(seqs.func, sumAddr(par), 0, rowsOf(chunk),
                                colsOf(chunk)),
                   false, true);
        sb.wait(cl, 0, true);
      }
      sb.dmaStore(cl, storeTag(par), sumAddr(par), g.colTile,
                  shifted(chunk, grp.outShiftBytes));
    }
  }
  if (role.sendLevel >= 0) {
    sb.wait(cl, 0xFF, true); // the running sum is complete in DRAM
    sb.meshSignal(cl, {grp.members[role.sendTo].cluster}, treeSem(sb, cl));
  }
}
} // namespace

const char *accel::codegen::reductionExchangeName(ReductionExchange x) {
  return x == ReductionExchange::Mesh ? "mesh" : "memory";
}

std::vector<DramBox> accel::codegen::cutReductionBox(const DramBox &b,
                                                     int64_t colCap,
                                                     int64_t rowCap) {
  std::vector<DramBox> out;
  if (b.rank == 0) {
    DramBox one = b;
    one.dim(1, 1);
    out.push_back(one);
    return out;
  }
  colCap = std::max<int64_t>(1, colCap);
  rowCap = std::max<int64_t>(1, rowCap);
  const int last = b.rank - 1;
  for (int d = 0; d < b.rank; ++d)
    if (b.shape[d] == 0)
      return out;
  // Row dims [0, last): dims after `split` stay whole, `split` is cut into
  // pieces of `piece`, the dims before it are iterated one by one.
  int split = last - 1;
  int64_t inner = 1;
  while (split >= 0 && inner * b.shape[split] <= rowCap) {
    inner *= b.shape[split];
    --split;
  }
  const int64_t piece = split >= 0 ? std::max<int64_t>(1, rowCap / inner) : 1;
  std::vector<int64_t> idx(size_t(std::max(split, 0)), 0);
  while (true) {
    int64_t off = 0;
    for (int d = 0; d < split; ++d)
      off += idx[size_t(d)] * b.stride[d];
    const int64_t splitExtent = split >= 0 ? b.shape[split] : 1;
    for (int64_t p0 = 0; p0 < splitExtent; p0 += piece)
      for (int64_t c0 = 0; c0 < b.shape[last]; c0 += colCap) {
        DramBox sub;
        int64_t o = off + c0 * b.stride[last];
        if (split >= 0)
          o += p0 * b.stride[split];
        sub.base = uint64_t(int64_t(b.base) + o * 4);
        for (int d = 0; d < b.rank; ++d) {
          int64_t e = b.shape[d];
          if (d < split)
            e = 1;
          else if (d == split)
            e = std::min(piece, b.shape[d] - p0);
          else if (d == last)
            e = std::min(colCap, b.shape[d] - c0);
          sub.dim(e, b.stride[d]);
        }
        sub.rowDims = last;
        out.push_back(sub);
      }
    int d = split - 1;
    for (; d >= 0; --d) {
      if (++idx[size_t(d)] < b.shape[d])
        break;
      idx[size_t(d)] = 0;
    }
    if (d < 0)
      return out;
  }
}

bool accel::codegen::emitReductionTrees(
    StreamBuilder &sb, const std::vector<ReductionGroup> &groups,
    ReductionExchange exchange, SfuFunc func, std::string &err) {
  const HardwareDesc &hw = sb.hw();
  if (exchange == ReductionExchange::Mesh && !hw.sharedClusterCache) {
    err = "a reduction through cluster storage needs a machine with shared "
          "cluster storage (cluster.shared_cache); this one is "
          "bus-contention: reduce through memory";
    return false;
  }
  if (2 * uint64_t(sb.numClusters()) > kNumSemaphores) {
    err = "the grid has more clusters than the reduction tree's semaphore "
          "range allows (" +
          std::to_string(kNumSemaphores / 2) + ")";
    return false;
  }
  std::set<uint32_t> seen;
  size_t maxLevels = 0;
  int64_t maxCols = 1;
  for (const ReductionGroup &grp : groups) {
    if (grp.members.empty()) {
      err = "internal error: a reduction group without members";
      return false;
    }
    for (const ReductionMember &m : grp.members)
      if (m.cluster >= sb.numClusters() || !seen.insert(m.cluster).second) {
        err = "internal error: cluster " + std::to_string(m.cluster) +
              " is outside the grid or in two reduction groups";
        return false;
      }
    maxLevels = std::max(
        maxLevels, split::reductionTree(uint32_t(grp.members.size())).size());
    for (const DramBox &b : grp.boxes)
      maxCols = std::max(maxCols, colsOf(b));
  }
  // Storage regions: two sum slots, and (mesh) two receive slots per level
  // or (memory) two slots for the source's sum.
  const uint64_t regions =
      exchange == ReductionExchange::Mesh ? 2 + 2 * maxLevels : 4;
  Geometry g;
  g.regionBytes = uint32_t(hw.storageBytes / regions / 64 * 64);
  const int64_t regionFloats = g.regionBytes / 4;
  const int64_t perPe = int64_t(hw.inputSlotBytes() * kSlotIn / 4);
  const int64_t pes = std::max<int64_t>(1, hw.pesPerCluster);
  if (regionFloats < 1 || perPe < 1) {
    err = "the storage unit is too small for a reduction tree";
    return false;
  }
  g.colTile = std::min({maxCols, perPe, regionFloats});
  g.peRows = std::max<int64_t>(
      1, std::min(perPe / g.colTile, regionFloats / g.colTile / pes));
  g.rowCap =
      std::max<int64_t>(1, std::min(pes * g.peRows, regionFloats / g.colTile));

  for (const ReductionGroup &grp : groups) {
    std::vector<DramBox> chunks;
    for (const DramBox &b : grp.boxes)
      for (DramBox &c : cutReductionBox(b, g.colTile, g.rowCap))
        chunks.push_back(c);
    auto tree = split::reductionTree(uint32_t(grp.members.size()));
    std::vector<Role> roles = rolesOf(grp.members.size(), tree);
    for (size_t i = 0; i < grp.members.size(); ++i) {
      if (exchange == ReductionExchange::Mesh)
        emitMeshMember(sb, grp, i, roles[i], tree.size(), chunks, g, func);
      else
        emitMemoryMember(sb, grp, i, roles[i], chunks, g, func);
    }
  }
  sb.endLayer();
  return true;
}
