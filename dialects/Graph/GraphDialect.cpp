//===- GraphDialect.cpp - Graph dialect registration ----------------------===//
#include "Graph/GraphDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace accel::graph;

#include "Graph/GraphDialect.cpp.inc"
#include "Graph/GraphEnums.cpp.inc"

void GraphDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Graph/GraphOps.cpp.inc"
      >();
}
