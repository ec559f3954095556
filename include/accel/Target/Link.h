//===- Link.h - Several programs as one, on parts of one machine -*- C++
//-*-===//
//
// Several networks in one binary (spec/multi-network.md, docs/multi-network.md
// "Linking"): each network is compiled alone for a sub-machine (a rectangle of
// the cluster grid and a slice of every memory channel's DRAM region), then
// the programs are linked: their cluster streams move to the rectangle's
// clusters, every DRAM address moves into the network's slice of the same
// channel (so the channel a buffer was placed on does not change), and the
// symbols and layers are named NETWORK.NAME.
//
// Parallel: each network runs on its own clusters, under its own control
// units (MIMD); Sequential (the baseline of the spec: one SIMD array, one
// network at a time): every network on the whole grid, one after the other,
// separated by a barrier, each loading its own weights again.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TARGET_LINK_H
#define ACCEL_TARGET_LINK_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Target/Program.h"

#include <string>
#include <vector>

namespace accel {

/// A rectangle of the cluster grid: rows x cols clusters from (row0, col0).
struct ClusterRect {
  uint32_t row0 = 0, col0 = 0, rows = 1, cols = 1;
};

/// The machine one of `parts` networks is compiled for: `full` with the
/// rectangle's grid and, of each memory channel it uses, a slice of 1 /
/// parts of the channel's DRAM region (a multiple of 4 KiB). It uses every
/// channel, or, when the rectangle has fewer clusters than the machine has
/// channels, the channels local to its clusters. `channels[k]` = the full
/// machine's channel of its channel k. False with `err` when the rectangle
/// is outside the grid or the slices would be empty.
bool subMachine(const HardwareDesc &full, const ClusterRect &rect,
                uint32_t parts, HardwareDesc &out,
                std::vector<uint32_t> &channels, std::string &err);

struct LinkPart {
  std::string name; ///< the network's name: prefix of its symbols / layers
  Program program;  ///< compiled for subMachine(full, rect, parts)
  ClusterRect rect; ///< its clusters (Sequential: the whole grid)
  std::vector<uint32_t> channels; ///< subMachine's channel map
};

enum class LinkMode { Parallel, Sequential };

/// Links `parts` (in order; part i owns DRAM slice i of every channel) into
/// one program for `full`. False with `err` naming the network when a part
/// does not fit (clusters shared in Parallel mode, an address outside its
/// slice, a DMA box that crosses a channel region). The parts' programs
/// are moved from, whatever the outcome.
/// `partStarts` (optional): per part, per cluster of `full`, the index in
/// that cluster's stream of the part's first command.
bool linkPrograms(std::vector<LinkPart> &parts, const HardwareDesc &full,
                  LinkMode mode, Program &out, std::string &err,
                  std::vector<std::vector<size_t>> *partStarts = nullptr);

} // namespace accel

#endif
