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

bool inside(const RecurOperand &o, __int128 limit, const char *where,
            std::string &msg) {
  if (__int128(o.addr) + o.bytes <= limit)
    return true;
  msg = std::string("RECUR ") + o.name + " [" + std::to_string(o.addr) + ", " +
        std::to_string(uint64_t(__int128(o.addr) + o.bytes)) +
        ") outside the " + where + " [0, " + std::to_string(uint64_t(limit)) +
        ")";
  return false;
}

bool overlaps(const RecurOperand &a, const RecurOperand &b) {
  __int128 a0 = a.addr, a1 = a0 + a.bytes, b0 = b.addr, b1 = b0 + b.bytes;
  return a.bytes > 0 && b.bytes > 0 && a0 < b1 && b0 < a1;
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
  const std::vector<RecurOperand> ops = r.operands();
  for (const RecurOperand &o : ops)
    if (!inside(o, o.inDram ? __int128(p.dramSize) : hw.storageBytes,
                o.inDram ? "DRAM" : "storage unit", msg))
      return false;
  // h0 / c0 are read before the first step, so an output may reuse them.
  for (const RecurOperand &w : ops)
    for (const RecurOperand &rd : ops)
      if (w.write && !rd.write && !rd.inDram && !rd.readOnce &&
          overlaps(w, rd)) {
        msg = std::string("RECUR ") + w.name + " overlaps " + rd.name +
              ", which the task reads until its last step";
        return false;
      }
  return true;
}

} // namespace validate
} // namespace accel
