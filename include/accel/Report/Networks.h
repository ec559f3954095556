//===- Networks.h - Per-network figures of a linked program -----*- C++ -*-===//
//
// A program linked by accel-compile --networks names its layers and symbols
// NETWORK.NAME (docs/multi-network.md). These figures are what accel-run
// prints per network and what the HTML report tabulates: when each network
// ran, on which clusters, its MACs, MAC utilisation, DRAM bytes and dynamic
// energy.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_REPORT_NETWORKS_H
#define ACCEL_REPORT_NETWORKS_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Sim/Simulator.h"
#include "accel/Target/Program.h"

#include <map>
#include <string>
#include <vector>

namespace accel {

/// The networks of a linked program: names and the index of each layer's
/// network. Empty unless every layer is NETWORK.LAYER and every symbol
/// NETWORK.TENSOR of one of two or more networks (so one model's layers
/// named "block1.conv" are not taken for networks).
struct Networks {
  std::vector<std::string> names;
  std::vector<size_t> ofLayer;
};
Networks findNetworks(const Program &p);

struct NetworkSummary {
  std::string name;
  /// First cycle one of its commands was issued and the last one active.
  uint64_t first = 0, last = 0;
  /// When its inputs arrived (the latest; SimOptions::inputArrival). Its
  /// latency is last - arrival.
  uint64_t arrival = 0;
  std::vector<uint32_t> clusters; ///< row-major, where its commands run
  uint64_t macs = 0, dramBytes = 0;
  /// macs / (clusters x peak MACs per cluster-cycle x (last - first)).
  double macUtilisation = 0;
  /// MAC, DRAM and storage energy of its layers. Static energy belongs to
  /// the clusters and mesh energy to the routes, not to a network.
  double dynamicPj = 0;
};

/// One summary per network of findNetworks(prog); empty for one model.
/// `arrivals`: input symbol -> cycle (SimOptions::inputArrival).
std::vector<NetworkSummary>
networkSummaries(const Program &prog, const HardwareDesc &hw,
                 const SimStats &stats,
                 const std::map<std::string, uint64_t> &arrivals = {});

} // namespace accel

#endif
