//===- ChannelTimelineTest.cpp - A memory channel's reservations ---------===//
//
// ChannelTimeline (lib/Sim/ChannelTimeline.h): the cursor alone without
// delayed DMAs; a delayed DMA reserved ahead of the cursor without moving
// it; later DMAs before it, skipping it only when they would overlap it;
// ahead reservations that do not overlap each other.
//
//===----------------------------------------------------------------------===//
#include "../../../lib/Sim/ChannelTimeline.h"

#include <gtest/gtest.h>

using accel::sim::ChannelTimeline;

TEST(ChannelTimeline, WithoutDelayedDmasItIsOneCursor) {
  ChannelTimeline t;
  EXPECT_EQ(t.reserve(10, 5, false), 10u);   // idle channel: at the issue
  EXPECT_EQ(t.reserve(12, 5, false), 15u);   // behind the first
  EXPECT_EQ(t.reserve(100, 0, false), 100u); // zero cycles still at issue
  EXPECT_EQ(t.cursor(), 100u);
  EXPECT_EQ(t.reserve(50, 3, false), 100u); // issued before: waits
  EXPECT_EQ(t.aheadCount(), 0u);
}

TEST(ChannelTimeline, DelayedDmaDoesNotHoldBackTheOthers) {
  ChannelTimeline t;
  EXPECT_EQ(t.reserve(0, 10, false), 0u);
  // The input arrives at 1 000 000: reserved there, the cursor stays at 10.
  EXPECT_EQ(t.reserve(1000000, 40, true), 1000000u);
  EXPECT_EQ(t.cursor(), 10u);
  EXPECT_EQ(t.aheadCount(), 1u);
  // Another network's loads go on from the cursor.
  EXPECT_EQ(t.reserve(5, 20, false), 10u);
  EXPECT_EQ(t.reserve(30, 20, false), 30u);
  EXPECT_EQ(t.cursor(), 50u);
  // One that would overlap the delayed load starts after it.
  EXPECT_EQ(t.reserve(999990, 20, false), 1000040u);
  EXPECT_EQ(t.cursor(), 1000060u);
  EXPECT_EQ(t.aheadCount(), 0u); // passed, dropped
}

TEST(ChannelTimeline, DmaThatFitsBeforeAnAheadReservationTakesTheGap) {
  ChannelTimeline t;
  EXPECT_EQ(t.reserve(200, 50, true), 200u);
  EXPECT_EQ(t.reserve(150, 50, false), 150u); // ends exactly at 200
  EXPECT_EQ(t.cursor(), 200u);
  EXPECT_EQ(t.reserve(0, 1, false), 250u); // the cursor is inside it now
}

TEST(ChannelTimeline, AheadReservationsDoNotOverlap) {
  ChannelTimeline t;
  EXPECT_EQ(t.reserve(1000, 100, true), 1000u);
  EXPECT_EQ(t.reserve(1050, 100, true), 1100u); // after the first
  EXPECT_EQ(t.reserve(900, 100, true), 900u);   // just before it
  EXPECT_EQ(t.reserve(950, 10, true), 1200u);   // no gap until 1200
  EXPECT_EQ(t.aheadCount(), 4u);
  EXPECT_EQ(t.cursor(), 0u);
  // A delayed DMA issued before the cursor is an ordinary one.
  EXPECT_EQ(t.reserve(0, 10, false), 0u);
  EXPECT_EQ(t.reserve(5, 10, true), 10u);
  EXPECT_EQ(t.cursor(), 20u);
}
