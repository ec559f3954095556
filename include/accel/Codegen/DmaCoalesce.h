//===- DmaCoalesce.h - Consecutive DMAs merged into one box -----*- C++ -*-===//
//
// Pure C++ (no MLIR). On-chip residency and DRAM placement by pieces split a
// kernel's DMA box at every piece end (Residency.cpp, splitAtPieces), one
// DMA per piece. Where the pieces are one input channel each (a producer
// split by output channels), a tile of 16 channels x 64 pixels became 16
// DMAs of 256 bytes, and each DMA holds its memory channel for its share of
// the latency as well as its beats (MemoryChannel::occupancyCycles): the
// loads took about three times their bytes' time. Channel placement often
// puts consecutive pieces next to each other again, so the parts of a box
// that are contiguous in both memories once more are merged back.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_CODEGEN_DMACOALESCE_H
#define ACCEL_CODEGEN_DMACOALESCE_H

#include "accel/Target/Program.h"
#include <cstddef>

namespace accel::codegen {

/// Whether DMA `b`, issued right after `a`, continues `a`'s box along its
/// outermost dimension: same direction (a load, store, local copy or remote
/// load), tag, element size, source cluster,
/// inner extents and strides (nonzero along the merged dimension), and both
/// of `b`'s addresses where `a`'s box would put its next slice. The merged
/// box is then `a` with the extents of that dimension added; a DMA that a
/// split cut from one box merges back into a part of that box.
bool continuesBox(const DmaDesc &a, const DmaDesc &b);

/// Merges every run of loads, stores, local copies and remote loads that
/// are consecutive in a cluster's stream, of the same layer, continue each
/// other's box (continuesBox) and whose DRAM sides lie in the same program
/// input or output, or in none, into one DMA. Returns how many DMAs were
/// removed. A store to a piece with copies on other channels is one store
/// per copy; their addresses do not continue each other, so each merged
/// run writes one copy.
size_t coalesceDmaLoads(Program &p);

} // namespace accel::codegen

#endif
