//===- RqConvKernel.cpp - Regular convolution, RQ queue mode --------------===//
//
// SpConv as the machine describes it (docs/isa.md, queue mode RQ; the layout
// is described in docs/depthwise.md "Regular convolutions with RQ"):
//
//   * storage, resident per output-channel block: the weights of all input
//     channel blocks, block b as T x cib rows of cob floats, tap-major with
//     taps ordered t = kw*KH + kh; the bias of the block.
//   * storage, per work unit (one of two ping-pong halves): P expanded input
//     rows, one per output row oh0+p, channels innermost:
//       compact (dw == 1):  E[u][kh][c] = xpad[c][oh*sh + kh*dh][ow0*sw + u]
//       im2col  (dw > 1):   E[j][kw][kh][c] = xpad[c][oh*sh + kh*dh]
//                                                 [(ow0 + j)*sw + kw*dw]
//     so that tap t of output column j sits at j*macPitch + t*Cin + c;
//     and the P x owc x cob outputs.
//   * input buffer of PE p: expanded row p (one LD acts, pe_rows = 1).
//   * weight queue: T tiles of cib x cob (one LD weights, RQ: the same
//     record is not refetched while the queue holds it).
//   * one MAC per input-channel block: rows = owc output columns per PE,
//     pitch macPitch, depth cib, repeat T, RQ (iteration t uses tile t),
//     pipeline 2 with step Cin (the scalar unit moves the index-compare
//     base to the next tap's activations). The base is reset by a patch.
//     pe_rows cannot be patched, so every unit runs owc rows per PE; a
//     narrower last column chunk computes rows it does not store.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/RqConv.h"
#include <algorithm>

using namespace accel;
using namespace accel::codegen;

namespace {

/// Floats of one expanded input row of `wc` output columns.
int64_t rowFloatsFor(const RqConvLayer &l, bool compact, int64_t wc) {
  if (compact)
    return ((wc - 1) * l.sw + l.KW) * l.KH * l.Cin;
  return wc * l.KW * l.KH * l.Cin;
}

// Instruction buffers of the kernel.
constexpr uint8_t kIbufActs = 0, kIbufMac = 1, kIbufBias = 2, kIbufFlush = 3;

} // namespace

bool accel::codegen::planRqConv(const HardwareDesc &hw, const RqConvLayer &l,
                                RqConvPlan &plan, std::string &err) {
  if (l.N < 1 || l.Cin < 1 || l.Cout < 1 || l.KH < 1 || l.KW < 1 || l.OH < 1 ||
      l.OW < 1 || l.sh < 1 || l.sw < 1 || l.dh < 1 || l.dw < 1) {
    err = "degenerate convolution shape";
    return false;
  }
  if (hw.instructionBuffers < 4) {
    err = "the RQ kernel needs 4 instruction buffers";
    return false;
  }
  const int64_t T = l.KH * l.KW, P = hw.pesPerCluster,
                lanes = std::max<int64_t>(1, hw.macLanes);
  const int64_t wqF = int64_t(hw.weightQueueBytes / 4),
                accF = int64_t(hw.accBufferBytes / 4),
                inF = int64_t(hw.inputBufferBytes / 4),
                sF = int64_t(hw.storageBytes / 4);
  const bool compact = l.dw == 1;
  const int64_t nc = hw.numClusters();
  const double dmaBwPerCluster =
      std::max(1.0, hw.dramBytesPerCycle() / double(std::max<int64_t>(1, nc)));
  bool found = false;
  int64_t lastCob = -1;
  for (int64_t nco = 1; nco <= l.Cout; ++nco) {
    const int64_t cob = ceilDiv(l.Cout, nco);
    if (cob == lastCob)
      continue;
    lastCob = cob;
    const int64_t cibMax = std::min(l.Cin, wqF / (T * cob));
    if (cibMax < 1)
      continue;
    const int64_t nci = ceilDiv(l.Cin, cibMax), cib = ceilDiv(l.Cin, nci);
    const int64_t realNco = ceilDiv(l.Cout, cob);
    const int64_t wRegion = nci * T * cib * cob + roundUp(cob, 16);
    int64_t owcMax = std::min(l.OW, accF / cob);
    for (; owcMax >= 1; --owcMax) {
      const int64_t rf = rowFloatsFor(l, compact, owcMax);
      if (rf > inF)
        continue;
      const int64_t half = P * roundUp(rf, 16) + roundUp(P * owcMax * cob, 16);
      if (wRegion + 2 * half + 64 <= sF)
        break;
    }
    if (owcMax < 1)
      continue;
    // Column chunks of equal width (pe_rows is fixed for the layer, so a
    // narrower last chunk would still compute owc columns).
    const int64_t minChunks = ceilDiv(l.OW, owcMax);
    for (int64_t chunks = minChunks; chunks <= minChunks + 3; ++chunks) {
      const int64_t owc = ceilDiv(l.OW, chunks);
      if (chunks > minChunks && owc == ceilDiv(l.OW, chunks - 1))
        continue;
      const int64_t rf = rowFloatsFor(l, compact, owc);
      const int64_t units =
          l.N * realNco * ceilDiv(l.OH, P) * ceilDiv(l.OW, owc);
      double compute =
          double(
              nci * T *
              (ceilDiv(owc * cob * cib, lanes) + hw.macPipelineLatency + 2)) +
          double(ceilDiv(P * rf * 4, int64_t(hw.actLoadBytesPerCycle))) +
          (nci > 1 ? double(nci * ceilDiv(T * cib * cob * 4,
                                          int64_t(hw.weightLoadBytesPerCycle)))
                   : 0.0);
      double dma = double(P * rf * 4 + P * owc * cob * 4) / dmaBwPerCluster;
      double perUnit = std::max(compute, dma) + 30.0;
      // Units of a cluster run back to back; the weights of each output
      // block a cluster meets are a blocking DMA.
      double est = double(ceilDiv(units, nc)) * perUnit +
                   double(ceilDiv(realNco, nc) + 1) *
                       (double(T * l.Cin * cob * 4) / dmaBwPerCluster + 100.0);
      if (!found || est < plan.estCycles) {
        found = true;
        plan.T = T;
        plan.compact = compact;
        plan.cob = cob;
        plan.cib = cib;
        plan.owc = owc;
        plan.rowFloats = rf;
        plan.rowPitch = roundUp(rf, 16);
        plan.macPitch = compact ? l.sw * l.KH * l.Cin : T * l.Cin;
        plan.coBlocks = realNco;
        plan.ciBlocks = nci;
        plan.tiles = units;
        plan.estCycles = est;
      }
    }
  }
  if (!found) {
    err = "no RQ block of a " + std::to_string(l.KH) + "x" +
          std::to_string(l.KW) + " conv with " + std::to_string(l.Cin) +
          " input channels fits the weight queue / input buffer / storage";
    return false;
  }
  return true;
}

void accel::codegen::emitRqConvLayer(StreamBuilder &sb, const RqConvLayer &l,
                                     const RqConvPlan &plan) {
  const HardwareDesc &hw = sb.hw();
  const int64_t P = hw.pesPerCluster, T = plan.T, cob = plan.cob,
                cib = plan.cib, owc = plan.owc, nci = plan.ciBlocks;
  const int64_t rowPitch = plan.rowPitch;
  // Storage: [weights of one output block][bias][half 0][half 1].
  const int64_t wBlockF = T * cib * cob;
  const uint32_t wAddr = 0;
  const uint32_t biasAddr = uint32_t(nci * wBlockF * 4);
  const uint32_t halvesAt =
      uint32_t(roundUp(nci * wBlockF + roundUp(cob, 16), 16) * 4);
  const int64_t eF = P * rowPitch, oF = roundUp(P * owc * cob, 16);
  struct Half {
    uint32_t e, o;
  } half[2];
  for (int h = 0; h < 2; ++h) {
    half[h].e = halvesAt + uint32_t(h * (eF + oF) * 4);
    half[h].o = half[h].e + uint32_t(eF * 4);
  }

  struct Unit {
    int64_t cb, n, oh0, g, ow0, wc;
  };
  std::vector<Unit> units;
  for (int64_t cb = 0; cb < plan.coBlocks; ++cb)
    for (int64_t n = 0; n < l.N; ++n)
      for (int64_t oh0 = 0; oh0 < l.OH; oh0 += P)
        for (int64_t ow0 = 0; ow0 < l.OW; ow0 += owc)
          units.push_back({cb, n, oh0, std::min(P, l.OH - oh0), ow0,
                           std::min(owc, l.OW - ow0)});

  auto coCount = [&](int64_t cb) { return std::min(cob, l.Cout - cb * cob); };
  auto ciCount = [&](int64_t b) { return std::min(cib, l.Cin - b * cib); };

  auto actsRecord = [&](const Half &hf, const Unit &u) {
    OperandRecord r;
    r.addr = hf.e;
    r.rows = uint32_t(u.g);
    r.cols = uint32_t(rowFloatsFor(l, plan.compact, u.wc));
    r.rowStride = int32_t(rowPitch);
    r.colStride = 1;
    r.peRows = 1;
    return r;
  };
  auto biasRecord = [&](const Unit &u) {
    OperandRecord r;
    r.addr = biasAddr;
    r.rows = uint32_t(u.g * owc);
    r.cols = uint32_t(coCount(u.cb));
    r.rowStride = 0;
    r.colStride = 1;
    r.peRows = uint32_t(owc);
    return r;
  };
  // LD weights, MAC, ST acc of input-channel block b.
  auto macRecords = [&](const Half &hf, const Unit &u, int64_t b) {
    const int64_t co = coCount(u.cb), ci = ciCount(b);
    std::vector<OperandRecord> recs;
    OperandRecord w;
    w.addr = wAddr + uint32_t(b * wBlockF * 4);
    w.rows = uint32_t(T * ci);
    w.cols = uint32_t(co);
    w.rowStride = int32_t(cob);
    w.colStride = 1;
    w.queueMode = QueueMode::RQ;
    recs.push_back(w);
    OperandRecord m;
    m.rows = uint32_t(u.g * owc);
    m.cols = uint32_t(co);
    m.rowStride = int32_t(plan.macPitch);
    m.colStride = 1;
    m.peRows = uint32_t(owc);
    m.depth = uint32_t(ci);
    m.repeat = uint32_t(T);
    m.queueMode = QueueMode::RQ;
    m.base = uint32_t(b * cib);
    m.step = int32_t(l.Cin);
    m.pipeline = Pipeline::IdFoSuWb;
    recs.push_back(m);
    OperandRecord s;
    s.addr = hf.o;
    s.rows = uint32_t(u.g * owc);
    s.cols = uint32_t(co);
    s.rowStride = int32_t(cob);
    s.colStride = 1;
    s.peRows = uint32_t(owc);
    s.func = l.func;
    s.imm = l.funcImm;
    recs.push_back(s);
    return recs;
  };
  OperandRecord flush; // a 1 x 1 SQ load: the queue no longer holds an RQ
  flush.addr = wAddr;  // record, so the next RQ LD weights refetches
  flush.rows = 1;
  flush.cols = 1;

  const uint32_t nc = sb.numClusters();
  const size_t U = units.size();
  for (uint32_t c = 0; c < nc; ++c) {
    const size_t u0 = U * c / nc, u1 = U * (c + 1) / nc;
    if (u0 == u1)
      continue;
    std::vector<Unit> mine(units.begin() + long(u0), units.begin() + long(u1));
    sb.config(c, kIbufActs,
              {makeInstruction(Opcode::LD, uint8_t(LoadStream::Activations), 0,
                               0, actsRecord(half[0], mine[0]))});
    std::vector<OperandRecord> first = macRecords(half[0], mine[0], 0);
    sb.config(c, kIbufMac,
              {makeInstruction(Opcode::LD, uint8_t(LoadStream::Weights), 0, 0,
                               first[0]),
               makeInstruction(Opcode::MAC, 0, 0, 0, first[1]),
               makeInstruction(Opcode::ST, uint8_t(StoreSource::AccBuffer), 0,
                               0, first[2])});
    if (l.hasBias)
      sb.config(c, kIbufBias,
                {makeInstruction(Opcode::LD, uint8_t(LoadStream::PartialSums),
                                 0, 0, biasRecord(mine[0]))});
    sb.config(c, kIbufFlush,
              {makeInstruction(Opcode::LD, uint8_t(LoadStream::Weights), 0, 0,
                               flush)});

    auto load = [&](const Unit &u, int h) {
      const Half &hf = half[h];
      const uint64_t base =
          l.x +
          uint64_t((u.n * l.xsN + u.oh0 * l.sh * l.xsH + u.ow0 * l.sw * l.xsW) *
                   4);
      if (plan.compact) {
        DramBox b;
        b.base = base;
        b.dim(u.g, l.sh * l.xsH)
            .dim((u.wc - 1) * l.sw + l.KW, l.xsW)
            .dim(l.KH, l.dh * l.xsH)
            .dim(l.Cin, l.xsC);
        sb.dmaLoadStrided(c, uint8_t(h), b, hf.e,
                          {rowPitch, l.KH * l.Cin, l.Cin, 1});
      } else {
        for (int64_t r = 0; r < u.g; ++r) {
          DramBox b;
          b.base = base + uint64_t(r * l.sh * l.xsH * 4);
          b.dim(u.wc, l.sw * l.xsW)
              .dim(l.KW, l.dw * l.xsW)
              .dim(l.KH, l.dh * l.xsH)
              .dim(l.Cin, l.xsC);
          sb.dmaLoadStrided(c, uint8_t(h), b, hf.e + uint32_t(r * rowPitch * 4),
                            {l.KW * l.KH * l.Cin, l.KH * l.Cin, l.Cin, 1});
        }
      }
    };
    // Weights (and bias) of output block cb into the resident region.
    auto loadWeights = [&](int64_t cb) {
      const int64_t co0 = cb * cob, co = coCount(cb);
      for (int64_t b = 0; b < nci; ++b) {
        DramBox wb;
        wb.base = l.w + uint64_t((co0 * l.Cin + b * cib) * T * 4);
        wb.dim(l.KW, 1).dim(l.KH, l.KW).dim(ciCount(b), T).dim(co, l.Cin * T);
        wb.rowDims = 3;
        sb.dmaLoad(c, 4, wb, wAddr + uint32_t(b * wBlockF * 4), cob);
      }
      if (l.hasBias) {
        DramBox bb;
        bb.base = l.bias + uint64_t(co0 * 4);
        bb.dim(1, 0).dim(co, 1);
        sb.dmaLoad(c, 4, bb, biasAddr, co);
      }
    };

    load(mine[0], 0);
    if (mine.size() > 1)
      load(mine[1], 1);
    int64_t curCb = -1;
    for (size_t i = 0; i < mine.size(); ++i) {
      const Unit &u = mine[i];
      const int h = int(i % 2);
      const Half &hf = half[h];
      if (u.cb != curCb) {
        // The PEs are done with the previous block (waited below / none).
        loadWeights(u.cb);
        sb.wait(c, 1u << 4, false);
        // Identical records would otherwise reuse the old queue contents.
        sb.execute(c, kIbufFlush, {flush}, false, false);
        curCb = u.cb;
      }
      sb.wait(c, uint8_t((1u << h) | (1u << (2 + h))), false);
      sb.execute(c, kIbufActs, {actsRecord(hf, u)}, false, false);
      if (l.hasBias)
        sb.execute(c, kIbufBias, {biasRecord(u)}, false, false);
      for (int64_t b = 0; b < nci; ++b) {
        std::vector<OperandRecord> recs = macRecords(hf, u, b);
        const bool lastBlock = b + 1 == nci;
        sb.execute(c, kIbufMac, recs, lastBlock, lastBlock);
        sb.noteBaseWriteBack(c, kIbufMac, 1,
                             recs[1].base + uint32_t(T * l.Cin));
      }
      sb.wait(c, 0, true);
      DramBox ob;
      ob.base = l.out +
                uint64_t((((u.n * l.Cout + u.cb * cob) * l.OH + u.oh0) * l.OW +
                          u.ow0) *
                         4);
      if (u.wc == owc) {
        ob.dim(u.g, l.OW).dim(u.wc, 1).dim(coCount(u.cb), l.OH * l.OW);
        ob.rowDims = 2;
        sb.dmaStore(c, uint8_t(2 + h), hf.o, cob, ob);
      } else {
        // A narrower last column chunk: PE p's rows still start at p*owc.
        for (int64_t r = 0; r < u.g; ++r) {
          DramBox rb;
          rb.base = ob.base + uint64_t(r * l.OW * 4);
          rb.dim(u.wc, 1).dim(coCount(u.cb), l.OH * l.OW);
          sb.dmaStore(c, uint8_t(2 + h), hf.o + uint32_t(r * owc * cob * 4),
                      cob, rb);
        }
      }
      if (i + 2 < mine.size())
        load(mine[i + 2], h);
    }
  }
  sb.endLayer();
}
