//===- Mesh.cpp - XY routing on the cluster mesh --------------------------===//
#include "accel/Hardware/Mesh.h"
#include <algorithm>
#include <set>

namespace accel {

std::vector<uint32_t> xyRoute(uint32_t rows, uint32_t cols, uint32_t from,
                              uint32_t to) {
  (void)rows;
  std::vector<uint32_t> route{from};
  uint32_t r = from / cols, c = from % cols;
  uint32_t tr = to / cols, tc = to % cols;
  while (c != tc) { // X first: along the row
    c = c < tc ? c + 1 : c - 1;
    route.push_back(r * cols + c);
  }
  while (r != tr) { // then Y: along the column
    r = r < tr ? r + 1 : r - 1;
    route.push_back(r * cols + c);
  }
  return route;
}

std::vector<MeshLink> xyLinks(uint32_t rows, uint32_t cols, uint32_t from,
                              uint32_t to) {
  std::vector<uint32_t> route = xyRoute(rows, cols, from, to);
  std::vector<MeshLink> links;
  for (size_t i = 1; i < route.size(); ++i)
    links.push_back({route[i - 1], route[i]});
  return links;
}

std::vector<MeshLink> multicastLinks(uint32_t rows, uint32_t cols,
                                     uint32_t from,
                                     const std::vector<uint32_t> &targets) {
  std::set<MeshLink> all;
  for (uint32_t t : targets)
    for (const MeshLink &l : xyLinks(rows, cols, from, t))
      all.insert(l);
  return std::vector<MeshLink>(all.begin(), all.end());
}

} // namespace accel
