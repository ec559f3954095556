//===- IsaFromProgram.cpp - accel::Program -> isa.program (disassembler) --===//
#include "accel/Target/IsaProgram.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/bit.h"
#include <cstring>

using namespace mlir;

namespace accel {
namespace {

Type elementType(MLIRContext *ctx, DType t) {
  Builder b(ctx);
  switch (t) {
  case DType::F32:
    return b.getF32Type();
  case DType::F16:
    return b.getF16Type();
  case DType::BF16:
    return b.getBF16Type();
  case DType::I8:
    return b.getIntegerType(8);
  case DType::I32:
    return b.getIntegerType(32);
  case DType::I1:
    return b.getIntegerType(1);
  case DType::I64:
    return b.getIntegerType(64);
  }
  return b.getF32Type();
}

isa::OperandsAttr recordAttr(MLIRContext *ctx, const OperandRecord &r) {
  uint32_t bits;
  std::memcpy(&bits, &r.imm, 4);
  FloatAttr imm;
  if (bits != 0)
    imm = FloatAttr::get(
        Float32Type::get(ctx),
        llvm::APFloat(llvm::APFloat::IEEEsingle(), llvm::APInt(32, bits)));
  DenseI64ArrayAttr peAddrs;
  if (!r.peAddrs.empty()) {
    std::vector<int64_t> v(r.peAddrs.begin(), r.peAddrs.end());
    peAddrs = DenseI64ArrayAttr::get(ctx, v);
  }
  return isa::OperandsAttr::get(
      ctx, r.addr, r.rows, r.cols, r.rowStride, r.colStride, r.peRows, r.depth,
      r.repeat, isa::QueueMode(uint32_t(r.queueMode)),
      isa::SfuFunc(uint32_t(r.func)), imm, r.base, r.step, uint32_t(r.pipeline),
      r.acrossPes, peAddrs);
}

DenseElementsAttr dataAttr(MLIRContext *ctx, llvm::ArrayRef<uint8_t> b) {
  size_t n = b.size();
  if (n && n % 4 == 0 && llvm::endianness::native == llvm::endianness::little) {
    // The bytes are the attribute's raw storage (little-endian f32 words):
    // no APFloat per element. The attribute is the same as the one built
    // from the values below (a buffer of equal words is a splat either way).
    auto t = RankedTensorType::get({int64_t(n / 4)}, Float32Type::get(ctx));
    return DenseElementsAttr::getFromRawBuffer(
        t, llvm::ArrayRef(reinterpret_cast<const char *>(b.data()), n));
  }
  if (n && n % 4 == 0) {
    std::vector<llvm::APFloat> vals;
    vals.reserve(n / 4);
    for (size_t i = 0; i < n; i += 4) {
      uint32_t w = uint32_t(b[i]) | uint32_t(b[i + 1]) << 8 |
                   uint32_t(b[i + 2]) << 16 | uint32_t(b[i + 3]) << 24;
      vals.emplace_back(llvm::APFloat::IEEEsingle(), llvm::APInt(32, w));
    }
    auto t = RankedTensorType::get({int64_t(n / 4)}, Float32Type::get(ctx));
    return DenseElementsAttr::get(t, vals);
  }
  std::vector<int8_t> vals(b.begin(), b.end());
  auto t = RankedTensorType::get({int64_t(n)}, IntegerType::get(ctx, 8));
  return DenseElementsAttr::get(t, llvm::ArrayRef<int8_t>(vals));
}

constexpr uint64_t kMinBlobBytes = 64 * 1024;

/// Whether `seg`'s bytes go into a resource blob rather than a dense
/// attribute: f32 words, large, and aligned for floats.
bool blobWorthy(const ConstSegment &seg) {
  const uint64_t n = seg.size();
  return n >= kMinBlobBytes && n % 4 == 0 &&
         reinterpret_cast<uintptr_t>(seg.data()) % alignof(float) == 0;
}

ElementsAttr weightsAttr(MLIRContext *ctx, uint64_t n, AsmResourceBlob blob) {
  auto t = RankedTensorType::get({int64_t(n / 4)}, Float32Type::get(ctx));
  return DenseResourceElementsAttr::get(t, "accel_weights", std::move(blob));
}

/// A segment's value. Large borrowed bytes (weights the lowering left in
/// their MLIR attributes, or a binary's image) become a resource blob that
/// references them: copying them into a new dense attribute cost a copy and
/// a hash of every weight byte. The lender outlives the module (the
/// attribute's context, Program::backing).
ElementsAttr segmentAttr(MLIRContext *ctx, const ConstSegment &seg) {
  const uint64_t n = seg.size();
  if (!seg.borrowed || !blobWorthy(seg))
    return dataAttr(ctx, llvm::ArrayRef(seg.data(), size_t(n)));
  return weightsAttr(
      ctx, n,
      UnmanagedAsmResourceBlob::allocateWithAlign(
          llvm::ArrayRef(reinterpret_cast<const char *>(seg.borrowed),
                         size_t(n)),
          alignof(float)));
}

/// A segment's value when the program is given away: large owned bytes
/// move into a blob that owns them (the lowering's weight slabs, tens of MB
/// for a detector: a copy, a hash and the page faults of a new attribute
/// each). Everything else as segmentAttr.
ElementsAttr takeSegmentAttr(MLIRContext *ctx, ConstSegment &seg) {
  if (seg.borrowed || !blobWorthy(seg))
    return segmentAttr(ctx, seg);
  const uint64_t n = seg.size();
  auto owner = std::make_shared<std::vector<uint8_t>>(std::move(seg.bytes));
  seg.bytes.clear();
  llvm::ArrayRef<char> data(reinterpret_cast<const char *>(owner->data()),
                            size_t(n));
  // The deleter holds the bytes; the blob frees them with the attribute's
  // resource (the context).
  return weightsAttr(
      ctx, n,
      AsmResourceBlob(
          data, alignof(float),
          [owner](void *, size_t, size_t) mutable { owner.reset(); },
          /*dataIsMutable=*/false));
}

/// Marker-area bytes: little-endian i64 words when the byte count is a
/// non-zero multiple of 8 (the marker is made of u64 fields), else i8.
DenseElementsAttr markerAttr(MLIRContext *ctx, const std::vector<uint8_t> &b) {
  size_t n = b.size();
  if (n && n % 8 == 0) {
    std::vector<int64_t> words(n / 8);
    for (size_t i = 0; i < n; ++i)
      words[i / 8] =
          int64_t(uint64_t(words[i / 8]) | uint64_t(b[i]) << (8 * (i % 8)));
    auto t = RankedTensorType::get({int64_t(n / 8)}, IntegerType::get(ctx, 64));
    return DenseElementsAttr::get(t, llvm::ArrayRef<int64_t>(words));
  }
  std::vector<int8_t> vals(b.begin(), b.end());
  auto t = RankedTensorType::get({int64_t(n)}, IntegerType::get(ctx, 8));
  return DenseElementsAttr::get(t, llvm::ArrayRef<int8_t>(vals));
}

/// The pieces of a symbol; null (printed as nothing) for a dense one.
ArrayAttr piecesAttr(MLIRContext *ctx, const std::vector<DramPiece> &pieces) {
  if (pieces.empty())
    return {};
  SmallVector<Attribute> items;
  for (const DramPiece &pc : pieces)
    items.push_back(
        isa::DramPieceAttr::get(ctx, pc.offset, pc.bytes, pc.dramAddr));
  return ArrayAttr::get(ctx, items);
}

/// The replica addresses of a constant segment (their bits as i64); null
/// when there are none.
DenseI64ArrayAttr replicasAttr(MLIRContext *ctx,
                               const std::vector<uint64_t> &replicas) {
  if (replicas.empty())
    return {};
  std::vector<int64_t> v(replicas.begin(), replicas.end());
  return DenseI64ArrayAttr::get(ctx, v);
}

/// (row, col) of a row-major cluster index.
isa::ClusterAttr clusterAttr(MLIRContext *ctx, uint32_t index, uint32_t cols) {
  return isa::ClusterAttr::get(ctx, cols ? index / cols : 0,
                               cols ? index % cols : 0);
}

ArrayAttr targetsAttr(MLIRContext *ctx, const std::vector<uint32_t> &targets,
                      uint32_t cols) {
  SmallVector<Attribute> items;
  for (uint32_t t : targets)
    items.push_back(clusterAttr(ctx, t, cols));
  return ArrayAttr::get(ctx, items);
}

void buildInstr(OpBuilder &b, Location loc, const Instruction &in) {
  MLIRContext *ctx = b.getContext();
  const InstrFields &f = in.fields;
  isa::OperandsAttr rec = recordAttr(ctx, in.operands);
  switch (f.op) {
  case Opcode::LD:
    isa::LdOp::create(b, loc, isa::LoadStream(uint32_t(f.sub)), f.slot, rec);
    return;
  case Opcode::MAC:
    isa::MacOp::create(b, loc, f.slot, f.accId, f.loadBalance, f.sfuActive,
                       rec);
    return;
  case Opcode::ST:
    isa::StOp::create(b, loc, isa::StoreSource(uint32_t(f.sub)), f.slot,
                      f.accId, rec);
    return;
  case Opcode::SPU:
    isa::SpuOp::create(b, loc, isa::SpuType(uint32_t(f.sub)), f.slot, f.outSlot,
                       rec);
    return;
  }
}

/// The command op, with its `layer` (none for Command::kNoLayer).
void createRecur(OpBuilder &b, Location loc, const RecurDesc &r,
                 IntegerAttr layer) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Attribute> acts;
  for (RecurAct a : r.act)
    acts.push_back(StringAttr::get(ctx, recurActName(a)));
  auto i32 = [&](uint32_t v) { return b.getI32IntegerAttr(int32_t(v)); };
  auto op = isa::RecurOp::create(
      b, loc, isa::RecurCellAttr::get(ctx, isa::RecurCell(uint32_t(r.cell))),
      r.reverse ? b.getUnitAttr() : UnitAttr(), i32(r.thread), i32(r.tag),
      i32(r.hidden), i32(r.inputs), i32(r.steps), i32(r.ep), i32(r.vp),
      i32(r.candidateVp), b.getArrayAttr(acts),
      b.getDenseF32ArrayAttr({r.alpha[0], r.alpha[1], r.alpha[2]}),
      b.getDenseF32ArrayAttr({r.beta[0], r.beta[1], r.beta[2]}),
      r.hasClip ? b.getF32FloatAttr(r.clip) : FloatAttr(),
      r.linearBeforeReset ? b.getUnitAttr() : UnitAttr(),
      r.inputForget ? b.getUnitAttr() : UnitAttr(),
      r.weightsInDram ? b.getUnitAttr() : UnitAttr(),
      b.getI64IntegerAttr(int64_t(r.weights)), i32(r.bias),
      r.peephole ? i32(r.peepholes) : IntegerAttr(), i32(r.x), i32(r.h0),
      i32(r.c0), i32(r.y), i32(r.hT), i32(r.cT),
      r.hasSeqLen ? i32(r.seqLen) : IntegerAttr(),
      b.getI64IntegerAttr(int64_t(r.arrival)), layer);
  (void)op;
}

void buildCommand(OpBuilder &b, Location loc, const Command &c, uint32_t cols) {
  MLIRContext *ctx = b.getContext();
  IntegerAttr layer;
  if (c.layer != Command::kNoLayer)
    layer = b.getI32IntegerAttr(int32_t(c.layer));
  switch (c.kind) {
  case CommandKind::Config: {
    auto cfg = isa::ConfigOp::create(b, loc, c.ibuf, layer);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&cfg.getBody().emplaceBlock());
    for (const Instruction &in : c.instrs)
      buildInstr(b, loc, in);
    return;
  }
  case CommandKind::Execute: {
    ArrayAttr patches;
    if (!c.patches.empty()) {
      SmallVector<Attribute> ps;
      for (const RegPatch &p : c.patches)
        ps.push_back(isa::PatchAttr::get(
            ctx, p.instr, isa::PatchField(uint32_t(p.field)), p.value));
      patches = ArrayAttr::get(ctx, ps);
    }
    isa::ExecuteOp::create(b, loc, c.ibuf, c.shift, c.last, patches, layer);
    return;
  }
  case CommandKind::Dma: {
    const DmaDesc &d = c.dma;
    int first = 0; // drop leading unit dims with zero strides
    while (first < 3 && d.shape[first] == 1 && d.srcStride[first] == 0 &&
           d.dstStride[first] == 0)
      ++first;
    SmallVector<int64_t> shape, ss, ds;
    for (int i = first; i < 4; ++i) {
      shape.push_back(d.shape[i]);
      ss.push_back(d.srcStride[i]);
      ds.push_back(d.dstStride[i]);
    }
    // A source cluster on another direction is kept so that the verifier
    // reports it instead of the disassembler dropping it.
    isa::ClusterAttr from;
    if (d.dir == DmaDir::RemoteLoad || d.srcCluster != 0)
      from = clusterAttr(ctx, d.srcCluster, cols);
    isa::DmaOp::create(b, loc, isa::DmaDir(uint32_t(d.dir)), d.tag, d.src,
                       d.dst, shape, ss, ds, d.elemBytes, from, layer);
    return;
  }
  case CommandKind::Wait: {
    SmallVector<int32_t> tags;
    for (int t = 0; t < 8; ++t)
      if (c.waitTags & (1u << t))
        tags.push_back(t);
    isa::WaitOp::create(b, loc, tags, c.waitPe, layer);
    return;
  }
  case CommandKind::Barrier:
    isa::BarrierOp::create(b, loc, c.barrierId, layer);
    return;
  case CommandKind::Send: {
    const MeshOp &m = c.mesh;
    isa::SendOp::create(b, loc, m.src, m.dst, m.bytes,
                        targetsAttr(ctx, m.targets, cols), m.sem, m.tag, layer);
    return;
  }
  case CommandKind::Signal:
    isa::SignalOp::create(b, loc, targetsAttr(ctx, c.mesh->targets, cols),
                          c.mesh->sem, layer);
    return;
  case CommandKind::Recv:
    isa::RecvOp::create(b, loc, c.sem, c.count, layer);
    return;
  case CommandKind::Recur:
    createRecur(b, loc, c.recur, layer);
    return;
  }
}

/// Names as an array attribute (null when there are none: the default).
ArrayAttr namesAttr(MLIRContext *ctx, const std::vector<std::string> &names) {
  if (names.empty())
    return ArrayAttr();
  SmallVector<Attribute> attrs;
  for (const std::string &n : names)
    attrs.push_back(StringAttr::get(ctx, n));
  return ArrayAttr::get(ctx, attrs);
}

isa::LayerAttr layerAttr(MLIRContext *ctx, const LayerInfo &l) {
  SmallVector<int64_t> inputs(l.inputs.begin(), l.inputs.end());
  return isa::LayerAttr::get(ctx, l.name, l.opKind, l.macs, l.compulsoryBytes,
                             l.weightBytes, namesAttr(ctx, l.fused),
                             inputs.empty()
                                 ? DenseI64ArrayAttr()
                                 : DenseI64ArrayAttr::get(ctx, inputs),
                             namesAttr(ctx, l.inputSymbols),
                             namesAttr(ctx, l.outputSymbols), l.outputBytes);
}

void buildPacket(OpBuilder &b, Location loc, const ConstPacket &pk,
                 uint32_t cols) {
  MLIRContext *ctx = b.getContext();
  auto op =
      isa::PacketOp::create(b, loc, clusterAttr(ctx, pk.cluster, cols), pk.core,
                            pk.markerAddr, markerAttr(ctx, pk.marker));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&op.getBody().emplaceBlock());
  for (const PacketBlockRef &blk : pk.blocks)
    isa::BlockOp::create(b, loc, blk.name, blk.dramAddr, blk.bytes);
}

} // namespace

namespace {
/// Constant segment i's value in the module (segmentAttr, or takeSegmentAttr
/// when the program is handed over).
using SegmentValue = llvm::function_ref<ElementsAttr(size_t i)>;

OwningOpRef<ModuleOp> buildModule(const Program &p, MLIRContext *ctx,
                                  SegmentValue segmentValue) {
  ctx->getOrLoadDialect<isa::IsaDialect>();
  Location loc = UnknownLoc::get(ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module->getBody());
  ArrayAttr layers;
  if (!p.layers.empty()) {
    SmallVector<Attribute> table;
    for (const LayerInfo &l : p.layers)
      table.push_back(layerAttr(ctx, l));
    layers = ArrayAttr::get(ctx, table);
  }
  auto prog = isa::ProgramOp::create(b, loc, p.gridRows, p.gridCols, p.dramSize,
                                     p.hwFingerprint, layers);
  b.setInsertionPointToStart(&prog.getBody().emplaceBlock());
  for (const Symbol &s : p.symbols) {
    auto t = RankedTensorType::get(s.shape, elementType(ctx, s.dtype));
    isa::IoOp::create(b, loc,
                      s.isInput ? isa::IoKind::input : isa::IoKind::output,
                      s.name, s.dramAddr, t, piecesAttr(ctx, s.pieces));
  }
  for (size_t i = 0; i < p.constants.size(); ++i) {
    ElementsAttr value = segmentValue(i);
    const ConstSegment &seg = p.constants[i];
    isa::DataOp::create(b, loc, seg.dramAddr, value,
                        replicasAttr(ctx, seg.replicas));
  }
  for (const ConstPacket &pk : p.packets)
    buildPacket(b, loc, pk, p.gridCols);
  for (size_t i = 0; i < p.clusters.size(); ++i) {
    uint32_t r = p.gridCols ? uint32_t(i / p.gridCols) : 0;
    uint32_t c = p.gridCols ? uint32_t(i % p.gridCols) : 0;
    auto cl = isa::ClusterOp::create(b, loc, r, c);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&cl.getBody().emplaceBlock());
    for (const Command &cmd : p.clusters[i].commands)
      buildCommand(b, loc, cmd, p.gridCols);
  }
  return module;
}
} // namespace

OwningOpRef<ModuleOp> isaFromProgram(const Program &p, MLIRContext *ctx) {
  return buildModule(
      p, ctx, [&](size_t i) { return segmentAttr(ctx, p.constants[i]); });
}

OwningOpRef<ModuleOp> isaFromProgram(Program &&p, MLIRContext *ctx) {
  // Only a segment's bytes move out; its address and replicas stay for the
  // op built from it.
  return buildModule(
      p, ctx, [&](size_t i) { return takeSegmentAttr(ctx, p.constants[i]); });
}

} // namespace accel
