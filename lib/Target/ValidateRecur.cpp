//===- ValidateRecur.cpp - validateProgram's checks of RECUR --------------===//
//
// A RECUR task against the machine: the thread context exists, EP / VP obey
// the adder-tree width and constraints (7) and (8) of the spec, and every
// operand lies inside the storage unit (the weights possibly in DRAM); the
// outputs do not overwrite what the task still reads.
//
//===----------------------------------------------------------------------===//
#include "ValidateParts.h"
#include "accel/Target/Encoding.h"

namespace accel {
namespace validate {

namespace {

struct Operand {
  const char *name;
  __int128 addr, bytes;
};

bool inside(const Operand &o, __int128 limit, const char *where,
            std::string &msg) {
  if (o.addr + o.bytes <= limit)
    return true;
  msg = std::string("RECUR ") + o.name + " [" +
        std::to_string(uint64_t(o.addr)) + ", " +
        std::to_string(uint64_t(o.addr + o.bytes)) + ") outside the " + where +
        " [0, " + std::to_string(uint64_t(limit)) + ")";
  return false;
}

bool overlaps(const Operand &a, const Operand &b) {
  return a.bytes > 0 && b.bytes > 0 && a.addr < b.addr + b.bytes &&
         b.addr < a.addr + a.bytes;
}

bool checkShape(const RecurDesc &r, const HardwareDesc &hw, std::string &msg) {
  uint64_t npe = uint64_t(hw.pesPerCluster) * hw.macLanes;
  auto bad = [&](const std::string &m) {
    msg = "RECUR " + m;
    return false;
  };
  if (r.thread >= hw.instructionBuffers)
    return bad("thread " + std::to_string(r.thread) +
               " does not exist (the control unit has " +
               std::to_string(hw.instructionBuffers) +
               " instruction buffers = thread contexts)");
  if (r.tag >= kNumDmaTags)
    return bad("tag " + std::to_string(r.tag) + " out of range [0, 8)");
  if (r.hidden < 1 || r.inputs < 1 || r.steps < 1)
    return bad("hidden, inputs and steps must be >= 1");
  if (r.ep < 1 || (r.ep & (r.ep - 1)) || r.ep > hw.rnnEpMax)
    return bad("ep " + std::to_string(r.ep) +
               " must be a power of two <= rnn.ep_max " +
               std::to_string(hw.rnnEpMax));
  uint64_t cap = npe / r.ep;
  if (r.vp < 1 || r.vp > r.rows() || r.vp > cap)
    return bad("vp " + std::to_string(r.vp) + " must be in [1, min(rows " +
               std::to_string(r.rows()) + ", npe / ep = " +
               std::to_string(cap) + ")] (constraints (7), (8))");
  if (r.cell == RecurCell::Gru &&
      (r.candidateVp < 1 || r.candidateVp > r.hidden || r.candidateVp > cap))
    return bad("candidate_vp " + std::to_string(r.candidateVp) +
               " must be in [1, min(hidden, npe / ep)]");
  return true;
}

} // namespace

bool checkRecur(const RecurDesc &r, const Program &p, const HardwareDesc &hw,
                std::string &msg) {
  if (!checkShape(r, hw, msg))
    return false;
  __int128 h = __int128(r.hidden) * 4, steps = r.steps;
  bool lstm = r.cell == RecurCell::Lstm;
  Operand weights{"weights", r.weights, __int128(r.weightElems()) * 4};
  std::vector<Operand> reads = {
      {"bias", r.bias, __int128(r.biasElems()) * 4},
      {"peepholes", r.peepholes, r.peephole ? 3 * h : 0},
      {"x", r.x, steps * r.inputs * 4},
      {"h0", r.h0, h},
      {"c0", r.c0, lstm ? h : 0},
      {"seq_len", r.seqLen, r.hasSeqLen ? 4 : 0}};
  std::vector<Operand> writes = {
      {"y", r.y, steps * h}, {"h_t", r.hT, h}, {"c_t", r.cT, lstm ? h : 0}};
  if (!inside(weights, r.weightsInDram ? __int128(p.dramSize) : hw.storageBytes,
              r.weightsInDram ? "DRAM" : "storage unit", msg))
    return false;
  if (!r.weightsInDram)
    reads.push_back(weights);
  for (const std::vector<Operand> *list : {&reads, &writes})
    for (const Operand &o : *list)
      if (!inside(o, hw.storageBytes, "storage unit", msg))
        return false;
  for (const Operand &w : writes)
    for (const Operand &rd : reads)
      if (overlaps(w, rd) && std::string(rd.name) != "h0" &&
          std::string(rd.name) != "c0") {
        msg = std::string("RECUR ") + w.name + " overlaps " + rd.name +
              ", which the task reads until its last step";
        return false;
      }
  return true;
}

} // namespace validate
} // namespace accel
