//===- ValidateTest.cpp - validateProgram, one test per rule --------------===//
#include "accel/Target/Validate.h"
#include "TestPrograms.h"
#include <gtest/gtest.h>

using namespace accel;
using accel::target_test::instr;

namespace {

/// Default hardware: 2x2 grid, 4 PEs, 4 buffers of depth 64, 64 register
/// entries, 512 KiB storage, 64 KiB input buffer (4 KiB slots), 64 KiB
/// weight queue, 16 KiB accumulation buffers.
class ValidateTest : public ::testing::Test {
protected:
  void SetUp() override {
    hw = defaultHardware();
    p = Program();
    p.hwFingerprint = hw.fingerprint();
    p.gridRows = hw.rows;
    p.gridCols = hw.cols;
    p.dramSize = 1 << 20;
    p.symbols.push_back({"x", true, DType::F32, {64, 64}, 0});
    p.symbols.push_back({"y", false, DType::F32, {64, 64}, 16384});
    ConstSegment w;
    w.dramAddr = 32768;
    w.bytes.assign(64 * 64 * 4, 0);
    p.constants.push_back(w);
    p.clusters.resize(hw.numClusters());
    auto &s = p.clusters[0].commands;

    Command dma = target_test::tileDma(DmaDir::Load, 1, 0, 0, 64, 64);
    s.push_back(dma); // 0
    Command wait;
    wait.kind = CommandKind::Wait;
    wait.waitTags = 2;
    s.push_back(wait); // 1

    Command cfg;
    cfg.kind = CommandKind::Config;
    cfg.ibuf = 1;
    Instruction ld = instr(Opcode::LD, 0, 0); // activations 64x64
    ld.operands.rows = 64;
    ld.operands.cols = 64;
    ld.operands.rowStride = 64;
    ld.operands.peRows = 16;
    Instruction ldw = instr(Opcode::LD, 1, 0); // weights 64x64
    ldw.operands.addr = 16384;
    ldw.operands.rows = 64;
    ldw.operands.cols = 64;
    ldw.operands.rowStride = 64;
    Instruction mac = instr(Opcode::MAC, 0, 0, 1);
    mac.operands.rows = 64;
    mac.operands.cols = 64;
    mac.operands.depth = 64;
    mac.operands.peRows = 16;
    Instruction st = instr(Opcode::ST, 0, 0, 1);
    st.operands.addr = 32768;
    st.operands.rows = 64;
    st.operands.cols = 64;
    st.operands.rowStride = 64;
    st.operands.peRows = 16;
    cfg.instrs = {ld, ldw, mac, st};
    s.push_back(cfg); // 2

    Command ex;
    ex.kind = CommandKind::Execute;
    ex.ibuf = 1;
    ex.last = true;
    ex.patches = {{0, PatchField::Addr, 0}};
    s.push_back(ex); // 3

    // Cluster (0,1) stores the output y (64x64 f32 at 16384) from its
    // storage unit: a valid program writes every output byte.
    Command store = dma;
    store.dma.dir = DmaDir::Store;
    store.dma.src = 0;
    store.dma.dst = 16384;
    p.clusters[1].commands.push_back(store);

    Command bar;
    bar.kind = CommandKind::Barrier;
    bar.barrierId = 7;
    for (auto &c : p.clusters)
      c.commands.push_back(bar);
  }

  Command &cmd(size_t k) { return p.clusters[0].commands[k]; }
  Instruction &in(size_t i) { return cmd(2).instrs[i]; }

  void expectOk() {
    std::string err;
    EXPECT_TRUE(validateProgram(p, hw, err)) << err;
    expectStreamedAgrees(true, err);
  }
  void expectError(const std::string &needle) {
    std::string err;
    EXPECT_FALSE(validateProgram(p, hw, err));
    EXPECT_NE(err.find(needle), std::string::npos) << err;
    expectStreamedAgrees(false, err);
  }
  /// accel-run's StreamedValidation (the streams on a thread of its own)
  /// gives the same verdict and message.
  void expectStreamedAgrees(bool ok, const std::string &err) {
    StreamedValidation v(p, hw);
    std::string streamed;
    EXPECT_EQ(v.start(streamed) && v.finish(streamed), ok);
    EXPECT_EQ(streamed, ok ? std::string() : err);
  }

  HardwareDesc hw;
  Program p;
};

} // namespace

TEST_F(ValidateTest, ValidProgramPasses) { expectOk(); }

TEST_F(ValidateTest, Fingerprint) {
  p.hwFingerprint ^= 1;
  expectError("compiled for another hardware description");
}

TEST_F(ValidateTest, Grid) {
  p.gridCols = 3;
  expectError("does not match the hardware 2x2 grid");
}

TEST_F(ValidateTest, StreamCount) {
  p.clusters.pop_back();
  expectError("cluster streams");
}

TEST_F(ValidateTest, DramLargerThanHardware) {
  p.dramSize = hw.dramBytes + 1;
  expectError("bytes of DRAM");
}

TEST_F(ValidateTest, SymbolOutsideDram) {
  p.symbols[1].dramAddr = p.dramSize - 100;
  expectError("symbol 'y': bytes");
  p.symbols[1].dramAddr = 0;
  p.symbols[1].shape = {1ll << 40, 1ll << 40};
  expectError("outside DRAM");
}

TEST_F(ValidateTest, DuplicateSymbol) {
  p.symbols[1].name = "x";
  expectError("duplicate symbol name");
}

TEST_F(ValidateTest, ConstantOutsideDram) {
  p.constants[0].dramAddr = p.dramSize - 4;
  expectError("constant segment 0");
}

TEST_F(ValidateTest, SymbolMisaligned) {
  p.symbols[0].dramAddr = 2;
  expectError("symbol 'x': DRAM address 2 is not 4-byte aligned");
}

TEST_F(ValidateTest, SymbolsOverlap) {
  p.symbols[1].dramAddr = 16384 - 4; // y starts inside x
  expectError("symbol 'x' [0, 16384) overlaps symbol 'y' [16380, 32764)");
}

TEST_F(ValidateTest, SymbolOverlapsConstant) {
  p.symbols[1].shape = {65, 64}; // y runs into the constant at 32768
  expectError("symbol 'y' [16384, 33024) overlaps constant segment 0 "
              "[32768, 49152)");
  p.symbols[1].shape = {64, 64};
  p.constants[0].dramAddr = 100; // the constant lies inside x
  expectError("symbol 'x' [0, 16384) overlaps constant segment 0");
}

TEST_F(ValidateTest, ConstantsOverlap) {
  ConstSegment c;
  c.dramAddr = 32768 + 64 * 64 * 4 - 1;
  c.bytes.assign(8, 1);
  p.constants.push_back(c);
  expectError("constant segment 0 [32768, 49152) overlaps constant segment 1");
}

TEST_F(ValidateTest, EmptySymbolsAndSegmentsOverlapNothing) {
  p.symbols.push_back({"e", false, DType::F32, {0, 3}, 100});
  ConstSegment c;
  c.dramAddr = 200;
  p.constants.push_back(c);
  expectOk();
}

TEST_F(ValidateTest, OutputShapeDisagreesWithTheProgram) {
  // One row more than the program stores: the last row is never written.
  p.constants[0].dramAddr = 65536;
  p.symbols[1].shape = {64, 65};
  expectError("output 'y': shape [64, 65] at [16384, 33024) disagrees with "
              "the program: no command writes bytes [32768, 33024)");
  // An output nothing writes at all.
  p.symbols[1].shape = {64, 64};
  p.clusters[1].commands.erase(p.clusters[1].commands.begin());
  expectError("no command writes bytes [16384, 32768)");
  // A DRAM copy that writes it, in two halves, is enough.
  Command copy;
  copy.kind = CommandKind::Dma;
  copy.dma.dir = DmaDir::DramCopy;
  copy.dma.src = 0;
  copy.dma.dst = 16384;
  copy.dma.shape[3] = 2048;
  copy.dma.srcStride[3] = 1;
  copy.dma.dstStride[3] = 1;
  p.clusters[2].commands.insert(p.clusters[2].commands.begin(), copy);
  expectError("no command writes bytes [24576, 32768)");
  copy.dma.dst = 16384 + 8192;
  p.clusters[3].commands.insert(p.clusters[3].commands.begin(), copy);
  expectOk();
}

TEST_F(ValidateTest, ConfigBufferDoesNotExist) {
  cmd(2).ibuf = 4;
  cmd(3).ibuf = 4;
  expectError("instruction buffer 4 does not exist");
}

TEST_F(ValidateTest, ConfigDepth) {
  Instruction copy = in(0);
  cmd(2).instrs.resize(65, copy);
  expectError("exceed the instruction-buffer depth 64");
}

TEST_F(ValidateTest, ConfigEmpty) {
  cmd(2).instrs.clear();
  expectError("empty instruction sequence");
}

TEST_F(ValidateTest, RegisterFileCapacity) {
  Command big = cmd(2);
  big.ibuf = 0;
  big.instrs.resize(61, in(0));
  p.clusters[0].commands.insert(p.clusters[0].commands.begin(), big);
  expectError("register file has 64 entries");
  // Re-configuring the same buffer replaces its records.
  p.clusters[0].commands[0].ibuf = 1;
  expectOk();
}

TEST_F(ValidateTest, SlotOutOfRange) {
  in(2).fields.slot = 16;
  expectError("slot 16");
}

TEST_F(ValidateTest, AccOutOfRange) {
  in(3).fields.accId = 4;
  expectError("accId 4");
}

TEST_F(ValidateTest, InvalidEnums) {
  in(0).fields.sub = 4;
  expectError("stream 4");
  SetUp();
  in(0).operands.queueMode = QueueMode(3);
  expectError("invalid queue mode");
  SetUp();
  in(0).operands.func = SfuFunc(37); // a gap in the SFU table
  expectError("invalid SFU function");
}

TEST_F(ValidateTest, SfuFunctionMustSuitTheInstruction) {
  in(0).operands.func = SfuFunc::Exp; // LD applies no function
  expectError("SFU function exp cannot be used by this instruction");
  SetUp();
  Instruction spu = instr(Opcode::SPU, uint8_t(SpuType::Unary), 0, 0, 1);
  spu.operands.func = SfuFunc::Add; // binary function in a unary SPU
  cmd(2).instrs.push_back(spu);
  expectError("SFU function add cannot be used");
}

TEST_F(ValidateTest, RepeatZero) {
  in(2).operands.repeat = 0;
  expectError("repeat must be >= 1");
}

TEST_F(ValidateTest, LoadPsumsSlotNamesAccumulator) {
  Instruction ldp = instr(Opcode::LD, 2, 4);
  cmd(2).instrs.push_back(ldp);
  expectError("names no accumulation buffer");
}

TEST_F(ValidateTest, SpuBinarySecondSlot) {
  Instruction spu = instr(Opcode::SPU, 1, 0, 0, 1);
  spu.operands.func = SfuFunc::Add;
  spu.operands.depth = 16;
  cmd(2).instrs.push_back(spu);
  expectError("second slot (depth) 16");
}

TEST_F(ValidateTest, ExecuteUnconfigured) {
  cmd(3).ibuf = 0;
  expectError("instruction buffer 0 was never configured");
}

TEST_F(ValidateTest, ExecuteBufferDoesNotExist) {
  cmd(3).ibuf = 9;
  expectError("instruction buffer 9 does not exist");
}

TEST_F(ValidateTest, ExecuteBeforeConfig) {
  std::swap(cmd(2), cmd(3));
  expectError("was never configured");
}

TEST_F(ValidateTest, PatchIndex) {
  cmd(3).patches.push_back({4, PatchField::Rows, 1});
  expectError("patch 1 names instruction 4 but the buffer holds 4");
}

TEST_F(ValidateTest, PatchedAddressLeavesStorage) {
  // 64x64 f32 = 16 KiB tile; storage is 512 KiB.
  cmd(3).patches = {{0, PatchField::Addr, 512 * 1024 - 16384}};
  expectOk();
  cmd(3).patches = {{0, PatchField::Addr, 512 * 1024 - 16380}};
  expectError("instruction 0 (LD): storage tile [507908, 524292) outside "
              "the storage unit [0, 524288)");
}

TEST_F(ValidateTest, PatchesPersistInTheRegisterFile) {
  // First run moves the ST tile up; a second run moves it more: only the
  // accumulated register-file state overflows.
  Command ex2 = cmd(3);
  ex2.patches = {{3, PatchField::Rows, 64}};
  cmd(3).patches = {{3, PatchField::Addr, 512 * 1024 - 16384}};
  p.clusters[0].commands.insert(p.clusters[0].commands.begin() + 4, ex2);
  expectOk();
  p.clusters[0].commands[4].patches = {{3, PatchField::Cols, 65}};
  expectError("instruction 3 (ST): storage tile");
}

TEST_F(ValidateTest, PatchedRowsZero) {
  cmd(3).patches = {{1, PatchField::Rows, 0}};
  expectError("rows and cols must be >= 1");
}

TEST_F(ValidateTest, NegativeStrideBelowZero) {
  in(0).operands.rowStride = -64;
  cmd(3).patches.clear();
  expectError("storage tile [-16128, 256)");
  in(0).operands.addr = 63 * 64 * 4; // last row first: fits exactly
  expectOk();
}

TEST_F(ValidateTest, StoreTileBeyondStorage) {
  in(3).operands.addr = 512 * 1024 - 4;
  expectError("instruction 3 (ST): storage tile");
}

TEST_F(ValidateTest, InputBufferFromSlotBase) {
  // MAC reads 16 rows x 64 depth x 4 = 4 KiB per PE from slot 15 (60 KiB):
  // fits exactly; depth 65 does not.
  in(2).fields.slot = 15;
  expectOk();
  in(2).operands.depth = 65;
  expectError(
      "instruction 2 (MAC): input tile (rows x pitch + base) [61440, 65600)");
}

TEST_F(ValidateTest, LdActivationsIntoSlot) {
  in(0).fields.slot = 15;
  in(0).operands.cols = 65;
  cmd(3).patches.clear();
  expectError("instruction 0 (LD): input-buffer tile");
}

TEST_F(ValidateTest, WeightQueue) {
  in(2).operands.cols = 257; // 64 x 257 x 4 > 64 KiB
  expectError("weight tile (depth x cols)");
  SetUp();
  in(1).operands.rows = 257; // LD weights 257x64 (broadcast) > 64 KiB
  expectError("instruction 1 (LD): weight tile");
}

TEST_F(ValidateTest, AccumulatorPerPeRows) {
  // 16 rows per PE x 64 x 4 = 4 KiB: fine. Without the per-PE split all
  // 64 rows (16 KiB) still fit; 65 cols do not.
  in(2).operands.peRows = 0;
  expectOk();
  in(2).operands.cols = 65;
  in(2).operands.depth = 1;
  expectError("accumulator tile (rows x cols)");
}

TEST_F(ValidateTest, MacDepthZero) {
  in(2).operands.depth = 0;
  expectError("MAC depth (K) must be >= 1");
}

TEST_F(ValidateTest, SpuTiles) {
  Instruction spu = instr(Opcode::SPU, 0, 14, 0, 15);
  spu.operands.rows = 64;
  spu.operands.cols = 16;
  spu.operands.peRows = 16; // 16 x 16 x 4 = 1 KiB
  cmd(2).instrs.push_back(spu);
  expectOk();
  cmd(2).instrs.back().operands.cols = 65; // 4160 bytes from slot 15
  expectError("SPU output tile");
}

TEST_F(ValidateTest, DmaTag) {
  cmd(0).dma.tag = 8;
  expectError("tag 8 out of range");
}

TEST_F(ValidateTest, DmaElemBytes) {
  cmd(0).dma.elemBytes = 3;
  expectError("elemBytes 3 must be 1, 2 or 4");
}

TEST_F(ValidateTest, DmaZeroExtent) {
  cmd(0).dma.shape[0] = 0;
  expectError("shape extent 0 must be >= 1");
}

TEST_F(ValidateTest, DmaDramSide) {
  cmd(0).dma.src = p.dramSize - 100;
  expectError("source box");
}

TEST_F(ValidateTest, DmaNegativeStride) {
  cmd(0).dma.srcStride[2] = -64;
  expectError("source box [-16128, 256) outside DRAM");
  cmd(0).dma.src = 63 * 64 * 4;
  expectOk();
}

TEST_F(ValidateTest, DmaStorageSide) {
  cmd(0).dma.dst = 512 * 1024 - 16384 + 4;
  expectError("destination box [507908, 524292) outside the storage unit");
}

TEST_F(ValidateTest, DmaStoreAndDramCopyDirections) {
  cmd(0).dma.dir = DmaDir::Store; // storage -> DRAM
  cmd(0).dma.src = 512 * 1024 - 16384;
  cmd(0).dma.dst = p.dramSize - 16384;
  expectOk();
  cmd(0).dma.src += 4;
  expectError("source box [507908, 524292) outside the storage unit");
  cmd(0).dma.dir = DmaDir::DramCopy; // both sides DRAM
  cmd(0).dma.src = 600 * 1024;
  expectOk();
  cmd(0).dma.dst += 4;
  expectError("destination box");
}

TEST_F(ValidateTest, BarrierSequence) {
  p.clusters[3].commands.back().barrierId = 8;
  expectError("cluster (1,1) barrier sequence differs from cluster (0,0)");
  p.clusters[3].commands.pop_back();
  expectError("barrier #0 is no barrier here but barrier 7");
}
