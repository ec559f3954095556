//===- MultiNetOps.td - Several networks on execution units -*- tablegen -*-===//
//
// spec/multi-network.md in the IR: a plan of networks cut into processes,
// the interactions between them, where and when each runs (placement), the
// results sent between EUs (transfers) and the EUs switched off (power
// gating). The scheduling itself lives in the MLIR-free library
// lib/MultiNet; the passes (multinet-schedule, multinet-power-gating,
// multinet-time) translate to and from it. docs/multi-network.md.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_MULTINET_OPS
#define ACCEL_MULTINET_OPS

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/IR/SymbolInterfaces.td"

def MultiNet_Dialect : Dialect {
  let name = "multinet";
  let cppNamespace = "::accel::multinet";
  let summary = "Several networks as processes on execution units";
  let description = [{
    A `multinet.plan` holds the networks that share the cluster grid, their
    processes (one or more layers each) and the interactions that combine
    results of two or more networks. Execution units (EUs) are the grid's
    clusters, written `(x, y)` from 1 as in the spec's figures. Passes fill
    in when and where each process runs (`#multinet.placement`), the results
    sent between EUs (`multinet.transfer`), the EUs switched off
    (`multinet.power_off`) and the predicted times and energy
    (`#multinet.timing`). The plan's verifier re-checks a complete placement
    against the spec's rules.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
}

class MultiNet_Attr<string name, string attrMnemonic>
    : AttrDef<MultiNet_Dialect, name> {
  let mnemonic = attrMnemonic;
}

class MultiNet_Op<string mnemonic, list<Trait> traits = []>
    : Op<MultiNet_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Types and attributes
//===----------------------------------------------------------------------===//

def MultiNet_ResultType : TypeDef<MultiNet_Dialect, "Result"> {
  let mnemonic = "result";
  let summary = "The result of a process (dynamic data)";
  let description = [{
    Flows from a process to the processes that read it; where producer and
    reader run on different EUs it crosses the routers (`multinet.transfer`).
  }];
}

def MultiNet_CombineKind : I32EnumAttr<"CombineKind",
    "how an interaction combines its inputs", [
      I32EnumAttrCase<"Sum", 0, "sum">,
      I32EnumAttrCase<"Product", 1, "product">,
      I32EnumAttrCase<"Concat", 2, "concat">,
      I32EnumAttrCase<"Graph", 3, "graph">]> {
  let cppNamespace = "::accel::multinet";
  let genSpecializedAttr = 0;
}
def MultiNet_CombineKindAttr
    : EnumAttr<MultiNet_Dialect, MultiNet_CombineKind, "combine">;

def MultiNet_UnitsAttr : MultiNet_Attr<"Units", "units"> {
  let summary = "A set of execution units, as (x, y) from 1";
  let description = [{
    ```mlir
    #multinet.units<(1, 1), (2, 1)>
    ```
    Verified: every coordinate >= 1, no EU twice. Whether an EU lies on the
    grid is the plan's check (the attribute does not know the grid).
  }];
  let parameters = (ins ArrayRefParameter<"::accel::multinet::Coord">:$coords);
  let assemblyFormat = "`<` custom<CoordList>($coords) `>`";
  let genVerifyDecl = 1;
}

def MultiNet_PlacementAttr : MultiNet_Attr<"Placement", "placement"> {
  let summary = "When and where a process runs (multinet-schedule)";
  let description = [{
    The process's time unit (from 1, as in the spec's tables) and its EUs:

    ```mlir
    placement = #multinet.placement<time 4 on (3, 2), (3, 3)>
    ```
    Verified: time >= 1, at least one EU, coordinates >= 1, no EU twice.
  }];
  let parameters = (ins "int64_t":$time,
                        ArrayRefParameter<"::accel::multinet::Coord">:$units);
  let assemblyFormat = "`<` `time` $time `on` custom<CoordList>($units) `>`";
  let genVerifyDecl = 1;
}

def MultiNet_SpanAttr : MultiNet_Attr<"Span", "span"> {
  let summary = "Predicted first and last cycle of a process (dataflow)";
  let description = [{
    ```mlir
    span = #multinet.span<120, 340>
    ```
    Written by multinet-time: the process starts once its inputs have
    arrived and its EUs are free and awake. Verified: 0 <= start <= finish.
  }];
  let parameters = (ins "int64_t":$start, "int64_t":$finish);
  let assemblyFormat = "`<` $start `,` $finish `>`";
  let genVerifyDecl = 1;
}

def MultiNet_TimingAttr : MultiNet_Attr<"Timing", "timing"> {
  let summary = "Predicted makespans and energy of a placed plan";
  let description = [{
    Written by multinet-time on the plan. Both synchronisation styles of the
    spec, side by side: `barrier` (each time unit waits for the previous
    one) and `dataflow` (a process fires when its inputs arrive); `gated`
    when the plan's `multinet.power_off` sets were applied (wake latency
    included); energy in picojoules (static per EU-cycle on or waking, per
    MAC, per byte-hop), of the barrier-synchronised run.

    ```mlir
    timing = #multinet.timing<barrier = 1200, dataflow = 1100, gated = false,
                              energy_pj = 5210>
    ```
  }];
  let parameters = (ins "int64_t":$barrier, "int64_t":$dataflow,
                        "bool":$gated, "int64_t":$energy_pj);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

def MultiNet_PlanOp : MultiNet_Op<"plan", [
    GraphRegionNoTerminator, SymbolTable, IsolatedFromAbove]> {
  let summary = "Networks, processes and interactions on a grid of EUs";
  let description = [{
    The body is a graph region: an interaction names, in `between`, the
    later processes whose target sets it must meet, so uses may come before
    definitions. Cycles among the inputs are an error of multinet-schedule.

    ```mlir
    multinet.plan grid 3 x 3 {
      multinet.network @NN1
      %p1 = multinet.process @NN1 "P1" {pinned = #multinet.units<(1, 1)>}
      ...
    }
    ```
    Verified: once every process and interaction is placed, the placement
    obeys the spec (every input in an earlier time unit, EUs on the grid and
    in the target set, static data within `memory_bytes` per EU, no two
    processes on one EU in one time unit unless both take part in one
    interaction of that time unit), and every `multinet.power_off` set
    switches off only EUs that run nothing in that time unit and the next.
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntMinValue<1>]>:$cols,
                       ConfinedAttr<I64Attr, [IntMinValue<1>]>:$rows,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<0>]>>:$memory_bytes,
                       OptionalAttr<MultiNet_TimingAttr>:$timing);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "`grid` $cols `x` $rows attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
}

def MultiNet_NetworkOp : MultiNet_Op<"network", [
    Symbol, HasParent<"PlanOp">]> {
  let summary = "A network of the plan";
  let description = [{
    Its processes name it (`multinet.process @A ...`). `model` is the file
    it was compiled from; `arrival` the cycle its input arrives.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, OptionalAttr<StrAttr>:$model,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntMinValue<0>]>, "0">:$arrival);
  let assemblyFormat = "$sym_name attr-dict";
}

// The cost and placement fields processes and interactions share.
defvar MultiNet_ProcessFields = (ins
    OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<1>]>>:$units,
    DefaultValuedAttr<ConfinedAttr<I64Attr, [IntMinValue<0>]>, "1">:$cycles,
    DefaultValuedAttr<ConfinedAttr<I64Attr, [IntMinValue<0>]>, "0">:$macs,
    DefaultValuedAttr<ConfinedAttr<I64Attr, [IntMinValue<0>]>, "0">:$output_bytes,
    DefaultValuedAttr<ConfinedAttr<I64Attr, [IntMinValue<0>]>, "0">:$static_bytes,
    OptionalAttr<MultiNet_UnitsAttr>:$pinned,
    OptionalAttr<MultiNet_PlacementAttr>:$placement,
    OptionalAttr<MultiNet_SpanAttr>:$span);

def MultiNet_ProcessOp : MultiNet_Op<"process", [HasParent<"PlanOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "One or more layers of one network";
  let description = [{
    Reads the results of `inputs`; runs on `units` EUs at once (a spatial
    unit; default: as many as `pinned` names, else 1) for `cycles`;
    `static_bytes` of weights stay, split evenly, in the memory of its EUs;
    `targets` are the EUs it may use (default: all); `pinned` fixes its EUs.

    ```mlir
    %p2 = multinet.process @NN1 "P2" (%p1) {cycles = 100, output_bytes = 64,
                                             pinned = #multinet.units<(2, 2)>}
    ```
    Verified: the network exists; `pinned` names `units` EUs, inside
    `targets` when both are given.
  }];
  let arguments = !con((ins FlatSymbolRefAttr:$network, StrAttr:$label,
                            Variadic<MultiNet_ResultType>:$inputs,
                            OptionalAttr<MultiNet_UnitsAttr>:$targets),
                       MultiNet_ProcessFields);
  let results = (outs MultiNet_ResultType:$result);
  let assemblyFormat =
      "$network $label (` ` `(` $inputs^ `)`)? attr-dict";
  let hasVerifier = 1;
}

def MultiNet_InteractionOp : MultiNet_Op<"interaction", [HasParent<"PlanOp">,
    AttrSizedOperandSegments]> {
  let summary = "Combines results of two or more networks";
  let description = [{
    Runs on an EU in the intersection of the target sets of its `between`
    processes (the networks' processes whose sets count; default: its
    `inputs`). Those processes may share that EU with it in its time unit.
    `kind` is how the inputs combine (the spec: e.g. a sum or a product).
    `repaired` marks an interaction whose target sets do not meet, placed
    by `multinet-schedule{repair-empty-interaction}` on the free EU nearest
    to its inputs: any EU of the grid is then allowed.

    ```mlir
    %x = multinet.interaction "X" sum (%a3, %b3) between (%a4, %b4)
    ```
    Verified: at least two inputs; `pinned` names `units` EUs.
  }];
  let arguments = !con((ins StrAttr:$label, MultiNet_CombineKindAttr:$kind,
                            Variadic<MultiNet_ResultType>:$inputs,
                            Variadic<MultiNet_ResultType>:$between,
                            UnitAttr:$repaired),
                       MultiNet_ProcessFields);
  let results = (outs MultiNet_ResultType:$result);
  let assemblyFormat = [{
    $label `` $kind ` ` `(` $inputs `)` (`between` ` ` `(` $between^ `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def MultiNet_TransferOp : MultiNet_Op<"transfer", [HasParent<"PlanOp">]> {
  let summary = "A result sent through the routers (multinet-schedule)";
  let description = [{
    One multicast from the producer's EU nearest to the receivers to every
    EU of its readers that does not hold the result yet, in the time unit of
    its first reader; `hops` summed over the receivers (XY routing).

    ```mlir
    multinet.transfer %x from (3, 1) to [(1, 1), (2, 1)] time 4 bytes 64 hops 3
    ```
  }];
  let arguments = (ins MultiNet_ResultType:$value, MultiNet_UnitsAttr:$from,
                       MultiNet_UnitsAttr:$to,
                       ConfinedAttr<I64Attr, [IntMinValue<1>]>:$time,
                       ConfinedAttr<I64Attr, [IntMinValue<0>]>:$bytes,
                       ConfinedAttr<I64Attr, [IntMinValue<0>]>:$hops);
  let assemblyFormat = [{
    $value `from` custom<Unit>($from) `to` custom<UnitList>($to)
    `time` $time `bytes` $bytes `hops` $hops attr-dict
  }];
}

def MultiNet_PowerOffOp : MultiNet_Op<"power_off", [HasParent<"PlanOp">]> {
  let summary = "EUs switched off during one time unit (power gating)";
  let description = [{
    ```mlir
    multinet.power_off time 2 [(3, 1), (1, 2)]
    ```
    Written by multinet-power-gating (the full sets: EUs that run nothing
    in this time unit and nothing in the next), or by hand (e.g. the spec's
    conservative subsets), which the plan's verifier and
    `multinet-power-gating sets=given` check.
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntMinValue<1>]>:$time,
                       MultiNet_UnitsAttr:$units);
  let assemblyFormat = "`time` $time custom<UnitList>($units) attr-dict";
}

#endif
