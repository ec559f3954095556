//===- ProgramFromIsa.cpp - isa.program -> accel::Program -----------------===//
#include "accel/Target/Encoding.h"
#include "accel/Target/IsaProgram.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"
#include <cstring>

using namespace mlir;

namespace accel {
namespace {

/// Largest grid the binary tools accept (keeps a typo in `grid (..)` from
/// allocating billions of streams).
constexpr uint64_t kMaxClusters = 1u << 16;

LogicalResult checkField(Operation *op, StringRef what, uint64_t v,
                         uint64_t n) {
  if (v >= n)
    return op->emitOpError()
           << what << " " << v << " out of range [0, " << n << ")";
  return success();
}

OperandRecord recordFrom(isa::OperandsAttr a) {
  OperandRecord r;
  r.addr = a.getAddr();
  r.rows = a.getRows();
  r.cols = a.getCols();
  r.rowStride = a.getRowStride();
  r.colStride = a.getColStride();
  r.peRows = a.getPeRows();
  r.depth = a.getDepth();
  r.repeat = a.getRepeat();
  r.queueMode = QueueMode(uint8_t(a.getQueueMode()));
  r.func = SfuFunc(uint8_t(a.getFunc()));
  r.imm = 0.0f;
  if (FloatAttr imm = a.getImm()) {
    llvm::APFloat v = imm.getValue();
    if (&v.getSemantics() != &llvm::APFloat::IEEEsingle()) {
      bool lost;
      v.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
    }
    uint32_t bits = uint32_t(v.bitcastToAPInt().getZExtValue());
    std::memcpy(&r.imm, &bits, 4);
  }
  r.base = a.getBase();
  r.step = a.getStep();
  r.pipeline = Pipeline(uint8_t(a.getPipeline()));
  r.acrossPes = a.getAcrossPes();
  if (auto pa = a.getPeAddrs())
    for (int64_t v : pa.asArrayRef())
      r.peAddrs.push_back(uint32_t(v));
  return r;
}

LogicalResult instrFrom(Operation &op, Instruction &in) {
  InstrFields &f = in.fields;
  isa::OperandsAttr rec;
  if (auto ld = dyn_cast<isa::LdOp>(op)) {
    if (failed(checkField(&op, "slot", ld.getSlot(), kNumSlots)))
      return failure();
    f.op = Opcode::LD;
    f.sub = uint8_t(ld.getStream());
    f.slot = uint8_t(ld.getSlot());
    rec = ld.getOperands();
  } else if (auto mac = dyn_cast<isa::MacOp>(op)) {
    if (failed(checkField(&op, "slot", mac.getSlot(), kNumSlots)) ||
        failed(checkField(&op, "acc", mac.getAcc(), kNumAccs)))
      return failure();
    f.op = Opcode::MAC;
    f.slot = uint8_t(mac.getSlot());
    f.accId = uint8_t(mac.getAcc());
    f.loadBalance = mac.getLoadBalance();
    f.sfuActive = mac.getSfu();
    rec = mac.getOperands();
  } else if (auto st = dyn_cast<isa::StOp>(op)) {
    if (failed(checkField(&op, "slot", st.getSlot(), kNumSlots)) ||
        failed(checkField(&op, "acc", st.getAcc(), kNumAccs)))
      return failure();
    f.op = Opcode::ST;
    f.sub = uint8_t(st.getSource());
    f.slot = uint8_t(st.getSlot());
    f.accId = uint8_t(st.getAcc());
    rec = st.getOperands();
  } else if (auto spu = dyn_cast<isa::SpuOp>(op)) {
    if (failed(checkField(&op, "in slot", spu.getInSlot(), kNumSlots)) ||
        failed(checkField(&op, "out slot", spu.getOutSlot(), kNumSlots)))
      return failure();
    f.op = Opcode::SPU;
    f.sub = uint8_t(spu.getType());
    f.slot = uint8_t(spu.getInSlot());
    f.outSlot = uint8_t(spu.getOutSlot());
    rec = spu.getOperands();
  } else {
    return op.emitOpError("is not an instruction (expected isa.ld, isa.mac, "
                          "isa.st or isa.spu inside isa.config)");
  }
  uint16_t word;
  std::string err;
  if (!encodeInstruction(f, word, err))
    return op.emitOpError("cannot be encoded: ") << err;
  in.operands = recordFrom(rec);
  return success();
}

/// Row-major index of a cluster inside the rows x cols grid.
LogicalResult clusterIndex(Operation *op, StringRef what, isa::ClusterAttr c,
                           uint64_t rows, uint64_t cols, uint32_t &out) {
  if (c.getRow() >= rows || c.getCol() >= cols)
    return op->emitOpError()
           << what << " (" << c.getRow() << ", " << c.getCol()
           << ") is outside the " << rows << "x" << cols << " grid";
  out = uint32_t(c.getRow() * cols + c.getCol());
  return success();
}

/// SEND / SIGNAL targets and semaphore.
LogicalResult meshFrom(Operation *op, ArrayAttr targets, uint32_t sem,
                       uint64_t rows, uint64_t cols, MeshOp &m) {
  if (targets.empty())
    return op->emitOpError("needs at least one target cluster");
  for (Attribute a : targets) {
    auto c = dyn_cast<isa::ClusterAttr>(a);
    if (!c)
      return op->emitOpError("target list holds a non-cluster attribute");
    uint32_t idx;
    if (failed(clusterIndex(op, "target", c, rows, cols, idx)))
      return failure();
    if (!m.targets.empty() && idx <= m.targets.back())
      return op->emitOpError("targets must be in ascending row-major order "
                             "without repeats");
    m.targets.push_back(idx);
  }
  if (failed(checkField(op, "sem", sem, kNumSemaphores)))
    return failure();
  m.sem = sem;
  return success();
}

/// SEND, SIGNAL, RECV; false when `op` is none of them.
FailureOr<bool> syncCommandFrom(Operation &op, uint64_t rows, uint64_t cols,
                                Command &c) {
  if (auto send = dyn_cast<isa::SendOp>(op)) {
    c.kind = CommandKind::Send;
    if (failed(meshFrom(&op, send.getTargets(), send.getSem(), rows, cols,
                        *c.mesh)) ||
        failed(checkField(&op, "tag", send.getTag(), kNumDmaTags)))
      return failure();
    c.mesh->src = send.getSrc();
    c.mesh->dst = send.getDst();
    c.mesh->bytes = send.getBytes();
    c.mesh->tag = uint8_t(send.getTag());
    return true;
  }
  if (auto sig = dyn_cast<isa::SignalOp>(op)) {
    c.kind = CommandKind::Signal;
    if (failed(
            meshFrom(&op, sig.getTargets(), sig.getSem(), rows, cols, *c.mesh)))
      return failure();
    return true;
  }
  if (auto recv = dyn_cast<isa::RecvOp>(op)) {
    if (failed(checkField(&op, "sem", recv.getSem(), kNumSemaphores)))
      return failure();
    if (recv.getCount() < 1)
      return op.emitOpError("count must be >= 1");
    c.kind = CommandKind::Recv;
    c.sem = recv.getSem();
    c.count = recv.getCount();
    return true;
  }
  return false;
}

LogicalResult recurFrom(isa::RecurOp op, Command &c) {
  if (failed(checkField(op, "tag", op.getTag(), kNumDmaTags)) ||
      failed(checkField(op, "thread", op.getThread(), 256)))
    return failure();
  c.kind = CommandKind::Recur;
  RecurDesc &r = c.recur.get();
  r.tag = uint8_t(op.getTag());
  r.thread = uint8_t(op.getThread());
  r.cell = RecurCell(uint8_t(op.getCell()));
  r.reverse = op.getReverse();
  r.linearBeforeReset = op.getLinearBeforeReset();
  r.inputForget = op.getInputForget();
  r.weightsInDram = op.getWeightsInDram();
  r.hidden = op.getHidden();
  r.inputs = op.getInputs();
  r.steps = op.getSteps();
  r.ep = op.getEp();
  r.vp = op.getVp();
  r.candidateVp = op.getCandidateVp();
  for (unsigned i = 0; i < 3; ++i) {
    // The op's verifier accepted the name.
    r.act[i] =
        *recurActNamed(cast<StringAttr>(op.getActivations()[i]).getValue());
    r.alpha[i] = op.getAlpha()[i];
    r.beta[i] = op.getBeta()[i];
  }
  if (std::optional<APFloat> clip = op.getClip()) {
    r.hasClip = true;
    r.clip = clip->convertToFloat();
  }
  r.weights = uint64_t(op.getWeights());
  r.bias = op.getBias();
  if (std::optional<uint32_t> p = op.getPeepholes()) {
    r.peephole = true;
    r.peepholes = *p;
  }
  r.x = op.getX();
  r.h0 = op.getH0();
  r.c0 = op.getC0();
  r.y = op.getY();
  r.hT = op.getHT();
  r.cT = op.getCT();
  r.arrival = op.getArrival(); // I64Attr: read as unsigned
  if (std::optional<uint32_t> sl = op.getSeqLen()) {
    r.hasSeqLen = true;
    r.seqLen = *sl;
  }
  return success();
}

LogicalResult commandFrom(Operation &op, uint64_t rows, uint64_t cols,
                          Command &c) {
  FailureOr<bool> sync = syncCommandFrom(op, rows, cols, c);
  if (failed(sync))
    return failure();
  if (*sync)
    return success();
  if (auto cfg = dyn_cast<isa::ConfigOp>(op)) {
    if (failed(checkField(&op, "ibuf", cfg.getIbuf(), kNumIbufIds)))
      return failure();
    c.kind = CommandKind::Config;
    c.ibuf = uint8_t(cfg.getIbuf());
    for (Operation &inner : cfg.getBody().front()) {
      Instruction in;
      if (failed(instrFrom(inner, in)))
        return failure();
      c.instrs.push_back(in);
    }
    if (c.instrs.empty())
      return op.emitOpError("instruction sequence is empty");
    return success();
  }
  if (auto ex = dyn_cast<isa::ExecuteOp>(op)) {
    if (failed(checkField(&op, "ibuf", ex.getIbuf(), kNumIbufIds)))
      return failure();
    c.kind = CommandKind::Execute;
    c.ibuf = uint8_t(ex.getIbuf());
    c.shift = ex.getShift();
    c.last = ex.getLast();
    for (Attribute a : ex.getPatches()) {
      auto p = dyn_cast<isa::PatchAttr>(a);
      if (!p)
        return op.emitOpError("patch list holds a non-patch attribute");
      if (p.getInstr() > 255)
        return op.emitOpError("patch names instruction ")
               << p.getInstr() << " (the binary holds 8-bit indexes, max 255)";
      RegPatch rp;
      rp.instr = uint8_t(p.getInstr());
      rp.field = PatchField(uint8_t(p.getField()));
      rp.value = p.getValue();
      c.patches.push_back(rp);
    }
    return success();
  }
  if (auto dma = dyn_cast<isa::DmaOp>(op)) {
    ArrayRef<int64_t> shape = dma.getShape(), ss = dma.getSrcStrides(),
                      ds = dma.getDstStrides();
    size_t n = shape.size();
    if (n < 1 || n > 4 || ss.size() != n || ds.size() != n)
      return op.emitOpError("shape and strides must have the same length, "
                            "1 to 4 dimensions");
    if (failed(checkField(&op, "tag", dma.getTag(), kNumDmaTags)))
      return failure();
    c.kind = CommandKind::Dma;
    DmaDesc &d = c.dma;
    d.dir = DmaDir(uint8_t(dma.getDir()));
    d.tag = uint8_t(dma.getTag());
    d.elemBytes = dma.getElemBytes();
    d.src = dma.getSrc();
    d.dst = dma.getDst();
    if (std::optional<isa::ClusterAttr> from = dma.getSrcCluster())
      if (failed(clusterIndex(&op, "source cluster", *from, rows, cols,
                              d.srcCluster)))
        return failure();
    for (size_t i = 0; i < n; ++i) {
      if (shape[i] < 1 || shape[i] > int64_t(UINT32_MAX))
        return op.emitOpError("shape extent ")
               << shape[i] << " out of range [1, 2^32)";
      size_t j = 4 - n + i; // right-aligned: index 3 is innermost
      d.shape[j] = uint32_t(shape[i]);
      d.srcStride[j] = ss[i];
      d.dstStride[j] = ds[i];
    }
    return success();
  }
  if (auto w = dyn_cast<isa::WaitOp>(op)) {
    c.kind = CommandKind::Wait;
    for (int32_t t : w.getTags()) {
      if (t < 0 || t >= int32_t(kNumDmaTags))
        return op.emitOpError("tag ") << t << " out of range [0, 8)";
      c.waitTags |= uint8_t(1u << t);
    }
    c.waitPe = w.getPe();
    return success();
  }
  if (auto b = dyn_cast<isa::BarrierOp>(op)) {
    c.kind = CommandKind::Barrier;
    c.barrierId = b.getId();
    return success();
  }
  if (auto r = dyn_cast<isa::RecurOp>(op))
    return recurFrom(r, c);
  return op.emitOpError("is not a command (expected isa.config, isa.execute, "
                        "isa.dma, isa.wait, isa.barrier, isa.send, isa.signal, "
                        "isa.recv or isa.recur inside isa.cluster)");
}

LogicalResult dtypeFrom(Operation *op, Type t, DType &out) {
  if (t.isF32())
    out = DType::F32;
  else if (t.isF16())
    out = DType::F16;
  else if (t.isBF16())
    out = DType::BF16;
  else if (t.isInteger(8))
    out = DType::I8;
  else if (t.isInteger(32))
    out = DType::I32;
  else if (t.isInteger(1))
    out = DType::I1;
  else if (t.isInteger(64))
    out = DType::I64;
  else
    return op->emitOpError("element type ")
           << t << " is not one of f32, f16, bf16, i8, i32, i1, i64";
  return success();
}

/// A resource blob's bytes: little-endian f32 words (the only kind
/// IsaFromProgram makes). Null data after a diagnostic when the blob is
/// missing or its size does not match the type.
llvm::ArrayRef<uint8_t> resourceBytesOf(Operation *op,
                                        DenseResourceElementsAttr res) {
  AsmResourceBlob *blob = res.getRawHandle().getBlob();
  auto t = cast<ShapedType>(res.getType());
  if (!blob) {
    op->emitOpError("resource '")
        << res.getRawHandle().getKey() << "' has no data";
    return {};
  }
  llvm::ArrayRef<char> d = blob->getData();
  if (!t.getElementType().isF32() || !t.hasStaticShape() ||
      d.size() != size_t(t.getNumElements()) * 4) {
    op->emitOpError("resource '")
        << res.getRawHandle().getKey() << "' holds " << d.size()
        << " bytes, expected f32 data of type " << t;
    return {};
  }
  if (d.empty())
    return {reinterpret_cast<const uint8_t *>(""), size_t(0)};
  return {reinterpret_cast<const uint8_t *>(d.data()), d.size()};
}

/// The bytes of a data op's value without a copy: a resource blob's, or
/// the raw storage of a non-splat dense attribute of whole-byte elements
/// (little-endian host).
llvm::ArrayRef<uint8_t> rawBytesOf(Operation *op, ElementsAttr value) {
  if (auto res = dyn_cast<DenseResourceElementsAttr>(value))
    return resourceBytesOf(op, res);
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense || dense.isSplat() ||
      llvm::endianness::native != llvm::endianness::little)
    return {};
  Type et = dense.getElementType();
  if (!et.isIntOrFloat() || et.getIntOrFloatBitWidth() % 8)
    return {};
  llvm::ArrayRef<char> raw = dense.getRawData();
  if (raw.size() !=
      size_t(dense.getNumElements()) * (et.getIntOrFloatBitWidth() / 8))
    return {};
  return {reinterpret_cast<const uint8_t *>(raw.data()), raw.size()};
}

LogicalResult bytesFrom(Operation *op, ElementsAttr value,
                        std::vector<uint8_t> &out) {
  llvm::ArrayRef<uint8_t> raw = rawBytesOf(op, value);
  if (raw.data()) {
    out.insert(out.end(), raw.begin(), raw.end());
    return success();
  }
  if (llvm::isa<DenseResourceElementsAttr>(value))
    return failure(); // diagnosed by rawBytesOf
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return op->emitOpError("only dense<...> constant data is supported");
  Type et = dense.getElementType();
  unsigned width = et.isIntOrFloat() ? et.getIntOrFloatBitWidth() : 0;
  if (dense.isSplat() && width && width % 8 == 0 &&
      llvm::endianness::native == llvm::endianness::little) {
    // A splat of whole-byte elements: its one little-endian element
    // repeated, not one APInt per element (non-splats were copied whole by
    // rawBytesOf above).
    llvm::ArrayRef<char> one = dense.getRawData();
    size_t n = size_t(dense.getNumElements()) * (width / 8);
    out.reserve(out.size() + n);
    for (size_t i = 0; i < n; i += one.size())
      out.insert(out.end(), one.begin(), one.end());
    return success();
  }
  auto push = [&](const llvm::APInt &v) {
    for (unsigned b = 0; b < v.getBitWidth(); b += 8)
      out.push_back(uint8_t(v.extractBitsAsZExtValue(8, b)));
  };
  if (auto it = dyn_cast<IntegerType>(et)) {
    if (it.getWidth() % 8)
      return op->emitOpError("integer data of width ")
             << it.getWidth() << " is not a whole number of bytes";
    out.reserve(dense.getNumElements() * it.getWidth() / 8);
    for (const llvm::APInt &v : dense.getValues<llvm::APInt>())
      push(v);
    return success();
  }
  if (auto ft = dyn_cast<FloatType>(et)) {
    if (ft.getWidth() % 8)
      return op->emitOpError("float data of width ")
             << ft.getWidth() << " is not a whole number of bytes";
    out.reserve(dense.getNumElements() * ft.getWidth() / 8);
    for (const llvm::APFloat &v : dense.getValues<llvm::APFloat>())
      push(v.bitcastToAPInt());
    return success();
  }
  return op->emitOpError("constant data must have integer or float elements");
}

LogicalResult packetFrom(isa::PacketOp op, uint64_t rows, uint64_t cols,
                         ConstPacket &pk) {
  if (failed(clusterIndex(op, "cluster", op.getCluster(), rows, cols,
                          pk.cluster)) ||
      failed(bytesFrom(op, op.getMarker(), pk.marker)))
    return failure();
  pk.core = op.getCore();
  pk.markerAddr = op.getMarkerAddr();
  for (Operation &inner : op.getBody().front()) {
    auto block = dyn_cast<isa::BlockOp>(inner);
    if (!block)
      return inner.emitOpError("is not allowed in isa.packet (expected "
                               "isa.block)");
    pk.blocks.push_back(
        {block.getName().str(), block.getAddr(), block.getBytes()});
  }
  return success();
}

LayerInfo layerFrom(isa::LayerAttr a) {
  LayerInfo l;
  l.name = a.getName().str();
  l.opKind = a.getOp().str();
  l.macs = a.getMacs();
  l.compulsoryBytes = a.getCompulsoryBytes();
  l.weightBytes = a.getWeightBytes();
  auto names = [](ArrayAttr list, std::vector<std::string> &out) {
    if (list)
      for (Attribute n : list)
        out.push_back(cast<StringAttr>(n).str());
  };
  names(a.getFused(), l.fused);
  names(a.getInputSymbols(), l.inputSymbols);
  names(a.getOutputSymbols(), l.outputSymbols);
  if (DenseI64ArrayAttr inputs = a.getInputs())
    for (int64_t i : inputs.asArrayRef())
      l.inputs.push_back(uint32_t(i));
  l.outputBytes = a.getOutputBytes();
  return l;
}

} // namespace

LogicalResult programFromIsa(isa::ProgramOp op, Program &out, bool borrowData) {
  out = Program();
  uint64_t rows = op.getRows(), cols = op.getCols();
  if (rows < 1 || cols < 1 || rows * cols > kMaxClusters)
    return op.emitOpError("grid ") << rows << "x" << cols << " must have 1 to "
                                   << kMaxClusters << " clusters";
  out.gridRows = uint32_t(rows);
  out.gridCols = uint32_t(cols);
  out.dramSize = op.getDramSize();
  out.hwFingerprint = op.getHwFingerprint();
  out.clusters.resize(rows * cols);
  std::vector<bool> seen(rows * cols, false);
  if (ArrayAttr layers = op.getLayersAttr())
    for (Attribute a : layers)
      out.layers.push_back(layerFrom(cast<isa::LayerAttr>(a)));

  for (Operation &inner : op.getBody().front()) {
    if (auto io = dyn_cast<isa::IoOp>(inner)) {
      Symbol s;
      s.name = io.getSymName().str();
      s.isInput = io.getKind() == isa::IoKind::input;
      s.dramAddr = io.getAddr();
      auto t = cast<RankedTensorType>(io.getType());
      if (failed(dtypeFrom(&inner, t.getElementType(), s.dtype)))
        return failure();
      if (!t.hasStaticShape())
        return io.emitOpError("tensor type must have a static shape");
      s.shape.assign(t.getShape().begin(), t.getShape().end());
      if (ArrayAttr pieces = io.getPiecesAttr())
        for (Attribute a : pieces) {
          auto pc = cast<isa::DramPieceAttr>(a);
          s.pieces.push_back({pc.getOffset(), pc.getBytes(), pc.getAddr()});
        }
      out.symbols.push_back(std::move(s));
    } else if (auto data = dyn_cast<isa::DataOp>(inner)) {
      ConstSegment seg;
      seg.dramAddr = data.getAddr();
      llvm::ArrayRef<uint8_t> raw;
      if (borrowData) {
        raw = rawBytesOf(data, data.getValue());
        if (!raw.data() &&
            llvm::isa<DenseResourceElementsAttr>(data.getValue()))
          return failure(); // diagnosed
      }
      if (!raw.empty()) {
        seg.borrowed = raw.data();
        seg.borrowedSize = raw.size();
      } else if (failed(bytesFrom(data, data.getValue(), seg.bytes))) {
        return failure();
      }
      if (auto replicas = data.getReplicasAttr())
        for (int64_t r : replicas.asArrayRef())
          seg.replicas.push_back(uint64_t(r));
      out.constants.push_back(std::move(seg));
    } else if (auto packet = dyn_cast<isa::PacketOp>(inner)) {
      ConstPacket pk;
      if (failed(packetFrom(packet, rows, cols, pk)))
        return failure();
      out.packets.push_back(std::move(pk));
    } else if (auto cl = dyn_cast<isa::ClusterOp>(inner)) {
      uint64_t r = cl.getRow(), c = cl.getCol();
      if (r >= rows || c >= cols)
        return cl.emitOpError("cluster (")
               << r << ", " << c << ") is outside the " << rows << "x" << cols
               << " grid";
      uint64_t idx = r * cols + c;
      if (seen[idx])
        return cl.emitOpError("duplicate stream for cluster (")
               << r << ", " << c << ")";
      seen[idx] = true;
      Block &body = cl.getBody().front();
      out.clusters[idx].commands.reserve(
          size_t(std::distance(body.begin(), body.end())));
      for (Operation &cmdOp : body) {
        Command cmd;
        if (failed(commandFrom(cmdOp, rows, cols, cmd)))
          return failure();
        if (auto layer = cmdOp.getAttrOfType<IntegerAttr>("layer"))
          cmd.layer = uint32_t(layer.getValue().getZExtValue());
        out.clusters[idx].commands.push_back(std::move(cmd));
      }
    } else {
      return inner.emitOpError("is not allowed in isa.program (expected "
                               "isa.io, isa.data, isa.packet or isa.cluster)");
    }
  }
  return success();
}

} // namespace accel
