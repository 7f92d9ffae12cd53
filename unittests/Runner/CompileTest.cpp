//===- CompileTest.cpp - the compile half: signatures, JIT, object files --===//
//
// Compiles the shipped MLP step, checks the signatures the execution half
// gets, and runs the step ahead of time: the object file from emitObjectFile,
// linked into a shared object and loaded with dlopen, trains bitwise like
// the JIT-compiled step.
//
//===----------------------------------------------------------------------===//

#include "TempFiles.h"

#include "amp/Runner/Compile.h"
#include "amp/Runner/Trainer.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <dlfcn.h>
#include <fstream>
#include <iterator>
#include <sstream>

using namespace mlir;
using namespace amp::runner;
using amp::runner::test::tempPath;

namespace {
class CompileTest : public testing::Test {
protected:
  CompileTest() : context(makeRegistry()) {}

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerCompileDialects(registry);
    return registry;
  }

  OwningOpRef<ModuleOp> parse(llvm::StringRef source) {
    return parseSourceString<ModuleOp>(source, &context);
  }
  OwningOpRef<ModuleOp> parseExample(const std::string &name) {
    return parseSourceFile<ModuleOp>(
        std::string(AMP_SOURCE_DIR) + "/examples/" + name, &context);
  }

  /// nn-autodiff (examples/mlp.mlir is forward + loss; SGD, lr 0.05,
  /// momentum 0.9, keeping the forward pass), amp-pipeline (f16) and
  /// amp-to-runtime; the signatures of train_step and train_step_forward.
  static void compileF16(ModuleOp module,
                         std::vector<FunctionSignature> &signatures) {
    amp::AmpPipelineOptions pipeline;
    pipeline.computeType = "f16";
    CompileOptions options;
    options.pipeline = &pipeline;
    options.functions = {"train_step", "train_step_forward"};
    options.sourceName = "mlp";
    options.autodiff.lr = 0.05;
    options.autodiff.momentum = 0.9;
    llvm::Expected<std::vector<FunctionSignature>> compiled =
        compileForRuntime(module, options);
    ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
    signatures = std::move(*compiled);
  }

  MLIRContext context;
};

std::string readFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file),
                     std::istreambuf_iterator<char>());
}

const RuntimeLibrary &referenceRuntime() {
  static StatusOr<RuntimeLibrary> rt =
      RuntimeLibrary::load(AMP_RUNTIME_REF_PATH);
  EXPECT_FALSE(rt.failed()) << rt.getStatus().message();
  return *rt;
}

/// Trains `program` for 20 steps on synthetic data; returns the output and
/// the log.
std::pair<std::string, std::string> train(const TrainingProgram &program,
                                          const EntryPoints &entry,
                                          const std::string &log) {
  TrainOptions options;
  options.steps = 20;
  options.seed = 7;
  options.printEvery = 5;
  options.logFile = log;
  StatusOr<std::unique_ptr<Trainer>> trainer =
      Trainer::create(referenceRuntime(), program, options);
  EXPECT_FALSE(trainer.failed()) << trainer.getStatus().message();
  if (trainer.failed())
    return {};
  std::ostringstream out;
  Status status = (*trainer)->run(entry, out);
  EXPECT_TRUE(status.succeeded()) << status.message();
  return {out.str(), readFile(log)};
}
} // namespace

TEST_F(CompileTest, DescribesArgumentsAndResults) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%w: tensor<4x8xf32> {nn.role = #nn.role<param>},
                 %s: tensor<f32> {nn.role = #nn.role<loss_scale>, nn.init = 65536.0 : f32},
                 %t: tensor<i32> {nn.role = #nn.role<growth_tracker>, nn.init = 3 : i32},
                 %x: tensor<2x4xbf16> {nn.role = #nn.role<input>},
                 %y: tensor<2xi64>)
        -> (tensor<4x8xf32> {nn.role = #nn.role<param>}, tensor<i1>) {
      %f = arith.constant dense<false> : tensor<i1>
      return %w, %f : tensor<4x8xf32>, tensor<i1>
    })mlir");
  ASSERT_TRUE(module);
  llvm::Expected<FunctionSignature> s =
      describeFunction(module->lookupSymbol<func::FuncOp>("f"));
  ASSERT_TRUE(bool(s)) << llvm::toString(s.takeError());
  EXPECT_EQ(s->name, "f");
  ASSERT_EQ(s->args.size(), 5u);
  EXPECT_EQ(s->args[0].role, Role::Param);
  EXPECT_EQ(s->args[0].shape, (std::vector<int64_t>{4, 8}));
  EXPECT_EQ(s->args[0].init, std::nullopt);
  EXPECT_EQ(s->args[1].role, Role::LossScale);
  EXPECT_EQ(s->args[1].init, 65536.0);
  EXPECT_EQ(s->args[2].init, 3.0);
  EXPECT_EQ(s->args[2].type, ElementType::I32);
  EXPECT_EQ(s->args[3].type, ElementType::BF16);
  EXPECT_EQ(s->args[4].role, std::nullopt);
  EXPECT_EQ(s->args[4].type, ElementType::I64);
  ASSERT_EQ(s->results.size(), 2u);
  EXPECT_EQ(s->results[1].type, ElementType::I1);
  EXPECT_EQ(s->results[1].role, std::nullopt);
}

TEST_F(CompileTest, RejectsWhatTheRunnerCannotHold) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @dynamic(%x: tensor<?x4xf32>) { return }
    func.func @f64(%x: tensor<4xf64>) { return }
    func.func @scalar(%x: f32) { return })mlir");
  ASSERT_TRUE(module);
  auto error = [&](const char *fn) {
    llvm::Expected<FunctionSignature> s =
        describeFunction(module->lookupSymbol<func::FuncOp>(fn));
    return s ? std::string("(described)") : llvm::toString(s.takeError());
  };
  EXPECT_EQ(error("dynamic"),
            "@dynamic argument #0 is not a statically shaped tensor");
  EXPECT_EQ(error("scalar"),
            "@scalar argument #0 is not a statically shaped tensor");
  EXPECT_EQ(error("f64"), "@f64 argument #0 has element type f64; the runner "
                          "takes f32, f16, bf16, i1, i32 and i64");
}

// Every role of the ODS enum has a runner counterpart with the same spelling,
// and the runner has no role the IR cannot spell.
TEST_F(CompileTest, RunnerRolesAreTheIRRoles) {
  std::vector<std::string> irNames, runnerNames;
  for (unsigned i = 0; i <= amp::nn::getMaxEnumValForRole(); ++i) {
    std::optional<amp::nn::Role> role = amp::nn::symbolizeRole(i);
    ASSERT_TRUE(role) << i;
    irNames.push_back(amp::nn::stringifyRole(*role).str());
    std::optional<Role> runnerRole = toRunnerRole(*role);
    ASSERT_TRUE(runnerRole) << irNames.back();
    EXPECT_EQ(roleName(*runnerRole), irNames.back());
  }
  for (Role role : kAllRoles)
    runnerNames.push_back(roleName(role));
  EXPECT_EQ(irNames, runnerNames);
}

TEST_F(CompileTest, ReadsRolesFromOnePlace) {
  context.getOrLoadDialect<amp::nn::NNDialect>();
  Builder b(&context);
  auto dict = [&](Attribute role) {
    return b.getDictionaryAttr(b.getNamedAttr("nn.role", role));
  };
  for (unsigned i = 0; i <= amp::nn::getMaxEnumValForRole(); ++i) {
    amp::nn::Role role = *amp::nn::symbolizeRole(i);
    llvm::Expected<std::optional<Role>> read =
        readRole(dict(amp::nn::RoleAttr::get(&context, role)));
    ASSERT_TRUE(bool(read));
    ASSERT_TRUE(bool(*read));
    EXPECT_EQ(roleName(**read), amp::nn::stringifyRole(role));
  }
  llvm::Expected<std::optional<Role>> none = readRole(DictionaryAttr());
  ASSERT_TRUE(bool(none));
  EXPECT_EQ(*none, std::nullopt);
  llvm::Expected<std::optional<Role>> bad =
      readRole(dict(b.getStringAttr("param")));
  ASSERT_FALSE(bool(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "nn.role is \"param\", not an #nn.role<...> attribute");
}

TEST_F(CompileTest, CompileErrors) {
  OwningOpRef<ModuleOp> module = parseExample("mlp.mlir");
  ASSERT_TRUE(module);
  CompileOptions options;
  options.functions = {"train_step", "nope"};
  options.sourceName = "mlp.mlir";
  llvm::Expected<std::vector<FunctionSignature>> signatures =
      compileForRuntime(*module, options);
  ASSERT_FALSE(bool(signatures));
  EXPECT_EQ(llvm::toString(signatures.takeError()),
            "no function @nope in mlp.mlir");
}

// amp-pipeline adds the loss-scale state before the signatures are read.
TEST_F(CompileTest, SignaturesFollowThePipeline) {
  OwningOpRef<ModuleOp> module = parseExample("mlp.mlir");
  ASSERT_TRUE(module);
  std::vector<FunctionSignature> signatures;
  ASSERT_NO_FATAL_FAILURE(compileF16(*module, signatures));
  const FunctionSignature &step = signatures[0];
  std::vector<std::string> roles;
  for (const TensorDesc &arg : step.args)
    roles.push_back(arg.role ? roleName(*arg.role) : "-");
  EXPECT_EQ(roles, (std::vector<std::string>{
                       "param", "param", "param", "param", "opt_state",
                       "opt_state", "opt_state", "opt_state", "input", "label",
                       "loss_scale", "growth_tracker", "found_inf"}));
  EXPECT_EQ(step.args[10].init, 65536.0);
  EXPECT_EQ(signatures[1].name, "train_step_forward");
}

// The ahead-of-time path: an object file linked into a shared object runs
// through the execution half exactly as the JIT-compiled module does.
TEST_F(CompileTest, ObjectFileTrainsLikeTheJit) {
  OwningOpRef<ModuleOp> module = parseExample("mlp.mlir");
  ASSERT_TRUE(module);
  std::vector<FunctionSignature> signatures;
  ASSERT_NO_FATAL_FAILURE(compileF16(*module, signatures));
  TrainingProgram program;
  program.step = signatures[0];
  program.eval = signatures[1];
  const RuntimeLibrary &rt = referenceRuntime();

  llvm::Expected<HostStep> forJit = translateStep(*module);
  ASSERT_TRUE(bool(forJit)) << llvm::toString(forJit.takeError());
  llvm::Expected<std::unique_ptr<JitModule>> jit =
      JitModule::create(std::move(*forJit), {rt.getPath()});
  ASSERT_TRUE(bool(jit)) << llvm::toString(jit.takeError());
  EntryPoints jitEntry;
  jitEntry.step = llvm::cantFail((*jit)->lookup("train_step"));
  jitEntry.eval = llvm::cantFail((*jit)->lookup("train_step_forward"));
  jitEntry.errorSite = (*jit)->errorSite();
  ASSERT_NE(jitEntry.errorSite, nullptr);

  std::string object = tempPath("step.o"), shared = tempPath("step.so");
  llvm::Expected<HostStep> forObject = translateStep(*module);
  ASSERT_TRUE(bool(forObject)) << llvm::toString(forObject.takeError());
  llvm::Error emitted = emitObjectFile(std::move(*forObject), object);
  ASSERT_FALSE(bool(emitted)) << llvm::toString(std::move(emitted));
  std::string link =
      std::string(AMP_HOST_CC) + " -shared -o " + shared + " " + object;
  ASSERT_EQ(std::system(link.c_str()), 0) << link;
  // The runtime is already loaded RTLD_GLOBAL: the step's calls resolve.
  void *handle = dlopen(shared.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();
  EntryPoints aotEntry;
  aotEntry.step = reinterpret_cast<StepFn>(dlsym(handle, "train_step"));
  aotEntry.eval = reinterpret_cast<StepFn>(dlsym(handle, "train_step_forward"));
  aotEntry.errorSite =
      reinterpret_cast<const char *const *>(dlsym(handle, AMP_ERROR_SITE_SYMBOL));
  ASSERT_TRUE(aotEntry.step && aotEntry.eval && aotEntry.errorSite);

  auto [jitOut, jitLog] = train(program, jitEntry, tempPath("jit.csv"));
  auto [aotOut, aotLog] = train(program, aotEntry, tempPath("aot.csv"));
  EXPECT_EQ(std::count(jitLog.begin(), jitLog.end(), '\n'), 21);
  EXPECT_EQ(aotLog, jitLog);
  EXPECT_EQ(aotOut, jitOut);
}
