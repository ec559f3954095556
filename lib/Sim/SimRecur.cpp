//===- SimRecur.cpp - RECUR: RNN tasks on the column-wise engine ----------===//
//
// Functional: a RECUR task runs its whole recurrence when the command is
// processed (like a DMA moves its bytes), with ONNX semantics, from the
// packed operands of RecurDesc. In time: the tasks a cluster issued since
// the engine last ran are scheduled together by the block-level engine
// model (rnn::runEngine, docs/rnn.md): thread contexts, x columns first, h
// columns when written back, switch on a blocked thread. They run when the
// control unit next needs the PE array or a result (EXECUTE, WAIT, BARRIER,
// RECV, SEND, SIGNAL, the end of the stream), so every task issued before
// that point competes for the engine; each task's `tag` completes when its
// last h element is written back.
//
//===----------------------------------------------------------------------===//
#include "SimImpl.h"
#include "accel/Rnn/ColumnEngine.h"

namespace accel {
namespace sim {

namespace {

/// The operands of one task, copied out of storage / DRAM.
struct RecurData {
  std::vector<float> w, bias, peep, x, h, c;
};

float clipped(const RecurDesc &r, float v) {
  return r.hasClip ? std::min(r.clip, std::max(-r.clip, v)) : v;
}

float act(const RecurDesc &r, int k, float v) {
  return recurActivation(r.act[k], r.alpha[k], r.beta[k], clipped(r, v));
}

/// y[row] += M[row, c0 .. c1) . v, for rows [0, rows): the column-wise
/// product, column by column in issue order (x columns, then h columns).
void columns(const float *m, uint64_t rows, uint64_t cols, uint64_t c0,
             uint64_t c1, const float *v, std::vector<float> &y) {
  for (uint64_t c = c0; c < c1; ++c) {
    float e = v[c - c0];
    for (uint64_t r = 0; r < rows; ++r)
      y[r] += m[r * cols + c] * e;
  }
}

void lstmStep(const RecurDesc &r, const RecurData &d, const float *x,
              std::vector<float> &h, std::vector<float> &c) {
  uint64_t H = r.hidden, rows = r.rows(), cols = r.cols();
  std::vector<float> g(d.bias.begin(), d.bias.begin() + rows);
  columns(d.w.data(), rows, cols, 0, r.inputs, x, g);
  columns(d.w.data(), rows, cols, r.inputs, cols, h.data(), g);
  for (uint64_t j = 0; j < H; ++j) {
    float pi = r.peephole ? d.peep[j] : 0, po = r.peephole ? d.peep[H + j] : 0,
          pf = r.peephole ? d.peep[2 * H + j] : 0;
    // Packed rows 4j .. 4j+3: gates i, o, f, c (ONNX order).
    float i = act(r, 0, g[4 * j] + pi * c[j]);
    float f = r.inputForget ? 1.0f - i : act(r, 0, g[4 * j + 2] + pf * c[j]);
    float cand = act(r, 1, g[4 * j + 3]);
    c[j] = f * c[j] + i * cand;
    float o = act(r, 0, g[4 * j + 1] + po * c[j]);
    h[j] = o * recurActivation(r.act[2], r.alpha[2], r.beta[2], c[j]);
  }
}

void gruStep(const RecurDesc &r, const RecurData &d, const float *x,
             std::vector<float> &h) {
  uint64_t H = r.hidden, rows = r.rows(), cols = r.cols();
  std::vector<float> zr(d.bias.begin(), d.bias.begin() + rows);
  columns(d.w.data(), rows, cols, 0, r.inputs, x, zr);
  columns(d.w.data(), rows, cols, r.inputs, cols, h.data(), zr);
  std::vector<float> z(H), rg(H);
  for (uint64_t j = 0; j < H; ++j) {
    z[j] = act(r, 0, zr[2 * j]);
    rg[j] = act(r, 0, zr[2 * j + 1]);
  }
  // Candidate phase: [W_h | R_h] after the merged matrix.
  const float *cw = d.w.data() + rows * cols;
  const float *wbh = d.bias.data() + rows, *rbh = wbh + H;
  std::vector<float> sx(wbh, wbh + H), sh(H, 0.0f);
  columns(cw, H, cols, 0, r.inputs, x, sx);
  if (r.linearBeforeReset) {
    std::copy(rbh, rbh + H, sh.begin());
    columns(cw, H, cols, r.inputs, cols, h.data(), sh);
    for (uint64_t j = 0; j < H; ++j)
      sx[j] += rg[j] * sh[j];
  } else {
    std::vector<float> rh(H);
    for (uint64_t j = 0; j < H; ++j)
      rh[j] = rg[j] * h[j];
    columns(cw, H, cols, r.inputs, cols, rh.data(), sx);
    for (uint64_t j = 0; j < H; ++j)
      sx[j] += rbh[j];
  }
  for (uint64_t j = 0; j < H; ++j)
    h[j] = (1.0f - z[j]) * act(r, 1, sx[j]) + z[j] * h[j];
}

void rnnStep(const RecurDesc &r, const RecurData &d, const float *x,
             std::vector<float> &h) {
  uint64_t H = r.hidden, cols = r.cols();
  std::vector<float> g(d.bias.begin(), d.bias.begin() + H);
  columns(d.w.data(), H, cols, 0, r.inputs, x, g);
  columns(d.w.data(), H, cols, r.inputs, cols, h.data(), g);
  for (uint64_t j = 0; j < H; ++j)
    h[j] = act(r, 0, g[j]);
}

rnn::Cell cellOf(RecurCell c) {
  return c == RecurCell::Lstm  ? rnn::Cell::Lstm
         : c == RecurCell::Gru ? rnn::Cell::Gru
                               : rnn::Cell::Rnn;
}

} // namespace

/// The engine keeps the weights of the tasks it runs in the PE weight
/// queues when they all fit (weight-stationary, like the spec's engine
/// whose weights sit next to its multipliers): one fill at the weight-load
/// (or the DRAM share's) bandwidth, then a block issues every cycle the CAT
/// allows. Otherwise every block streams its ep x vp weights.
WeightPlan Sim::planWeights(const Cluster &c, uint64_t dramStreamers) const {
  WeightPlan plan;
  std::set<std::pair<bool, uint64_t>> seen;
  uint64_t bytes = 0;
  bool fromDram = false;
  for (const PendingRecur &p : c.pendingRecur) {
    if (p.desc.steps == 0 ||
        !seen.insert({p.desc.weightsInDram, p.desc.weights}).second)
      continue;
    plan.firstUser.insert(&p);
    bytes += p.desc.weightElems() * 4;
    fromDram |= p.desc.weightsInDram;
  }
  plan.stationary = bytes <= uint64_t(hw.pesPerCluster) * hw.weightQueueBytes;
  if (plan.stationary) {
    double feed = fromDram
                      ? rnn::dramShareBytesPerCycle(hw, int64_t(dramStreamers))
                      : hw.weightLoadBytesPerCycle;
    plan.fillCycles = ceilDiv(double(bytes), feed);
  }
  return plan;
}

void Sim::readStorage(const Cluster &c, uint64_t addr, std::vector<float> &out,
                      uint64_t n) {
  out.resize(n);
  if (n)
    std::memcpy(out.data(), c.storage.data() + addr, n * 4);
}

void Sim::writeStorage(Cluster &c, uint64_t addr, const float *v, uint64_t n) {
  if (n)
    std::memcpy(c.storage.data() + addr, v, n * 4);
}

bool Sim::doRecur(Cluster &c, const Command &cmd) {
  const RecurDesc &r = cmd.recur;
  std::string msg;
  if (!checkRecurCommand(r, msg))
    return fail(msg);
  // The cell runs here, on the simulator's thread: it reads what earlier
  // commands wrote, and its sequence length sets the engine's time.
  drainData();
  uint64_t H = r.hidden;
  RecurData d;
  if (r.weightsInDram) {
    d.w.resize(r.weightElems());
    dram.read(r.weights, d.w.data(), d.w.size() * 4);
  } else {
    readStorage(c, r.weights, d.w, r.weightElems());
  }
  readStorage(c, r.bias, d.bias, r.biasElems());
  readStorage(c, r.peepholes, d.peep, r.peephole ? 3 * H : 0);
  readStorage(c, r.x, d.x, uint64_t(r.steps) * r.inputs);
  std::vector<float> h, cell(H, 0.0f);
  readStorage(c, r.h0, h, H);
  if (r.cell == RecurCell::Lstm)
    readStorage(c, r.c0, cell, H);
  uint64_t steps = r.steps;
  if (r.hasSeqLen && !runTimeSteps(c, r, steps))
    return false;
  // Steps past the sequence's length output zeros (ONNX).
  std::vector<float> zero(H, 0.0f);
  for (uint64_t t = steps; t < r.steps; ++t)
    writeStorage(c, r.y + t * H * 4, zero.data(), H);
  for (uint64_t s = 0; s < steps; ++s) {
    uint64_t t = r.reverse ? steps - 1 - s : s;
    const float *x = d.x.data() + t * r.inputs;
    if (r.cell == RecurCell::Lstm)
      lstmStep(r, d, x, h, cell);
    else if (r.cell == RecurCell::Gru)
      gruStep(r, d, x, h);
    else
      rnnStep(r, d, x, h);
    writeStorage(c, r.y + t * H * 4, h.data(), H);
  }
  writeStorage(c, r.hT, h.data(), H);
  if (r.cell == RecurCell::Lstm)
    writeStorage(c, r.cT, cell.data(), H);
  PendingRecur p{cmd.recur, c.t + hw.commandIssueCycles, curCmd, cmd.layer};
  p.desc.steps = uint32_t(steps); // the engine runs the steps taken
  c.pendingRecur.push_back(p);
  return true;
}

/// The run-time sequence length: an integer-valued f32 in storage.
bool Sim::runTimeSteps(const Cluster &c, const RecurDesc &r, uint64_t &steps) {
  float v;
  std::memcpy(&v, c.storage.data() + r.seqLen, 4);
  if (!(std::fabs(v) < 16777216.0f) || v != std::floor(v))
    return fail("RECUR sequence length " + std::to_string(v) +
                " is not an integer below 2^24");
  steps = uint64_t(std::clamp<double>(v, 0.0, double(r.steps)));
  return true;
}

/// Bounds the functional model relies on (validateProgram checks the rest
/// against the machine; the simulator must not read outside its buffers
/// even for a program that was not validated).
bool Sim::checkRecurCommand(const RecurDesc &r, std::string &msg) const {
  if (r.hidden == 0 || r.inputs == 0 || r.steps == 0 || r.ep == 0 ||
      r.vp == 0 || r.candidateVp == 0) {
    msg = "RECUR sizes (hidden, inputs, steps, ep, vp) must be >= 1";
    return false;
  }
  if (r.thread >= numIbufs || r.tag >= kTags) {
    msg = "RECUR thread " + std::to_string(r.thread) + " / tag " +
          std::to_string(r.tag) + " out of range";
    return false;
  }
  for (const RecurOperand &o : r.operands()) {
    uint64_t limit = o.inDram ? dram.size() : hw.storageBytes;
    if (i128(o.addr) + i128(o.bytes) <= i128(limit))
      continue;
    msg = std::string("RECUR ") + o.name + " [" + std::to_string(o.addr) +
          ", +" + std::to_string(o.bytes) + ") outside the " +
          (o.inDram ? "DRAM" : "storage unit");
    return false;
  }
  return true;
}

rnn::EngineTask Sim::engineTask(const PendingRecur &p,
                                uint64_t dramStreamers) const {
  const RecurDesc &r = p.desc;
  rnn::EngineTask t;
  t.cell = cellOf(r.cell);
  t.hidden = r.hidden;
  t.inputs = r.inputs;
  t.steps = r.steps;
  t.ep = r.ep;
  t.vp = r.vp;
  t.candidateVp = r.candidateVp;
  t.thread = r.thread;
  t.linearBeforeReset = r.linearBeforeReset;
  t.weightElemBytes = 4;
  t.weightBytesPerCycle =
      r.weightsInDram ? rnn::dramShareBytesPerCycle(hw, int64_t(dramStreamers))
                      : hw.weightLoadBytesPerCycle;
  return t;
}

bool Sim::flushEngine(Cluster &c) {
  if (c.pendingRecur.empty())
    return true;
  // A task of zero steps (a run-time length of 0) does nothing: it
  // completes when issued, without the engine.
  std::vector<rnn::EngineTask> tasks;
  std::vector<size_t> onEngine;
  uint64_t streamers = std::max<uint64_t>(1, dramRecurClusters);
  WeightPlan plan = planWeights(c, streamers);
  // The weight-queue fill starts with the batch's first task and ends
  // before any block issues; later tasks arrive when they are issued.
  uint64_t first = UINT64_MAX;
  for (const PendingRecur &p : c.pendingRecur)
    first = std::min(first, p.issued);
  const uint64_t filled =
      std::max({first, c.engineFree, c.peFree}) + plan.fillCycles;
  for (size_t i = 0; i < c.pendingRecur.size(); ++i) {
    const PendingRecur &p = c.pendingRecur[i];
    if (p.desc.steps == 0)
      continue;
    rnn::EngineTask t = engineTask(p, streamers);
    if (plan.stationary)
      t.weightBytesPerCycle = 0; // held in the weight queues
    t.arrival = int64_t(std::max({p.issued, filled, p.desc.arrival}));
    tasks.push_back(t);
    onEngine.push_back(i);
  }
  rnn::EngineRun run =
      rnn::runEngine(rnn::engineOf(hw), tasks, int64_t(numIbufs));
  uint64_t engineEnd = c.engineFree;
  for (size_t k = 0; k < tasks.size(); ++k)
    engineEnd = std::max<uint64_t>(engineEnd, uint64_t(run.tasks[k].lastIssue));
  for (size_t i = 0, k = 0; i < c.pendingRecur.size(); ++i) {
    const PendingRecur &p = c.pendingRecur[i];
    rnn::EngineTaskRun none;
    none.start = none.finish = int64_t(p.issued);
    bool ran = k < onEngine.size() && onEngine[k] == i;
    if (!retireRecur(c, p, ran ? tasks[k] : engineTask(p, streamers),
                     ran ? run.tasks[k] : none, plan))
      return false;
    k += ran;
  }
  c.engineFree = engineEnd;
  c.peFree = std::max(c.peFree, engineEnd);
  c.st.peBusyCycles += uint64_t(run.issueCycles);
  busyTotals.pe += uint64_t(run.issueCycles);
  if (activity.enabled() && !tasks.empty())
    activity.add(c.index, filled, engineEnd, double(run.issueCycles), 0);
  stats.rnn.tasks += tasks.size();
  stats.rnn.issueCycles += uint64_t(run.issueCycles);
  stats.rnn.idleCycles += uint64_t(run.idleCycles);
  stats.rnn.switches += uint64_t(run.switches);
  stats.rnn.switchCycles += uint64_t(run.switchCycles);
  stats.rnn.sfuCycles += uint64_t(run.sfuCycles);
  if (!tasks.empty()) // the engine's timeline: first block to last write-back
    stats.rnn.spanCycles += uint64_t(run.makespan) - filled;
  c.pendingRecur.clear();
  return true;
}

/// A scheduled task: its tag, statistics, layer, hazard windows, trace.
bool Sim::retireRecur(Cluster &c, const PendingRecur &p,
                      const rnn::EngineTask &t, const rnn::EngineTaskRun &run,
                      const WeightPlan &plan) {
  const RecurDesc &r = p.desc;
  uint64_t start = uint64_t(run.start), finish = uint64_t(run.finish);
  c.tagDone[r.tag] = std::max(c.tagDone[r.tag], finish);
  c.lastDmaDone = std::max(c.lastDmaDone, finish);
  uint64_t macs = r.macsPerStep() * r.steps;
  c.st.macs += macs;
  stats.macs += macs;
  if (activity.enabled())
    activity.add(c.index, start, finish, 0, double(macs));
  // Weight-stationary: each distinct matrix is read once into the queues
  // (charged to the first task that uses it); streaming: every step.
  uint64_t weightBytes = r.weightElems() * 4 * r.steps;
  if (plan.stationary)
    weightBytes = plan.firstUser.count(&p) ? r.weightElems() * 4 : 0;
  LayerCounters d;
  d.macs = macs;
  d.busy.pe = uint64_t(run.issueCycles);
  if (r.weightsInDram) {
    stats.dramBytesRead += weightBytes;
    c.st.dramBytes += weightBytes;
    d.dramRead = weightBytes;
  } else {
    stats.storageBytesRead += weightBytes;
    d.storage = weightBytes;
  }
  layerAcct.charge(p.layer, c.index, start, finish, d);
  if (!recurAccesses(c, p, start, finish))
    return false;
  if (trace.enabled()) {
    uint64_t tid = 100 + r.thread;
    if (!c.rnnTraceThreads.count(r.thread)) {
      c.rnnTraceThreads.insert(r.thread);
      trace.thread(c.index, tid, "RNN thread " + std::to_string(r.thread));
    }
    trace.complete(std::string("RECUR ") + (r.cell == RecurCell::Lstm  ? "lstm"
                                            : r.cell == RecurCell::Gru ? "gru"
                                                                       : "rnn"),
                   c.index, tid, start, finish - start,
                   "{\"command\":" + std::to_string(p.cmd) +
                       ",\"steps\":" + std::to_string(r.steps) +
                       ",\"ep\":" + std::to_string(t.ep) +
                       ",\"vp\":" + std::to_string(t.vp) + "}");
  }
  return true;
}

bool Sim::recurAccesses(Cluster &c, const PendingRecur &p, uint64_t start,
                        uint64_t finish) {
  for (const RecurOperand &o : p.desc.operands()) {
    if (!o.bytes || o.inDram)
      continue;
    Access a;
    a.range = {i128(o.addr), i128(o.addr) + i128(o.bytes)};
    a.start = a.issued = start;
    a.end = finish;
    a.write = o.write;
    a.cluster = c.index;
    a.cmd = p.cmd;
    if (!addAccess(a, int(c.index)))
      return false;
  }
  return true;
}

} // namespace sim
} // namespace accel
