//===- ParamsFile.h - the params file of --save/--load-params ---*- C++ -*-===//
//
// The format, native-endian: the 9 bytes "AMPPARAM1", an int64 count, then
// per param an int64 rank, rank int64 dims and the f32 values, in the order
// of the step's param arguments, then its buffer arguments (batch
// normalization's running statistics) alike. Reading checks every field against
// the file's size before allocating, so a damaged file is an error, never a
// crash or a huge allocation.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_PARAMSFILE_H
#define AMP_RUNNER_PARAMSFILE_H

#include "amp/Runner/Signature.h"
#include "amp/Runner/Status.h"

#include <string>
#include <vector>

namespace amp::runner {

/// One param on the host.
struct HostTensor {
  std::vector<int64_t> shape;
  std::vector<float> values;
};

StatusOr<std::vector<HostTensor>> readParamsFile(const std::string &path);

/// The same for the bytes of a file; `path` names it in errors.
StatusOr<std::vector<HostTensor>> parseParamsFile(const std::vector<char> &bytes,
                                                  const std::string &path);

Status writeParamsFile(const std::string &path,
                       const std::vector<HostTensor> &params);

/// The arguments of `fn` that a params file holds, in the file's order: the
/// params, then the buffers, each in argument order. With `weights` =
/// Role::Ema, those of the averaged model (nn-autodiff's ema-decay), which
/// --load-params reads as params and buffers: the params' moving averages,
/// then the buffers' (ema-buffers) or else the buffers.
std::vector<int> paramsFileArgs(const FunctionSignature &fn,
                                Role weights = Role::Param);

/// paramsFileArgs from a step's `params`, `buffers` and `averages` (the
/// arguments of each role, in order): with `weights` = Role::Param the
/// params then the buffers; with Role::Ema the averages of the params, then
/// those of the buffers when there is one per buffer too (ema-buffers: more
/// averages than params), else the buffers.
std::vector<int> weightArgs(Role weights, const std::vector<int> &params,
                            const std::vector<int> &buffers,
                            const std::vector<int> &averages);

/// Checks that `loaded` (read from `path`) holds exactly the tensors of
/// `step`'s arguments `paramArgs` (paramsFileArgs), in order and with their
/// shapes.
Status checkParamsMatch(const std::vector<HostTensor> &loaded,
                        const std::string &path, const FunctionSignature &step,
                        const std::vector<int> &paramArgs);

} // namespace amp::runner

#endif // AMP_RUNNER_PARAMSFILE_H
