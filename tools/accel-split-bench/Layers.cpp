//===- Layers.cpp - Layer catalogue of accel-split-bench ------------------===//
#include "Layers.h"

#include <sstream>

using namespace splitbench;

namespace {

std::string tensorType(const std::vector<int64_t> &shape) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + "f32>";
}

double product(const std::vector<int64_t> &shape) {
  double p = 1;
  for (int64_t d : shape)
    p *= double(d);
  return p;
}

/// NCHW convolution with bias, square kernel, symmetric padding.
Layer conv(const std::string &name, int64_t c, int64_t hw, int64_t o, int64_t k,
           int64_t stride, int64_t pad) {
  int64_t out = (hw + 2 * pad - k) / stride + 1;
  Layer l;
  l.net = "resnet50";
  l.name = name;
  l.operands = {{"x", {1, c, hw, hw}, false},
                {"w", {o, c, k, k}, true},
                {"b", {o}, true}};
  l.resultShape = {1, o, out, out};
  std::ostringstream os;
  os << "graph.conv2d %x, %w, %b {strides = array<i64: " << stride << ", "
     << stride << ">, pads = array<i64: " << pad << ", " << pad << ", " << pad
     << ", " << pad << ">}";
  l.opText = os.str();
  l.macs = double(o) * double(c) * double(k * k) * double(out * out);
  return l;
}

/// Fully-connected layer as ONNX exports it: Gemm with transB (weights
/// [n, k]) and a bias.
Layer fc(const std::string &net, const std::string &name, int64_t batch,
         int64_t k, int64_t n) {
  Layer l;
  l.net = net;
  l.name = name;
  l.operands = {
      {"x", {batch, k}, false}, {"w", {n, k}, true}, {"b", {n}, true}};
  l.resultShape = {batch, n};
  l.opText = "graph.gemm %x, %w, %b {trans_b = true}";
  l.macs = double(batch) * double(k) * double(n);
  return l;
}

/// Matmul with a constant right operand (a transformer linear layer,
/// weights [k, n] as exported by PyTorch's MatMul).
Layer linear(const std::string &name, int64_t m, int64_t k, int64_t n) {
  Layer l;
  l.net = "bert-base";
  l.name = name;
  l.operands = {{"x", {m, k}, false}, {"w", {k, n}, true}};
  l.resultShape = {m, n};
  l.opText = "graph.matmul %x, %w";
  l.macs = double(m) * double(k) * double(n);
  return l;
}

/// Batched matmul of two activations (attention scores / context).
Layer batched(const std::string &name, int64_t b, int64_t m, int64_t k,
              int64_t n) {
  Layer l;
  l.net = "bert-base";
  l.name = name;
  l.operands = {{"x", {b, m, k}, false}, {"z", {b, k, n}, false}};
  l.resultShape = {b, m, n};
  l.opText = "graph.matmul %x, %z";
  l.macs = double(b) * double(m) * double(k) * double(n);
  return l;
}

} // namespace

double Layer::compulsoryBytes() const {
  double e = product(resultShape);
  for (const Operand &o : operands)
    e += product(o.shape);
  return 4 * e;
}

void Layer::forceMapping(const std::string &body) {
  std::string attr = "accel.mapping = #accel.mapping<" + body + ">";
  if (!opText.empty() && opText.back() == '}')
    opText.insert(opText.size() - 1, ", " + attr);
  else
    opText += " {" + attr + "}";
}

std::string Layer::moduleText() const {
  std::ostringstream os;
  os << "func.func @main(";
  for (size_t i = 0; i < operands.size(); ++i)
    os << (i ? ", " : "") << "%" << operands[i].name << ": "
       << tensorType(operands[i].shape) << " {accel.name = \""
       << operands[i].name << "\"}";
  os << ") -> (" << tensorType(resultShape) << " {accel.name = \"y\"}) {\n"
     << "  %y = " << opText << " : (";
  for (size_t i = 0; i < operands.size(); ++i)
    os << (i ? ", " : "") << tensorType(operands[i].shape);
  os << ") -> " << tensorType(resultShape)
     << "\n  return %y : " << tensorType(resultShape) << "\n}\n";
  return os.str();
}

std::vector<Layer> splitbench::benchmarkLayers(bool quick) {
  std::vector<Layer> v;
  // ResNet-50 v1.5 (stride in the 3x3 convolution), 224 x 224, batch 1:
  // every distinct convolution shape (the downsample 1x1 of a stage's first
  // block included), then the classifier.
  struct C {
    const char *name;
    int64_t c, hw, o, k, s, p;
  };
  const C convs[] = {
      {"conv1_7x7_3-64_s2", 3, 224, 64, 7, 2, 3},
      {"res2_1x1_64-64", 64, 56, 64, 1, 1, 0},
      {"res2_3x3_64-64", 64, 56, 64, 3, 1, 1},
      {"res2_1x1_64-256", 64, 56, 256, 1, 1, 0},
      {"res2_1x1_256-64", 256, 56, 64, 1, 1, 0},
      {"res3_1x1_256-128", 256, 56, 128, 1, 1, 0},
      {"res3_3x3_128-128_s2", 128, 56, 128, 3, 2, 1},
      {"res3_1x1_128-512", 128, 28, 512, 1, 1, 0},
      {"res3_down_256-512_s2", 256, 56, 512, 1, 2, 0},
      {"res3_1x1_512-128", 512, 28, 128, 1, 1, 0},
      {"res3_3x3_128-128", 128, 28, 128, 3, 1, 1},
      {"res4_1x1_512-256", 512, 28, 256, 1, 1, 0},
      {"res4_3x3_256-256_s2", 256, 28, 256, 3, 2, 1},
      {"res4_1x1_256-1024", 256, 14, 1024, 1, 1, 0},
      {"res4_down_512-1024_s2", 512, 28, 1024, 1, 2, 0},
      {"res4_1x1_1024-256", 1024, 14, 256, 1, 1, 0},
      {"res4_3x3_256-256", 256, 14, 256, 3, 1, 1},
      {"res5_1x1_1024-512", 1024, 14, 512, 1, 1, 0},
      {"res5_3x3_512-512_s2", 512, 14, 512, 3, 2, 1},
      {"res5_1x1_512-2048", 512, 7, 2048, 1, 1, 0},
      {"res5_down_1024-2048_s2", 1024, 14, 2048, 1, 2, 0},
      {"res5_1x1_2048-512", 2048, 7, 512, 1, 1, 0},
      {"res5_3x3_512-512", 512, 7, 512, 3, 1, 1},
  };
  for (const C &c : convs) {
    if (quick && std::string(c.name) != "res4_3x3_256-256")
      continue;
    v.push_back(conv(c.name, c.c, c.hw, c.o, c.k, c.s, c.p));
  }
  if (!quick)
    v.push_back(fc("resnet50", "fc_2048-1000", 1, 2048, 1000));
  // MLP 1024-4096-4096-1000 at batch 16.
  const int64_t mlpBatch = 16;
  if (quick) {
    v.push_back(fc("mlp", "fc2_4096-4096", mlpBatch, 4096, 4096));
  } else {
    v.push_back(fc("mlp", "fc1_1024-4096", mlpBatch, 1024, 4096));
    v.push_back(fc("mlp", "fc2_4096-4096", mlpBatch, 4096, 4096));
    v.push_back(fc("mlp", "fc3_4096-1000", mlpBatch, 4096, 1000));
  }
  // BERT-base encoder layer, sequence 128, batch 1: hidden 768, 12 heads of
  // 64, FFN 3072.
  const int64_t seq = 128, hidden = 768, heads = 12, headDim = 64, ffn = 3072;
  if (!quick) {
    v.push_back(linear("qkv_768-2304", seq, hidden, 3 * hidden));
    v.push_back(batched("scores_12x128x64x128", heads, seq, headDim, seq));
    v.push_back(batched("context_12x128x128x64", heads, seq, seq, headDim));
    v.push_back(linear("attn_out_768-768", seq, hidden, hidden));
    v.push_back(linear("ffn1_768-3072", seq, hidden, ffn));
  }
  v.push_back(linear("ffn2_3072-768", seq, ffn, hidden));
  return v;
}
