//===- ParamInit.h - initial values of a step's state -----------*- C++ -*-===//
//
// How the runner initializes the arguments it threads: params like PyTorch's
// nn.Linear, everything else from its `nn.init` value. The random draws are
// part of the runner's reproducibility contract (same seed, same params).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_PARAMINIT_H
#define AMP_RUNNER_PARAMINIT_H

#include "amp/Runner/Signature.h"
#include "amp/Runner/Status.h"

#include <random>
#include <vector>

namespace amp::runner {

/// uniform(+-1/sqrt(fan_in)) for weights ([in, out] matrices: fan_in = dim
/// 0; OIHW filters: I*KH*KW), zeros for other ranks (1-D biases), or the
/// `nn.init` value when the param has one. Draws from `rng` only for
/// weights.
std::vector<float> initParam(const TensorDesc &param, std::mt19937_64 &rng);

/// Host bytes of a non-param state argument (optimizer or loss-scale state)
/// holding its `nn.init` value, or zeros without one.
StatusOr<std::vector<char>> initState(const TensorDesc &state);

} // namespace amp::runner

#endif // AMP_RUNNER_PARAMINIT_H
