//===- Compile.h - the compile half of the runner library -------*- C++ -*-===//
//
// The compile half turns a training-step module into something the execution
// half (Trainer.h) can run: it applies amp-pipeline (unless the step runs in
// f32 as written), describes the functions the runner will call (their
// FunctionSignature: roles, shapes, element types, `nn.init`), lowers the
// module with amp-to-runtime, and then either JIT-compiles it (JitModule) or
// translates it to LLVM IR (translateStep) and writes a native object
// file for the ahead-of-time path (emitObjectFile). It links MLIR and LLVM; the
// execution half links neither.
//
//   MLIRContext context(registry);            // registerCompileDialects
//   OwningOpRef<ModuleOp> m = parseSourceFile<ModuleOp>(path, &context);
//   AmpPipelineOptions pipeline;  pipeline.computeType = "f16";
//   CompileOptions options{&pipeline, {"train_step", "predict"}, path};
//   auto signatures = compileForRuntime(*m, options);
//   auto jit = JitModule::create(*translateStep(*m), {runtimeLibraryPath});
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
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir
namespace llvm {
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
  /// nn-fuse-attention before nn-autodiff, over the whole module: each
  /// matmul-scale-softmax-matmul chain becomes one nn.attention.
  bool fuseAttention = true;
  /// nn-recompute after amp-pipeline, over the whole module: forward values
  /// that are cheap to compute again from what the backward pass keeps
  /// anyway are recomputed there instead of kept: less memory, more time.
  bool recompute = false;
  /// amp-to-runtime's plan-buffers: one arena for each function's
  /// temporaries.
  bool bufferArena = true;
  /// When functions[0] binds as a training step (bindStep), donate each
  /// threaded argument's buffer to the result that becomes it in the next
  /// step (`amp.aliasing_output`), so the lowering computes the new state
  /// in place: the runner then holds the state once, not twice.
  bool donateState = true;
  /// amp-to-runtime's in-place: results in the buffers of operands that die
  /// at their op.
  bool inPlace = true;
};

/// Applies nn-fuse-attention, nn-autodiff (to a forward step), amp-pipeline
/// (when options.pipeline is set) and amp-to-runtime to `module`, in place, and
/// returns the signatures of options.functions, read in between (amp-pipeline
/// may add loss-scale state; the lowering erases the tensor types), with each
/// result's inArgument read from the lowered function. Pass failures are
/// reported as diagnostics of the module's context, and the returned error says
/// which stage failed.
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

/// Outlines runs of consecutive blocks of every function of `module` with
/// more than 2 * `size` instructions into private functions of about
/// `size` instructions (SplitStep.cpp); 0 splits nothing. The code
/// generator holds the machine code of one function at a time, so this
/// bounds its memory on large steps.
void splitLargeFunctions(llvm::Module &module, size_t size);

/// About how many LLVM instructions translateStep puts in one function
/// (--codegen-function-size): a 100k-op step becomes ~140 functions, and
/// amp-compile's peak memory goes from 2.5 to 0.9 GB.
inline constexpr size_t kDefaultCodegenFunctionSize = 4096;

/// A lowered module as LLVM IR for hostStepTarget(), split into functions
/// of about `codegenFunctionSize` instructions (splitLargeFunctions) and
/// optimized at kStepIROptLevel, with the LLVM context that owns it: all that
/// code generation needs. Once a step is translated, its MLIR module and
/// context can be destroyed before the code generator runs (amp-compile
/// and amp-run do): on a 100k-op step they hold about 0.35 GB.
struct HostStep {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
};
llvm::Expected<HostStep>
translateStep(mlir::ModuleOp lowered,
              size_t codegenFunctionSize = kDefaultCodegenFunctionSize);

/// A translated step compiled in memory (ORC's LLJIT on hostStepTarget),
/// linked against the given shared libraries (the runtime backend). The
/// code is generated at the first lookup.
class JitModule {
public:
  static llvm::Expected<std::unique_ptr<JitModule>>
  create(HostStep step, const std::vector<std::string> &sharedLibs);
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

/// Writes a translated step as a native, position-independent object file
/// for the host, compiled as the JIT compiles it; linked into a shared
/// object, its functions are StepFns that the execution half can call
/// without MLIR or LLVM.
llvm::Error emitObjectFile(HostStep step, llvm::StringRef path);

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
  /// CompileOptions::fuseAttention, recompute, donateState and inPlace.
  bool fuseAttention = true;
  bool recompute = false;
  bool donateState = true;
  bool inPlace = true;
  /// translateStep's function size for the code generator.
  size_t codegenFunctionSize = kDefaultCodegenFunctionSize;
};

/// Checks the request, then compiles `module` in place (compileForRuntime)
/// and describes the result as the execution half needs it.
llvm::Expected<CompiledProgram> compileProgram(mlir::ModuleOp module,
                                               const CompileRequest &request);

/// Adds `compiled`'s metadata to the lowered module (from compileProgram),
/// behind kStepMetadataSymbol, where amp-exec reads it in a step library.
llvm::Error addStepMetadata(mlir::ModuleOp lowered,
                            const CompiledProgram &compiled);

/// amp-compile's output: a translated step (translateStep of a module with
/// its metadata, addStepMetadata) as a shared object at `path`. Emits an
/// object file (emitObjectFile) and links it with the host C compiler the
/// build was configured with.
llvm::Error writeStepLibrary(HostStep step, llvm::StringRef path);

} // namespace amp::runner

#endif // AMP_RUNNER_COMPILE_H
