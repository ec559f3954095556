//===- AsanDefaults.cpp - AddressSanitizer defaults of the harnesses ------===//
//
// llvm::BumpPtrAllocator (inline, in LLVM's headers) poisons its slabs and
// unpoisons each allocation when compiled with ASan. Our instrumented code
// and Debian's uninstrumented libMLIR share such allocators (the context's
// storage uniquer), so memory the library allocates stays poisoned and every
// later access from our code is a false "use-after-poison".
// allow_user_poisoning=0 ignores that manual poisoning (scripts/sanitize.sh
// sets the same option for the tools and tests).
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
