//===- ONNXFuzzer.cpp - libFuzzer target of the ONNX importer -------------===//
//
// amp-onnx-fuzzer (built with the ONNX importer): every input is read as
// what amp-import-onnx and `amp-run --input x.pb` read:
//
//   - an ONNX ModelProto, imported with the options the input's size picks
//     (plain, --constants, --train with --loss cross_entropy, mse or graph
//     and sometimes --padding-idx w=0, --approximate-erf-gelu, --frozen w).
//     The import gives a module that verifies, or fails with at least one
//     error diagnostic; an imported module then goes through what users run
//     next (amp-pipeline; nn-autodiff first after --train), which may fail
//     but not crash;
//   - an ONNX TensorProto (.pb): a host array whose data matches its shape,
//     or an error with a message.
//
// Seeds: the importer tests' .onnx and .pb files (scripts/fuzz.sh);
// dictionary: onnx.dict (op types, attribute names).
//
//===----------------------------------------------------------------------===//

#include "amp/Import/ONNX.h"
#include "FuzzContext.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {

[[noreturn]] void invariantBroken(const char *what) {
  __builtin_printf("fuzzer invariant broken: %s\n", what);
  std::abort();
}

mlir::MLIRContext &context() {
  return amp::fuzz::sharedContext(amp::registerONNXImportDialects);
}

amp::ONNXImportOptions optionsFor(size_t size) {
  amp::ONNXImportOptions options;
  switch (size % 4) {
  case 1:
    options.constants = true;
    break;
  case 2: {
    // --train with each kind of loss: the cross-entropy of added labels,
    // an elementwise loss of added targets, or the graph's own (its first
    // output, the input named labels if there is one).
    static constexpr const char *kLosses[] = {"cross_entropy", "mse", "graph"};
    options.train = true;
    options.loss = kLosses[(size / 4) % 3];
    // One in four of those gives the table "w" padding row 0.
    if ((size / 12) % 4 == 3)
      options.paddingIdx = {{"w", 0}};
    break;
  }
  case 3:
    options.approximateErfGelu = true;
    break;
  default:
    // One input in eight freezes the initializer "w", and what the
    // torch.export-based exporter's metadata says was folded from it.
    if (size % 8 == 4)
      options.frozen = {"w"};
    break;
  }
  return options;
}

void fuzzModel(llvm::StringRef bytes) {
  mlir::MLIRContext &ctx = context();
  int errors = 0;
  mlir::ScopedDiagnosticHandler count(&ctx, [&](mlir::Diagnostic &d) {
    errors += d.getSeverity() == mlir::DiagnosticSeverity::Error;
    return mlir::success();
  });
  amp::ONNXImportOptions options = optionsFor(bytes.size());
  std::vector<amp::ONNXParam> params;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      amp::importONNXBytes(bytes, "fuzz.onnx", options, ctx, &params);
  static const bool verbose = std::getenv("AMP_FUZZ_VERBOSE");
  if (!module) {
    if (errors == 0)
      invariantBroken("an import that failed without an error");
    if (verbose)
      __builtin_printf("model: not imported\n");
    return;
  }
  if (errors != 0)
    invariantBroken("an import that reported an error and succeeded");
  if (mlir::failed(mlir::verify(*module)))
    invariantBroken("an imported module that does not verify");
  for (const amp::ONNXParam &p : params) {
    size_t count = 1;
    for (int64_t d : p.shape) {
      if (d < 0)
        invariantBroken("a param with a negative dimension");
      count *= static_cast<size_t>(d);
    }
    if (count != p.values.size())
      invariantBroken("a param whose values do not match its shape");
  }
  mlir::PassManager pm(&ctx);
  pm.enableVerifier(true);
  const char *pipeline = options.train
                             ? "builtin.module(nn-autodiff,amp-pipeline)"
                             : "builtin.module(amp-pipeline)";
  if (mlir::failed(mlir::parsePassPipeline(pipeline, pm)))
    invariantBroken("a pipeline that does not parse");
  mlir::LogicalResult result = pm.run(*module);
  if (verbose)
    __builtin_printf("model: imported, %s %s\n", pipeline,
                     mlir::succeeded(result) ? "succeeded" : "failed");
}

void fuzzTensor(llvm::StringRef bytes) {
  amp::runner::StatusOr<amp::runner::HostArray> array =
      amp::parseONNXTensor(bytes, "fuzz.pb");
  if (array.failed()) {
    if (array.getStatus().message().empty())
      invariantBroken("a tensor error without a message");
    return;
  }
  for (int64_t d : array->shape)
    if (d < 0)
      invariantBroken("a tensor with a negative dimension");
  if (array->bytes.size() !=
      static_cast<size_t>(array->numElements() *
                          amp::runner::elementSize(array->type)))
    invariantBroken("tensor data whose size does not match the shape");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  fuzzModel(bytes);
  fuzzTensor(bytes);
  return 0;
}
