//===- FuzzContext.h - the MLIR context of the IR and ONNX fuzzers --------===//
//
// Shared by IRFuzzers.cpp and ONNXFuzzer.cpp, each one translation unit of
// its fuzzer executables: the MLIR context many inputs share, and the
// AddressSanitizer option that libMLIR needs.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_FUZZ_FUZZCONTEXT_H
#define AMP_FUZZ_FUZZCONTEXT_H

#include "amp/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include <memory>

namespace amp::fuzz {

/// One context for many inputs (loading the dialects costs more than most
/// inputs), with every dialect amp-opt registers plus what `extra` adds,
/// renewed every kInputsPerContext calls so that the types and attributes
/// the inputs create do not pile up (at 2000, the ONNX fuzzer's seeds, whose
/// imported constants stay in the context, passed libFuzzer's 2 GB while
/// it read them). Registers amp's passes once.
inline mlir::MLIRContext &
sharedContext(void (*extra)(mlir::DialectRegistry &) = nullptr) {
  constexpr int kInputsPerContext = 250;
  static std::unique_ptr<mlir::MLIRContext> ctx;
  static int uses = 0;
  if (!ctx || ++uses % kInputsPerContext == 0) {
    static bool registered = (amp::registerAllPasses(), true);
    (void)registered;
    mlir::DialectRegistry registry;
    amp::registerAllDialects(registry);
    if (extra)
      extra(registry);
    ctx = std::make_unique<mlir::MLIRContext>(
        registry, mlir::MLIRContext::Threading::DISABLED);
    ctx->loadAllAvailableDialects();
  }
  return *ctx;
}

} // namespace amp::fuzz

/// Our instrumented code inlines LLVM's BumpPtrAllocator, which poisons
/// the slabs it allocates; libMLIR, not instrumented, then hands out memory
/// from them without unpoisoning it, which ASan would report as a
/// use-after-poison (the lit suite sets the same option, test/lit.cfg.py).
/// Defined here, in the one translation unit of each fuzzer that includes
/// this header.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

#endif // AMP_FUZZ_FUZZCONTEXT_H
