//===- IsaProgramTest.cpp - ISA dialect <-> Program -----------------------===//
#include "accel/Target/IsaProgram.h"
#include "TestPrograms.h"
#include "accel/Target/Binary.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>
#include <gtest/gtest.h>

using namespace accel;
using namespace mlir;
using accel::target_test::diffPrograms;

namespace {

class IsaProgramTest : public ::testing::Test {
protected:
  IsaProgramTest() { ctx.loadDialect<isa::IsaDialect>(); }

  OwningOpRef<ModuleOp> parse(const std::string &text) {
    return parseSourceString<ModuleOp>(text, &ctx);
  }
  static std::string print(ModuleOp m) {
    std::string s;
    llvm::raw_string_ostream os(s);
    m.print(os);
    return s;
  }
  static isa::ProgramOp programOp(ModuleOp m) {
    auto ops = m.getBody()->getOps<isa::ProgramOp>();
    return ops.empty() ? isa::ProgramOp() : *ops.begin();
  }
  /// Converts and returns the diagnostics emitted.
  std::string convertExpectingError(const std::string &text) {
    auto m = parse(text);
    EXPECT_TRUE(m);
    if (!m)
      return "";
    std::string diags;
    ScopedDiagnosticHandler h(&ctx, [&](Diagnostic &d) {
      diags += d.str();
      return success();
    });
    Program p;
    EXPECT_TRUE(failed(programFromIsa(programOp(*m), p)));
    return diags;
  }

  MLIRContext ctx;
};

const char *kCanonical = R"mlir(module {
  isa.program grid(1 x 2) dram 1048576 hw -81985529216486896 {
    isa.io input "x" at 0 : tensor<4x8xf32>
    isa.io output "y" at 128 : tensor<4x8xf32>
    isa.data at 4096 = dense<[1.000000e+00, -2.500000e+00]> : tensor<2xf32>
    isa.data at 8192 = dense<[1, -2, 3]> : tensor<3xi8>
    isa.cluster(0, 0) {
      isa.dma load tag 1 src 0 dst 0 shape [4, 8] src_strides [8, 1] dst_strides [8, 1]
      isa.wait tags [1] pe
      isa.config ibuf 0 {
        isa.ld acts slot 0 <addr = 0, rows = 4, cols = 8, row_stride = 8>
        isa.ld weights slot 0 <addr = 512, rows = 8, cols = 8, row_stride = 8, queue_mode = RQ>
        isa.ld psums slot 3 <>
        isa.mac slot 0 acc 1 load_balance sfu <rows = 4, cols = 8, depth = 8, repeat = 2, func = relu>
        isa.st acc slot 0 acc 1 <addr = 1024, rows = 4, cols = 8, row_stride = 8, pe_rows = 1>
        isa.spu binary in 1 out 2 <depth = 3, func = add>
        isa.spu copy in 15 out 14 <func = scale, imm = 5.000000e-01 : f32>
      }
      isa.execute ibuf 0 shift last patches [#isa.patch<0, addr, 64>, #isa.patch<4, rows, 2>]
      isa.execute ibuf 0
      isa.dma store tag 7 src 1024 dst 128 shape [2, 3, 4, 8] src_strides [0, -8, 8, 1] dst_strides [1, 2, 8, 1] {elem_bytes = 2 : i32}
      isa.barrier 5
    }
    isa.cluster(0, 1) {
      isa.barrier 5
    }
  }
}
)mlir";

} // namespace

TEST_F(IsaProgramTest, CanonicalTextRoundTrips) {
  auto m = parse(kCanonical);
  ASSERT_TRUE(m);
  std::string printed = print(*m);
  Program p;
  ASSERT_TRUE(succeeded(programFromIsa(programOp(*m), p)));
  auto back = isaFromProgram(p, &ctx);
  ASSERT_TRUE(succeeded(verify(*back)));
  EXPECT_EQ(print(*back), printed);
}

TEST_F(IsaProgramTest, FieldsReachTheProgram) {
  auto m = parse(kCanonical);
  ASSERT_TRUE(m);
  Program p;
  ASSERT_TRUE(succeeded(programFromIsa(programOp(*m), p)));
  EXPECT_EQ(p.hwFingerprint, 0xFEDCBA9876543210ull);
  EXPECT_EQ(p.gridRows, 1u);
  EXPECT_EQ(p.gridCols, 2u);
  EXPECT_EQ(p.dramSize, 1u << 20);
  ASSERT_EQ(p.symbols.size(), 2u);
  EXPECT_EQ(p.symbols[1].name, "y");
  EXPECT_FALSE(p.symbols[1].isInput);
  EXPECT_EQ(p.symbols[1].shape, (std::vector<int64_t>{4, 8}));
  ASSERT_EQ(p.constants.size(), 2u);
  EXPECT_EQ(p.constants[0].bytes,
            (std::vector<uint8_t>{0, 0, 0x80, 0x3F, 0, 0, 0x20, 0xC0}));
  EXPECT_EQ(p.constants[1].bytes, (std::vector<uint8_t>{1, 0xFE, 3}));
  ASSERT_EQ(p.clusters.size(), 2u);
  const auto &s = p.clusters[0].commands;
  ASSERT_EQ(s.size(), 7u);
  // DMA shapes are right-aligned into the 4-D descriptor.
  EXPECT_EQ(s[0].kind, CommandKind::Dma);
  EXPECT_EQ(s[0].dma.shape[0], 1u);
  EXPECT_EQ(s[0].dma.shape[2], 4u);
  EXPECT_EQ(s[0].dma.shape[3], 8u);
  EXPECT_EQ(s[0].dma.srcStride[2], 8);
  EXPECT_EQ(s[0].dma.srcStride[0], 0);
  EXPECT_EQ(s[1].waitTags, 2);
  EXPECT_TRUE(s[1].waitPe);
  const Command &cfg = s[2];
  ASSERT_EQ(cfg.instrs.size(), 7u);
  EXPECT_EQ(cfg.instrs[1].fields.sub, uint8_t(LoadStream::Weights));
  EXPECT_EQ(cfg.instrs[1].operands.queueMode, QueueMode::RQ);
  EXPECT_EQ(cfg.instrs[3].fields.op, Opcode::MAC);
  EXPECT_TRUE(cfg.instrs[3].fields.loadBalance);
  EXPECT_TRUE(cfg.instrs[3].fields.sfuActive);
  EXPECT_EQ(cfg.instrs[3].fields.accId, 1);
  EXPECT_EQ(cfg.instrs[3].operands.func, SfuFunc::Relu);
  EXPECT_EQ(cfg.instrs[5].fields.outSlot, 2);
  EXPECT_EQ(cfg.instrs[6].operands.imm, 0.5f);
  EXPECT_TRUE(s[3].shift);
  EXPECT_TRUE(s[3].last);
  ASSERT_EQ(s[3].patches.size(), 2u);
  EXPECT_EQ(s[3].patches[1].field, PatchField::Rows);
  EXPECT_EQ(s[5].dma.elemBytes, 2u);
  EXPECT_EQ(s[5].dma.srcStride[1], -8);
  EXPECT_EQ(s[6].barrierId, 5u);
}

TEST_F(IsaProgramTest, ProgramRoundTripsThroughText) {
  Program p = accel::target_test::makeFullProgram();
  auto m = isaFromProgram(p, &ctx);
  ASSERT_TRUE(succeeded(verify(*m)));
  std::string text = print(*m);
  auto reparsed = parse(text);
  ASSERT_TRUE(reparsed) << text;
  Program q;
  ASSERT_TRUE(succeeded(programFromIsa(programOp(*reparsed), q)));
  EXPECT_EQ(diffPrograms(p, q), "") << text;
  EXPECT_EQ(writeBinary(p), writeBinary(q));
  // Data layout of the disassembly: f32 for 16 bytes, i8 for 3 and 0 bytes.
  EXPECT_NE(text.find("tensor<4xf32>"), std::string::npos) << text;
  EXPECT_NE(text.find("dense<[1, 2, 3]> : tensor<3xi8>"), std::string::npos);
  EXPECT_NE(text.find("tensor<0xi8>"), std::string::npos);
}

TEST_F(IsaProgramTest, LayersRoundTripThroughText) {
  Program p = accel::target_test::makeLayeredProgram();
  auto m = isaFromProgram(p, &ctx);
  ASSERT_TRUE(succeeded(verify(*m)));
  std::string text = print(*m);
  auto reparsed = parse(text);
  ASSERT_TRUE(reparsed) << text;
  Program q;
  ASSERT_TRUE(succeeded(programFromIsa(programOp(*reparsed), q)));
  EXPECT_EQ(diffPrograms(p, q), "") << text;
  EXPECT_EQ(writeBinary(p), writeBinary(q));
  EXPECT_NE(text.find("#isa.layer<name = \"/backbone/conv1/Conv\", op = "
                      "\"Conv\", macs = 118013952, compulsory_bytes = 639232, "
                      "weight_bytes = 37632, fused = [\"bn1\", \"relu1\"]>,"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("#isa.layer<name = \"\", op = \"\">"), std::string::npos)
      << text;
  // Command 1 of cluster 0 has no layer, commands 0 and 2 layers 0 and 2.
  EXPECT_NE(text.find("dst_strides [0, 20, 5, 1] layer 0 {elem_bytes = 2"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("dst_strides [0, 20, 5, 1] {elem_bytes = 2"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("dst_strides [0, 20, 5, 1] layer 2\n"), std::string::npos)
      << text;
}

TEST_F(IsaProgramTest, PiecesAndReplicasRoundTripThroughText) {
  Program p = accel::target_test::makePiecedProgram();
  auto m = isaFromProgram(p, &ctx);
  ASSERT_TRUE(succeeded(verify(*m)));
  std::string text = print(*m);
  auto reparsed = parse(text);
  ASSERT_TRUE(reparsed) << text;
  Program q;
  ASSERT_TRUE(succeeded(programFromIsa(programOp(*reparsed), q)));
  EXPECT_EQ(diffPrograms(p, q), "") << text;
  EXPECT_EQ(writeBinary(p), writeBinary(q));
  // Half-open byte ranges of the image; replicas as addresses; nothing for
  // the dense symbols and the single-copy segments.
  EXPECT_NE(text.find("\"input0\" at 512 pieces [[0, 8) at 512, [0, 8) at "
                      "768, [8, 16) at 1024] : tensor<1x4xf32>"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"out\" at 64 pieces [[0, 4) at 64, [4, 8) at 1536] "
                      ": tensor<2x2x2xi8>"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("isa.data at 4096 replicas [12288, 16384] = dense<"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("isa.data at 8192 = dense<[1, 2, 3]>"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("pieces", text.find("\"scalar\"")), std::string::npos)
      << text;
}

TEST_F(IsaProgramTest, F32DataKeepsItsBitsAndSplats) {
  // Segments of whole f32 words become f32 attributes over their raw bytes:
  // equal words print as a splat, every bit pattern (a NaN payload, -0)
  // comes back unchanged.
  Program p = accel::target_test::makeFullProgram();
  auto words = [](std::vector<uint32_t> w) {
    std::vector<uint8_t> b(w.size() * 4);
    std::memcpy(b.data(), w.data(), b.size());
    return b;
  };
  p.constants.clear();
  p.constants.push_back({4096, words({0x40200000u, 0x40200000u, 0x40200000u})});
  p.constants.push_back({8192, words({0x7FC01234u, 0x80000000u, 0x3F800000u})});
  auto m = isaFromProgram(p, &ctx);
  ASSERT_TRUE(succeeded(verify(*m)));
  std::string text = print(*m);
  EXPECT_NE(text.find("isa.data at 4096 = dense<2.500000e+00> : tensor<3xf32>"),
            std::string::npos)
      << text;
  Program q;
  ASSERT_TRUE(succeeded(programFromIsa(programOp(*m), q)));
  ASSERT_EQ(q.constants.size(), 2u);
  EXPECT_EQ(q.constants[0].bytes, p.constants[0].bytes);
  EXPECT_EQ(q.constants[1].bytes, p.constants[1].bytes);
}

TEST_F(IsaProgramTest, OtherDataTypesBecomeBytes) {
  auto m = parse(R"mlir(
    isa.program grid(1 x 1) dram 64 hw 0 {
      isa.data at 0 = dense<[1, 258]> : tensor<2xi16>
      isa.data at 8 = dense<1.0> : tensor<2xf16>
      isa.data at 16 = dense<-1> : tensor<1xi32>
    })mlir");
  ASSERT_TRUE(m);
  Program p;
  ASSERT_TRUE(succeeded(programFromIsa(programOp(*m), p)));
  ASSERT_EQ(p.constants.size(), 3u);
  EXPECT_EQ(p.constants[0].bytes, (std::vector<uint8_t>{1, 0, 2, 1}));
  EXPECT_EQ(p.constants[1].bytes, (std::vector<uint8_t>{0, 0x3C, 0, 0x3C}));
  EXPECT_EQ(p.constants[2].bytes,
            (std::vector<uint8_t>{0xFF, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(p.clusters.size(), 1u);
}

TEST_F(IsaProgramTest, Errors) {
  EXPECT_NE(convertExpectingError(R"mlir(
    isa.program grid(1 x 1) dram 64 hw 0 {
      isa.cluster(0, 0) {
        isa.execute ibuf 0 patches [#isa.patch<300, addr, 1>]
      }
    })mlir")
                .find("patch names instruction 300"),
            std::string::npos);
  EXPECT_NE(convertExpectingError(R"mlir(
    isa.program grid(1 x 1) dram 64 hw 0 {
      isa.io input "x" at 0 : tensor<4xf64>
    })mlir")
                .find("is not one of f32, f16, bf16, i8, i32"),
            std::string::npos);
  EXPECT_NE(convertExpectingError(R"mlir(
    isa.program grid(1 x 1) dram 64 hw 0 {
      isa.data at 0 = dense<true> : tensor<3xi1>
    })mlir")
                .find("not a whole number of bytes"),
            std::string::npos);
  EXPECT_NE(convertExpectingError(R"mlir(
    isa.program grid(0 x 1) dram 64 hw 0 {
    })mlir")
                .find("must have 1 to 65536 clusters"),
            std::string::npos);
}

// Large borrowed constants (weights left in their attributes) become
// resource blobs that reference the bytes; programFromIsa copies them, or
// with borrowData points into the blob. Printed and parsed back (the
// dialect_resources section) the bytes are unchanged.
TEST_F(IsaProgramTest, LargeBorrowedConstantsBecomeResourceBlobs) {
  Program p = target_test::makeFullProgram();
  std::vector<uint8_t> weights;
  target_test::addBorrowedConstant(p, weights, 128 * 1024);

  auto m = isaFromProgram(p, &ctx);
  ASSERT_TRUE(succeeded(verify(*m)));
  isa::DataOp last;
  programOp(*m).walk([&](isa::DataOp d) { last = d; });
  ASSERT_TRUE(last);
  EXPECT_TRUE(llvm::isa<DenseResourceElementsAttr>(last.getValue()));

  Program copied, borrowed;
  ASSERT_TRUE(succeeded(programFromIsa(programOp(*m), copied)));
  ASSERT_TRUE(succeeded(programFromIsa(programOp(*m), borrowed, true)));
  EXPECT_EQ(copied.constants.back().bytes, weights);
  EXPECT_EQ(borrowed.constants.back().data(), weights.data());
  EXPECT_EQ(borrowed.constants.back().size(), weights.size());
  EXPECT_EQ(diffPrograms(p, copied), "");

  MLIRContext other;
  other.loadDialect<isa::IsaDialect>();
  auto reparsed = parseSourceString<ModuleOp>(print(*m), &other);
  ASSERT_TRUE(reparsed);
  Program fromText;
  ASSERT_TRUE(succeeded(programFromIsa(programOp(*reparsed), fromText)));
  EXPECT_EQ(fromText.constants.back().bytes, weights);
}

// A program handed over (isaFromProgram(Program &&)): its large owned
// segment moves into a blob that owns the bytes (the same buffer, not a
// copy), small ones stay dense attributes; the module converts back to the
// program it was given, and the bytes live as long as the context.
TEST_F(IsaProgramTest, HandedOverProgramsMoveLargeOwnedSegmentsIntoBlobs) {
  Program p = target_test::makeFullProgram();
  ConstSegment big;
  big.dramAddr = p.dramSize;
  for (uint32_t i = 0; i < 32 * 1024; ++i)
    for (int b = 0; b < 4; ++b)
      big.bytes.push_back(uint8_t((i * 2654435761u) >> (8 * b)));
  p.dramSize += big.bytes.size();
  p.constants.push_back(big);
  const Program original = p;
  const uint8_t *buffer = p.constants.back().bytes.data();

  auto m = isaFromProgram(std::move(p), &ctx);
  ASSERT_TRUE(succeeded(verify(*m)));
  std::vector<isa::DataOp> data;
  programOp(*m).walk([&](isa::DataOp d) { data.push_back(d); });
  ASSERT_EQ(data.size(), original.constants.size());
  for (size_t i = 0; i + 1 < data.size(); ++i)
    EXPECT_FALSE(llvm::isa<DenseResourceElementsAttr>(data[i].getValue()))
        << "segment " << i << " is small";
  auto blob = llvm::dyn_cast<DenseResourceElementsAttr>(data.back().getValue());
  ASSERT_TRUE(blob);
  EXPECT_EQ(reinterpret_cast<const uint8_t *>(
                blob.getRawHandle().getBlob()->getData().data()),
            buffer);

  Program back;
  ASSERT_TRUE(succeeded(programFromIsa(programOp(*m), back)));
  EXPECT_EQ(diffPrograms(original, back), "");
  EXPECT_EQ(back.constants.back().bytes, big.bytes);
}

TEST_F(IsaProgramTest, ResourceOfTheWrongSizeIsAnError) {
  std::string diags = convertExpectingError(R"mlir(
isa.program grid(1 x 1) dram 4096 hw 0 {
  isa.data at 0 = dense_resource<w> : tensor<4xf32>
  isa.cluster(0, 0) {
  }
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F"
    }
  }
#-}
)mlir");
  EXPECT_NE(diags.find("resource 'w' holds 4 bytes, expected f32 data of "
                       "type 'tensor<4xf32>'"),
            std::string::npos)
      << diags;
}
