//===- RuntimeABITest.cpp - the lowering's ABI table vs. the C headers ----===//
//
// Every function the lowering calls is declared once, in
// RuntimeFunctions.def; RuntimeABI.cpp static_asserts each entry against the
// header's prototype. These tests check the table again at run time and
// show that a table that differs from the headers (a swapped argument, a
// wrong result, a missing argument, an unknown function) is caught.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/NNToRuntime/RuntimeABI.h"

#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <vector>

using namespace amp::runtime_abi;

namespace {

std::string joined(const std::vector<std::string> &problems) {
  std::string s;
  for (const std::string &p : problems)
    s += p + "\n";
  return s;
}

TEST(RuntimeABI, TableMatchesTheHeaders) {
  EXPECT_EQ(joined(checkAgainstRuntimeHeaders(getRuntimeFunctions())), "");
}

TEST(RuntimeABI, TableIsIndexedByRuntimeFn) {
  ASSERT_FALSE(getRuntimeFunctions().empty());
  EXPECT_EQ(getRuntimeFunction(RuntimeFn::amp_alloc).name, "amp_alloc");
  EXPECT_EQ(getRuntimeFunction(RuntimeFn::amp_gemm_with_pointers).name,
            "amp_gemm_with_pointers");
  EXPECT_EQ(lookupRuntimeFunction("amp_unary"),
            &getRuntimeFunction(RuntimeFn::amp_unary));
  EXPECT_EQ(lookupRuntimeFunction("malloc"), nullptr);
}

/// The real table with one entry replaced.
std::vector<RuntimeFunction> tableWith(RuntimeFunction entry) {
  std::vector<RuntimeFunction> table(getRuntimeFunctions().begin(),
                                     getRuntimeFunctions().end());
  for (RuntimeFunction &f : table)
    if (f.name == entry.name)
      f = entry;
  return table;
}

TEST(RuntimeABI, SwappedArgumentsAreCaught) {
  // amp_cast(x, y, n, x_dtype, y_dtype, stream) with n and a dtype swapped.
  const AbiType args[] = {AbiType::ConstPtr, AbiType::Ptr,   AbiType::Dtype,
                          AbiType::I64,      AbiType::Dtype, AbiType::Ptr};
  std::vector<std::string> problems =
      checkAgainstRuntimeHeaders(tableWith({"amp_cast", AbiType::Status, args}));
  ASSERT_EQ(problems.size(), 1u) << joined(problems);
  EXPECT_EQ(problems[0],
            "amp_cast: the table takes (ConstPtr, Ptr, Dtype, I64, Dtype, "
            "Ptr), the header (ConstPtr, Ptr, I64, Dtype, Dtype, Ptr)");
}

TEST(RuntimeABI, InputAndOutputPointersAreTold) {
  // amp_unary with its input and output pointers swapped: const matters.
  const AbiType args[] = {AbiType::UnaryOp, AbiType::Ptr,   AbiType::ConstPtr,
                          AbiType::I64,     AbiType::Dtype, AbiType::Ptr};
  EXPECT_EQ(checkAgainstRuntimeHeaders(
                tableWith({"amp_unary", AbiType::Status, args}))
                .size(),
            1u);
}

TEST(RuntimeABI, EnumKindsAreTold) {
  // amp_reduce's op code passed as a dtype.
  const RuntimeFunction &reduce = getRuntimeFunction(RuntimeFn::amp_reduce);
  std::vector<AbiType> args(reduce.args.begin(), reduce.args.end());
  args[0] = AbiType::Dtype;
  EXPECT_EQ(checkAgainstRuntimeHeaders(
                tableWith({"amp_reduce", AbiType::Status, args}))
                .size(),
            1u);
}

TEST(RuntimeABI, WrongResultAndArityAndUnknownNamesAreCaught) {
  const RuntimeFunction &free = getRuntimeFunction(RuntimeFn::amp_free);
  std::vector<std::string> problems = checkAgainstRuntimeHeaders(
      tableWith({"amp_free", AbiType::Ptr, free.args}));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "amp_free: the table returns Ptr, the header Status");

  const AbiType shorter[] = {AbiType::Ptr};
  EXPECT_EQ(checkAgainstRuntimeHeaders(
                tableWith({"amp_free", AbiType::Status, shorter}))
                .size(),
            1u);

  const RuntimeFunction unknown[] = {{"amp_frobnicate", AbiType::Status, {}}};
  problems = checkAgainstRuntimeHeaders(unknown);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("amp_frobnicate: not a function of the runtime"),
            std::string::npos);
}

TEST(RuntimeABI, LLVMTypesFollowTheCTypes) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<mlir::LLVM::LLVMDialect>();
  EXPECT_TRUE(llvm::isa<mlir::LLVM::LLVMPointerType>(
      getLLVMType(&ctx, AbiType::ConstPtr)));
  EXPECT_TRUE(getLLVMType(&ctx, AbiType::I64).isInteger(64));
  EXPECT_TRUE(getLLVMType(&ctx, AbiType::Dtype).isInteger(32));
  EXPECT_TRUE(getLLVMType(&ctx, AbiType::Status).isInteger(32));
  EXPECT_TRUE(getLLVMType(&ctx, AbiType::F64).isF64());
}

} // namespace
