//===- Mesh.h - XY routing on the cluster mesh ------------------*- C++ -*-===//
//
// Pure C++: the routes the simulator charges and the compiler plans with.
// Clusters are row-major indices on a rows x cols grid; a route goes along
// the row first (X, changing the column), then along the column (Y).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_HARDWARE_MESH_H
#define ACCEL_HARDWARE_MESH_H

#include <cstdint>
#include <vector>

namespace accel {

/// A directed link between two adjacent routers.
struct MeshLink {
  uint32_t from = 0, to = 0;
  bool operator<(const MeshLink &o) const {
    return from != o.from ? from < o.from : to < o.to;
  }
  bool operator==(const MeshLink &o) const {
    return from == o.from && to == o.to;
  }
};

/// Routers visited from `from` to `to` (both included) under XY routing.
std::vector<uint32_t> xyRoute(uint32_t rows, uint32_t cols, uint32_t from,
                              uint32_t to);
/// The links of xyRoute, in order.
std::vector<MeshLink> xyLinks(uint32_t rows, uint32_t cols, uint32_t from,
                              uint32_t to);
/// Union of the XY routes from `from` to every target (a multicast tree:
/// shared prefixes counted once), sorted.
std::vector<MeshLink> multicastLinks(uint32_t rows, uint32_t cols,
                                     uint32_t from,
                                     const std::vector<uint32_t> &targets);

} // namespace accel

#endif
