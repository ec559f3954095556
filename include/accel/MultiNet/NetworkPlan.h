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

struct NetworkPlanFile {
  std::vector<NetworkEntry> networks;
};

/// Reads and checks a plan file. False with `err` naming the file and the
/// entry (a missing field, a duplicate or malformed name, an unsupported
/// interaction or arrival, a model file that does not exist).
bool readNetworkPlan(const std::string &path, NetworkPlanFile &plan,
                     std::string &err);

/// Each network's rectangle {row, col, rows, cols} on a rows x cols grid:
/// the given ones, or, when none is given, equal strips of whole rows (or
/// of whole columns). False with `err` when the networks do not divide the
/// grid or a given rectangle leaves the grid or overlaps another.
bool planRectangles(const NetworkPlanFile &plan, uint32_t rows, uint32_t cols,
                    std::vector<std::vector<uint32_t>> &rects,
                    std::string &err);

} // namespace accel::multinet

#endif
