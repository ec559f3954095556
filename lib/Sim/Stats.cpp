//===- Stats.cpp - stats.json ---------------------------------------------===//
#include "accel/Sim/Simulator.h"

#include <nlohmann/json.hpp>

namespace accel {

namespace {

nlohmann::ordered_json layerJson(const LayerStats &L) {
  nlohmann::ordered_json j;
  if (L.id == Command::kNoLayer)
    j["id"] = nullptr;
  else
    j["id"] = L.id;
  j["name"] = L.name;
  j["op"] = L.op;
  j["fused"] = L.fused;
  j["commands"] = L.commands;
  j["first_cycle"] = L.firstCycle;
  j["last_cycle"] = L.lastCycle;
  j["cycles"] = L.cycles;
  j["exclusive_cycles"] = L.exclusiveCycles;
  j["busy_cycles"] = {{"pe", L.busy.pe},
                      {"dma", L.busy.dma},
                      {"sfu", L.busy.sfu},
                      {"mesh", L.busy.mesh}};
  j["macs"] = L.macs;
  j["model_macs"] = L.modelMacs;
  j["compulsory_bytes"] = L.compulsoryBytes;
  j["dram_bytes_read"] = L.dramBytesRead;
  j["dram_bytes_written"] = L.dramBytesWritten;
  j["storage_bytes"] = L.storageBytes;
  j["mesh_bytes"] = L.meshBytes;
  j["mac_utilisation"] = L.macUtilisation;
  j["roofline_bound"] = L.rooflineBound;
  j["bound_kind"] = L.boundKind;
  j["bound_ratio"] = L.boundRatio;
  j["limit"] = L.limit;
  j["limit_occupancy"] = L.limitOccupancy;
  j["spill_bytes"] = L.spillBytes;
  return j;
}

} // namespace

std::string statsToJson(const SimStats &s) {
  using json = nlohmann::ordered_json;
  json j;
  j["hardware"] = s.hardware;
  j["cycles"] = s.cycles;
  j["time_us"] = s.timeUs;
  j["macs"] = s.macs;
  j["mac_utilisation"] = s.macUtilisation;
  j["dram_bytes_read"] = s.dramBytesRead;
  j["dram_bytes_written"] = s.dramBytesWritten;
  j["dram_local_bytes"] = s.dramLocalBytes;
  j["dram_remote_bytes"] = s.dramRemoteBytes;
  j["storage_bytes_read"] = s.storageBytesRead;
  j["storage_bytes_written"] = s.storageBytesWritten;
  j["energy_pj"] = {{"total", s.energyTotalPj},
                    {"mac", s.energyMacPj},
                    {"dram", s.energyDramPj},
                    {"storage", s.energyStoragePj},
                    {"static", s.energyStaticPj},
                    {"mesh", s.energyMeshPj},
                    {"static_gated", s.energyStaticGatedPj},
                    {"static_ungated", s.energyStaticUngatedPj}};
  j["power"] = {{"gating", s.powerGated},
                {"off_cluster_cycles", s.offClusterCycles},
                {"wakes", s.wakes},
                {"waking_cluster_cycles", s.wakingClusterCycles}};
  json cmds = json::object();
  for (auto &kv : s.commandCounts)
    cmds[kv.first] = kv.second;
  j["commands"] = cmds;
  json instrs = json::object();
  for (auto &kv : s.instructionCounts)
    instrs[kv.first] = kv.second;
  j["instructions"] = instrs;
  j["stores_skipped"] = s.storesSkipped;
  j["effective_macs"] = s.effectiveMacs;
  j["skipped_macs"] = s.skippedMacs;
  j["balanced_macs"] = s.balancedMacs;
  j["output_queue"] = {{"accesses", s.outputQueueAccesses},
                       {"drains", s.outputQueueDrains},
                       {"chained_results", s.chainedResults},
                       {"decoupled_results", s.decoupledResults}};
  j["control_unit"] = {{"scalar_unit_ops", s.scalarUnitOps},
                       {"weight_reloads_skipped", s.weightReloadsSkipped},
                       {"sliding_rows_reused", s.slidingRowsReused}};
  json cl = json::array();
  for (size_t i = 0; i < s.clusters.size(); ++i) {
    const ClusterStats &c = s.clusters[i];
    json cores = json::array();
    for (size_t p = 0; p < c.cores.size(); ++p)
      cores.push_back({{"index", p},
                       {"macs", c.cores[p].macs},
                       {"busy_cycles", c.cores[p].busyCycles},
                       {"mac_utilisation", c.cores[p].macUtilisation}});
    cl.push_back({{"index", i},
                  {"row", c.row},
                  {"col", c.col},
                  {"channel", c.channel},
                  {"finish_cycle", c.finishCycle},
                  {"commands", c.commands},
                  {"executes", c.executes},
                  {"pe_busy_cycles", c.peBusyCycles},
                  {"pe_utilisation", c.peUtilisation},
                  {"macs", c.macs},
                  {"mac_utilisation", c.macUtilisation},
                  {"dma_bytes", c.dmaBytes},
                  {"dma_transfers", c.dmaTransfers},
                  {"stall_cycles", c.stallCycles},
                  {"dram_bytes", c.dramBytes},
                  {"dram_remote_bytes", c.dramRemoteBytes},
                  {"mesh_bytes_sent", c.meshBytesSent},
                  {"mesh_bytes_received", c.meshBytesReceived},
                  {"sends", c.sends},
                  {"signals", c.signals},
                  {"recvs", c.recvs},
                  {"cores", cores}});
  }
  j["clusters"] = cl;
  json ch = json::array();
  for (size_t i = 0; i < s.channels.size(); ++i) {
    const ChannelStats &c = s.channels[i];
    ch.push_back({{"index", i},
                  {"busy_cycles", c.busyCycles},
                  {"utilisation", c.utilisation},
                  {"bytes", c.bytes},
                  {"local_bytes", c.localBytes},
                  {"remote_bytes", c.remoteBytes},
                  {"transfers", c.transfers}});
  }
  j["channels"] = ch;
  json links = json::array();
  for (const LinkStats &l : s.mesh.links)
    links.push_back({{"from", l.from},
                     {"to", l.to},
                     {"busy_cycles", l.busyCycles},
                     {"utilisation", l.utilisation},
                     {"bytes", l.bytes},
                     {"transfers", l.transfers}});
  j["mesh"] = {{"bytes", s.mesh.bytes},
               {"byte_hops", s.mesh.byteHops},
               {"transfers", s.mesh.transfers},
               {"signals", s.mesh.signals},
               {"local_copies", s.mesh.localCopies},
               {"max_link_busy_cycles", s.mesh.maxLinkBusyCycles},
               {"max_link_utilisation", s.mesh.maxLinkUtilisation},
               {"links", links}};
  j["ideal_bound_cycles"] = s.idealBoundCycles;
  j["ideal_macs"] = s.idealMacs;
  j["compulsory_bytes"] = s.compulsoryBytes;
  j["ideal_ratio"] = s.idealRatio;
  json layers = json::array();
  for (const LayerStats &L : s.layers)
    layers.push_back(layerJson(L));
  j["layers"] = layers;
  if (s.unattributed.commands)
    j["unattributed"] = layerJson(s.unattributed);
  j["hazards"] = {{"count", s.hazardCount}, {"messages", s.hazards}};
  j["rnn"] = {{"tasks", s.rnn.tasks},
              {"issue_cycles", s.rnn.issueCycles},
              {"idle_cycles", s.rnn.idleCycles},
              {"switches", s.rnn.switches},
              {"switch_cycles", s.rnn.switchCycles},
              {"sfu_cycles", s.rnn.sfuCycles},
              {"span_cycles", s.rnn.spanCycles}};
  j["wall_seconds"] = s.wallSeconds;
  return j.dump(2) + "\n";
}

} // namespace accel
