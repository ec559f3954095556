//===- InferTypeTest.cpp - Graph ops build without result types -----------===//
//
// Ops whose result type follows from operands and attributes implement
// InferTypeOpInterface, so their builders take no result type. Each test
// builds an op that way and checks the type it got and that it verifies.
//
//===----------------------------------------------------------------------===//
#include "Graph/GraphDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

namespace graph = accel::graph;
using mlir::RankedTensorType;
using mlir::Type;
using mlir::Value;

namespace {
class GraphInferType : public ::testing::Test {
protected:
  GraphInferType() : builder(&ctx) {
    ctx.loadDialect<graph::GraphDialect, mlir::arith::ArithDialect>();
    module = mlir::ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
  }

  /// A constant operand of the given shape (f32 unless `elem` says).
  Value operand(llvm::ArrayRef<int64_t> shape, Type elem = {}) {
    auto type =
        RankedTensorType::get(shape, elem ? elem : builder.getF32Type());
    mlir::Attribute zero =
        mlir::isa<mlir::FloatType>(type.getElementType())
            ? mlir::Attribute(builder.getF32FloatAttr(0))
            : builder.getIntegerAttr(type.getElementType(), 0);
    return mlir::arith::ConstantOp::create(
        builder, loc(), mlir::DenseElementsAttr::get(type, zero));
  }

  mlir::Location loc() { return builder.getUnknownLoc(); }
  Type tensor(llvm::ArrayRef<int64_t> shape, Type elem = {}) {
    return RankedTensorType::get(shape, elem ? elem : builder.getF32Type());
  }
  bool verifies() { return mlir::succeeded(mlir::verify(*module)); }

  mlir::MLIRContext ctx;
  mlir::OpBuilder builder;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};
} // namespace

TEST_F(GraphInferType, MatMulBroadcastsBatchAndDropsVectorDims) {
  auto batched = graph::MatMulOp::create(builder, loc(), operand({2, 3, 4}),
                                         operand({4, 5}));
  EXPECT_EQ(batched.getType(), tensor({2, 3, 5}));
  auto vec =
      graph::MatMulOp::create(builder, loc(), operand({4}), operand({6, 4, 5}));
  EXPECT_EQ(vec.getType(), tensor({6, 5}));
  EXPECT_TRUE(verifies());
}

TEST_F(GraphInferType, AddBroadcasts) {
  auto add =
      graph::AddOp::create(builder, loc(), operand({3, 1}), operand({4}));
  EXPECT_EQ(add.getType(), tensor({3, 4}));
  EXPECT_TRUE(verifies());
}

TEST_F(GraphInferType, ComparisonsProduceI1OthersKeepTheElementType) {
  auto less = graph::BinaryOp::create(builder, loc(), graph::BinaryFn::less,
                                      operand({2, 3}), operand({3}));
  EXPECT_EQ(less.getType(), tensor({2, 3}, builder.getI1Type()));
  Type i64 = builder.getI64Type();
  auto sum = graph::BinaryOp::create(builder, loc(), graph::BinaryFn::add,
                                     operand({4}, i64), operand({4}, i64));
  EXPECT_EQ(sum.getType(), tensor({4}, i64));
  EXPECT_TRUE(verifies());
}

TEST_F(GraphInferType, TransposePermutesTheShape) {
  auto t = graph::TransposeOp::create(builder, loc(), operand({2, 3, 4}),
                                      llvm::ArrayRef<int64_t>{2, 0, 1});
  EXPECT_EQ(t.getType(), tensor({4, 2, 3}));
  EXPECT_TRUE(verifies());
}

TEST_F(GraphInferType, ArgmaxIsI64WithoutTheAxis) {
  auto r = graph::ReduceOp::create(builder, loc(), graph::ReduceFn::argmax,
                                   operand({3, 4}), llvm::ArrayRef<int64_t>{1},
                                   false, false);
  EXPECT_EQ(r.getType(), tensor({3}, builder.getI64Type()));
  EXPECT_TRUE(verifies());
}

TEST_F(GraphInferType, ReluAndUnaryKeepTheOperandType) {
  Value x = operand({2, 5});
  auto relu = graph::ReluOp::create(builder, loc(), x);
  EXPECT_EQ(relu.getType(), x.getType());
  auto tanh = graph::UnaryOp::create(builder, loc(), graph::UnaryFn::tanh, x,
                                     llvm::APFloat(0.0f), llvm::APFloat(0.0f));
  EXPECT_EQ(tanh.getType(), x.getType());
  EXPECT_TRUE(verifies());
}

TEST_F(GraphInferType, ConcatSumsTheAxis) {
  auto c = graph::ConcatOp::create(
      builder, loc(), mlir::ValueRange{operand({2, 3}), operand({2, 5})},
      builder.getI64IntegerAttr(1));
  EXPECT_EQ(c.getType(), tensor({2, 8}));
  EXPECT_TRUE(verifies());
}

TEST_F(GraphInferType, WrongExplicitResultTypeFailsVerification) {
  graph::AddOp::create(builder, loc(), tensor({3, 3}), operand({3, 1}),
                       operand({4}));
  std::string messages;
  mlir::ScopedDiagnosticHandler capture(&ctx, [&](mlir::Diagnostic &d) {
    messages += d.str() + "\n";
    return mlir::success();
  });
  EXPECT_FALSE(verifies());
  EXPECT_NE(messages.find("inferred type(s) 'tensor<3x4xf32>' are incompatible "
                          "with return type(s) of operation "
                          "'tensor<3x3xf32>'"),
            std::string::npos)
      << messages;
}
