//===- ExclusiveCyclesTest.cpp - exclusiveLengths -------------------------===//
//
// The exclusive cycles of the per-layer statistics (docs/simulator.md
// "Per-layer statistics"): each span keeps what no earlier span covers.
//
//===----------------------------------------------------------------------===//
#include "../../../lib/Sim/LayerAccounting.h"

#include <gtest/gtest.h>

using accel::sim::exclusiveLengths;

TEST(ExclusiveCycles, SequentialLayersKeepTheirSpans) {
  EXPECT_EQ(exclusiveLengths({{0, 10}, {10, 25}, {25, 30}}),
            (std::vector<uint64_t>{10, 15, 5}));
}

TEST(ExclusiveCycles, ALaterLayerIssuedEarlyKeepsOnlyItsTail) {
  // A squeeze-and-excite Mul (span 2) issues its first DMA while the pool
  // (0) and the FCs (1) run: it is charged only after the FCs end.
  EXPECT_EQ(exclusiveLengths({{0, 100}, {100, 300}, {50, 340}}),
            (std::vector<uint64_t>{100, 200, 40}));
}

TEST(ExclusiveCycles, GapsAndEmptySpans) {
  // Span 2 bridges the gap between 0 and 1 and reaches past both; an empty
  // span (a layer that never ran) keeps nothing.
  EXPECT_EQ(exclusiveLengths({{0, 10}, {20, 30}, {5, 40}, {7, 7}}),
            (std::vector<uint64_t>{10, 10, 20, 0}));
  // Spans out of order of start: the union is kept merged.
  EXPECT_EQ(exclusiveLengths({{50, 60}, {0, 10}, {5, 55}, {0, 70}}),
            (std::vector<uint64_t>{10, 10, 40, 10}));
}
