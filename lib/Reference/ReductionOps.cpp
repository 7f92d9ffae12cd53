//===- ReductionOps.cpp - f64 evaluators of the reductions ----------------===//
//
// nn.reduce_sum, nn.reduce_mean and nn.reduce_max over a set of axes, with
// or without keep_dims (which changes the shape, not the element order),
// nn.reduce_max_grad (dy split evenly among the maxima of each slice), and
// the scans along one axis nn.cumsum, nn.argmax and nn.topk.
//
//===----------------------------------------------------------------------===//

#include "Evaluators.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

using namespace mlir;
using namespace amp::nn;
using namespace amp::reference;

namespace {

using Combine = double (*)(double acc, double x);

/// The strides with which an element of `shape` reads its reduced element
/// (reducing `axes`; with or without keep_dims, the order is the same);
/// `count` is set to the number of elements per reduced element.
SmallVector<int64_t> getReducedStrides(ArrayRef<int64_t> shape,
                                       ArrayRef<int64_t> axes, int64_t &count) {
  SmallVector<int64_t> kept(shape);
  count = 1;
  for (int64_t axis : axes) {
    axis = normalizeAxis(axis, static_cast<int64_t>(shape.size()));
    count *= kept[axis];
    kept[axis] = 1;
  }
  return getBroadcastStrides(kept, shape);
}

/// Folds every input element into its output element, starting from
/// `init`; returns the result and the number of elements per output.
template <typename OpT>
std::pair<RefTensor, int64_t> reduce(OpT op, const RefTensor &x, double init,
                                     Combine combine) {
  int64_t count;
  SmallVector<int64_t> strides =
      getReducedStrides(x.shape, op.getAxes(), count);
  RefTensor y = resultLike(op, 0, init);
  forEachIndex(x.shape, [&](ArrayRef<int64_t> index, int64_t offset) {
    double &acc = y.data[offsetOf(index, strides)];
    acc = combine(acc, x.data[offset]);
  });
  return {std::move(y), count};
}

double add(double acc, double x) { return acc + x; }

/// dx = x == y ? dy / k : 0, k the number of maxima in x's slice; a slice
/// whose maximum is NaN is NaN throughout (PyTorch's mask * (dy / 0)).
RefTensor evalReduceMaxGrad(ReduceMaxGradOp op, Operands in) {
  const RefTensor &dy = *in[0], &x = *in[1], &y = *in[2];
  int64_t count;
  SmallVector<int64_t> strides =
      getReducedStrides(x.shape, op.getAxes(), count);
  std::vector<double> ties(y.data.size(), 0.0);
  forEachIndex(x.shape, [&](ArrayRef<int64_t> index, int64_t offset) {
    int64_t r = offsetOf(index, strides);
    if (x.data[offset] == y.data[r])
      ++ties[r];
  });
  RefTensor dx = resultLike(op);
  forEachIndex(x.shape, [&](ArrayRef<int64_t> index, int64_t offset) {
    int64_t r = offsetOf(index, strides);
    if (std::isnan(y.data[r]))
      dx.data[offset] = std::nan("");
    else if (x.data[offset] == y.data[r])
      dx.data[offset] = dy.data[r] / ties[r];
  });
  return dx;
}

/// The lines of `x` along `axis` (negative counts from the end): `count`
/// lines of `len` elements, consecutive ones `inner` apart.
struct AxisLines {
  AxisLines(const RefTensor &x, int64_t axis) {
    axis = normalizeAxis(axis, x.getRank());
    for (int64_t d = axis + 1; d < x.getRank(); ++d)
      inner *= x.shape[d];
    len = x.shape[axis];
    count = len == 0 ? 0 : x.getNumElements() / len;
  }
  /// The offset of element k of line `line`.
  int64_t at(int64_t line, int64_t k) const {
    return (line / inner) * len * inner + line % inner + k * inner;
  }
  int64_t inner = 1, len = 0, count = 0;
};

/// The running sums along the axis, in f64 (integers are exact below 2^53).
RefTensor evalCumsum(CumsumOp op, Operands in) {
  const RefTensor &x = *in[0];
  const AxisLines lines(x, op.getAxis());
  RefTensor y = x;
  for (int64_t line = 0; line < lines.count; ++line) {
    double sum = 0;
    for (int64_t k = 0; k < lines.len; ++k) {
      const int64_t i = lines.at(line, op.getReverse() ? lines.len - 1 - k : k);
      const double v = x.data[i];
      y.data[i] = op.getExclusive() ? sum : sum + v;
      sum += v;
    }
  }
  return y;
}

/// The first (last with select_last) position of each line's maximum; NaN
/// above every number.
RefTensor evalArgMax(ArgMaxOp op, Operands in) {
  const RefTensor &x = *in[0];
  const AxisLines lines(x, op.getAxis());
  RefTensor y = resultLike(op, 0, 0.0);
  for (int64_t line = 0; line < lines.count; ++line) {
    int64_t at = 0;
    for (int64_t k = 1; k < lines.len; ++k) {
      const double v = x.data[lines.at(line, k)];
      const double best = x.data[lines.at(line, at)];
      const bool greater = std::isnan(v) ? !std::isnan(best) : v > best;
      const bool equal = std::isnan(v) ? std::isnan(best) : v == best;
      if (greater || (op.getSelectLast() && equal))
        at = k;
    }
    y.data[line] = static_cast<double>(at);
  }
  return y;
}

/// The positions of each line's k largest (smallest) elements: the line's
/// positions stably sorted by value, descending (ascending), NaN above every
/// number, of which the first k.
RefTensor evalTopK(TopKOp op, Operands in) {
  const RefTensor &x = *in[0];
  const AxisLines lines(x, op.getAxis());
  RefTensor y = resultLike(op, 0, 0.0);
  const AxisLines out(y, op.getAxis());
  const bool smallest = op.getSmallest();
  // The rank of a value in the order: NaN above every number.
  auto greater = [](double a, double b) {
    return std::isnan(a) ? !std::isnan(b) : a > b;
  };
  std::vector<int64_t> order(lines.len);
  for (int64_t line = 0; line < out.count; ++line) {
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) {
      const double a = x.data[lines.at(line, i)];
      const double b = x.data[lines.at(line, j)];
      return smallest ? greater(b, a) : greater(a, b);
    });
    for (int64_t j = 0; j < out.len; ++j)
      y.data[out.at(line, j)] = static_cast<double>(order[j]);
  }
  return y;
}

} // namespace

void amp::reference::registerReductionOps(EvaluatorTable &table) {
  table.add<CumsumOp>(evalCumsum);
  table.add<ArgMaxOp>(evalArgMax);
  table.add<TopKOp>(evalTopK);
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
  table.add<ReduceMaxGradOp>(evalReduceMaxGrad);
}
