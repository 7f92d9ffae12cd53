//===- SplitStepTest.cpp - splitLargeFunctions on small LLVM modules ------===//
//
// Where the split may cut a function and what the outlined functions get.
// That a split step computes what the whole one does is checked by running
// both (test/Integration/codegen-function-size.test).
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Compile.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>

using namespace amp::runner;

namespace {

/// A step-like function: `blocks` blocks of `calls` calls each, every call
/// taking the function's argument, an address in the entry block's alloca
/// and one defined in the first block; every block ends in a check that
/// branches to the failure return. With `loopFrom` < `loopTo`, block
/// `loopTo` branches back to block `loopFrom` (a loop the split must keep
/// whole).
std::string stepIR(int blocks, int calls, int loopFrom = -1, int loopTo = -1) {
  std::string ir;
  llvm::raw_string_ostream os(ir);
  os << "declare i32 @kernel(ptr, ptr, ptr)\n"
     << "define i32 @step(ptr %args) {\n"
     << "entry:\n  %slot = alloca [4 x i64]\n  br label %b0\n";
  for (int b = 0; b < blocks; ++b) {
    os << "b" << b << ":\n";
    if (b == 0)
      os << "  %early = getelementptr i8, ptr %slot, i64 8\n";
    for (int c = 0; c < calls; ++c)
      os << "  %r" << b << "_" << c
         << " = call i32 @kernel(ptr %args, ptr %slot, ptr %early)\n";
    os << "  %ok" << b << " = icmp eq i32 %r" << b << "_" << calls - 1
       << ", 0\n";
    std::string next = b + 1 < blocks ? "b" + std::to_string(b + 1) : "done";
    if (b == loopTo)
      os << "  br i1 %ok" << b << ", label %b" << loopFrom << ", label %"
         << next << "\n";
    else
      os << "  br i1 %ok" << b << ", label %" << next << ", label %fail\n";
  }
  os << "done:\n  ret i32 0\nfail:\n  ret i32 1\n}\n";
  return ir;
}

std::unique_ptr<llvm::Module> parse(const std::string &ir,
                                    llvm::LLVMContext &context) {
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(ir, error, context);
  if (!module)
    error.print("SplitStepTest", llvm::errs());
  return module;
}

/// The function that holds block `name` of the original step.
std::string holder(llvm::Module &module, llvm::StringRef name) {
  for (llvm::Function &fn : module)
    for (llvm::BasicBlock &block : fn)
      if (block.getName() == name)
        return fn.getName().str();
  return "";
}

size_t definedFunctions(llvm::Module &module) {
  size_t n = 0;
  for (llvm::Function &fn : module)
    n += !fn.isDeclaration();
  return n;
}

TEST(SplitStepTest, OutlinesRunsOfAboutTheSize) {
  llvm::LLVMContext context;
  // 12 blocks of 10 calls (12 instructions each with the check).
  std::unique_ptr<llvm::Module> module = parse(stepIR(12, 10), context);
  ASSERT_TRUE(module);
  splitLargeFunctions(*module, 36);
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
  // Runs of three blocks (36 instructions) after the entry block: b0-b2,
  // b3-b5, b6-b8, b9-b11; the entry block and the returns stay in @step.
  EXPECT_EQ(definedFunctions(*module), 5u);
  EXPECT_EQ(holder(*module, "entry"), "step");
  EXPECT_EQ(holder(*module, "done"), "step");
  EXPECT_EQ(holder(*module, "fail"), "step");
  EXPECT_EQ(holder(*module, "b0"), holder(*module, "b2"));
  EXPECT_NE(holder(*module, "b2"), holder(*module, "b3"));
  EXPECT_NE(holder(*module, "b3"), "step");
  // Each run gets the argument and the alloca, in a struct on @step's
  // stack, and nothing else: the address defined in b0 and used in every
  // block is recomputed in each run from the alloca, not passed along.
  for (llvm::Function &fn : *module) {
    if (!fn.getName().starts_with("step.part"))
      continue;
    EXPECT_TRUE(fn.hasPrivateLinkage() || fn.hasInternalLinkage())
        << fn.getName().str();
    ASSERT_EQ(fn.arg_size(), 1u) << fn.getName().str();
    ASSERT_TRUE(fn.hasOneUse()) << fn.getName().str();
    auto *call = llvm::cast<llvm::CallInst>(fn.user_back());
    auto *args = llvm::dyn_cast<llvm::AllocaInst>(call->getArgOperand(0));
    ASSERT_TRUE(args) << fn.getName().str();
    EXPECT_EQ(args->getAllocatedType()->getStructNumElements(), 2u)
        << fn.getName().str();
  }
}

TEST(SplitStepTest, KeepsALoopInOneFunction) {
  llvm::LLVMContext context;
  // b4 branches back to b2: a cut after b2 or b3 would give the run after
  // it a second entry.
  std::unique_ptr<llvm::Module> module = parse(stepIR(12, 10, 2, 4), context);
  ASSERT_TRUE(module);
  splitLargeFunctions(*module, 36);
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
  EXPECT_GT(definedFunctions(*module), 2u);
  EXPECT_EQ(holder(*module, "b2"), holder(*module, "b4"));
  EXPECT_EQ(holder(*module, "b3"), holder(*module, "b4"));
}

TEST(SplitStepTest, LeavesSmallFunctionsAndSizeZeroAlone) {
  llvm::LLVMContext context;
  std::string ir = stepIR(6, 10); // 72 instructions in the blocks
  std::unique_ptr<llvm::Module> small = parse(ir, context);
  ASSERT_TRUE(small);
  splitLargeFunctions(*small, 40); // not over 2 * 40
  EXPECT_EQ(definedFunctions(*small), 1u);
  std::unique_ptr<llvm::Module> off = parse(ir, context);
  ASSERT_TRUE(off);
  splitLargeFunctions(*off, 0);
  EXPECT_EQ(definedFunctions(*off), 1u);
}

} // namespace
