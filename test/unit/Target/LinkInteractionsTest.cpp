//===- LinkInteractionsTest.cpp - Interactions wired by hand --------------===//
#include "accel/Target/LinkInteractions.h"

#include <gtest/gtest.h>

using namespace accel;

namespace {

Command dma(DmaDir dir, uint64_t src, uint64_t dst, uint32_t floats) {
  Command c;
  c.kind = CommandKind::Dma;
  c.dma.dir = dir;
  c.dma.src = src;
  c.dma.dst = dst;
  c.dma.shape[3] = floats;
  c.dma.srcStride[3] = c.dma.dstStride[3] = 1;
  return c;
}

Symbol symbol(const std::string &name, bool input, uint64_t addr,
              std::vector<DramPiece> pieces = {}) {
  Symbol s;
  s.name = name;
  s.isInput = input;
  s.shape = {8}; // 32 bytes
  s.dramAddr = addr;
  s.pieces = std::move(pieces);
  return s;
}

/// Clusters 0 and 1 run network a (its output a.t in two pieces, each
/// cluster storing one), cluster 2 the interaction, cluster 3 network b,
/// which reads b.x (an input with a replica per channel).
Program fourClusters() {
  Program p;
  p.gridRows = p.gridCols = 2;
  p.clusters.resize(4);
  p.symbols = {symbol("a.t", false, 1000, {{0, 16, 1000}, {16, 16, 5000}}),
               symbol("x.in0", true, 2000), symbol("x.result", false, 3000),
               symbol("b.x", true, 4000, {{0, 32, 4000}, {0, 32, 6000}})};
  p.clusters[0].commands = {dma(DmaDir::Store, 0, 1000, 4),
                            dma(DmaDir::Load, 9000, 0, 4)};
  p.clusters[1].commands = {dma(DmaDir::Store, 0, 5000, 4)};
  p.clusters[2].commands = {dma(DmaDir::Load, 2000, 0, 8),
                            dma(DmaDir::Store, 0, 3000, 8)};
  p.clusters[3].commands = {dma(DmaDir::Load, 9000, 0, 4),
                            dma(DmaDir::Load, 6000, 64, 8)};
  return p;
}

InteractionWiring wiring() {
  InteractionWiring w;
  w.name = "x";
  w.cluster = 2;
  w.producers = {{"a.t", {0, 1}}};
  w.inputs = {"x.in0"};
  w.result = "x.result";
  w.consumers = {{"b.x", {3}}};
  return w;
}

} // namespace

TEST(LinkInteractions, SignalsCopiesAndReceives) {
  Program p = fourClusters();
  std::string err;
  ASSERT_TRUE(wireInteractions(p, {wiring()}, err)) << err;
  const uint32_t in = interactionInSem(0), out = interactionOutSem(0);
  // Each producer cluster: WAIT + SIGNAL right after its last store to a.t.
  auto &c0 = p.clusters[0].commands;
  ASSERT_EQ(c0.size(), 4u);
  EXPECT_EQ(c0[1].kind, CommandKind::Wait);
  EXPECT_EQ(c0[2].kind, CommandKind::Signal);
  EXPECT_EQ(c0[2].mesh->targets, std::vector<uint32_t>{2});
  EXPECT_EQ(c0[2].mesh->sem, in);
  EXPECT_EQ(p.clusters[1].commands.size(), 3u);
  // The interaction: RECV both, copy both pieces of a.t into x.in0, run,
  // copy x.result into both replicas of b.x, signal cluster 3.
  auto &c2 = p.clusters[2].commands;
  ASSERT_EQ(c2.size(), 11u);
  EXPECT_EQ(c2[0].kind, CommandKind::Recv);
  EXPECT_EQ(c2[0].sem, in);
  EXPECT_EQ(c2[0].count, 2u);
  EXPECT_EQ(c2[1].dma.dir, DmaDir::DramCopy);
  EXPECT_EQ(c2[1].dma.src, 1000u);
  EXPECT_EQ(c2[1].dma.dst, 2000u);
  EXPECT_EQ(c2[1].dma.shape[3], 4u);
  EXPECT_EQ(c2[2].dma.src, 5000u);
  EXPECT_EQ(c2[2].dma.dst, 2016u);
  EXPECT_EQ(c2[3].kind, CommandKind::Wait);
  EXPECT_EQ(c2[4].dma.dir, DmaDir::Load); // the interaction's own program
  EXPECT_EQ(c2[6].kind, CommandKind::Wait);
  EXPECT_EQ(c2[7].dma.dst, 4000u);
  EXPECT_EQ(c2[8].dma.dst, 6000u);
  EXPECT_EQ(c2[9].kind, CommandKind::Wait);
  EXPECT_EQ(c2[10].kind, CommandKind::Signal);
  EXPECT_EQ(c2[10].mesh->targets, std::vector<uint32_t>{3});
  EXPECT_EQ(c2[10].mesh->sem, out);
  // The consumer receives before its first read of b.x, not before.
  auto &c3 = p.clusters[3].commands;
  ASSERT_EQ(c3.size(), 3u);
  EXPECT_EQ(c3[1].kind, CommandKind::Recv);
  EXPECT_EQ(c3[1].sem, out);
  // The inputs the copies fill are no longer program inputs.
  std::vector<std::string> names;
  for (const Symbol &s : p.symbols)
    names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"a.t", "x.result"}));
}

TEST(LinkInteractions, ErrorsNameTheInteraction) {
  Program p = fourClusters();
  std::string err;
  InteractionWiring w = wiring();
  w.producers[0].clusters = {3}; // cluster 3 never writes a.t
  EXPECT_FALSE(wireInteractions(p, {w}, err));
  EXPECT_EQ(err, "interaction x: no cluster writes a.t");
  p = fourClusters();
  p.symbols[1].shape = {4};
  EXPECT_FALSE(wireInteractions(p, {wiring()}, err));
  EXPECT_EQ(err, "interaction x: a.t has 32 bytes, x.in0 16");
  p = fourClusters();
  w = wiring();
  w.result = "x.nothing";
  EXPECT_FALSE(wireInteractions(p, {w}, err));
  EXPECT_EQ(err, "interaction x: the linked program has no symbol 'x.nothing'");
}
