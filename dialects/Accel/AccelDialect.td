//===- AccelDialect.td - The accel dialect: compiler decisions -*- tablegen -*-===//
//
// The `accel` dialect has no operations. It owns the discardable attributes
// the passes attach to graph-dialect IR (docs/passes.md):
//
//   accel.tiling  = #accel.tiling<...>   on graph.matmul / gemm / conv2d
//   accel.mapping = #accel.mapping<...>  on graph.matmul / gemm / conv2d
//   accel.hw      = #accel.hw<...>       on the module
//   accel.name    = "..."                on entry-function arguments / results
//
// and verifies them (verifyOperationAttribute), so a malformed or
// inconsistent decision is a verifier error naming the op and the field.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_ACCEL_DIALECT
#define ACCEL_ACCEL_DIALECT

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"

def Accel_Dialect : Dialect {
  let name = "accel";
  let cppNamespace = "::accel";
  let summary = "Typed compiler decisions attached to graph-dialect IR";
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Accel_OuterLoop : I32EnumAttr<"OuterLoop",
    "the GEMM loop that runs outside (tiling outer flag)", [
      I32EnumAttrCase<"M", 0, "m">,
      I32EnumAttrCase<"N", 1, "n">]> {
  let cppNamespace = "::accel";
  let genSpecializedAttr = 0;
}

def Accel_TilingStrategy : I32EnumAttr<"TilingStrategy",
    "the tile-selection strategy of docs/tiling.md", [
      I32EnumAttrCase<"ResidentA", 0, "resident_a">,
      I32EnumAttrCase<"ResidentB", 1, "resident_b">,
      I32EnumAttrCase<"ReloadA", 2, "reload_a">,
      I32EnumAttrCase<"ReloadB", 3, "reload_b">,
      I32EnumAttrCase<"SplitK", 4, "split_k">]> {
  let cppNamespace = "::accel";
  let genSpecializedAttr = 0;
}

def Accel_MappingDataflow : I32EnumAttr<"MappingDataflow",
    "the dataflow of a mapped GEMM (docs/mapping.md)", [
      I32EnumAttrCase<"InputStationary", 0, "input_stationary">,
      I32EnumAttrCase<"OutputStationary", 1, "output_stationary">,
      I32EnumAttrCase<"WeightStationary", 2, "weight_stationary">]> {
  let cppNamespace = "::accel";
  let genSpecializedAttr = 0;
}

def Accel_ArraySplit : I32EnumAttr<"ArraySplit",
    "the GEMM dimension one cluster-grid dimension splits", [
      I32EnumAttrCase<"M", 0, "M">,
      I32EnumAttrCase<"N", 1, "N">,
      I32EnumAttrCase<"K", 2, "K">,
      I32EnumAttrCase<"None", 3, "none">,
      I32EnumAttrCase<"B", 4, "B">]> {
  let cppNamespace = "::accel";
  let genSpecializedAttr = 0;
}

def Accel_TensorCategory : I32EnumAttr<"TensorCategory",
    "the static-label category of a tensor (docs/labels-and-splits.md)", [
      I32EnumAttrCase<"Instruction", 0, "ins">,
      I32EnumAttrCase<"InputNeuron", 1, "in">,
      I32EnumAttrCase<"OutputNeuron", 2, "on">,
      I32EnumAttrCase<"HiddenNeuron", 3, "hn">,
      I32EnumAttrCase<"ConstantNeuron", 4, "cn">,
      I32EnumAttrCase<"InputWeight", 5, "iw">,
      I32EnumAttrCase<"OutputWeight", 6, "ow">,
      I32EnumAttrCase<"ConstantWeight", 7, "cw">,
      I32EnumAttrCase<"Auxiliary", 8, "aux">]> {
  let cppNamespace = "::accel";
  let genSpecializedAttr = 0;
}

def Accel_SwapLevel : I32EnumAttr<"SwapLevel",
    "the target data-exchange level of a dynamic label", [
      I32EnumAttrCase<"None", 0, "none">,
      I32EnumAttrCase<"Core", 1, "core">,
      I32EnumAttrCase<"Cluster", 2, "cluster">,
      I32EnumAttrCase<"Mem", 3, "mem">]> {
  let cppNamespace = "::accel";
  let genSpecializedAttr = 0;
}

#endif
