//===- ReductionOps.cpp - f64 evaluators of the reductions ----------------===//
//
// nn.reduce_sum, nn.reduce_mean and nn.reduce_max over a set of axes, with
// or without keep_dims (which changes the shape, not the element order).
//
//===----------------------------------------------------------------------===//

#include "Evaluators.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace amp::nn;
using namespace amp::reference;

namespace {

using Combine = double (*)(double acc, double x);

/// Folds every input element into its output element, starting from
/// `init`; returns the result and the number of elements per output.
template <typename OpT>
std::pair<RefTensor, int64_t> reduce(OpT op, const RefTensor &x, double init,
                                     Combine combine) {
  SmallVector<int64_t> kept(x.shape);
  int64_t count = 1;
  for (int64_t axis : op.getAxes()) {
    axis = normalizeAxis(axis, x.getRank());
    count *= kept[axis];
    kept[axis] = 1;
  }
  RefTensor y = resultLike(op, 0, init);
  SmallVector<int64_t> strides = getBroadcastStrides(kept, x.shape);
  forEachIndex(x.shape, [&](ArrayRef<int64_t> index, int64_t offset) {
    double &acc = y.data[offsetOf(index, strides)];
    acc = combine(acc, x.data[offset]);
  });
  return {std::move(y), count};
}

double add(double acc, double x) { return acc + x; }

} // namespace

void amp::reference::registerReductionOps(EvaluatorTable &table) {
  table.add<ReduceSumOp>([](ReduceSumOp op, Operands in) {
    return reduce(op, *in[0], 0.0, add).first;
  });
  // A mean over nothing is 0/0 = NaN, as in the runtime.
  table.add<ReduceMeanOp>([](ReduceMeanOp op, Operands in) {
    auto [y, count] = reduce(op, *in[0], 0.0, add);
    for (double &v : y.data)
      v /= static_cast<double>(count);
    return y;
  });
  // NaN propagates.
  table.add<ReduceMaxOp>([](ReduceMaxOp op, Operands in) -> FailureOr<Results> {
    auto [y, count] =
        reduce(op, *in[0], -std::numeric_limits<double>::infinity(),
               [](double acc, double x) {
                 return std::isnan(acc) || std::isnan(x) ? std::nan("")
                                                         : std::max(acc, x);
               });
    if (count == 0)
      return op.emitError()
             << "reference interpreter: a maximum over no elements";
    Results results;
    results.push_back(std::move(y));
    return results;
  });
}
