//===- AccelAttrs.cpp - #accel.tiling, #accel.mapping, #accel.hw ----------===//
//
// The attributes' own invariants (genVerifyDecl), the parsers of their
// optional fields, and the conversion between #accel.hw and HardwareDesc:
// the description is stored in the nesting of its JSON format, so the
// validation of lib/Hardware checks it field by field.
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "accel/Target/Sfu.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/bit.h"
#include <cmath>
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

FailureOr<std::optional<MappingDataflow>>
accel::detail::parseDataflow(AsmParser &p) {
  SMLoc loc = p.getCurrentLocation();
  StringRef word;
  if (p.parseKeyword(&word))
    return failure();
  if (std::optional<MappingDataflow> d = symbolizeMappingDataflow(word))
    return d;
  return p.emitError(loc, "dataflow must be input_stationary, "
                          "output_stationary or weight_stationary, got '")
         << word << "'";
}

FailureOr<SmallVector<int64_t>> accel::detail::parsePieceRanges(AsmParser &p) {
  SmallVector<int64_t> flat;
  auto parsePair = [&]() -> ParseResult {
    int64_t first, last;
    if (p.parseLParen() || p.parseInteger(first) || p.parseComma() ||
        p.parseInteger(last) || p.parseRParen())
      return failure();
    flat.push_back(first);
    flat.push_back(last);
    return success();
  };
  if (p.parseCommaSeparatedList(AsmParser::Delimiter::Square, parsePair))
    return failure();
  return flat;
}

FailureOr<SmallVector<int64_t>> accel::detail::parseIntList(AsmParser &p) {
  SmallVector<int64_t> v;
  if (p.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return p.parseInteger(v.emplace_back());
      }))
    return failure();
  return v;
}

bool accel::FusionStep::operator==(const FusionStep &o) const {
  return residual == o.residual && func == o.func &&
         llvm::bit_cast<uint32_t>(imm) == llvm::bit_cast<uint32_t>(o.imm);
}

llvm::hash_code accel::hash_value(const FusionStep &s) {
  return llvm::hash_combine(s.residual, s.func,
                            llvm::bit_cast<uint32_t>(s.imm));
}

namespace {
/// The SFU function named `name` (the table of accel/Target/Sfu.h).
std::optional<uint8_t> sfuCodeNamed(StringRef name) {
  for (unsigned c = 0; c < 256; ++c)
    if (const SfuInfo *i = sfuInfo(uint8_t(c)); i && name == i->name)
      return uint8_t(c);
  return std::nullopt;
}
} // namespace

FailureOr<SmallVector<FusionStep>>
accel::detail::parseFusionSteps(AsmParser &p) {
  SmallVector<FusionStep> steps;
  auto parseStep = [&]() -> ParseResult {
    SMLoc loc = p.getCurrentLocation();
    StringRef word;
    if (p.parseKeyword(&word))
      return failure();
    FusionStep s;
    if (word == "residual") {
      s.residual = true;
    } else {
      std::optional<uint8_t> code = sfuCodeNamed(word);
      if (!code)
        return p.emitError(loc, "unknown SFU function '")
               << word << "' (accel/Target/Sfu.h)";
      s.func = *code;
      if (succeeded(p.parseOptionalLParen())) {
        double imm;
        if (p.parseFloat(imm) || p.parseRParen())
          return failure();
        s.imm = float(imm);
      }
    }
    steps.push_back(s);
    return success();
  };
  if (p.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseStep))
    return failure();
  return steps;
}

void accel::detail::printFusionSteps(AsmPrinter &p,
                                     ArrayRef<FusionStep> steps) {
  p << "[";
  for (size_t i = 0; i < steps.size(); ++i) {
    const FusionStep &s = steps[i];
    p << (i ? ", " : "");
    if (s.residual) {
      p << "residual";
      continue;
    }
    p << sfuFuncName(SfuFunc(s.func));
    if (s.imm != 0.0f || std::signbit(s.imm)) {
      p << "(";
      p.printFloat(APFloat(s.imm));
      p << ")";
    }
  }
  p << "]";
}

void accel::detail::printPieceRanges(AsmPrinter &p, ArrayRef<int64_t> flat) {
  p << "[";
  for (size_t i = 0; i + 1 < flat.size(); i += 2)
    p << (i ? ", " : "") << "(" << flat[i] << ", " << flat[i + 1] << ")";
  p << "]";
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
                                  std::optional<MappingDataflow>,
                                  ArraySplit rows, ArraySplit cols,
                                  ArrayRef<int64_t> ranges,
                                  std::optional<int64_t> cycles) {
  if (cycles && *cycles < 0)
    return emitError() << "accel.mapping: cycles must be >= 0, got " << *cycles;
  if (ranges.empty())
    return success();
  if (rows != cols || rows == ArraySplit::None || rows == ArraySplit::B)
    return emitError() << "accel.mapping: ranges need array = [D, D] with D "
                          "one of M, N, K, got ["
                       << stringifyArraySplit(rows) << ", "
                       << stringifyArraySplit(cols) << "]";
  if (ranges.size() < 2 || ranges.front() != 0)
    return emitError() << "accel.mapping: ranges must start at 0 and list "
                          "one boundary more than clusters";
  for (size_t i = 1; i < ranges.size(); ++i)
    if (ranges[i] < ranges[i - 1])
      return emitError() << "accel.mapping: ranges must not decrease, got "
                         << ranges[i - 1] << " before " << ranges[i];
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor labels
//===----------------------------------------------------------------------===//

namespace {
constexpr llvm::StringLiteral kDimLetters = "nchwdt";
constexpr llvm::StringLiteral kLabelTypes[] = {
    "float32", "float16", "bfloat16", "int8", "int32", "int64", "bool"};

LogicalResult checkOrder(function_ref<InFlightDiagnostic()> emitError,
                         StringRef what, StringRef order) {
  for (size_t i = 0; i < order.size(); ++i)
    if (!kDimLetters.contains(order[i]) ||
        order.find(order[i], i + 1) != StringRef::npos)
      return emitError() << what << ": order \"" << order
                         << "\" must use distinct letters of n, c, h, w, d, t";
  return success();
}

LogicalResult checkType(function_ref<InFlightDiagnostic()> emitError,
                        StringRef what, StringRef type) {
  if (!llvm::is_contained(kLabelTypes, type))
    return emitError() << what << ": unknown type \"" << type
                       << "\" (float32, float16, bfloat16, int8, int32, "
                          "int64, bool)";
  return success();
}

LogicalResult checkLetter(function_ref<InFlightDiagnostic()> emitError,
                          StringRef field, StringRef letter, StringRef order) {
  if (letter.empty())
    return success();
  if (letter.size() != 1 || !order.contains(letter[0]))
    return emitError() << "accel.dynamic_label: " << field << " \"" << letter
                       << "\" is not a dim of the order \"" << order << "\"";
  return success();
}

bool validStore(StringRef s) {
  StringRef rest = s;
  if (!rest.consume_front("mem") && !rest.consume_front("cluster"))
    return false;
  unsigned k;
  return rest.empty() || (!rest.getAsInteger(10, k) && k >= 1);
}
} // namespace

LogicalResult
StaticLabelAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        TensorCategory, StringRef type, StringRef order,
                        ArrayRef<int64_t> dims) {
  if (failed(checkType(emitError, "accel.static_label", type)) ||
      failed(checkOrder(emitError, "accel.static_label", order)))
    return failure();
  if (dims.size() != order.size())
    return emitError() << "accel.static_label: " << dims.size()
                       << " dims for the order \"" << order << "\"";
  for (int64_t d : dims)
    if (d < 1)
      return emitError() << "accel.static_label: dims must be >= 1, got " << d;
  return success();
}

LogicalResult
DynamicLabelAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         StringRef type, StringRef order, StringRef tileDim,
                         int64_t tile, StringRef padDim, int64_t pad,
                         int64_t size, StringRef splitDim,
                         ArrayRef<int64_t> ranges, StringRef store, SwapLevel) {
  if (failed(checkType(emitError, "accel.dynamic_label", type)) ||
      failed(checkOrder(emitError, "accel.dynamic_label", order)) ||
      failed(checkLetter(emitError, "tile_dim", tileDim, order)) ||
      failed(checkLetter(emitError, "pad_dim", padDim, order)) ||
      failed(checkLetter(emitError, "split_dim", splitDim, order)))
    return failure();
  if (!tileDim.empty() && tile < 1)
    return emitError() << "accel.dynamic_label: tile must be >= 1, got "
                       << tile;
  if (pad < 0 || size < 0)
    return emitError() << "accel.dynamic_label: pad and size must be >= 0";
  if (splitDim.empty() != ranges.empty())
    return emitError() << "accel.dynamic_label: split_dim and ranges go "
                          "together";
  int64_t next = 0;
  for (size_t i = 0; i + 1 < ranges.size(); i += 2) {
    if (ranges[i] != next || ranges[i + 1] < ranges[i])
      return emitError() << "accel.dynamic_label: piece " << i / 2 << " ("
                         << ranges[i] << ", " << ranges[i + 1]
                         << ") must be non-empty and start at " << next;
    next = ranges[i + 1] + 1;
  }
  if (!store.empty() && !validStore(store))
    return emitError() << "accel.dynamic_label: store \"" << store
                       << "\" must be mem, cluster, memK or clusterK (K >= 1)";
  return success();
}

LogicalResult LabelAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                StaticLabelAttr s, DynamicLabelAttr d) {
  std::string a = s.getOrder().str(), b = d.getOrder().str();
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a != b)
    return emitError() << "accel.label: dynamic order \"" << d.getOrder()
                       << "\" is not a permutation of the static order \""
                       << s.getOrder() << "\"";
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

LogicalResult FusionAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<FusionStep> steps, ArrayAttr fused,
                                 StringRef pad, StringRef squeezeExcite) {
  if (steps.empty() && !fused && pad.empty() && squeezeExcite.empty())
    return emitError() << "#accel.fusion fuses nothing (no steps, fused, pad "
                          "or squeeze_excite)";
  int residuals = 0;
  for (const FusionStep &s : steps) {
    if (s.residual) {
      if (++residuals > 1)
        return emitError() << "#accel.fusion has more than one residual step";
      continue;
    }
    if (!sfuAllowedInUnary(SfuFunc(s.func)))
      return emitError() << "#accel.fusion step '"
                         << sfuFuncName(SfuFunc(s.func))
                         << "' is not a unary SFU function (an epilogue step "
                            "applies one function per element)";
  }
  if (fused)
    for (Attribute a : fused)
      if (!isa<StringAttr>(a))
        return emitError() << "#accel.fusion fused names must be strings, got "
                           << a;
  return success();
}

std::vector<std::string> FusionAttr::allFusedNames() const {
  std::vector<std::string> names;
  if (!getPad().empty())
    names.push_back(getPad().str());
  if (!getSqueezeExcite().empty())
    names.push_back(getSqueezeExcite().str());
  if (getFused())
    for (Attribute a : getFused())
      names.push_back(cast<StringAttr>(a).str());
  return names;
}

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
  // The attribute's storage lives in the dialect: a context that only
  // registered it (a module without accel ops, parsed by the Python API's
  // opt) crashed in HardwareAttr::get.
  ctx->getOrLoadDialect<AccelDialect>();
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
