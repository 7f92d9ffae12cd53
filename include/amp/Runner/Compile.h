//===- Compile.h - the compile half of the runner library -------*- C++ -*-===//
//
// The compile half turns a training-step module into something the execution
// half (Trainer.h) can run: it applies amp-pipeline (unless the step runs in
// f32 as written), describes the functions the runner will call (their
// FunctionSignature: roles, shapes, element types, `nn.init`), lowers the
// module with amp-to-runtime, and then either JIT-compiles it (JitModule) or
// writes a native object file for the ahead-of-time path
// (emitObjectFile). It links MLIR and LLVM; the execution half links
// neither.
//
//   MLIRContext context(registry);            // registerCompileDialects
//   OwningOpRef<ModuleOp> m = parseSourceFile<ModuleOp>(path, &context);
//   AmpPipelineOptions pipeline;  pipeline.computeType = "f16";
//   CompileOptions options{&pipeline, {"train_step", "predict"}, path};
//   auto signatures = compileForRuntime(*m, options);
//   auto jit = JitModule::create(*m, {runtimeLibraryPath});
//   StepFn step = *(*jit)->lookup("train_step");
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_COMPILE_H
#define AMP_RUNNER_COMPILE_H

#include "amp/Dialect/NN/IR/NNDialect.h"
#include "amp/Dialect/NN/Transforms/Autodiff.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Runner/ProgramMetadata.h"
#include "amp/Runner/Signature.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir
namespace llvm {
class LLVMContext;
class Module;
namespace orc {
class JITTargetMachineBuilder;
class LLJIT;
} // namespace orc
} // namespace llvm

namespace amp::runner {

/// Registers what compiling a step needs: amp's dialects and the
/// translations from the LLVM dialect to LLVM IR.
void registerCompileDialects(mlir::DialectRegistry &registry);

/// The runner's copy of an IR role: the one with the same spelling, or
/// nullopt if the runner lacks it (CompileTest checks that every nn::Role
/// has one).
std::optional<Role> toRunnerRole(amp::nn::Role role);

/// The role of the argument or result whose attributes are `attrs`
/// (nullopt without one): the `#nn.role<...>` attribute mapped with
/// toRunnerRole. This is the one place that reads roles from IR.
llvm::Expected<std::optional<Role>> readRole(mlir::DictionaryAttr attrs);

/// The signature of `fn` as the execution half consumes it: every argument
/// and result must be a statically shaped tensor of a supported type.
llvm::Expected<FunctionSignature> describeFunction(mlir::func::FuncOp fn);

struct CompileOptions {
  /// amp-pipeline's options; null compiles the step in f32 as written.
  const AmpPipelineOptions *pipeline = nullptr;
  /// The functions to describe (the step first, then its eval function,
  /// ...).
  std::vector<std::string> functions;
  /// Names the module in messages (its file).
  std::string sourceName = "the module";
  /// nn-autodiff's options, applied to the step (functions[0]) when it is a
  /// forward loss function (one result with role loss) rather than a
  /// training step. keepForward is turned on when another of `functions`
  /// is the step's missing @<step>_forward.
  nn::AutodiffOptions autodiff;
  /// amp-to-runtime's plan-buffers: one arena for each function's
  /// temporaries.
  bool bufferArena = true;
};

/// Applies nn-autodiff (to a forward step), amp-pipeline (when
/// options.pipeline is set) and amp-to-runtime
/// to `module`, in place, and returns the signatures of options.functions,
/// read in between (amp-pipeline may add loss-scale state; the lowering
/// erases the tensor types). Pass failures are reported as diagnostics of
/// the module's context, and the returned error says which stage failed.
llvm::Expected<std::vector<FunctionSignature>>
compileForRuntime(mlir::ModuleOp module, const CompileOptions &options);

/// How the JIT and emitObjectFile optimize a lowered step. Its host code is
/// a straight line of runtime calls and status checks (the work is in the
/// kernels), which LLVM's optimizations do not make measurably faster; on
/// large steps they took time quadratic in the size of the function: for a
/// 10k-op transformer, the -O1 and -O2 IR pipelines spent minutes in
/// isSafeToLoadUnconditionally, and instruction selection at -O1 did not
/// finish in 5 minutes (ScheduleDAGSDNodes::ClusterNeighboringLoads), while
/// FastISel at -O0 takes seconds. So both are at -O0.
inline constexpr unsigned kStepIROptLevel = 0;
inline constexpr llvm::CodeGenOptLevel kStepCodeGenOptLevel =
    llvm::CodeGenOptLevel::None;

/// The host target as the JIT and emitObjectFile compile a step for it:
/// position-independent code, the small code model, kStepCodeGenOptLevel.
llvm::Expected<llvm::orc::JITTargetMachineBuilder> hostStepTarget();

/// The lowered module as LLVM IR for `target`, optimized at
/// kStepIROptLevel.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateStep(mlir::ModuleOp lowered, llvm::LLVMContext &context,
              llvm::orc::JITTargetMachineBuilder &target);

/// A lowered module compiled in memory (ORC's LLJIT on hostStepTarget),
/// linked against the given shared libraries (the runtime backend).
class JitModule {
public:
  static llvm::Expected<std::unique_ptr<JitModule>>
  create(mlir::ModuleOp lowered, const std::vector<std::string> &sharedLibs);
  ~JitModule();

  /// The entry point of a lowered function.
  llvm::Expected<StepFn> lookup(llvm::StringRef function);
  /// The module's `__amp_error_site`, or null.
  const char *const *errorSite();

private:
  JitModule(std::unique_ptr<llvm::orc::LLJIT> jit, bool hasErrorSite);
  std::unique_ptr<llvm::orc::LLJIT> jit;
  bool hasErrorSite;
};

/// Writes a lowered module as a native, position-independent object file
/// for the host, optimized as the JIT optimizes it; linked into a shared
/// object, its functions are StepFns that the execution half can call
/// without MLIR or LLVM.
llvm::Error emitObjectFile(mlir::ModuleOp lowered, llvm::StringRef path);

/// What amp-run and amp-compile compile: the precision and the options of
/// their command lines.
struct CompileRequest {
  /// f32 (no amp-pipeline), f16 or bf16.
  std::string precision = "f16";
  /// Extra amp-pipeline options ("loss-scale=static init-scale=1024").
  std::string pipelineOptions;
  /// nn-autodiff options for a forward loss function as the entry.
  std::string autodiffOptions;
  std::string entry = "train_step";
  /// Optional: the eval function and the underflow probe ("" for none).
  std::string evalEntry;
  std::string underflowProbe;
  /// The module's file, for messages and the metadata.
  std::string source;
  /// amp-to-runtime's plan-buffers: one arena for the temporaries.
  bool bufferArena = true;
};

/// Checks the request, then compiles `module` in place (compileForRuntime)
/// and describes the result as the execution half needs it.
llvm::Expected<CompiledProgram> compileProgram(mlir::ModuleOp module,
                                               const CompileRequest &request);

/// amp-compile's output: the lowered module (from compileProgram) as a
/// shared object at `path`, with `compiled`'s metadata behind
/// kStepMetadataSymbol. Emits an object file (emitObjectFile) and links it
/// with the host C compiler the build was configured with.
llvm::Error writeStepLibrary(mlir::ModuleOp lowered,
                             const CompiledProgram &compiled,
                             llvm::StringRef path);

} // namespace amp::runner

#endif // AMP_RUNNER_COMPILE_H
