//===- ParamInit.cpp - initial values of a step's state -------------------===//

#include "amp/Runner/ParamInit.h"

#include <algorithm>
#include <cmath>

using namespace amp::runner;

std::vector<float> amp::runner::initParam(const TensorDesc &param,
                                          std::mt19937_64 &rng) {
  std::vector<float> data(param.numElements(), 0.0f);
  if (param.init) {
    std::fill(data.begin(), data.end(), static_cast<float>(*param.init));
    return data;
  }
  const std::vector<int64_t> &shape = param.shape;
  int64_t fanIn = 0;
  if (shape.size() == 2)
    fanIn = shape[0];
  else if (shape.size() == 4)
    fanIn = shape[1] * shape[2] * shape[3];
  if (fanIn == 0)
    return data;
  float bound = 1.0f / std::sqrt(static_cast<float>(fanIn));
  std::uniform_real_distribution<float> dist(-bound, bound);
  for (float &v : data)
    v = dist(rng);
  return data;
}

template <typename T>
static void fill(std::vector<char> &bytes, int64_t n, T value) {
  std::fill_n(reinterpret_cast<T *>(bytes.data()), n, value);
}

StatusOr<std::vector<char>> amp::runner::initState(const TensorDesc &state) {
  std::vector<char> bytes(state.bytes());
  double value = state.init.value_or(0.0);
  int64_t n = state.numElements();
  switch (state.type) {
  case ElementType::F32:
    fill(bytes, n, static_cast<float>(value));
    break;
  case ElementType::I32:
    fill(bytes, n, static_cast<int32_t>(value));
    break;
  case ElementType::I64:
    fill(bytes, n, static_cast<int64_t>(value));
    break;
  case ElementType::I1:
    fill(bytes, n, static_cast<int8_t>(value != 0));
    break;
  case ElementType::F16:
  case ElementType::BF16:
    return Status::error("cannot initialize a state argument of element type "
                         "other than f32, i32, i64 or i1");
  }
  return bytes;
}
