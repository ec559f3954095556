//===- Labels.h - Static and dynamic tensor labels (spec/labels-and-splits)
//-===//
//
// Pure C++ (no MLIR): the two labels every tensor carries, their textual
// forms exactly as the spec prints them, and the rules that derive them.
// The MLIR attributes (#accel.static_label, #accel.dynamic_label) mirror these
// structs; docs/labels-and-splits.md explains the decisions.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_SPLIT_LABELS_H
#define ACCEL_SPLIT_LABELS_H

#include "accel/Hardware/HardwareDesc.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace accel::split {

/// Tensor categories of the spec. Short codes (categoryCode): ins, in, on,
/// hn, cn, iw, ow, cw, aux (`in`, `iw`, `on` are the spec's; the rest are
/// this project's, docs/labels-and-splits.md).
enum class Category {
  Instruction,
  InputNeuron,
  OutputNeuron,
  HiddenNeuron,
  ConstantNeuron,
  InputWeight,
  OutputWeight,
  ConstantWeight,
  Auxiliary,
};
const char *categoryCode(Category c);
/// Parses a short code; false on an unknown one.
bool parseCategory(const std::string &code, Category &out);

/// How the consuming operator uses a tensor that has no producer: its role
/// tells the neuron / weight / auxiliary categories apart.
enum class OperandRole {
  Data,      ///< an activation operand (input of conv / FC / elementwise)
  Weight,    ///< the weight operand of conv / FC / matmul
  Auxiliary, ///< bias, scale, shape, index, ...
};

/// Category from the graph (spec [0149], with "out > 1" read as ">= 1").
/// `inDegree` counts producing operations (a constant / initializer is not a
/// producer), `outDegree` consuming operations; `isConstant` = the value is
/// a compile-time constant baked into the program (an initializer), not a
/// network input the host provides at run time.
///   in = 0, out = 0               -> Instruction
///   in = 0, out >= 1, role Data      -> ConstantNeuron if isConstant,
///                                       else InputNeuron
///   in = 0, out >= 1, role Weight    -> ConstantWeight if isConstant,
///                                       else InputWeight
///   in = 0, out >= 1, role Auxiliary -> Auxiliary (constant or not)
///   in >= 1, out = 0              -> OutputWeight if isWeight,
///                                       else OutputNeuron
///   in >= 1, out >= 1             -> HiddenNeuron
/// `role` and `isConstant` only matter for sources (in = 0), `isWeight` only
/// for sinks (a trained weight written back; inference never has one).
Category categoryFromDegree(unsigned inDegree, unsigned outDegree,
                            OperandRole role, bool isConstant,
                            bool isWeight = false);

/// Element type name as labels print it: float32, float16, bfloat16, int8,
/// int32, int64, bool.
struct StaticLabel {
  Category category = Category::HiddenNeuron;
  std::string type = "float32";
  std::string dimOrder; ///< lower-case letters, outermost first: "nc"
  std::vector<int64_t> dims;
  /// "static:in,float32,dim_nc,{1 1024}"
  std::string str() const;
  bool operator==(const StaticLabel &o) const;
};
/// Checks a static label: dimOrder is non-repeating lower-case letters, one
/// extent >= 0 per letter, a known type. "" when fine, else the reason.
std::string checkStaticLabel(const StaticLabel &s);

/// Target storage space: a class (`mem`, `cluster`: pieces dealt to the
/// instances in turn) or one instance (`mem1`, `cluster2`: 1-based as the
/// spec writes them).
struct StorageTarget {
  enum Kind { Mem, Cluster } kind = Mem;
  uint32_t instance = 0; ///< 0 = the class, k >= 1 = instance k
  std::string str() const;
  bool operator==(const StorageTarget &o) const {
    return kind == o.kind && instance == o.instance;
  }
};
bool parseStorageTarget(const std::string &s, StorageTarget &out);

/// Target data-exchange level.
enum class Swap { None, Core, Cluster, Mem };
const char *swapName(Swap s);
bool parseSwap(const std::string &s, Swap &out);

/// Inclusive 0-based range of one piece along the split dim.
using PieceRange = std::pair<int64_t, int64_t>;

struct DynamicLabel {
  std::string type = "float32"; ///< the type the processor computes in
  std::string dimOrder;         ///< the processor's read / store order
  char tileDim = 0;             ///< dim letter of `tiling` (0: none)
  int64_t tile = 0;             ///< values per step along tileDim
  char padDim = 0;              ///< dim letter of `padding`
  int64_t pad = 0;              ///< zeros appended on padDim
  uint64_t sizeBytes = 0;       ///< product of operation dims x element bytes
  char splitDim = 0;            ///< target split dim (0: not split yet)
  std::vector<PieceRange> ranges;
  StorageTarget store;
  Swap swap = Swap::None;
  /// "dynamic:float16,dim_nc,c=256,c=0,2048
  /// bytes,c[(0,255),(256,511)],mem,none"
  std::string str() const;
  bool operator==(const DynamicLabel &o) const;
};

/// Bytes of one element of a label type name ("float16" -> 2); 0 if unknown.
unsigned typeBytes(const std::string &type);
/// Label type name of a machine element type (DType::F16 -> "float16").
const char *labelTypeName(DType t);

/// Parse the textual forms str() prints (the MLIR attributes' parsers use
/// them). On error return false and set `err` naming the part
/// ("dynamic label: swap: unknown exchange level 'bus'"); `out` is only
/// written on success. Absent parts print as `none`: no tiling / padding /
/// split ("dynamic:float32,dim_c,none,none,0 bytes,none,mem,none").
bool parseStaticLabel(const std::string &text, StaticLabel &out,
                      std::string &err);
bool parseDynamicLabel(const std::string &text, DynamicLabel &out,
                       std::string &err);

/// Default static dim letters of a tensor of rank `rank` (DESIGN: 1 "c",
/// 2 "nc", 3 "nct", 4 "nchw", 5 "ncdhw"); "" for a scalar, nullopt above 5.
std::optional<std::string> defaultDimOrder(unsigned rank);

/// GEMM dims of the tensor dims of the two GEMM-shaped operators
/// (docs/labels-and-splits.md): matmul / gemm / FC A [M,K] "nc" (n->M,
/// c->K), B [K,N] "cn" (c->K, n->N), result [M,N] "nc" (n->M, c->N); conv2d
/// as implicit GEMM with the filter as A: weight [O,I,kh,kw] "nchw" (n->M,
/// c->K; kernel h,w -> None), input "nchw" (n->Batch, c->K, h,w->N),
/// output "nchw" (n->Batch, c->M, h,w->N).
enum class GemmOperand {
  MatmulA,
  MatmulB,
  MatmulResult,
  ConvInput,
  ConvWeight,
  ConvOutput
};
enum class GemmDim { None, M, N, K, Batch };
const char *gemmDimName(GemmDim d); ///< "none", "M", "N", "K", "batch"
GemmDim gemmDimOf(GemmOperand operand, char dim);

/// The processor-dependent part of the dynamic label (step S0): compute
/// type, the processor's dim order, tiling on its innermost dim
/// (tile = min(configured tile, extent)), zero padding of that dim up to a
/// multiple of the tile, and the size in bytes of the operation dims.
/// `processorOrder` must be a permutation of `s.dimOrder` (otherwise the
/// static order is used); configuredTile <= 0 means "the whole extent".
/// A scalar (no dims) gets no tiling and no padding.
DynamicLabel processorLabel(const StaticLabel &s,
                            const std::string &computeType,
                            const std::string &processorOrder,
                            int64_t configuredTile);

/// Operation dim (static extent + padding) of `dim` under `d`; -1 when
/// `dim` is not a letter of `s.dimOrder`.
int64_t operationDim(const StaticLabel &s, const DynamicLabel &d, char dim);

} // namespace accel::split

#endif
