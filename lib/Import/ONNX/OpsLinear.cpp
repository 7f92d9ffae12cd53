//===- OpsLinear.cpp - MatMul and Gemm ------------------------------------===//
//
// Both map onto nn.matmul (f32 accumulation, transpose flags, broadcast
// batch dims); Gemm's alpha, beta and C are nn.mul and nn.add.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "amp/Dialect/NN/IR/NNOps.h"

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

/// numpy.matmul: a 1-D operand is a row (lhs) or a column (rhs) vector
/// whose dim is dropped from the result.
static LogicalResult importMatMul(NodeContext &nc) {
  FailureOr<Value> a = nc.floatValue(0);
  FailureOr<Value> b = nc.floatValue(1);
  if (failed(a) || failed(b))
    return failure();
  llvm::SmallVector<int64_t> as = shapeOf(*a), bs = shapeOf(*b);
  if (as.empty() || bs.empty())
    return nc.error() << "MatMul of a scalar is not defined", failure();
  bool vecA = as.size() == 1, vecB = bs.size() == 1;
  if (vecA)
    a = nc.reshape(*a, {1, as[0]});
  if (vecB)
    b = nc.reshape(*b, {bs[0], 1});
  if (failed(a) || failed(b))
    return failure();
  FailureOr<Value> y = nc.create<nn::MatmulOp>({*a, *b});
  if (failed(y))
    return failure();
  if (vecA || vecB) {
    llvm::SmallVector<int64_t> ys = shapeOf(*y), out;
    for (size_t d = 0; d < ys.size(); ++d) {
      if (vecA && d == ys.size() - 2)
        continue;
      if (vecB && d == ys.size() - 1)
        continue;
      out.push_back(ys[d]);
    }
    y = nc.reshape(*y, out);
    if (failed(y))
      return failure();
  }
  return nc.setOutput(0, *y);
}

static LogicalResult importGemm(NodeContext &nc) {
  nc.warnOneElementWeight(2, "bias");
  FailureOr<float> alpha = nc.floatAttr("alpha", 1.0f);
  FailureOr<float> beta = nc.floatAttr("beta", 1.0f);
  FailureOr<int64_t> transA = nc.intAttr("transA", 0);
  FailureOr<int64_t> transB = nc.intAttr("transB", 0);
  FailureOr<Value> a = nc.floatValue(0);
  FailureOr<Value> b = nc.floatValue(1);
  if (failed(alpha) || failed(beta) || failed(transA) || failed(transB) ||
      failed(a) || failed(b))
    return failure();
  if (shapeOf(*a).size() != 2 || shapeOf(*b).size() != 2)
    return nc.error() << "A and B must be matrices", failure();
  llvm::SmallVector<NamedAttribute> attrs;
  if (*transA)
    attrs.push_back(nc.named("transpose_a", nc.builder.getUnitAttr()));
  if (*transB)
    attrs.push_back(nc.named("transpose_b", nc.builder.getUnitAttr()));
  FailureOr<Value> y = nc.create<nn::MatmulOp>({*a, *b}, attrs);
  if (failed(y))
    return failure();
  llvm::SmallVector<int64_t> product = shapeOf(*y);
  if (*alpha != 1.0f) {
    y = nc.create<nn::MulOp>({*y, nc.splat({}, *alpha)});
    if (failed(y))
      return failure();
  }
  if (nc.hasInput(2) && *beta != 0.0f) {
    FailureOr<Value> c = nc.floatValue(2);
    if (failed(c))
      return failure();
    if (*beta != 1.0f) {
      c = nc.create<nn::MulOp>({*c, nc.splat({}, *beta)});
      if (failed(c))
        return failure();
    }
    y = nc.create<nn::AddOp>({*y, *c});
    if (failed(y))
      return failure();
    if (shapeOf(*y) != product)
      return nc.error() << "C does not broadcast to the product's shape",
             failure();
  }
  return nc.setOutput(0, *y);
}

void amp::onnx_import::registerLinearOps(OpTable &t) {
  t["MatMul"] = {importMatMul, {}};
  t["Gemm"] = {importGemm, {"alpha", "beta", "transA", "transB"}};
}
