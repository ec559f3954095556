//===- FuzzBinary.cpp - Fuzz the binary reader, validator and simulator ---===//
//
// Input: the bytes of an accelerator binary (seeds: small ONNX node tests
// compiled by accel-compile for the default hardware). The reader must
// reject malformed bytes with a message; a program it accepts goes through
// validateProgram on the default hardware, and a valid program is simulated
// (inputs filled with a fixed pattern) and must either finish or fail with a
// message.
//
// So that mutations get past the container checks, the harness rewrites the
// header's total size (offset 40) and CRC-32 (offset 52) of every input of
// at least 64 bytes before reading it; the unit tests cover those checks.
//
// Bounds (documented so they do not hide anything else):
//  - inputs over 256 KiB are skipped;
//  - programs whose simulated work (an upper bound: for every EXECUTE, the
//    tile elements x reduction depth x repeat x PEs of its instructions, plus
//    the elements of every DMA) exceeds kMaxWork are validated but not
//    simulated, so one input cannot run for minutes;
//  - programs claiming more than kMaxDram bytes of DRAM or more than
//    kMaxInputElements input elements are not simulated: the simulator
//    allocates the DRAM the header claims (a known issue being fixed
//    separately).
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Sim/Simulator.h"
#include "accel/Target/Binary.h"
#include "accel/Target/Validate.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

using namespace accel;

namespace {

constexpr uint64_t kMaxWork = uint64_t(1) << 23;
constexpr uint64_t kMaxDram = uint64_t(64) << 20;
constexpr uint64_t kMaxInputElements = uint64_t(1) << 20;

void putLE(std::vector<uint8_t> &b, size_t at, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i)
    b[at + i] = uint8_t(v >> (8 * i));
}

uint64_t saturatingAdd(uint64_t a, unsigned __int128 b) {
  unsigned __int128 s = a + b;
  return s > ~uint64_t(0) ? ~uint64_t(0) : uint64_t(s);
}

/// Upper bound of the element operations simulate() performs on `p`,
/// replaying CONFIG / EXECUTE (with their patches) as the control unit does.
uint64_t simulatedWork(const Program &p, const HardwareDesc &hw) {
  uint64_t work = 0;
  for (const ClusterStream &s : p.clusters) {
    std::vector<std::vector<Instruction>> buffers(hw.instructionBuffers);
    for (const Command &cmd : s.commands) {
      if (cmd.kind == CommandKind::Dma) {
        work = saturatingAdd(work, cmd.dma.numElements());
        continue;
      }
      if (cmd.ibuf >= buffers.size())
        continue;
      if (cmd.kind == CommandKind::Config) {
        buffers[cmd.ibuf] = cmd.instrs;
        continue;
      }
      if (cmd.kind != CommandKind::Execute)
        continue;
      std::string err;
      if (!applyPatches(buffers[cmd.ibuf], cmd.patches, err))
        continue;
      for (const Instruction &in : buffers[cmd.ibuf]) {
        const OperandRecord &r = in.operands;
        unsigned __int128 w = r.rows;
        w = (w + 1) * (uint64_t(r.cols) + 1);
        w *= std::max<uint64_t>(r.depth, 1);
        w *= std::max<uint64_t>(r.repeat, 1);
        w *= hw.pesPerCluster;
        work = saturatingAdd(work, w);
      }
    }
  }
  return work;
}

/// Fills every input symbol with a fixed pattern (finite, signed, with
/// zeros) so the simulator's numeric paths all run.
bool makeInputs(const Program &p, std::map<std::string, Tensor> &inputs) {
  uint64_t total = 0;
  for (const Symbol &s : p.symbols) {
    if (!s.isInput)
      continue;
    total += s.numElements();
    if (total > kMaxInputElements)
      return false;
    Tensor t;
    t.shape = s.shape;
    t.data.resize(s.numElements());
    for (size_t i = 0; i < t.data.size(); ++i)
      t.data[i] = float(int(i % 7) - 3) * 0.5f;
    inputs[s.name] = std::move(t);
  }
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 256 * 1024)
    return -1;
  std::vector<uint8_t> bytes(data, data + size);
  if (size >= kBinaryHeaderBytes) {
    putLE(bytes, 40, size, 8);
    putLE(bytes, kBinaryChecksumOffset,
          crc32(bytes.data() + kBinaryHeaderBytes, size - kBinaryHeaderBytes),
          4);
  }
  Program prog;
  std::string err;
  if (!readBinary(bytes.data(), bytes.size(), prog, err)) {
    fuzz::fuzzCheck(!err.empty(), "reader rejected without a message");
    return 0;
  }
  static const HardwareDesc hw = defaultHardware();
  if (!validateProgram(prog, hw, err)) {
    fuzz::fuzzCheck(!err.empty(), "validator rejected without a message");
    return 0;
  }
  if (prog.dramSize > kMaxDram || simulatedWork(prog, hw) > kMaxWork)
    return 0;
  std::map<std::string, Tensor> inputs, outputs;
  if (!makeInputs(prog, inputs))
    return 0;
  SimOptions opts;
  opts.hazardsAreErrors = true;
  SimStats stats;
  if (!simulate(prog, hw, inputs, opts, outputs, stats, err))
    fuzz::fuzzCheck(!err.empty(), "simulator failed without a message");
  return 0;
}
