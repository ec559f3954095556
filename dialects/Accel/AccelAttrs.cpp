//===- AccelAttrs.cpp - #accel.tiling, #accel.mapping, #accel.hw ----------===//
//
// The attributes' own invariants (genVerifyDecl), the parsers of their
// optional fields, and the conversion between #accel.hw and HardwareDesc:
// the description is stored in the nesting of its JSON format, so the
// validation of lib/Hardware checks it field by field.
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"
#include <nlohmann/json.hpp>

using namespace mlir;
using namespace accel;

#include "Accel/AccelEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "Accel/AccelAttrs.cpp.inc"

void AccelDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Accel/AccelAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Optional-field parsers
//===----------------------------------------------------------------------===//

FailureOr<std::optional<bool>> accel::detail::parseBoolKeyword(AsmParser &p) {
  if (succeeded(p.parseOptionalKeyword("true")))
    return std::optional<bool>(true);
  if (succeeded(p.parseOptionalKeyword("false")))
    return std::optional<bool>(false);
  return p.emitError(p.getCurrentLocation(), "expected true or false");
}

FailureOr<std::optional<APFloat>> accel::detail::parseDouble(AsmParser &p) {
  double v;
  if (p.parseFloat(v))
    return failure();
  return std::optional<APFloat>(APFloat(v));
}

FailureOr<std::optional<TilingStrategy>>
accel::detail::parseStrategy(AsmParser &p) {
  SMLoc loc = p.getCurrentLocation();
  StringRef word;
  if (p.parseKeyword(&word))
    return failure();
  if (std::optional<TilingStrategy> s = symbolizeTilingStrategy(word))
    return s;
  return p.emitError(loc, "strategy must be resident_a, resident_b, "
                          "reload_a, reload_b or split_k, got '")
         << word << "'";
}

//===----------------------------------------------------------------------===//
// Invariants
//===----------------------------------------------------------------------===//

LogicalResult
TilingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                   int64_t partitionM, int64_t partitionN, int64_t partitionK,
                   OuterLoop, std::optional<int64_t> tileM,
                   std::optional<int64_t> tileN, std::optional<bool>,
                   std::optional<int64_t> accBytes,
                   std::optional<int64_t> loadsA, std::optional<int64_t> loadsB,
                   std::optional<APFloat> util, std::optional<int64_t> cycles,
                   std::optional<TilingStrategy>) {
  for (auto [field, v] :
       {std::pair<StringRef, int64_t>{"partition_m", partitionM},
        {"partition_n", partitionN},
        {"partition_k", partitionK}})
    if (v <= 0)
      return emitError() << "accel.tiling: " << field << " must be >= 1, got "
                         << v;
  for (auto [field, tile, part] :
       {std::tuple<StringRef, std::optional<int64_t>, int64_t>{"tile_m", tileM,
                                                               partitionM},
        {"tile_n", tileN, partitionN}}) {
    if (!tile)
      continue;
    if (*tile <= 0)
      return emitError() << "accel.tiling: " << field << " must be >= 1, got "
                         << *tile;
    if (*tile > part)
      return emitError() << "accel.tiling: " << field << " = " << *tile
                         << " exceeds its partition (" << part << ")";
  }
  for (auto [field, v] :
       {std::pair<StringRef, std::optional<int64_t>>{"acc_bytes", accBytes},
        {"loads_a", loadsA},
        {"loads_b", loadsB},
        {"cycles", cycles}})
    if (v && *v < 0)
      return emitError() << "accel.tiling: " << field << " must be >= 0, got "
                         << *v;
  if (util &&
      !(util->convertToDouble() >= 0.0 && util->convertToDouble() <= 1.0))
    return emitError() << "accel.tiling: util must be in [0, 1], got "
                       << util->convertToDouble();
  return success();
}

LogicalResult MappingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  MappingDataflow, ArraySplit, ArraySplit,
                                  std::optional<int64_t> cycles) {
  if (cycles && *cycles < 0)
    return emitError() << "accel.mapping: cycles must be >= 0, got " << *cycles;
  return success();
}

//===----------------------------------------------------------------------===//
// #accel.hw <-> HardwareDesc
//===----------------------------------------------------------------------===//

namespace {
Attribute attrOfJson(Builder &b, const nlohmann::json &j) {
  if (j.is_object()) {
    SmallVector<NamedAttribute> fields;
    for (auto it = j.begin(); it != j.end(); ++it)
      if (Attribute a = attrOfJson(b, it.value()))
        fields.push_back(b.getNamedAttr(it.key(), a));
    return b.getDictionaryAttr(fields);
  }
  if (j.is_array()) {
    SmallVector<Attribute> elems;
    for (const nlohmann::json &e : j)
      if (Attribute a = attrOfJson(b, e))
        elems.push_back(a);
    return b.getArrayAttr(elems);
  }
  if (j.is_boolean())
    return b.getBoolAttr(j.get<bool>());
  if (j.is_number_integer())
    return b.getI64IntegerAttr(j.get<int64_t>());
  if (j.is_number_float())
    return b.getF64FloatAttr(j.get<double>());
  if (j.is_string())
    return b.getStringAttr(j.get<std::string>());
  return {};
}

/// The JSON value of a description attribute; false with `err` naming the
/// field path for kinds JSON cannot hold.
bool jsonOfAttr(Attribute a, const std::string &path, nlohmann::json &out,
                std::string &err) {
  if (auto d = dyn_cast<DictionaryAttr>(a)) {
    out = nlohmann::json::object();
    for (NamedAttribute f : d) {
      std::string sub =
          path.empty() ? f.getName().str() : path + "." + f.getName().str();
      if (!jsonOfAttr(f.getValue(), sub, out[f.getName().str()], err))
        return false;
    }
    return true;
  }
  if (auto arr = dyn_cast<ArrayAttr>(a)) {
    out = nlohmann::json::array();
    for (auto [i, e] : llvm::enumerate(arr)) {
      nlohmann::json v;
      if (!jsonOfAttr(e, path + "[" + std::to_string(i) + "]", v, err))
        return false;
      out.push_back(v);
    }
    return true;
  }
  if (auto bl = dyn_cast<BoolAttr>(a)) {
    out = bl.getValue();
    return true;
  }
  if (auto i = dyn_cast<IntegerAttr>(a)) {
    out = i.getValue().getSExtValue();
    return true;
  }
  if (auto f = dyn_cast<FloatAttr>(a)) {
    out = f.getValueAsDouble();
    return true;
  }
  if (auto s = dyn_cast<StringAttr>(a)) {
    out = s.str();
    return true;
  }
  err = path + ": expected a dictionary, array, integer, float, bool or "
               "string";
  return false;
}

bool descOfDict(DictionaryAttr desc, HardwareDesc &out, std::string &err) {
  nlohmann::json j;
  if (!jsonOfAttr(desc, "", j, err))
    return false;
  // Through the text, so that the reader sees the same number kinds as in a
  // file (non-negative integers unsigned).
  return parseHardwareDesc(j.dump(), out, err);
}
} // namespace

LogicalResult HardwareAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   StringRef name, uint64_t fingerprint,
                                   DictionaryAttr desc) {
  HardwareDesc hw;
  std::string err;
  if (!desc || !descOfDict(desc, hw, err))
    return emitError() << "accel.hw: invalid description: " << err;
  if (hw.name != name)
    return emitError() << "accel.hw: name \"" << name
                       << "\" differs from the description's name \"" << hw.name
                       << "\"";
  if (hw.fingerprint() != fingerprint)
    return emitError() << "accel.hw: fingerprint " << fingerprint
                       << " does not match the description (its fingerprint "
                          "is "
                       << hw.fingerprint() << ")";
  return success();
}

HardwareAttr accel::hardwareAttrFor(MLIRContext *ctx, const HardwareDesc &hw) {
  Builder b(ctx);
  auto desc = cast<DictionaryAttr>(
      attrOfJson(b, nlohmann::json::parse(hardwareToJson(hw))));
  return HardwareAttr::get(ctx, hw.name, hw.fingerprint(), desc);
}

bool accel::hardwareFromAttr(HardwareAttr attr, HardwareDesc &out,
                             std::string &err) {
  return descOfDict(attr.getDesc(), out, err);
}

LogicalResult accel::moduleHardware(ModuleOp module, HardwareDesc &hw) {
  Attribute a = module->getAttr(kHardwareAttrName);
  if (!a) {
    hw = defaultHardware();
    return success();
  }
  auto attr = dyn_cast<HardwareAttr>(a);
  std::string err = "expected an #accel.hw<...> attribute";
  if (attr && hardwareFromAttr(attr, hw, err))
    return success();
  return mlir::emitError(module.getLoc()) << kHardwareAttrName << ": " << err;
}

HardwareAttr accel::readHardwareFile(MLIRContext *ctx, const std::string &path,
                                     std::string &err) {
  HardwareDesc hw;
  if (!loadHardwareDesc(path, hw, err)) {
    // err names the file ("hardware description 'PATH': ...") and field
    return {};
  }
  return hardwareAttrFor(ctx, hw);
}

LogicalResult accel::attachHardware(ModuleOp module, HardwareAttr attr) {
  Attribute old = module->getAttr(kHardwareAttrName);
  auto prev = dyn_cast_or_null<HardwareAttr>(old);
  if (old && (!prev || prev.getFingerprint() != attr.getFingerprint()))
    return mlir::emitError(module.getLoc())
           << "the module already carries " << kHardwareAttrName << " \""
           << (prev ? prev.getName() : "?") << "\", a different machine than \""
           << attr.getName() << "\"";
  module->setAttr(kHardwareAttrName, attr);
  return success();
}

LogicalResult accel::attachHardware(ModuleOp module, const std::string &path) {
  std::string err;
  HardwareAttr attr = readHardwareFile(module.getContext(), path, err);
  if (!attr)
    return mlir::emitError(module.getLoc()) << err;
  return attachHardware(module, attr);
}
