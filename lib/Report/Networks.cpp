//===- Networks.cpp - Per-network figures of a linked program -------------===//
#include "accel/Report/Networks.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace accel {

namespace {

bool validNetworkName(const std::string &s) {
  if (s.empty() || s.size() > 64)
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum((unsigned char)c) || c == '_' || c == '-';
  });
}

/// The clusters whose streams run commands of each network.
std::vector<std::vector<uint32_t>> clustersOf(const Program &p,
                                              const Networks &nets) {
  std::vector<std::vector<uint32_t>> out(nets.names.size());
  for (uint32_t c = 0; c < p.clusters.size(); ++c)
    for (const Command &cmd : p.clusters[c].commands)
      if (cmd.layer < nets.ofLayer.size()) {
        auto &cs = out[nets.ofLayer[cmd.layer]];
        if (cs.empty() || cs.back() != c)
          cs.push_back(c);
      }
  return out;
}

} // namespace

Networks findNetworks(const Program &p) {
  Networks nets;
  std::map<std::string, size_t> index;
  for (const LayerInfo &l : p.layers) {
    std::string prefix = l.name.substr(0, l.name.find('.'));
    if (prefix.size() == l.name.size() || !validNetworkName(prefix))
      return {};
    auto [it, added] = index.emplace(prefix, nets.names.size());
    if (added)
      nets.names.push_back(prefix);
    nets.ofLayer.push_back(it->second);
  }
  for (const Symbol &s : p.symbols) {
    size_t dot = s.name.find('.');
    if (dot == std::string::npos || !index.count(s.name.substr(0, dot)))
      return {};
  }
  return nets.names.size() >= 2 ? nets : Networks{};
}

std::vector<NetworkSummary>
networkSummaries(const Program &prog, const HardwareDesc &hw,
                 const SimStats &stats,
                 const std::map<std::string, uint64_t> &arrivals) {
  Networks nets = findNetworks(prog);
  std::vector<NetworkSummary> out(nets.names.size());
  std::vector<std::vector<uint32_t>> clusters = clustersOf(prog, nets);
  for (size_t n = 0; n < out.size(); ++n) {
    out[n].name = nets.names[n];
    out[n].first = UINT64_MAX;
    out[n].clusters = clusters[n];
    for (const auto &[input, cycle] : arrivals)
      if (input.rfind(out[n].name + ".", 0) == 0)
        out[n].arrival = std::max(out[n].arrival, cycle);
  }
  for (const LayerStats &L : stats.layers) {
    if (L.id >= nets.ofLayer.size() || !L.commands)
      continue;
    NetworkSummary &s = out[nets.ofLayer[L.id]];
    s.first = std::min(s.first, L.firstCycle);
    s.last = std::max(s.last, L.lastCycle);
    s.macs += L.macs;
    s.dramBytes += L.dramBytesRead + L.dramBytesWritten;
    s.dynamicPj +=
        double(L.macs) * hw.pjPerMac +
        double(L.dramBytesRead + L.dramBytesWritten) * hw.pjPerDramByte +
        double(L.storageBytes) * hw.pjPerStorageByte;
  }
  const double peak = double(hw.pesPerCluster) * hw.macLanes;
  for (NetworkSummary &s : out) {
    if (s.first == UINT64_MAX)
      s.first = 0;
    double capacity =
        peak * double(s.clusters.size()) * double(s.last - s.first);
    s.macUtilisation = capacity > 0 ? double(s.macs) / capacity : 0;
  }
  return out;
}

} // namespace accel
