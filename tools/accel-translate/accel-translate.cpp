//===- accel-translate.cpp - ISA text <-> accelerator binary --------------===//
//
//   accel-translate --isa-to-binary in.mlir -o out.bin
//   accel-translate --binary-to-isa out.bin            (disassembler)
//
// With --hw=<file.json|default> the program is also checked with
// validateProgram() against that hardware description.
//
//===----------------------------------------------------------------------===//
#include "Accel/AccelDialect.h"
#include "Isa/IsaDialect.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Support/FileRead.h"
#include "accel/Support/ParseGuard.h"
#include "accel/Target/Binary.h"
#include "accel/Target/IsaProgram.h"
#include "accel/Target/Validate.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

/// --help shows this tool's options and the translator's own (registered
/// when mlirTranslateMain runs), not every option LLVM links in.
static llvm::cl::OptionCategory translateCategory("accel-translate options");

static llvm::cl::opt<std::string> hwPath(
    "hw", llvm::cl::cat(translateCategory),
    llvm::cl::desc("Validate the program against this hardware description "
                   "(JSON file, or 'default' for the built-in preset)"),
    llvm::cl::value_desc("file|default"), llvm::cl::init(""));

/// Runs validateProgram when --hw is given.
static LogicalResult maybeValidate(const accel::Program &p, Location loc) {
  if (hwPath.empty())
    return success();
  accel::HardwareDesc hw;
  std::string err;
  if (hwPath == "default") {
    hw = accel::defaultHardware();
  } else if (!accel::loadHardwareDesc(hwPath, hw, err)) {
    return emitError(loc) << "cannot load hardware description: " << err;
  }
  if (!accel::validateProgram(p, hw, err))
    return emitError(loc) << "invalid program: " << err;
  return success();
}

/// The ISA dialect, and the accel dialect for the `accel.hw` attribute that
/// accel-opt's output carries on its module.
static void registerIsa(DialectRegistry &registry) {
  registry.insert<accel::isa::IsaDialect>();
  accel::registerAccelDialect(registry);
}

/// Parses and verifies ISA text after checking its nesting depth.
static OwningOpRef<Operation *> parseIsaText(llvm::SourceMgr &sm,
                                             MLIRContext *ctx) {
  const llvm::MemoryBuffer *buf = sm.getMemoryBuffer(sm.getMainFileID());
  if (auto at = accel::findExcessiveNesting(buf->getBuffer(),
                                            accel::kMaxTextNesting)) {
    auto [line, col] = accel::lineAndColumn(buf->getBuffer(), *at);
    emitError(FileLineColLoc::get(ctx, buf->getBufferIdentifier(), line, col))
        << accel::nestingMessage();
    return nullptr;
  }
  DialectRegistry registry;
  registerIsa(registry);
  ctx->appendDialectRegistry(registry);
  // Several top-level ops are wrapped in an implicit module, as
  // TranslateFromMLIRRegistration does.
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sm, ctx);
  if (!module || failed(verify(*module)))
    return nullptr;
  return OwningOpRef<Operation *>(module.release());
}

static int translateMain(int argc, char **argv) {
  // A plain registration (not TranslateFromMLIRRegistration) so that the
  // text's nesting is checked before the parser recurses into it.
  TranslateRegistration toBinary(
      "isa-to-binary",
      "write a module holding one isa.program as an accelerator binary",
      [](const std::shared_ptr<llvm::SourceMgr> &sm, llvm::raw_ostream &os,
         MLIRContext *ctx) -> LogicalResult {
        OwningOpRef<Operation *> parsed = parseIsaText(*sm, ctx);
        if (!parsed)
          return failure();
        Operation *op = parsed.get();
        accel::isa::ProgramOp prog;
        if (auto p = dyn_cast<accel::isa::ProgramOp>(op)) {
          prog = p;
        } else {
          for (Region &r : op->getRegions())
            for (Block &b : r)
              for (auto p : b.getOps<accel::isa::ProgramOp>()) {
                if (prog)
                  return p.emitError("expected exactly one isa.program, "
                                     "found another one here");
                prog = p;
              }
        }
        if (!prog)
          return op->emitError("expected a module holding one isa.program");
        accel::Program program;
        if (failed(accel::programFromIsa(prog, program)) ||
            failed(maybeValidate(program, prog.getLoc())))
          return failure();
        std::vector<uint8_t> bytes;
        std::string err;
        if (!accel::writeBinary(program, bytes, err))
          return prog.emitError(err);
        os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
        return success();
      });

  TranslateToMLIRRegistration toIsa(
      "binary-to-isa", "disassemble an accelerator binary into ISA text",
      [](llvm::SourceMgr &sm, MLIRContext *ctx) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buf = sm.getMemoryBuffer(sm.getMainFileID());
        Location loc =
            FileLineColLoc::get(ctx, buf->getBufferIdentifier(), 0, 0);
        accel::Program program;
        std::string err;
        if (!accel::readBinary(
                reinterpret_cast<const uint8_t *>(buf->getBufferStart()),
                buf->getBufferSize(), program, err)) {
          emitError(loc) << err;
          return nullptr;
        }
        if (failed(maybeValidate(program, loc)))
          return nullptr;
        OwningOpRef<ModuleOp> module = accel::isaFromProgram(program, ctx);
        return OwningOpRef<Operation *>(module.release());
      },
      registerIsa);

  llvm::cl::HideUnrelatedOptions(translateCategory);
  return failed(mlirTranslateMain(
      argc, argv,
      "accel binary translator: --isa-to-binary writes ISA text as a "
      "binary, --binary-to-isa disassembles a binary (docs/isa.md, "
      "docs/binary-format.md)"));
}

/// mlirTranslateMain reads its input through the source manager, which
/// would hang on a FIFO or exhaust memory on /dev/zero: every positional
/// argument (not "-", not the value of -o / --hw) must be a regular file.
static bool inputsAreRegularFiles(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a(argv[i]);
    if (a == "-o" || a == "--o" || a == "-hw" || a == "--hw") {
      ++i; // the option's value
      continue;
    }
    if (a.starts_with("-"))
      continue;
    std::string err;
    uint64_t size;
    if (!accel::checkRegularFile(a.str(), "input file",
                                 accel::kMaxDataFileBytes, size, err)) {
      llvm::errs() << "accel-translate: error: " << err << "\n";
      return false;
    }
  }
  return true;
}

int main(int argc, char **argv) {
  if (!inputsAreRegularFiles(argc, argv))
    return 1;
  // Parsing and verification recurse per level of IR nesting.
  return accel::runOnLargeStack([&] { return translateMain(argc, argv); });
}
