//===- ValidatePiecesTest.cpp - validateProgram on DRAM pieces / replicas -===//
//
// Symbols cut into pieces on several memory channels (Symbol::pieces) and
// replicated constant data (ConstSegment::replicas): one test per rule.
//
//===----------------------------------------------------------------------===//
#include "accel/Target/Validate.h"
#include <gtest/gtest.h>

using namespace accel;

namespace {

/// Default hardware (2x2). Input x (f32 [32], 128 bytes): two copies of its
/// first half at 0 and 4096, its second half at 8192. Output y (f32 [32]):
/// halves at 12288 and 16384, stored by clusters 0 and 1. Constant w (64
/// bytes) at 20480 with replicas at 24576 and 28672.
class ValidatePiecesTest : public ::testing::Test {
protected:
  void SetUp() override {
    hw = defaultHardware();
    p = Program();
    p.hwFingerprint = hw.fingerprint();
    p.gridRows = hw.rows;
    p.gridCols = hw.cols;
    p.dramSize = 1 << 20;
    Symbol x{"x", true, DType::F32, {32}, 0};
    x.pieces = {{0, 64, 0}, {0, 64, 4096}, {64, 64, 8192}};
    Symbol y{"y", false, DType::F32, {32}, 12288};
    y.pieces = {{0, 64, 12288}, {64, 64, 16384}};
    p.symbols = {x, y};
    ConstSegment w;
    w.dramAddr = 20480;
    w.bytes.assign(64, 7);
    w.replicas = {24576, 28672};
    p.constants = {w};
    p.clusters.resize(hw.numClusters());
    p.clusters[0].commands.push_back(store(12288));
    p.clusters[1].commands.push_back(store(16384));
  }

  /// A store of 16 f32 words from storage 0 to DRAM `dst`.
  static Command store(uint64_t dst) {
    Command c;
    c.kind = CommandKind::Dma;
    c.dma.dir = DmaDir::Store;
    c.dma.dst = dst;
    c.dma.shape[3] = 16;
    c.dma.srcStride[3] = 1;
    c.dma.dstStride[3] = 1;
    return c;
  }

  std::string error() {
    std::string err;
    EXPECT_FALSE(validateProgram(p, hw, err));
    return err;
  }
  void expectOk() {
    std::string err;
    EXPECT_TRUE(validateProgram(p, hw, err)) << err;
  }

  Symbol &x() { return p.symbols[0]; }
  Symbol &y() { return p.symbols[1]; }

  HardwareDesc hw;
  Program p;
};

} // namespace

TEST_F(ValidatePiecesTest, PiecedProgramPasses) { expectOk(); }

TEST_F(ValidatePiecesTest, AddressIsTheFirstPiece) {
  x().dramAddr = 4096;
  EXPECT_EQ(error(), "symbol 'x': DRAM address 4096 is not the address of "
                     "its first piece (0)");
}

TEST_F(ValidatePiecesTest, EmptyPiece) {
  x().pieces.insert(x().pieces.begin() + 1, DramPiece{0, 0, 40000});
  EXPECT_EQ(error(), "symbol 'x': piece 1 (image bytes [0, 0) at 40000) is "
                     "empty");
}

TEST_F(ValidatePiecesTest, PieceMisaligned) {
  x().pieces[2].dramAddr = 8194;
  EXPECT_EQ(error(), "symbol 'x': piece 2 (image bytes [64, 128) at 8194): "
                     "DRAM address 8194 is not 4-byte aligned (symbols hold "
                     "f32 words)");
}

TEST_F(ValidatePiecesTest, PieceOutsideDram) {
  x().pieces[2].dramAddr = p.dramSize - 32;
  EXPECT_EQ(error(), "symbol 'x': piece 2 (image bytes [64, 128) at "
                     "1048544): bytes [1048544, 1048608) outside DRAM [0, "
                     "1048576)");
  // An address near 2^64 does not wrap around.
  x().pieces[2].dramAddr = UINT64_MAX - 3;
  EXPECT_NE(error().find("bytes [18446744073709551612, "
                         "18446744073709551676) outside DRAM"),
            std::string::npos);
}

TEST_F(ValidatePiecesTest, PieceOutsideTheImage) {
  y().pieces[1].bytes = 68;
  EXPECT_EQ(error(), "symbol 'y': piece 1 (image bytes [64, 132) at 16384) "
                     "lies outside the image of 128 bytes (shape [32])");
  // Offsets near 2^64 do not wrap around either.
  y().pieces[1] = {UINT64_MAX - 3, 8, 16384};
  EXPECT_NE(error().find("lies outside the image of 128 bytes"),
            std::string::npos);
}

TEST_F(ValidatePiecesTest, PieceCutsAnElement) {
  x().pieces[0].bytes = 62;
  x().pieces[1].bytes = 62;
  x().pieces[2] = {62, 66, 8192};
  EXPECT_EQ(error(), "symbol 'x': piece 0 (image bytes [0, 62) at 0) cuts a "
                     "4-byte element");
  // Bytes of i8 tensors can be cut anywhere.
  x().dtype = DType::I8;
  x().shape = {128};
  expectOk();
}

TEST_F(ValidatePiecesTest, PiecesInAscendingOffsetOrder) {
  std::swap(x().pieces[1], x().pieces[2]);
  EXPECT_EQ(error(), "symbol 'x': piece 2 (image bytes [0, 64) at 4096) "
                     "starts before piece 1 (offset 64): pieces must be in "
                     "ascending offset order");
}

TEST_F(ValidatePiecesTest, PiecesCoverTheImage) {
  x().pieces[2] = {72, 56, 8192}; // [64, 72) in no piece
  EXPECT_EQ(error(), "symbol 'x': image bytes [64, 72) are in no piece");
  x().pieces[2] = {64, 56, 8192}; // the end is missing
  EXPECT_EQ(error(), "symbol 'x': image bytes [120, 128) are in no piece "
                     "(shape [32])");
  x().pieces = {{64, 64, 0}}; // the start is missing
  EXPECT_EQ(error(), "symbol 'x': image bytes [0, 64) are in no piece");
}

TEST_F(ValidatePiecesTest, PartialOverlapsCoverTooAndAreReadOnce) {
  // Pieces may overlap in the image; an output is read from the first
  // piece covering each byte, so only y's bytes [96, 128) of its second
  // piece need a store.
  y().pieces = {{0, 96, 12288}, {64, 64, 16384}};
  p.clusters[0].commands[0].dma.shape[3] = 24;
  p.clusters[1].commands[0].dma.dst = 16384 + 32;
  p.clusters[1].commands[0].dma.shape[3] = 8;
  expectOk();
  p.clusters[1].commands[0].dma.shape[3] = 7;
  EXPECT_EQ(error(), "output 'y': piece 1 (image bytes [96, 128) read at "
                     "[16416, 16448)) disagrees with the program: no command "
                     "writes bytes [16444, 16448)");
}

TEST_F(ValidatePiecesTest, OutputPiecesMustBeWritten) {
  p.clusters[1].commands.clear();
  EXPECT_EQ(error(), "output 'y': piece 1 (image bytes [64, 128) read at "
                     "[16384, 16448)) disagrees with the program: no command "
                     "writes bytes [16384, 16448)");
}

TEST_F(ValidatePiecesTest, AnOutputReplicaIsNeverRead) {
  // A second copy of y's first half: the first copy is read, the second
  // need not be written.
  y().pieces.insert(y().pieces.begin() + 1, DramPiece{0, 64, 40960});
  expectOk();
}

TEST_F(ValidatePiecesTest, PiecesOverlapInDram) {
  x().pieces[1].dramAddr = 32; // inside the first copy
  EXPECT_EQ(error(), "symbol 'x' piece 0 [0, 64) overlaps symbol 'x' piece 1 "
                     "[32, 96) in DRAM");
  x().pieces[1].dramAddr = 12288 + 60; // inside y's first piece
  EXPECT_EQ(error(), "symbol 'y' piece 0 [12288, 12352) overlaps symbol 'x' "
                     "piece 1 [12348, 12412) in DRAM");
  // A dense symbol against a piece.
  x().pieces[1].dramAddr = 4096;
  p.symbols.push_back({"z", true, DType::F32, {4}, 8192 + 48});
  EXPECT_EQ(error(), "symbol 'x' piece 2 [8192, 8256) overlaps symbol 'z' "
                     "[8240, 8256) in DRAM");
}

TEST_F(ValidatePiecesTest, ReplicaOutsideDram) {
  p.constants[0].replicas[1] = p.dramSize - 8;
  EXPECT_EQ(error(), "constant segment 0: replica 1 bytes [1048568, 1048632) "
                     "outside DRAM [0, 1048576)");
}

TEST_F(ValidatePiecesTest, ReplicasOverlap) {
  p.constants[0].replicas[1] = 24576 + 8;
  EXPECT_EQ(error(), "constant segment 0 replica 0 [24576, 24640) overlaps "
                     "constant segment 0 replica 1 [24584, 24648) in DRAM");
  p.constants[0].replicas[1] = 20480 + 60;
  EXPECT_EQ(error(), "constant segment 0 [20480, 20544) overlaps constant "
                     "segment 0 replica 1 [20540, 20604) in DRAM");
  p.constants[0].replicas[1] = 16384 + 4;
  EXPECT_EQ(error(), "symbol 'y' piece 1 [16384, 16448) overlaps constant "
                     "segment 0 replica 1 [16388, 16452) in DRAM");
  ConstSegment b;
  b.dramAddr = 30000;
  b.bytes.assign(8, 1);
  b.replicas = {24576 + 32};
  p.constants[0].replicas[1] = 28672;
  p.constants.push_back(b);
  EXPECT_EQ(error(), "constant segment 0 replica 0 [24576, 24640) overlaps "
                     "constant segment 1 replica 0 [24608, 24616) in DRAM");
}

TEST_F(ValidatePiecesTest, PacketBlocksMayLieInAReplica) {
  ConstPacket pk;
  pk.cluster = 1;
  pk.core = 0;
  pk.markerAddr = 36864;
  pk.marker.assign(16, 0);
  pk.blocks = {{"w", 24576 + 16, 32}}; // inside replica 0
  p.packets.push_back(pk);
  expectOk();
  p.packets[0].blocks[0].dramAddr = 24576 + 48; // runs past the replica
  EXPECT_EQ(error(), "packet 0 (cluster (0,1) core 0): block 'w' [24624, "
                     "24656) is not constant data (no constant segment holds "
                     "it)");
}
