//===- InterpreterTest.cpp - the reference interpreter on known values ----===//
//
// Each test evaluates a small nn function whose result is worked out by
// hand in the comment above it. The gradient checks compare the
// interpreter with itself (autodiff's backward ops against finite
// differences of the forward ops), so a forward op that is consistently
// wrong would pass them; these tests pin the forward semantics (and a few
// backward ops) to NNOps.td and docs/runtime-kernels.md.
//
//===----------------------------------------------------------------------===//

#include "amp/Reference/Interpreter.h"

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/NN/IR/NNDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace mlir;
using amp::reference::RefTensor;

namespace {

class InterpreterTest : public ::testing::Test {
protected:
  InterpreterTest() {
    context
        .loadDialect<amp::nn::NNDialect, amp::AMPDialect, arith::ArithDialect,
                     func::FuncDialect, math::MathDialect>();
  }

  /// Evaluates the one function of `source` on `args`; on failure the
  /// diagnostics are in `errors`.
  FailureOr<SmallVector<RefTensor>> run(StringRef source,
                                        ArrayRef<RefTensor> args) {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      errors += diag.str() + "\n";
      return success();
    });
    module = parseSourceString<ModuleOp>(source, &context);
    if (!module)
      return failure();
    return amp::reference::evaluate(*module->getOps<func::FuncOp>().begin(),
                                    args);
  }

  /// Runs `source` and checks its only result against `shape` and `data`.
  void expectResult(StringRef source, ArrayRef<RefTensor> args,
                    ArrayRef<int64_t> shape, ArrayRef<double> data) {
    FailureOr<SmallVector<RefTensor>> results = run(source, args);
    ASSERT_TRUE(succeeded(results)) << errors;
    ASSERT_EQ(results->size(), 1u);
    expectTensor((*results)[0], shape, data);
  }

  static void expectTensor(const RefTensor &t, ArrayRef<int64_t> shape,
                           ArrayRef<double> data) {
    EXPECT_EQ(ArrayRef<int64_t>(t.shape), shape);
    ASSERT_EQ(t.data.size(), data.size());
    for (size_t i = 0; i < data.size(); ++i)
      EXPECT_NEAR(t.data[i], data[i], 1e-12 * std::max(1.0, std::abs(data[i])))
          << "element " << i;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::string errors;
};

RefTensor tensor(ArrayRef<int64_t> shape, std::vector<double> data) {
  return RefTensor(shape, std::move(data));
}

// [[1, 2, 3], [4, 5, 6]] + [10, 20, 30] broadcasts the row;
// [[1, 2, 3], [4, 5, 6]] / [[2], [4]] broadcasts the column.
TEST_F(InterpreterTest, BinaryOpsBroadcast) {
  RefTensor x = tensor({2, 3}, {1, 2, 3, 4, 5, 6});
  expectResult(R"(
    func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
      %y = nn.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
      return %y : tensor<2x3xf32>
    })",
               {x, tensor({3}, {10, 20, 30})}, {2, 3},
               {11, 22, 33, 14, 25, 36});
  expectResult(R"(
    func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x3xf32> {
      %y = nn.div %a, %b : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
      return %y : tensor<2x3xf32>
    })",
               {x, tensor({2, 1}, {2, 4})}, {2, 3},
               {0.5, 1, 1.5, 1, 1.25, 1.5});
}

// gelu is the tanh form: gelu(1) = 0.5 (1 + tanh(sqrt(2/pi) 1.044715)) =
// 0.8411919906..., gelu(-0.5) = -0.1542859901...; its derivative at 1 is
// 1.0829640838... and at -0.5 0.1326300964... (the closed form, whose
// central difference agrees to 1e-10).
TEST_F(InterpreterTest, UnaryOpsAndActivationGradients) {
  RefTensor x = tensor({2}, {1, -0.5});
  expectResult(R"(
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      %y = nn.gelu %x : tensor<2xf32>
      return %y : tensor<2xf32>
    })",
               {x}, {2}, {0.8411919906082768, -0.15428599017485606});
  expectResult(R"(
    func.func @f(%dy: tensor<2xf32>, %x: tensor<2xf32>) -> tensor<2xf32> {
      %y = nn.gelu_grad %dy, %x : tensor<2xf32>
      return %y : tensor<2xf32>
    })",
               {tensor({2}, {2, 1}), x}, {2},
               {2 * 1.0829640838457826, 0.13263009646535764});
  // relu_grad passes dy where the forward input is > 0.
  expectResult(R"(
    func.func @f(%dy: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<3xf32> {
      %y = nn.relu_grad %dy, %x : tensor<3xf32>
      return %y : tensor<3xf32>
    })",
               {tensor({3}, {3, 4, 5}), tensor({3}, {-1, 2, 0})}, {3},
               {0, 4, 0});
  // sigmoid([0, ln 3]) = [1/2, 3/4]; rsqrt([4, 1/4]) = [1/2, 2].
  expectResult(R"(
    func.func @f(%x: tensor<2xf32>, %z: tensor<2xf32>) -> tensor<2xf32> {
      %s = nn.sigmoid %x : tensor<2xf32>
      %r = nn.rsqrt %z : tensor<2xf32>
      %y = nn.add %s, %r : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      return %y : tensor<2xf32>
    })",
               {tensor({2}, {0, std::log(3.0)}), tensor({2}, {4, 0.25})}, {2},
               {1, 2.75});
}

// [2, 3, 2] x [2, 2] with transpose_b and a rank-2 rhs broadcast over the
// batch: C[b] = A[b] B^T with A[0] = [[1, 2], [3, 4], [5, 6]],
// A[1] = -A[0], B = [[1, 0], [1, 1]]: A[0] B^T = [[1, 3], [3, 7], [5, 11]].
TEST_F(InterpreterTest, MatmulTransposeAndBatchBroadcast) {
  expectResult(R"(
    func.func @f(%a: tensor<2x3x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x3x2xf32> {
      %c = nn.matmul %a, %b {transpose_b} : (tensor<2x3x2xf32>, tensor<2x2xf32>) -> tensor<2x3x2xf32>
      return %c : tensor<2x3x2xf32>
    })",
               {tensor({2, 3, 2}, {1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6}),
                tensor({2, 2}, {1, 0, 1, 1})},
               {2, 3, 2}, {1, 3, 3, 7, 5, 11, -1, -3, -3, -7, -5, -11});
  // transpose_a: A^T B with A = [[1, 2], [3, 4]], B = I: [[1, 3], [2, 4]].
  expectResult(R"(
    func.func @f(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %c = nn.matmul %a, %b {transpose_a} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
      return %c : tensor<2x2xf32>
    })",
               {tensor({2, 2}, {1, 2, 3, 4}), tensor({2, 2}, {1, 0, 0, 1})},
               {2, 2}, {1, 3, 2, 4});
}

// x = [[1, 2, 3], [4, 5, 6], [7, 8, 9]], filter [[1, 0], [0, -1]]
// (cross-correlation: y[i][j] = x[i][j] - x[i+1][j+1]).
std::vector<double> imageData() { return {1, 2, 3, 4, 5, 6, 7, 8, 9}; }
std::vector<double> filterData() { return {1, 0, 0, -1}; }

// No padding, stride 1: every output is -4.
// Padding [1, 1, 1, 1], stride 2: windows at rows/cols -1 and 1:
// y = [[-x00, -x02], [-x20, x11 - x22]] = [[-1, -3], [-7, -4]].
// Padding [top 1, left 0, bottom 0, right 1]: y[i][j] = x[i-1][j] - x[i][j+1]
// with zeros outside: [[-2, -3, 0], [-4, -4, 3], [-4, -4, 6]].
// Dilation 2: one window, x00 - x22 = -8.
TEST_F(InterpreterTest, Conv2DGeometry) {
  RefTensor x = tensor({1, 1, 3, 3}, imageData());
  RefTensor w = tensor({1, 1, 2, 2}, filterData());
  expectResult(R"(
    func.func @f(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
      %y = nn.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
      return %y : tensor<1x1x2x2xf32>
    })",
               {x, w}, {1, 1, 2, 2}, {-4, -4, -4, -4});
  expectResult(R"(
    func.func @f(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
      %y = nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
      return %y : tensor<1x1x2x2xf32>
    })",
               {x, w}, {1, 1, 2, 2}, {-1, -3, -7, -4});
  expectResult(R"(
    func.func @f(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<1x1x3x3xf32> {
      %y = nn.conv2d %x, %w {padding = array<i64: 1, 0, 0, 1>} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x3x3xf32>
      return %y : tensor<1x1x3x3xf32>
    })",
               {x, w}, {1, 1, 3, 3}, {-2, -3, 0, -4, -4, 3, -4, -4, 6});
  expectResult(R"(
    func.func @f(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<1x1x1x1xf32> {
      %y = nn.conv2d %x, %w {dilation = array<i64: 2, 2>} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x1x1xf32>
      return %y : tensor<1x1x1x1xf32>
    })",
               {x, w}, {1, 1, 1, 1}, {-8});
}

// Two groups of one channel: output channel 0 is 2 x channel 0, output
// channel 1 is 3 x channel 1.
TEST_F(InterpreterTest, Conv2DGroups) {
  expectResult(R"(
    func.func @f(%x: tensor<1x2x2x2xf32>, %w: tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32> {
      %y = nn.conv2d %x, %w {groups = 2 : i64} : (tensor<1x2x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
      return %y : tensor<1x2x2x2xf32>
    })",
               {tensor({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}),
                tensor({2, 1, 1, 1}, {2, 3})},
               {1, 2, 2, 2}, {2, 4, 6, 8, 15, 18, 21, 24});
}

// With dy = ones over the 2x2 output of the unpadded case:
// dx scatters the filter: +1 at (i, j), -1 at (i+1, j+1) for i, j in {0, 1}:
// [[1, 1, 0], [1, 0, -1], [0, -1, -1]]; dw sums the 2x2 windows of x:
// [[1+2+4+5, 2+3+5+6], [4+5+7+8, 5+6+8+9]] = [[12, 16], [24, 28]].
TEST_F(InterpreterTest, Conv2DGradients) {
  RefTensor dy = tensor({1, 1, 2, 2}, {1, 1, 1, 1});
  expectResult(R"(
    func.func @f(%dy: tensor<1x1x2x2xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<1x1x3x3xf32> {
      %dx = nn.conv2d_grad_input %dy, %w : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x3x3xf32>
      return %dx : tensor<1x1x3x3xf32>
    })",
               {dy, tensor({1, 1, 2, 2}, filterData())}, {1, 1, 3, 3},
               {1, 1, 0, 1, 0, -1, 0, -1, -1});
  expectResult(R"(
    func.func @f(%dy: tensor<1x1x2x2xf32>, %x: tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32> {
      %dw = nn.conv2d_grad_filter %dy, %x : (tensor<1x1x2x2xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
      return %dw : tensor<1x1x2x2xf32>
    })",
               {dy, tensor({1, 1, 3, 3}, imageData())}, {1, 1, 2, 2},
               {12, 16, 24, 28});
}

// x = [1, 2, 3, 4], epsilon 0: mean 2.5, biased variance 1.25,
// xhat = (x - 2.5) / sqrt(1.25); y = xhat * [1, 2, 1, 1] + [0, 0, 0, 1].
TEST_F(InterpreterTest, LayerNorm) {
  FailureOr<SmallVector<RefTensor>> results =
      run(R"(
    func.func @f(%x: tensor<1x4xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>)
        -> (tensor<1x4xf32>, tensor<1xf32>, tensor<1xf32>) {
      %y, %m, %r = nn.layer_norm %x, %s, %b {epsilon = 0.0 : f32} : (tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<1x4xf32>, tensor<1xf32>, tensor<1xf32>)
      return %y, %m, %r : tensor<1x4xf32>, tensor<1xf32>, tensor<1xf32>
    })",
          {tensor({1, 4}, {1, 2, 3, 4}), tensor({4}, {1, 2, 1, 1}),
           tensor({4}, {0, 0, 0, 1})});
  ASSERT_TRUE(succeeded(results)) << errors;
  double r = 1 / std::sqrt(1.25);
  expectTensor((*results)[0], {1, 4},
               {-1.5 * r, -0.5 * r * 2, 0.5 * r, 1.5 * r + 1});
  expectTensor((*results)[1], {1}, {2.5});
  expectTensor((*results)[2], {1}, {r});
}

// Per channel over the batch: channel 0 is [1, 3] (mean 2, variance 1),
// channel 1 [10, 30] (mean 20, variance 100, invstd 0.1); both normalize
// to [-1, 1], then scale [2, 3] and bias [0, 1].
TEST_F(InterpreterTest, BatchNorm) {
  FailureOr<SmallVector<RefTensor>> results =
      run(R"(
    func.func @f(%x: tensor<2x2xf32>, %s: tensor<2xf32>, %b: tensor<2xf32>)
        -> (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>) {
      %y, %m, %r = nn.batch_norm %x, %s, %b {epsilon = 0.0 : f32} : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>)
      return %y, %m, %r : tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>
    })",
          {tensor({2, 2}, {1, 10, 3, 30}), tensor({2}, {2, 3}),
           tensor({2}, {0, 1})});
  ASSERT_TRUE(succeeded(results)) << errors;
  expectTensor((*results)[0], {2, 2}, {-2, -2, 2, 4});
  expectTensor((*results)[1], {2}, {2, 20});
  expectTensor((*results)[2], {2}, {1, 0.1});
}

// softmax([0, ln 2, ln 3]) = [1, 2, 3] / 6 along the last axis; along axis
// 0 of [[0], [ln 3]] it is [1/4, 3/4]. softmax_grad with y = [1/2, 1/2],
// dy = [1, 0]: y (dy - y.dy) = [1/4, -1/4].
TEST_F(InterpreterTest, Softmax) {
  expectResult(R"(
    func.func @f(%x: tensor<1x3xf32>) -> tensor<1x3xf32> {
      %y = nn.softmax %x : tensor<1x3xf32>
      return %y : tensor<1x3xf32>
    })",
               {tensor({1, 3}, {0, std::log(2.0), std::log(3.0)})}, {1, 3},
               {1.0 / 6, 2.0 / 6, 3.0 / 6});
  expectResult(R"(
    func.func @f(%x: tensor<2x1xf32>) -> tensor<2x1xf32> {
      %y = nn.log_softmax %x {axis = 0 : i64} : tensor<2x1xf32>
      return %y : tensor<2x1xf32>
    })",
               {tensor({2, 1}, {0, std::log(3.0)})}, {2, 1},
               {std::log(0.25), std::log(0.75)});
  expectResult(R"(
    func.func @f(%dy: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
      %dx = nn.softmax_grad %dy, %y : tensor<2xf32>
      return %dx : tensor<2xf32>
    })",
               {tensor({2}, {1, 0}), tensor({2}, {0.5, 0.5})}, {2},
               {0.25, -0.25});
}

// x = [[1, 2, 3], [4, 5, 6]]: sums over axis 0 [5, 7, 9]; means over axis 1
// with keep_dims [[2], [5]]; the max over everything 6.
TEST_F(InterpreterTest, Reductions) {
  RefTensor x = tensor({2, 3}, {1, 2, 3, 4, 5, 6});
  expectResult(R"(
    func.func @f(%x: tensor<2x3xf32>) -> tensor<3xf32> {
      %y = nn.reduce_sum %x [0] : (tensor<2x3xf32>) -> tensor<3xf32>
      return %y : tensor<3xf32>
    })",
               {x}, {3}, {5, 7, 9});
  expectResult(R"(
    func.func @f(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
      %y = nn.reduce_mean %x [-1] keep_dims : (tensor<2x3xf32>) -> tensor<2x1xf32>
      return %y : tensor<2x1xf32>
    })",
               {x}, {2, 1}, {2, 5});
  expectResult(R"(
    func.func @f(%x: tensor<2x3xf32>) -> tensor<f32> {
      %y = nn.reduce_max %x [0, 1] : (tensor<2x3xf32>) -> tensor<f32>
      return %y : tensor<f32>
    })",
               {x}, {}, {6});
}

// cumsum along each axis, exclusive and reverse; argmax with a tie, a NaN
// and select_last; topk, largest and smallest; integer arithmetic on i64
// ids.
TEST_F(InterpreterTest, ScansAndIntegerArithmetic) {
  RefTensor x = tensor({2, 3}, {1, 2, 3, 4, 5, 6});
  expectResult(R"(
    func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %y = nn.cumsum %x {axis = 1 : i64} : tensor<2x3xf32>
      return %y : tensor<2x3xf32>
    })",
               {x}, {2, 3}, {1, 3, 6, 4, 9, 15});
  expectResult(R"(
    func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %y = nn.cumsum %x {axis = -2 : i64, exclusive, reverse} : tensor<2x3xf32>
      return %y : tensor<2x3xf32>
    })",
               {x}, {2, 3}, {4, 5, 6, 0, 0, 0});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  RefTensor m = tensor({2, 3}, {2, 7, 7, 1, nan, 3});
  expectResult(R"(
    func.func @f(%x: tensor<2x3xf32>) -> tensor<2xi64> {
      %y = nn.argmax %x {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2xi64>
      return %y : tensor<2xi64>
    })",
               {m}, {2}, {1, 1});
  expectResult(R"(
    func.func @f(%x: tensor<2x3xf32>) -> tensor<2x1xi64> {
      %y = nn.argmax %x {axis = -1 : i64, keep_dims, select_last} : (tensor<2x3xf32>) -> tensor<2x1xi64>
      return %y : tensor<2x1xi64>
    })",
               {m}, {2, 1}, {2, 1});
  // topk: the tie in row 0 in position order, the NaN of row 1 largest.
  expectResult(R"(
    func.func @f(%x: tensor<2x3xf32>) -> tensor<2x2xi64> {
      %y = nn.topk %x {axis = 1 : i64, k = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x2xi64>
      return %y : tensor<2x2xi64>
    })",
               {m}, {2, 2}, {1, 2, 1, 2});
  expectResult(R"(
    func.func @f(%x: tensor<2x3xf32>) -> tensor<1x3xi64> {
      %y = nn.topk %x {axis = 0 : i64, k = 1 : i64, smallest} : (tensor<2x3xf32>) -> tensor<1x3xi64>
      return %y : tensor<1x3xi64>
    })",
               {m}, {1, 3}, {1, 0, 1});
  RefTensor ids = tensor({2, 3}, {5, 1, 1, 7, 8, 1});
  expectResult(R"(
    func.func @f(%ids: tensor<2x3xi64>) -> tensor<2x3xi64> {
      %one = arith.constant dense<1> : tensor<i64>
      %ne = nn.compare ne, %ids, %one : (tensor<2x3xi64>, tensor<i64>) -> tensor<2x3xi1>
      %m = nn.convert %ne : tensor<2x3xi1> to tensor<2x3xi64>
      %c = nn.cumsum %m {axis = 1 : i64} : tensor<2x3xi64>
      %p = nn.mul %c, %m : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
      %q = nn.add %p, %one : (tensor<2x3xi64>, tensor<i64>) -> tensor<2x3xi64>
      return %q : tensor<2x3xi64>
    })",
               {ids}, {2, 3}, {2, 1, 1, 2, 3, 1});
}

// transpose [2, 0, 1] of a [2, 1, 3] tensor: y[k][i][j] = x[i][j][k];
// broadcast_to [3] -> [2, 3]; reshape keeps the row-major order.
TEST_F(InterpreterTest, ShapeOps) {
  expectResult(R"(
    func.func @f(%x: tensor<2x1x3xf32>) -> tensor<3x2x1xf32> {
      %y = nn.transpose %x [2, 0, 1] : tensor<2x1x3xf32> -> tensor<3x2x1xf32>
      return %y : tensor<3x2x1xf32>
    })",
               {tensor({2, 1, 3}, {1, 2, 3, 4, 5, 6})}, {3, 2, 1},
               {1, 4, 2, 5, 3, 6});
  expectResult(R"(
    func.func @f(%x: tensor<3xf32>) -> tensor<2x3xf32> {
      %y = nn.broadcast_to %x : tensor<3xf32> -> tensor<2x3xf32>
      return %y : tensor<2x3xf32>
    })",
               {tensor({3}, {1, 2, 3})}, {2, 3}, {1, 2, 3, 1, 2, 3});
  expectResult(R"(
    func.func @f(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
      %y = nn.reshape %x : tensor<2x3xf32> -> tensor<3x2xf32>
      return %y : tensor<3x2xf32>
    })",
               {tensor({2, 3}, {1, 2, 3, 4, 5, 6})}, {3, 2},
               {1, 2, 3, 4, 5, 6});
}

// max_pool2d of x = [[-1, -5, -2], [-4, -3, -6], [-7, -8, -9]] with a 2x2
// kernel, strides 2 and padding 1 on every side: OH = (3 + 2 - 1 - 1) / 2
// + 1 = 2. The windows hold [-1], [-5, -2], [-4, -7] and [-3, -6, -8, -9]
// in bounds; the padding would win every one of them if it counted as 0.
// The gradient sends dy = [1, 2, 3, 4] to the selected positions (0, 0),
// (0, 2), (1, 0), (1, 1); on a tie (x = [[3, 3], [1, 3]], one 2x2 window)
// the first maximum in row-major window order takes dy.
TEST_F(InterpreterTest, MaxPoolPaddingAndTies) {
  RefTensor x = tensor({1, 1, 3, 3}, {-1, -5, -2, -4, -3, -6, -7, -8, -9});
  expectResult(R"(
    func.func @f(%x: tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32> {
      %y = nn.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
          : (tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
      return %y : tensor<1x1x2x2xf32>
    })",
               {x}, {1, 1, 2, 2}, {-1, -2, -4, -3});
  expectResult(R"(
    func.func @f(%dy: tensor<1x1x2x2xf32>, %x: tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32> {
      %dx = nn.max_pool2d_grad %dy, %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
          : (tensor<1x1x2x2xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
      return %dx : tensor<1x1x3x3xf32>
    })",
               {tensor({1, 1, 2, 2}, {1, 2, 3, 4}), x}, {1, 1, 3, 3},
               {1, 0, 2, 3, 4, 0, 0, 0, 0});
  expectResult(R"(
    func.func @f(%dy: tensor<1x1x1x1xf32>, %x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
      %dx = nn.max_pool2d_grad %dy, %x {kernel = array<i64: 2, 2>}
          : (tensor<1x1x1x1xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
      return %dx : tensor<1x1x2x2xf32>
    })",
               {tensor({1, 1, 1, 1}, {5}), tensor({1, 1, 2, 2}, {3, 3, 1, 3})},
               {1, 1, 2, 2}, {5, 0, 0, 0});
}

// avg_pool2d of x = [[1, 2], [3, 4]], 2x2 kernel, stride 1, padding
// [top 1, left 1, bottom 0, right 0]: the windows' in-bounds elements are
// [1], [1, 2], [1, 3], [1, 2, 3, 4], with sums 1, 3, 4, 10. Divided by
// kh * kw = 4 with count_include_pad: [0.25, 0.75, 1, 2.5]; by the in-bounds
// counts 1, 2, 2, 4 without: [1, 1.5, 2, 2.5]. The gradient of the latter
// at dy = 1 gives x[0][0] 1/1 + 1/2 + 1/2 + 1/4 = 2.25, x[0][1] and x[1][0]
// 1/2 + 1/4 = 0.75, x[1][1] 1/4.
TEST_F(InterpreterTest, AvgPoolCountIncludePad) {
  RefTensor x = tensor({1, 1, 2, 2}, {1, 2, 3, 4});
  expectResult(R"(
    func.func @f(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
      %y = nn.avg_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 1, 1, 0, 0>, count_include_pad}
          : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
      return %y : tensor<1x1x2x2xf32>
    })",
               {x}, {1, 1, 2, 2}, {0.25, 0.75, 1, 2.5});
  expectResult(R"(
    func.func @f(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
      %y = nn.avg_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 1, 1, 0, 0>}
          : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
      return %y : tensor<1x1x2x2xf32>
    })",
               {x}, {1, 1, 2, 2}, {1, 1.5, 2, 2.5});
  expectResult(R"(
    func.func @f(%dy: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
      %dx = nn.avg_pool2d_grad %dy {kernel = array<i64: 2, 2>, padding = array<i64: 1, 1, 0, 0>}
          : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
      return %dx : tensor<1x1x2x2xf32>
    })",
               {tensor({1, 1, 2, 2}, {1, 1, 1, 1})}, {1, 1, 2, 2},
               {2.25, 0.75, 0.75, 0.25});
}

// concat along axis -1 of [[1], [2]] and [[3, 4], [5, 6]]: [[1, 3, 4],
// [2, 5, 6]]. slice of x = [[0, 1, 2, 3], [4, 5, 6, 7]] at offsets [1, 3]
// with strides [-1, -2]: y[i][j] = x[1 - i][3 - 2j] = [[7, 5], [3, 1]]; its
// gradient puts dy = [[1, 2], [3, 4]] back at x[1][3], x[1][1], x[0][3],
// x[0][1]. pad of [[1, 2]] by low [1, 0], high [0, 1] with 9:
// [[9, 9, 9], [1, 2, 9]].
TEST_F(InterpreterTest, ConcatSlicePad) {
  expectResult(R"(
    func.func @f(%a: tensor<2x1xf32>, %b: tensor<2x2xf32>) -> tensor<2x3xf32> {
      %y = nn.concat %a, %b {axis = -1 : i64} : (tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x3xf32>
      return %y : tensor<2x3xf32>
    })",
               {tensor({2, 1}, {1, 2}), tensor({2, 2}, {3, 4, 5, 6})}, {2, 3},
               {1, 3, 4, 2, 5, 6});
  expectResult(R"(
    func.func @f(%x: tensor<2x4xf32>) -> tensor<2x2xf32> {
      %y = nn.slice %x {offsets = array<i64: 1, 3>, strides = array<i64: -1, -2>}
          : tensor<2x4xf32> -> tensor<2x2xf32>
      return %y : tensor<2x2xf32>
    })",
               {tensor({2, 4}, {0, 1, 2, 3, 4, 5, 6, 7})}, {2, 2},
               {7, 5, 3, 1});
  expectResult(R"(
    func.func @f(%dy: tensor<2x2xf32>) -> tensor<2x4xf32> {
      %dx = nn.slice_grad %dy {offsets = array<i64: 1, 3>, strides = array<i64: -1, -2>}
          : tensor<2x2xf32> -> tensor<2x4xf32>
      return %dx : tensor<2x4xf32>
    })",
               {tensor({2, 2}, {1, 2, 3, 4})}, {2, 4},
               {0, 4, 0, 3, 0, 2, 0, 1});
  expectResult(R"(
    func.func @f(%x: tensor<1x2xf32>) -> tensor<2x3xf32> {
      %y = nn.pad %x {low = array<i64: 1, 0>, high = array<i64: 0, 1>, value = 9.0 : f32}
          : tensor<1x2xf32> -> tensor<2x3xf32>
      return %y : tensor<2x3xf32>
    })",
               {tensor({1, 2}, {1, 2})}, {2, 3}, {9, 9, 9, 1, 2, 9});
}

// where with cond [[true], [false]] (broadcast along rows), lhs
// [[1, 2], [3, 4]] and rhs [10, 20]: [[1, 2], [10, 20]]. maximum_grad of
// dy = [4, 4, 4] at lhs [1, 2, 3], rhs [2, 2, 2]: the larger operand takes
// dy, the tie at 2 gives each 2.
TEST_F(InterpreterTest, WhereAndMaximumGrad) {
  expectResult(R"(
    func.func @f(%c: tensor<2x1xi1>, %a: tensor<2x2xf32>, %b: tensor<2xf32>) -> tensor<2x2xf32> {
      %y = nn.where %c, %a, %b : (tensor<2x1xi1>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
      return %y : tensor<2x2xf32>
    })",
               {tensor({2, 1}, {1, 0}), tensor({2, 2}, {1, 2, 3, 4}),
                tensor({2}, {10, 20})},
               {2, 2}, {1, 2, 10, 20});
  FailureOr<SmallVector<RefTensor>> results = run(
      R"(
    func.func @f(%dy: tensor<3xf32>, %a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
      %da, %db = nn.maximum_grad %dy, %a, %b
          : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
      return %da, %db : tensor<3xf32>, tensor<3xf32>
    })",
      {tensor({3}, {4, 4, 4}), tensor({3}, {1, 2, 3}), tensor({3}, {2, 2, 2})});
  ASSERT_TRUE(succeeded(results)) << errors;
  ASSERT_EQ(results->size(), 2u);
  expectTensor((*results)[0], {3}, {0, 2, 4});
  expectTensor((*results)[1], {3}, {4, 2, 0});
}

// Dropout's keep(seed, i) at seed 0: element 0 hashes z = 0, which the
// finalizer maps to 0, so u = 0 and it is always kept; element 1 hashes
// z = 0x9E3779B97F4A7C15, which splitmix64 (the first output of its
// published sequence from state 0) maps to 0xE220A8397B1DCDAF, so
// u = 0xE220A8 = 14819496. With rate 0.5 the threshold is 2^23 = 8388608
// and element 1 is dropped: [3, 5] -> [3 / 0.5, 0] = [6, 0]. With rate
// 0.0625 it is 2^24 * 0.9375 = 15728640 and both are kept: [3.2, 16/3].
// Without training the op is the identity.
TEST_F(InterpreterTest, DropoutMask) {
  RefTensor x = tensor({2}, {3, 5}), seed = tensor({}, {0});
  auto source = [](StringRef attrs) {
    return (R"(
    func.func @f(%x: tensor<2xf32>, %seed: tensor<i64>) -> tensor<2xf32> {
      %y = nn.dropout %x, %seed )" +
            attrs + R"( : tensor<2xf32>
      return %y : tensor<2xf32>
    })")
        .str();
  };
  expectResult(source("{rate = 0.5 : f32, training}"), {x, seed}, {2}, {6, 0});
  expectResult(source("{rate = 0.0625 : f32, training}"), {x, seed}, {2},
               {3.2, 16.0 / 3});
  expectResult(source("{rate = 0.5 : f32}"), {x, seed}, {2}, {3, 5});
}

// The backward ops that no derivative rule builds yet (the rules compose
// tanh's, sigmoid's, sqrt's and rsqrt's gradients from mul/sub/div), so
// that the gradient checks never reach them: at dy = 2 and output y = 0.5,
// tanh_grad 2 (1 - 0.25) = 1.5, sigmoid_grad 2 * 0.5 * 0.5 = 0.5,
// sqrt_grad 2 / (2 * 0.5) = 2, rsqrt_grad -0.5 * 2 * 0.125 = -0.125. At
// dy = 3: abs_grad at x = [-2, 0, 5] is [-3, 0, 3] (sign(0) = 0); pow_grad
// with exponent 3 at x = [2, -1, 0] is 3 * 3 x^2 = [36, 9, 0]; clamp_grad
// to [0, 1] at x = [-0.5, 0, 1, 1.5] passes dy at the inclusive bounds
// only: [0, 3, 3, 0]. reduce_max_grad over the rows of [[1, 3, 3], [2, 0,
// 1]] (maxima [3, 2]) with dy = [6, 4] splits the tie: [[0, 3, 3],
// [4, 0, 0]].
TEST_F(InterpreterTest, BackwardOpsOutsideRules) {
  auto unary = [](StringRef op, StringRef attrs, int64_t n) {
    std::string type = "tensor<" + std::to_string(n) + "xf32>";
    return ("func.func @f(%dy: " + type + ", %x: " + type + ") -> " + type +
            " {\n  %dx = nn." + op + " %dy, %x " + attrs + " : " + type +
            "\n  return %dx : " + type + "\n}")
        .str();
  };
  RefTensor dy = tensor({1}, {2}), y = tensor({1}, {0.5});
  expectResult(unary("tanh_grad", "", 1), {dy, y}, {1}, {1.5});
  expectResult(unary("sigmoid_grad", "", 1), {dy, y}, {1}, {0.5});
  expectResult(unary("sqrt_grad", "", 1), {dy, y}, {1}, {2});
  expectResult(unary("rsqrt_grad", "", 1), {dy, y}, {1}, {-0.125});
  RefTensor dy3 = tensor({3}, {3, 3, 3});
  expectResult(unary("abs_grad", "", 3), {dy3, tensor({3}, {-2, 0, 5})}, {3},
               {-3, 0, 3});
  expectResult(unary("pow_grad", "{exponent = 3.0 : f32}", 3),
               {dy3, tensor({3}, {2, -1, 0})}, {3}, {36, 9, 0});
  expectResult(unary("clamp_grad", "{min = 0.0 : f32, max = 1.0 : f32}", 4),
               {tensor({4}, {3, 3, 3, 3}), tensor({4}, {-0.5, 0, 1, 1.5})}, {4},
               {0, 3, 3, 0});
  expectResult(R"(
    func.func @f(%dy: tensor<2xf32>, %x: tensor<2x3xf32>, %y: tensor<2xf32>) -> tensor<2x3xf32> {
      %dx = nn.reduce_max_grad %dy, %x, %y [1] : (tensor<2xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
      return %dx : tensor<2x3xf32>
    })",
               {tensor({2}, {6, 4}), tensor({2, 3}, {1, 3, 3, 2, 0, 1}),
                tensor({2}, {3, 2})},
               {2, 3}, {0, 3, 3, 4, 0, 0});
}

// Rows of table [[1, 2], [3, 4], [5, 6]] at ids [2, 0, 2]; the gradient
// scatter-adds dy rows [1, 1], [2, 2], [3, 3] back: row 0 gets [2, 2], row
// 2 gets [1 + 3, 1 + 3], row 1 nothing.
TEST_F(InterpreterTest, Embedding) {
  RefTensor ids = tensor({3}, {2, 0, 2});
  expectResult(R"(
    func.func @f(%t: tensor<3x2xf32>, %ids: tensor<3xi32>) -> tensor<3x2xf32> {
      %y = nn.embedding %t, %ids : (tensor<3x2xf32>, tensor<3xi32>) -> tensor<3x2xf32>
      return %y : tensor<3x2xf32>
    })",
               {tensor({3, 2}, {1, 2, 3, 4, 5, 6}), ids}, {3, 2},
               {5, 6, 1, 2, 5, 6});
  expectResult(R"(
    func.func @f(%dy: tensor<3x2xf32>, %ids: tensor<3xi32>) -> tensor<3x2xf32> {
      %g = nn.embedding_grad %dy, %ids : (tensor<3x2xf32>, tensor<3xi32>) -> tensor<3x2xf32>
      return %g : tensor<3x2xf32>
    })",
               {tensor({3, 2}, {1, 1, 2, 2, 3, 3}), ids}, {3, 2},
               {2, 2, 0, 0, 4, 4});
}

// Rows [0, 0] (label 0: -log 1/2) and [ln 3, 0] (label 0: -log 3/4); the
// loss is their mean, ln(8/3) / 2. With grad_loss 2 the gradient is
// 2 (softmax - onehot) / 2: [[-1/2, 1/2], [-1/4, 1/4]].
TEST_F(InterpreterTest, CrossEntropy) {
  RefTensor logits = tensor({2, 2}, {0, 0, std::log(3.0), 0});
  RefTensor labels = tensor({2}, {0, 0});
  expectResult(R"(
    func.func @f(%l: tensor<2x2xf32>, %y: tensor<2xi64>) -> tensor<f32> {
      %loss = nn.cross_entropy %l, %y : (tensor<2x2xf32>, tensor<2xi64>) -> tensor<f32>
      return %loss : tensor<f32>
    })",
               {logits, labels}, {}, {std::log(8.0 / 3) / 2});
  expectResult(R"(
    func.func @f(%g: tensor<f32>, %l: tensor<2x2xf32>, %y: tensor<2xi64>) -> tensor<2x2xf32> {
      %d = nn.cross_entropy_grad %g, %l, %y : (tensor<f32>, tensor<2x2xf32>, tensor<2xi64>) -> tensor<2x2xf32>
      return %d : tensor<2x2xf32>
    })",
               {tensor({}, {2}), logits, labels}, {2, 2},
               {-0.5, 0.5, -0.25, 0.25});
}

// Gradients [3] and [4] have norm 5; clipped to 1 they are scaled by
// 1 / (5 + 1e-6). SGD: 1 - 0.5 * 0.5 = 0.75 (lr is an f32 attribute, 0.5
// exactly).
TEST_F(InterpreterTest, OptimizerOps) {
  FailureOr<SmallVector<RefTensor>> results =
      run(R"(
    func.func @f(%a: tensor<1xf32>, %b: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<f32>) {
      %c:3 = nn.clip_grad_norm %a, %b {max_norm = 1.0 : f32} : tensor<1xf32>, tensor<1xf32>
      return %c#0, %c#1, %c#2 : tensor<1xf32>, tensor<1xf32>, tensor<f32>
    })",
          {tensor({1}, {3}), tensor({1}, {4})});
  ASSERT_TRUE(succeeded(results)) << errors;
  expectTensor((*results)[0], {1}, {3 / (5 + 1e-6)});
  expectTensor((*results)[1], {1}, {4 / (5 + 1e-6)});
  expectTensor((*results)[2], {}, {5});
  expectResult(R"(
    func.func @f(%p: tensor<1xf32>, %g: tensor<1xf32>) -> tensor<1xf32> {
      %q = nn.sgd_update %p, %g {lr = 0.5 : f32} : tensor<1xf32>
      return %q : tensor<1xf32>
    })",
               {tensor({1}, {1}), tensor({1}, {0.5})}, {1}, {0.75});
}

// The other norms of [3, -4] and [12]: the 1-norm 19, the max norm 12,
// the 3-norm (27 + 64 + 1728)^(1/3); each gradient scaled by
// max_norm / (norm + 1e-6). clip_grad_value clamps each element to
// [-3.5, 3.5], NaN kept.
TEST_F(InterpreterTest, ClippingNormsAndValues) {
  const double inf = std::numeric_limits<double>::infinity();
  for (auto [normType, norm] :
       {std::pair{"1.0", 19.0}, std::pair{"0x7F800000", 12.0},
        std::pair{"3.0", std::cbrt(27.0 + 64 + 1728)}}) {
    FailureOr<SmallVector<RefTensor>> results =
        run(std::string(R"(
    func.func @f(%a: tensor<2xf32>, %b: tensor<1xf32>) -> (tensor<2xf32>, tensor<1xf32>, tensor<f32>) {
      %c:3 = nn.clip_grad_norm %a, %b {max_norm = 2.0 : f32, norm_type = )") +
                normType + R"( : f32} : tensor<2xf32>, tensor<1xf32>
      return %c#0, %c#1, %c#2 : tensor<2xf32>, tensor<1xf32>, tensor<f32>
    })",
            {tensor({2}, {3, -4}), tensor({1}, {12})});
    ASSERT_TRUE(succeeded(results)) << errors;
    const double coef = 2 / (norm + 1e-6);
    expectTensor((*results)[0], {2}, {3 * coef, -4 * coef});
    expectTensor((*results)[1], {1}, {12 * coef});
    expectTensor((*results)[2], {}, {norm});
  }
  FailureOr<SmallVector<RefTensor>> results =
      run(R"(
    func.func @f(%a: tensor<4xf32>, %b: tensor<1xf32>) -> (tensor<4xf32>, tensor<1xf32>) {
      %c:2 = nn.clip_grad_value %a, %b {clip_value = 3.5 : f32} : tensor<4xf32>, tensor<1xf32>
      return %c#0, %c#1 : tensor<4xf32>, tensor<1xf32>
    })",
          {tensor({4}, {3, -4, inf, 1}), tensor({1}, {NAN})});
  ASSERT_TRUE(succeeded(results)) << errors;
  expectTensor((*results)[0], {4}, {3, -3.5, 3.5, 1});
  EXPECT_TRUE(std::isnan((*results)[1].data[0]));
}

// nn.ema_update: a + w (v - a) per average, w from its operand.
TEST_F(InterpreterTest, EmaUpdate) {
  FailureOr<SmallVector<RefTensor>> results =
      run(R"(
    func.func @f(%a: tensor<2xf32>, %b: tensor<1xf32>, %p: tensor<2xf32>, %q: tensor<1xf32>, %w: tensor<f32>) -> (tensor<2xf32>, tensor<1xf32>) {
      %n:2 = nn.ema_update %a, %b toward %p, %q weight(%w) : tensor<2xf32>, tensor<1xf32>
      return %n#0, %n#1 : tensor<2xf32>, tensor<1xf32>
    })",
          {tensor({2}, {1, -2}), tensor({1}, {4}), tensor({2}, {3, 2}),
           tensor({1}, {0}), tensor({}, {0.25})});
  ASSERT_TRUE(succeeded(results)) << errors;
  expectTensor((*results)[0], {2}, {1.5, -1});
  expectTensor((*results)[1], {1}, {3});
}

// nn.lr_schedule at step 7 of a cosine schedule with 4 warmup steps and 12
// in all (d = 3 of D = 8, floor 0.2): 0.2 + 0.8 * (1 + cos(3 pi / 8)) / 2,
// and the count 8; inside the warmup (step 1 of 4 from 0.25): 0.4375. The
// factor scales the updates' lr: SGD 1 - 0.5 * 0.5 * 0.5 and AdamW's first
// step (|update| = lr, decay 0) 1 - 0.25.
TEST_F(InterpreterTest, LrSchedule) {
  const char *schedule = R"(
    func.func @f(%c: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
      %f, %n = nn.lr_schedule cosine %c {warmup_steps = 4 : i64, warmup_start_factor = 0.25 : f32, total_steps = 12 : i64, final_factor = 0.2 : f32}
      return %f, %n : tensor<f32>, tensor<f32>
    })";
  FailureOr<SmallVector<RefTensor>> results = run(schedule, {tensor({}, {7})});
  ASSERT_TRUE(succeeded(results)) << errors;
  // The attributes are f32: 0.2f, not 0.2.
  double floor = static_cast<double>(0.2f);
  expectTensor((*results)[0], {},
               {floor + (1 - floor) * (1 + std::cos(3 * M_PI / 8)) / 2});
  expectTensor((*results)[1], {}, {8});
  results = run(schedule, {tensor({}, {1})});
  ASSERT_TRUE(succeeded(results)) << errors;
  expectTensor((*results)[0], {}, {0.25 + 0.75 / 4});
  expectResult(R"(
    func.func @f(%p: tensor<1xf32>, %g: tensor<1xf32>, %f: tensor<f32>) -> tensor<1xf32> {
      %q = nn.sgd_update %p, %g lr_factor(%f) {lr = 0.5 : f32} : tensor<1xf32>
      return %q : tensor<1xf32>
    })",
               {tensor({1}, {1}), tensor({1}, {0.5}), tensor({}, {0.5})}, {1},
               {0.875});
  expectResult(R"(
    func.func @f(%p: tensor<1xf32>, %g: tensor<1xf32>, %m: tensor<1xf32>, %v: tensor<1xf32>, %t: tensor<f32>, %f: tensor<f32>) -> tensor<1xf32> {
      %q:4 = nn.adam_update %p, %g, %m, %v, %t lr_factor(%f) {lr = 0.5 : f32, eps = 0.0 : f32, weight_decay = 0.0 : f32} : tensor<1xf32>
      return %q#0 : tensor<1xf32>
    })",
               {tensor({1}, {1}), tensor({1}, {2}), tensor({1}, {0}),
                tensor({1}, {0}), tensor({}, {0}), tensor({}, {0.5})},
               {1}, {0.75});
}

// Polynomial decay at step 5 of 2 warmup + 8 decay steps, power 2, floor
// 0.25: 0.25 + 0.75 * (5 / 8)^2, and 0.25 past the end; multistep with
// milestones 1, 4 after 2 warmup steps: 0.5^2 from d = 4 (step 6), 0.5 at
// d = 1..3, 1 at d = 0.
TEST_F(InterpreterTest, LrSchedulePolynomialAndMultistep) {
  const char *polynomial = R"(
    func.func @f(%c: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
      %f, %n = nn.lr_schedule polynomial %c {warmup_steps = 2 : i64, total_steps = 10 : i64, final_factor = 0.25 : f32, power = 2.0 : f32}
      return %f, %n : tensor<f32>, tensor<f32>
    })";
  for (auto [step, factor] : {std::pair(5.0, 0.25 + 0.75 * 25.0 / 64.0),
                              std::pair(10.0, 0.25), std::pair(50.0, 0.25)}) {
    FailureOr<SmallVector<RefTensor>> results =
        run(polynomial, {tensor({}, {step})});
    ASSERT_TRUE(succeeded(results)) << errors;
    expectTensor((*results)[0], {}, {factor});
  }
  const char *multistep = R"(
    func.func @f(%c: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
      %f, %n = nn.lr_schedule multistep %c {warmup_steps = 2 : i64, milestones = array<i64: 1, 4>, gamma = 0.5 : f32}
      return %f, %n : tensor<f32>, tensor<f32>
    })";
  for (auto [step, factor] :
       {std::pair(2.0, 1.0), std::pair(3.0, 0.5), std::pair(5.0, 0.5),
        std::pair(6.0, 0.25), std::pair(1000.0, 0.25)}) {
    FailureOr<SmallVector<RefTensor>> results =
        run(multistep, {tensor({}, {step})});
    ASSERT_TRUE(succeeded(results)) << errors;
    expectTensor((*results)[0], {}, {factor});
    expectTensor((*results)[1], {}, {step + 1});
  }
}

// Splat and element-wise dense constants, float and integer.
TEST_F(InterpreterTest, Constants) {
  expectResult(R"(
    func.func @f() -> tensor<2xf32> {
      %a = arith.constant dense<[1.5, -2.0]> : tensor<2xf32>
      %b = arith.constant dense<0.25> : tensor<2xf32>
      %y = nn.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      return %y : tensor<2xf32>
    })",
               {}, {2}, {1.75, -1.75});
  expectResult(R"(
    func.func @f(%t: tensor<3x1xf32>) -> tensor<2x1xf32> {
      %ids = arith.constant dense<[2, 1]> : tensor<2xi32>
      %y = nn.embedding %t, %ids : (tensor<3x1xf32>, tensor<2xi32>) -> tensor<2x1xf32>
      return %y : tensor<2x1xf32>
    })",
               {tensor({3, 1}, {7, 8, 9})}, {2, 1}, {9, 8});
}

TEST_F(InterpreterTest, UnsupportedOpIsAnError) {
  FailureOr<SmallVector<RefTensor>> results = run(R"(
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      %y = math.sin %x : tensor<2xf32>
      return %y : tensor<2xf32>
    })",
                                                  {tensor({2}, {0, 1})});
  EXPECT_TRUE(failed(results));
  EXPECT_EQ(errors, "reference interpreter: unsupported op 'math.sin'\n");
}

TEST_F(InterpreterTest, WrongArgumentShapeIsAnError) {
  FailureOr<SmallVector<RefTensor>> results = run(R"(
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      return %x : tensor<2xf32>
    })",
                                                  {tensor({3}, {0, 1, 2})});
  EXPECT_TRUE(failed(results));
  EXPECT_EQ(errors, "reference interpreter: @f argument #0 does not match its "
                    "type or is not a static tensor\n");
}

TEST_F(InterpreterTest, IdOutOfRangeIsAnError) {
  FailureOr<SmallVector<RefTensor>> results =
      run(R"(
    func.func @f(%t: tensor<2x1xf32>, %ids: tensor<2xi32>) -> tensor<2x1xf32> {
      %y = nn.embedding %t, %ids : (tensor<2x1xf32>, tensor<2xi32>) -> tensor<2x1xf32>
      return %y : tensor<2x1xf32>
    })",
          {tensor({2, 1}, {1, 2}), tensor({2}, {1, 2})});
  EXPECT_TRUE(failed(results));
  EXPECT_EQ(errors,
            "reference interpreter: id 2 at position 1 is outside [0, 2)\n");
}

} // namespace
