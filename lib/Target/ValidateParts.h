//===- ValidateParts.h - Pieces of validateProgram (internal) ---*- C++ -*-===//
//
// validateProgram (Validate.cpp) checks the commands of each stream in order;
// the checks of the mesh / semaphore commands, the remote_load DMA, the
// constant packets and the whole-program synchronisation analysis live in
// ValidateSync.cpp and ValidatePackets.cpp. Each returns false with a message
// (without the "cluster (r,c) command k (KIND): " prefix for per-command
// checks, which the caller adds). ValidatePieces.cpp checks the DRAM pieces
// of symbols.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_TARGET_VALIDATEPARTS_H
#define ACCEL_LIB_TARGET_VALIDATEPARTS_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Target/Program.h"
#include <string>
#include <vector>

namespace accel {
namespace validate {

/// "(r,c)" of a row-major cluster index of `p`'s grid.
std::string clusterName(const Program &p, uint64_t cluster);

/// SEND / SIGNAL / RECV issued by `cluster`: targets inside the grid,
/// ascending and unique; sem < kNumSemaphores; RECV count >= 1; SEND tag < 8,
/// bytes >= 1, source and destination ranges inside the storage unit.
bool checkSyncCommand(const Command &c, const Program &p,
                      const HardwareDesc &hw, std::string &msg);

/// The remote_load-specific rules of a DMA issued by `cluster`: a machine
/// whose storage unit is a shared cluster cache, a source cluster inside the
/// grid other than `cluster`. (Both boxes are storage boxes.)
bool checkRemoteLoad(const DmaDesc &d, uint64_t cluster, const Program &p,
                     const HardwareDesc &hw, std::string &msg);

/// RECUR (ValidateRecur.cpp): thread < instruction buffers, tag < 8, ep a
/// power of two <= rnn.ep_max, vp within constraints (7) and (8), operands
/// inside the storage unit (weights in DRAM with weightsInDram), outputs
/// not overlapping the operands the task still reads.
bool checkRecur(const RecurDesc &r, const Program &p, const HardwareDesc &hw,
                std::string &msg);

/// Whole program, after every command passed its own checks and the barrier
/// sequences agree: for every (cluster, semaphore) the RECV counts equal the
/// SEND / SIGNAL arrivals, and a symbolic run of BARRIER / RECV / SEND /
/// SIGNAL (ignoring time) completes every stream. The message names the
/// cluster, the command and the semaphore.
bool checkSynchronisation(const Program &p, std::string &err);

/// Constant packets: cluster inside the grid, core < hw.pesPerCluster, one
/// packet per core, marker and blocks inside [0, dramSize), every block
/// inside the constant segments.
bool checkPackets(const Program &p, const HardwareDesc &hw, std::string &err);

/// A byte range [lo, hi), in 128 bits so that no address sum overflows.
struct ByteRange {
  __int128 lo, hi;
};

/// Byte range [lo, hi) touched by a strided box of `n` dims.
ByteRange boxRange(__int128 base, const uint32_t *shape, const int64_t *stride,
                   int n, uint32_t elemBytes);

/// Bytes of one element of a symbol's DRAM image: i1 / i64 interface values
/// are held as f32 words, the other dtypes as themselves.
__int128 symbolElementBytes(DType t);

/// The pieces of symbol `s` (non-empty `s.pieces`) whose dense image has
/// `imageBytes` bytes (ValidatePieces.cpp): the symbol's address is the
/// first piece's; every piece is non-empty, 4-byte aligned, inside
/// [0, dramSize) and the image, made of whole elements; offsets ascend; the
/// pieces cover every image byte. Appends each piece's DRAM bytes to
/// `ranges` (for the overlap check). The message has no "symbol 'x': "
/// prefix.
bool checkPieces(const Symbol &s, __int128 imageBytes, uint64_t dramSize,
                 std::vector<ByteRange> &ranges, std::string &msg);

/// What is read of an output in pieces: of each piece the image bytes no
/// earlier piece covers (`image`) and where they lie in DRAM (`dram`).
struct ReadPart {
  size_t piece;
  ByteRange image, dram;
};
std::vector<ReadPart> outputReadParts(const Symbol &s);

} // namespace validate
} // namespace accel

#endif
