//===- Validate.h - Semantic checks of a Program against hardware -*- C++
//-*-===//
//
// validateProgram() is what the simulator runs before executing a Program:
// after it succeeds no command can address memory outside DRAM
// ([0, dramSize)), a storage unit ([0, hw.storageBytes)) or a PE buffer, and
// every buffer / slot / tag index is in range. The rules (docs/isa.md,
// "Validation rules"):
//  - hwFingerprint == hw.fingerprint(), grid == hw grid, one stream per
//    cluster, dramSize <= hw.dramBytes;
//  - symbols (unique names) and constant segments lie inside [0, dramSize),
//    do not overlap one another, and symbols are 4-byte aligned;
//  - a symbol cut into pieces: its address is the first piece's; every
//    piece is non-empty, whole elements of the image, inside the image and
//    [0, dramSize), 4-byte aligned; offsets ascend; together they cover
//    the image. Pieces and constant replicas count as DRAM items of their
//    own for the overlap rule (replicas also inside [0, dramSize));
//  - every byte of an output symbol (of a pieced one: the bytes read, i.e.
//    those of the first piece covering each byte) lies in the DRAM-side
//    span of some DMA that writes DRAM (Store, DramCopy): its shape agrees
//    with the stores;
//  - CONFIG: ibuf < hw.instructionBuffers, 1 <= size <=
//    hw.instructionBufferDepth, the operand records of all configured
//    buffers fit hw.registerFileEntries, every instruction encodes
//    (slots < 16, acc < 4, valid enums), rows/cols/repeat >= 1, MAC depth
//    >= 1, SPU binary second slot (depth) < 16, LD psums slot < 4;
//  - EXECUTE: ibuf configured, patch indexes exist; then, with the patches
//    applied to the simulated register file of that buffer, every LD / ST
//    storage tile lies inside the storage unit and every PE-side tile (input
//    buffer from its slot base, weight queue, accumulation buffer) fits;
//  - DMA: tag < 8, elemBytes in {1,2,4}, extents >= 1, both boxes inside
//    DRAM / storage according to the direction (negative strides allowed);
//    remote_load: hw.sharedClusterCache, a source cluster inside the grid
//    other than the issuing one;
//  - BARRIER: every cluster passes the same sequence of barrier ids;
//  - SEND / SIGNAL / RECV: targets inside the grid (ascending, unique), sem
//    < kNumSemaphores, RECV count >= 1, SEND bytes >= 1 and both ranges
//    inside the storage unit; per (cluster, sem) the RECV counts equal the
//    SEND / SIGNAL arrivals; a symbolic run of BARRIER / RECV / SEND /
//    SIGNAL finishes every stream (no deadlock);
//  - constant packets: cluster / core exist, one per core, marker and
//    blocks inside DRAM, blocks inside constant segments (or their
//    replicas), markers overlap
//    no symbol, segment or other marker.
// Elements of LD / ST / MAC / SPU tiles are 4 bytes (f32).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TARGET_VALIDATE_H
#define ACCEL_TARGET_VALIDATE_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Target/Program.h"
#include <functional>
#include <memory>
#include <string>

namespace accel {

/// Returns false and a message locating the first violation, e.g.
/// "cluster (0,1) command 4 (EXECUTE ibuf 0): instruction 2 (LD): storage
/// tile [512, 66048) outside the storage unit [0, 65536)".
bool validateProgram(const Program &p, const HardwareDesc &hw,
                     std::string &err);

/// validateProgram with the command streams checked on a thread of its
/// own, a chunk of each cluster's stream in turn, so that the caller can run
/// the commands checked so far meanwhile (accel-run simulates them:
/// docs/simulator.md, "Eleventh round"). finish() gives validateProgram's
/// result and message. The Program must not change until finish().
class StreamedValidation {
public:
  StreamedValidation(const Program &p, const HardwareDesc &hw);
  /// Waits for the thread.
  ~StreamedValidation();
  StreamedValidation(const StreamedValidation &) = delete;
  StreamedValidation &operator=(const StreamedValidation &) = delete;

  /// The checks before the streams (hardware, symbols, constants, layers,
  /// packets, DRAM layout), on the calling thread; when they pass, starts
  /// the thread. False with validateProgram's message otherwise.
  bool start(std::string &err);
  /// Commands of cluster `ci` checked and valid so far: a prefix of its
  /// stream, the whole stream once it passed.
  uint64_t checked(size_t ci) const;
  /// Whether a violation was found (finish() says which).
  bool failed() const;
  /// SimOptions::commandsChecked for a run of the program while it is
  /// checked: sets n = checked(cluster), false once failed(). Valid while
  /// this object lives.
  std::function<bool(uint32_t cluster, uint64_t &n)> gate() const {
    return [this](uint32_t cluster, uint64_t &n) {
      n = checked(cluster);
      return !failed();
    };
  }
  /// Waits for the thread: true when the program is valid, else false with
  /// validateProgram's message.
  bool finish(std::string &err);

  /// Commands of a stream checked at a time.
  static constexpr size_t kChunkCommands = 1024;

private:
  struct State;
  std::unique_ptr<State> state;
};

} // namespace accel

#endif
