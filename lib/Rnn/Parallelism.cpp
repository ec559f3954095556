//===- Parallelism.cpp - EP/VP selection for column-wise RNN steps --------===//
#include "accel/Rnn/Parallelism.h"

#include <algorithm>

using namespace accel;
using namespace accel::rnn;

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t log2Of(int64_t v) {
  int64_t l = 0;
  while ((int64_t(1) << (l + 1)) <= v)
    ++l;
  return l;
}

} // namespace

int64_t rnn::catSlowDown(const Engine &e, int64_t ep) {
  return ceilDiv(catAccumulatorsPerCycle(e.epMax, ep), e.catWidth);
}

int64_t rnn::productLatency(const Engine &e, int64_t ep) {
  return e.multiplierLatency + log2Of(ep) * e.treeLevelLatency +
         e.accumulatorLatency;
}

int64_t rnn::catAccumulatorsPerCycle(int64_t treeWidth, int64_t ep) {
  return std::max<int64_t>(1, treeWidth / ep);
}

int64_t rnn::sfuCycles(const Engine &e, int64_t ops) {
  return e.sfuElemsPerCycle > 0 ? ceilDiv(ops, e.sfuElemsPerCycle) : 0;
}

EpVp rnn::costEpVp(const Engine &e, const LayerShape &s, int64_t ep) {
  EpVp c;
  c.ep = ep;
  c.vp = std::max<int64_t>(1, std::min(s.rows, e.npe / ep));
  c.rowBlocks = ceilDiv(s.rows, c.vp);
  c.colBlocks = ceilDiv(s.cols, ep);
  c.accumulatorsPerCycle =
      std::min(catAccumulatorsPerCycle(e.epMax, ep), e.catWidth);
  const int64_t slow = catSlowDown(e, ep);
  c.blockCycles = c.rowBlocks * c.colBlocks * slow;
  c.xBlockCycles = c.rowBlocks * ceilDiv(s.inputCols, ep) * slow;
  if (s.rows > 0)
    c.sfuCycles = sfuCycles(e, ceilDiv(s.sfuOps * c.vp, s.rows));
  c.latency = productLatency(e, ep) + c.sfuCycles + e.activationLatency +
              e.tailLatency + e.writeBackLatency;
  c.stepCycles = c.blockCycles + c.latency;
  return c;
}

std::vector<EpVp> rnn::sweepEp(const Engine &e, const LayerShape &s) {
  std::vector<EpVp> out;
  for (int64_t ep = 1; ep <= e.epMax; ep *= 2)
    out.push_back(costEpVp(e, s, ep));
  return out;
}

EpVp rnn::selectEpVp(const Engine &e, const LayerShape &s) {
  // Every candidate is costed (at most log2(epMax)+1 of them) rather than
  // stopping at the first rise: ceil(rows/vp) can make the curve bumpy.
  EpVp best;
  bool have = false;
  for (const EpVp &c : sweepEp(e, s))
    if (!have || c.stepCycles < best.stepCycles) {
      best = c;
      have = true;
    }
  return best;
}
