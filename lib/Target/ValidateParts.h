//===- ValidateParts.h - Pieces of validateProgram (internal) ---*- C++ -*-===//
//
// validateProgram (Validate.cpp) checks the commands of each stream in order;
// the checks of the mesh / semaphore commands, the remote_load DMA, the
// constant packets and the whole-program synchronisation analysis live in
// ValidateSync.cpp and ValidatePackets.cpp. Each returns false with a message
// (without the "cluster (r,c) command k (KIND): " prefix for per-command
// checks, which the caller adds).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_TARGET_VALIDATEPARTS_H
#define ACCEL_LIB_TARGET_VALIDATEPARTS_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Target/Program.h"
#include <string>

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

} // namespace validate
} // namespace accel

#endif
