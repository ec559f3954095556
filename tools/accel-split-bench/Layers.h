//===- Layers.h - Layer catalogue of accel-split-bench ----------*- C++ -*-===//
//
// The convolution and fully-connected / matmul layers the strong-scaling
// benchmark compiles one by one: ResNet-50's distinct convolutions and its
// classifier (batch 1), a three-layer MLP and one BERT-base encoder layer
// (sequence 128). Each layer is a one-op graph-dialect module; operands that
// are weights in the real network are marked constant (the benchmark turns
// them into arith.constant, so placement treats them as weights).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_SPLIT_BENCH_LAYERS_H
#define ACCEL_SPLIT_BENCH_LAYERS_H

#include <cstdint>
#include <string>
#include <vector>

namespace splitbench {

/// One operand of the layer's single op, in operand order.
struct Operand {
  std::string name;
  std::vector<int64_t> shape;
  bool constant = false; ///< a weight / bias of the network
};

struct Layer {
  std::string net;  ///< "resnet50", "mlp", "bert-base"
  std::string name; ///< e.g. "conv2_1x1_64-256"
  std::vector<Operand> operands;
  std::vector<int64_t> resultShape;
  std::string opText; ///< the op line: "graph.conv2d %x, %w, %b {...}"
  double macs = 0;
  /// Adds `accel.mapping = #accel.mapping<body>` to the op (experiments:
  /// select-mapping keeps a mapping it finds).
  void forceMapping(const std::string &body);
  /// Bytes of every operand and of the result, each once (f32).
  double compulsoryBytes() const;
  /// The module: func @main with one argument per operand (accel.name =
  /// operand name) and the result named "y".
  std::string moduleText() const;
};

/// Every layer; `quick` keeps a small subset (one of each kind).
std::vector<Layer> benchmarkLayers(bool quick);

} // namespace splitbench

#endif
