//===- MultiNetDialect.cpp - multinet dialect, attributes, EU syntax
//-------===//
//
// The attributes' own invariants and the `(x, y)` syntax of execution units
// shared by attributes (#multinet.units<(1, 1), (2, 1)>) and ops
// (`to [(1, 1), (2, 1)]`).
//
//===----------------------------------------------------------------------===//
#include "MultiNet/MultiNetDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace accel::multinet;

//===----------------------------------------------------------------------===//
// (x, y) lists
//===----------------------------------------------------------------------===//

/// `(x, y), (x, y), ...`, possibly empty.
static ParseResult parseCoordList(AsmParser &p, SmallVector<Coord> &out) {
  while (succeeded(p.parseOptionalLParen())) {
    Coord c;
    if (p.parseInteger(c.x) || p.parseComma() || p.parseInteger(c.y) ||
        p.parseRParen())
      return failure();
    out.push_back(c);
    if (failed(p.parseOptionalComma()))
      break;
  }
  return success();
}

static void printCoordList(AsmPrinter &p, ArrayRef<Coord> coords) {
  llvm::interleaveComma(coords, p, [&](const Coord &c) {
    p << "(" << c.x << ", " << c.y << ")";
  });
}

/// Coordinates from 1, no EU twice.
static LogicalResult verifyCoords(function_ref<InFlightDiagnostic()> emitError,
                                  StringRef what, ArrayRef<Coord> coords) {
  for (auto [i, c] : llvm::enumerate(coords)) {
    if (c.x < 1 || c.y < 1)
      return emitError() << what << ": EU " << str(c)
                         << " is not on a grid counted from (1,1)";
    for (const Coord &d : coords.take_front(i))
      if (d == c)
        return emitError() << what << ": EU " << str(c) << " appears twice";
  }
  return success();
}

LogicalResult UnitsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<Coord> coords) {
  return verifyCoords(emitError, "multinet.units", coords);
}

LogicalResult
PlacementAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t time, ArrayRef<Coord> units) {
  if (time < 1)
    return emitError() << "multinet.placement: time units count from 1, got "
                       << time;
  if (units.empty())
    return emitError() << "multinet.placement: no EU";
  return verifyCoords(emitError, "multinet.placement", units);
}

LogicalResult SpanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t start, int64_t finish) {
  if (start < 0 || finish < start)
    return emitError() << "multinet.span: need 0 <= start <= finish, got "
                       << start << ", " << finish;
  return success();
}

LogicalResult TimingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t barrier, int64_t dataflow, bool,
                                 int64_t energyPj) {
  if (barrier < 0 || dataflow < 0 || energyPj < 0)
    return emitError() << "multinet.timing: makespans and energy must be >= 0";
  return success();
}

//===----------------------------------------------------------------------===//
// Op syntax: `(x, y)` and `[(x, y), ...]`
//===----------------------------------------------------------------------===//

static ParseResult parseUnit(OpAsmParser &p, UnitsAttr &out) {
  Coord c;
  if (p.parseLParen() || p.parseInteger(c.x) || p.parseComma() ||
      p.parseInteger(c.y) || p.parseRParen())
    return failure();
  out = UnitsAttr::getChecked([&] { return p.emitError(p.getNameLoc()); },
                              p.getContext(), ArrayRef<Coord>{c});
  return success(bool(out));
}

static void printUnit(OpAsmPrinter &p, Operation *, UnitsAttr units) {
  printCoordList(p, units.getCoords());
}

static ParseResult parseUnitList(OpAsmParser &p, UnitsAttr &out) {
  SmallVector<Coord> coords;
  if (p.parseLSquare() || parseCoordList(p, coords) || p.parseRSquare())
    return failure();
  out = UnitsAttr::getChecked([&] { return p.emitError(p.getNameLoc()); },
                              p.getContext(), coords);
  return success(bool(out));
}

static void printUnitList(OpAsmPrinter &p, Operation *, UnitsAttr units) {
  p << "[";
  printCoordList(p, units.getCoords());
  p << "]";
}

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

#include "MultiNet/MultiNetOpsDialect.cpp.inc"
#include "MultiNet/MultiNetOpsEnums.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "MultiNet/MultiNetOpsTypes.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "MultiNet/MultiNetOpsAttrDefs.cpp.inc"
#define GET_OP_CLASSES
#include "MultiNet/MultiNetOps.cpp.inc"

void MultiNetDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "MultiNet/MultiNetOpsTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "MultiNet/MultiNetOpsAttrDefs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "MultiNet/MultiNetOps.cpp.inc"
      >();
}
