//===- Labels.cpp - Label codes, rules and the processor part -------------===//
//
// Category codes, the degree rule of [0149], the processor-dependent part of
// the dynamic label (step S0) and the GEMM-dim mapping. The textual forms
// live in LabelText.cpp.
//
//===----------------------------------------------------------------------===//
#include "accel/Split/Labels.h"

#include <algorithm>

namespace accel::split {

namespace {
struct CategoryCode {
  Category category;
  const char *code;
};
constexpr CategoryCode kCategoryCodes[] = {
    {Category::Instruction, "ins"},   {Category::InputNeuron, "in"},
    {Category::OutputNeuron, "on"},   {Category::HiddenNeuron, "hn"},
    {Category::ConstantNeuron, "cn"}, {Category::InputWeight, "iw"},
    {Category::OutputWeight, "ow"},   {Category::ConstantWeight, "cw"},
    {Category::Auxiliary, "aux"},
};

struct TypeSize {
  const char *name;
  unsigned bytes;
};
constexpr TypeSize kTypes[] = {
    {"float32", 4}, {"float16", 2}, {"bfloat16", 2}, {"int8", 1},
    {"int32", 4},   {"int64", 8},   {"bool", 1},
};
} // namespace

const char *categoryCode(Category c) {
  for (const CategoryCode &cc : kCategoryCodes)
    if (cc.category == c)
      return cc.code;
  return "?";
}

bool parseCategory(const std::string &code, Category &out) {
  for (const CategoryCode &cc : kCategoryCodes)
    if (code == cc.code) {
      out = cc.category;
      return true;
    }
  return false;
}

Category categoryFromDegree(unsigned inDegree, unsigned outDegree,
                            OperandRole role, bool isConstant, bool isWeight) {
  if (inDegree == 0 && outDegree == 0)
    return Category::Instruction;
  if (inDegree == 0) {
    switch (role) {
    case OperandRole::Data:
      return isConstant ? Category::ConstantNeuron : Category::InputNeuron;
    case OperandRole::Weight:
      return isConstant ? Category::ConstantWeight : Category::InputWeight;
    case OperandRole::Auxiliary:
      return Category::Auxiliary;
    }
  }
  if (outDegree == 0)
    return isWeight ? Category::OutputWeight : Category::OutputNeuron;
  return Category::HiddenNeuron;
}

const char *swapName(Swap s) {
  switch (s) {
  case Swap::None:
    return "none";
  case Swap::Core:
    return "core";
  case Swap::Cluster:
    return "cluster";
  case Swap::Mem:
    return "mem";
  }
  return "?";
}

bool parseSwap(const std::string &s, Swap &out) {
  for (Swap v : {Swap::None, Swap::Core, Swap::Cluster, Swap::Mem})
    if (s == swapName(v)) {
      out = v;
      return true;
    }
  return false;
}

unsigned typeBytes(const std::string &type) {
  for (const TypeSize &t : kTypes)
    if (type == t.name)
      return t.bytes;
  return 0;
}

const char *labelTypeName(DType t) {
  switch (t) {
  case DType::F32:
    return "float32";
  case DType::F16:
    return "float16";
  case DType::BF16:
    return "bfloat16";
  case DType::I8:
    return "int8";
  case DType::I32:
    return "int32";
  case DType::I1:
    return "bool";
  case DType::I64:
    return "int64";
  }
  return "?";
}

std::string checkStaticLabel(const StaticLabel &s) {
  if (!typeBytes(s.type))
    return "unknown element type '" + s.type + "'";
  for (size_t i = 0; i < s.dimOrder.size(); ++i) {
    char c = s.dimOrder[i];
    if (c < 'a' || c > 'z')
      return std::string("dim order '") + s.dimOrder +
             "': dims are lower-case letters";
    if (s.dimOrder.find(c) != i)
      return std::string("dim order '") + s.dimOrder + "': '" + c +
             "' appears twice";
  }
  if (s.dims.size() != s.dimOrder.size())
    return "dim order '" + s.dimOrder + "' names " +
           std::to_string(s.dimOrder.size()) + " dims but " +
           std::to_string(s.dims.size()) + " extents are given";
  for (size_t i = 0; i < s.dims.size(); ++i)
    if (s.dims[i] < 0)
      return std::string("dim ") + s.dimOrder[i] + ": negative extent " +
             std::to_string(s.dims[i]);
  return "";
}

namespace {
bool isPermutation(const std::string &a, const std::string &b) {
  std::string x = a, y = b;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  return x == y;
}

int64_t staticExtent(const StaticLabel &s, char dim) {
  size_t i = s.dimOrder.find(dim);
  if (dim == 0 || i == std::string::npos || i >= s.dims.size())
    return -1;
  return s.dims[i];
}
} // namespace

DynamicLabel processorLabel(const StaticLabel &s,
                            const std::string &computeType,
                            const std::string &processorOrder,
                            int64_t configuredTile) {
  DynamicLabel d;
  d.type = computeType;
  d.dimOrder =
      isPermutation(processorOrder, s.dimOrder) ? processorOrder : s.dimOrder;
  if (!d.dimOrder.empty()) {
    char inner = d.dimOrder.back();
    int64_t extent = std::max<int64_t>(staticExtent(s, inner), 0);
    int64_t tile =
        configuredTile > 0 ? std::min(configuredTile, extent) : extent;
    d.tileDim = inner;
    d.tile = tile;
    d.padDim = inner;
    d.pad = tile > 0 ? (tile - extent % tile) % tile : 0;
  }
  uint64_t size = typeBytes(computeType);
  for (char dim : d.dimOrder)
    size *= uint64_t(std::max<int64_t>(operationDim(s, d, dim), 0));
  d.sizeBytes = size;
  return d;
}

int64_t operationDim(const StaticLabel &s, const DynamicLabel &d, char dim) {
  int64_t extent = staticExtent(s, dim);
  if (extent < 0)
    return -1;
  return extent + (d.padDim == dim ? d.pad : 0);
}

std::optional<std::string> defaultDimOrder(unsigned rank) {
  static const char *orders[] = {"", "c", "nc", "nct", "nchw", "ncdhw"};
  if (rank >= sizeof(orders) / sizeof(orders[0]))
    return std::nullopt;
  return std::string(orders[rank]);
}

const char *gemmDimName(GemmDim d) {
  switch (d) {
  case GemmDim::None:
    return "none";
  case GemmDim::M:
    return "M";
  case GemmDim::N:
    return "N";
  case GemmDim::K:
    return "K";
  case GemmDim::Batch:
    return "batch";
  }
  return "?";
}

GemmDim gemmDimOf(GemmOperand operand, char dim) {
  switch (operand) {
  case GemmOperand::MatmulA:
    return dim == 'n' ? GemmDim::M : dim == 'c' ? GemmDim::K : GemmDim::None;
  case GemmOperand::MatmulB:
    return dim == 'c' ? GemmDim::K : dim == 'n' ? GemmDim::N : GemmDim::None;
  case GemmOperand::MatmulResult:
    return dim == 'n' ? GemmDim::M : dim == 'c' ? GemmDim::N : GemmDim::None;
  case GemmOperand::ConvWeight:
    return dim == 'n' ? GemmDim::M : dim == 'c' ? GemmDim::K : GemmDim::None;
  case GemmOperand::ConvInput:
    if (dim == 'n')
      return GemmDim::Batch;
    if (dim == 'c')
      return GemmDim::K;
    return dim == 'h' || dim == 'w' ? GemmDim::N : GemmDim::None;
  case GemmOperand::ConvOutput:
    if (dim == 'n')
      return GemmDim::Batch;
    if (dim == 'c')
      return GemmDim::M;
    return dim == 'h' || dim == 'w' ? GemmDim::N : GemmDim::None;
  }
  return GemmDim::None;
}

} // namespace accel::split
