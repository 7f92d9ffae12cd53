//===- RefTensor.h - a dense f64 tensor for the reference interpreter -----===//
//
// The value type of the f64 reference interpreter: a static shape and its
// row-major elements as doubles. Integer tensors (labels, ids) hold their
// values as exact doubles.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_REFERENCE_REFTENSOR_H
#define AMP_REFERENCE_REFTENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <vector>

namespace amp::reference {

struct RefTensor {
  RefTensor() = default;
  /// A tensor of `shape` with every element `fill`.
  explicit RefTensor(llvm::ArrayRef<int64_t> shape, double fill = 0.0);
  RefTensor(llvm::ArrayRef<int64_t> shape, std::vector<double> data);

  int64_t getRank() const { return static_cast<int64_t>(shape.size()); }
  int64_t getNumElements() const { return static_cast<int64_t>(data.size()); }

  llvm::SmallVector<int64_t> shape;
  std::vector<double> data;
};

/// The number of elements of `shape` (1 for rank 0).
int64_t getNumElements(llvm::ArrayRef<int64_t> shape);

} // namespace amp::reference

#endif // AMP_REFERENCE_REFTENSOR_H
