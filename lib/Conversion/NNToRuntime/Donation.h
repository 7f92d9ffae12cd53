//===- Donation.h - arguments donated to results ----------------*- C++ -*-===//
//
// Private to lib/Conversion/NNToRuntime; see Donation.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_NNTORUNTIME_DONATION_H
#define AMP_LIB_CONVERSION_NNTORUNTIME_DONATION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>

namespace amp {

class BufferMap;

/// Checks every `amp.aliasing_output` of `fn`'s arguments: an integer that
/// names a result of the argument's type, at most one argument per result.
mlir::LogicalResult checkDonations(mlir::func::FuncOp fn);

/// The result `fn` says argument `arg` is donated to, if any (after
/// checkDonations).
std::optional<unsigned> donatedTo(mlir::func::FuncOp fn, unsigned arg);

/// Whether `operand`, of a func.return, returns the buffer of `owner` (the
/// value it lives in) as the result that owner, an argument, is donated to:
/// the result is in the caller's buffer already.
bool returnsDonatedArgument(mlir::Value owner, mlir::OpOperand &operand);

/// The buffer in which `op` may compute its result `result` in place of its
/// operand `operand`, whose kernel reads each element before it writes it:
/// the lowered argument, when that operand is an argument of the function
/// donated to the result the function returns `op`'s result as, and nothing
/// reads the argument's buffer at or after `start` (the op the call is
/// emitted at; `op` or an earlier one) but `op` through that operand. Null
/// otherwise: the result needs a buffer of its own.
mlir::Value donatedBuffer(mlir::Operation *start, mlir::Operation *op,
                          unsigned operand, unsigned result,
                          const BufferMap &buffers);

} // namespace amp

#endif // AMP_LIB_CONVERSION_NNTORUNTIME_DONATION_H
