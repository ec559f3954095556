//===- NetworkPlan.h - The networks of accel-compile --networks -*- C++ -*-===//
//
// A plan file lists the networks one binary runs together (docs/
// multi-network.md, "Plan file"):
//
//   {"networks": [{"name": "cnn", "model": "cnn.onnx",
//                  "input_shapes": {"input": [1, 3, 32, 32]},
//                  "clusters": {"row": 0, "col": 0, "rows": 1, "cols": 2}},
//                 ...],
//    "interactions": []}
//
// Model paths are relative to the plan file. Pure C++ (nlohmann_json).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_MULTINET_NETWORKPLAN_H
#define ACCEL_MULTINET_NETWORKPLAN_H

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace accel::multinet {

struct NetworkEntry {
  std::string name;  ///< [A-Za-z0-9_-]+, unique: prefix NAME. of its tensors
  std::string model; ///< .onnx or .mlir, resolved against the plan's folder
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// Its clusters: a rectangle of the grid (row, col, rows, cols); absent:
  /// the grid is cut into equal strips (planRectangles).
  std::optional<std::vector<uint32_t>> clusters;
};

/// A tensor of one network: "NETWORK.TENSOR" in the plan (TENSOR is an
/// ONNX tensor name: a node's output).
struct TensorRef {
  std::string network, tensor;
  std::string str() const { return network + "." + tensor; }
};

/// An interaction: combines tensors of two or more networks on a cluster
/// of its own; every reader of a `consumers` tensor in its network reads
/// the result instead (docs/multi-network.md "Interactions").
struct InteractionEntry {
  std::string name;            ///< like a network's; unique among both
  std::string combine = "sum"; ///< sum | product | concat | onnx
  int64_t axis = 1;            ///< concat
  std::string model;           ///< combine = onnx: a graph, inputs in order
  std::vector<TensorRef> inputs, consumers;
  /// Its cluster {row, col}; absent: the first one no network uses.
  std::optional<std::vector<uint32_t>> cluster;
};

struct NetworkPlanFile {
  std::vector<NetworkEntry> networks;
  std::vector<InteractionEntry> interactions;
};

/// Reads and checks a plan file. False with `err` naming the file and the
/// entry (a missing field, a duplicate or malformed name, an arrival other
/// than 0, a model file that does not exist, an interaction naming a
/// network the plan lacks or a tensor not written NETWORK.TENSOR).
bool readNetworkPlan(const std::string &path, NetworkPlanFile &plan,
                     std::string &err);

/// Each network's rectangle {row, col, rows, cols} on a rows x cols grid:
/// the given ones, or, when none is given, equal strips of whole rows (or
/// of whole columns). False with `err` when the networks do not divide the
/// grid or a given rectangle leaves the grid or overlaps another.
bool planRectangles(const NetworkPlanFile &plan, uint32_t rows, uint32_t cols,
                    std::vector<std::vector<uint32_t>> &rects,
                    std::string &err);

/// Reads `plan["interactions"]` (Interactions.cpp); `names` holds the
/// networks' names. False with `err` naming the interaction.
bool readInteractions(const nlohmann::json &list, const std::string &folder,
                      const std::vector<NetworkEntry> &networks,
                      std::vector<InteractionEntry> &out, std::string &err);

/// Each interaction's cluster (row-major index) on a rows x cols grid whose
/// networks hold `rects`: the given one, or the first free one. False with
/// `err` when it leaves the grid, is taken, or no cluster is free.
bool interactionClusters(const NetworkPlanFile &plan, uint32_t rows,
                         uint32_t cols,
                         const std::vector<std::vector<uint32_t>> &rects,
                         std::vector<uint32_t> &clusters, std::string &err);

} // namespace accel::multinet

#endif
