//===- MeshTest.cpp - XY routing on the cluster mesh ----------------------===//
#include "accel/Hardware/Mesh.h"

#include "accel/Hardware/HardwareDesc.h"

#include <gtest/gtest.h>

using namespace accel;

namespace {
using Links = std::vector<MeshLink>;
} // namespace

TEST(Mesh, XYRouteGoesAlongTheRowFirst) {
  // 3 x 4 grid: (0,0)=0 ... (2,3)=11.
  EXPECT_EQ(xyRoute(3, 4, 0, 11), (std::vector<uint32_t>{0, 1, 2, 3, 7, 11}));
  EXPECT_EQ(xyRoute(3, 4, 11, 0), (std::vector<uint32_t>{11, 10, 9, 8, 4, 0}));
  EXPECT_EQ(xyRoute(3, 4, 5, 2), (std::vector<uint32_t>{5, 6, 2}));
  EXPECT_EQ(xyRoute(3, 4, 3, 4), (std::vector<uint32_t>{3, 2, 1, 0, 4}));
  EXPECT_EQ(xyRoute(3, 4, 6, 6), (std::vector<uint32_t>{6}));
  // Same row / same column: one direction only.
  EXPECT_EQ(xyRoute(2, 2, 0, 1), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(xyRoute(2, 2, 0, 2), (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(xyRoute(1, 2, 1, 0), (std::vector<uint32_t>{1, 0}));
}

TEST(Mesh, LinksFollowTheRoute) {
  EXPECT_EQ(xyLinks(2, 2, 0, 3), (Links{{0, 1}, {1, 3}}));
  EXPECT_EQ(xyLinks(2, 2, 3, 0), (Links{{3, 2}, {2, 0}}));
  EXPECT_TRUE(xyLinks(2, 2, 1, 1).empty());
  // The link count is the Manhattan distance (HardwareDesc::meshHops).
  HardwareDesc hw;
  hw.rows = 4;
  hw.cols = 5;
  for (uint32_t a = 0; a < 20; ++a)
    for (uint32_t b = 0; b < 20; ++b) {
      Links l = xyLinks(4, 5, a, b);
      ASSERT_EQ(l.size(), hw.meshHops(a, b)) << a << " -> " << b;
      // Consecutive, between neighbours.
      for (size_t i = 0; i < l.size(); ++i) {
        EXPECT_EQ(hw.meshHops(l[i].from, l[i].to), 1u);
        if (i) {
          EXPECT_EQ(l[i].from, l[i - 1].to);
        }
      }
    }
}

TEST(Mesh, MulticastSharesThePrefix) {
  // From (0,0) on 2 x 2 to all: 0->1, 1->3 (to 3), 0->2 (to 2); the prefix
  // 0->1 of the routes to 1 and 3 is counted once.
  EXPECT_EQ(multicastLinks(2, 2, 0, {1, 2, 3}),
            (Links{{0, 1}, {0, 2}, {1, 3}}));
  // 3 x 4 from 0 to 7 and 11: 0->1->2->3->7->11, 7 shared.
  EXPECT_EQ(multicastLinks(3, 4, 0, {7, 11}),
            (Links{{0, 1}, {1, 2}, {2, 3}, {3, 7}, {7, 11}}));
  // The sender itself and repeated targets add nothing.
  EXPECT_TRUE(multicastLinks(2, 2, 2, {2}).empty());
  EXPECT_EQ(multicastLinks(2, 2, 2, {3, 3, 2}), (Links{{2, 3}}));
  EXPECT_TRUE(multicastLinks(2, 2, 0, {}).empty());
  // Opposite directions are different links.
  EXPECT_EQ(multicastLinks(1, 3, 1, {0, 2}), (Links{{1, 0}, {1, 2}}));
}
