//===- GemmEpilogue.h - What each GEMM epilogue reads, writes, computes ---===//
//
// The epilogues of amp_gemm as data (which of bias and aux they use, and
// how), and the fp32 activation functions they apply. Shared by the
// validation, the reference backend and the CUDA backend's own epilogue
// kernels (hence `__host__ __device__` and nothing beyond <cmath>).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_GEMMEPILOGUE_H
#define AMP_RUNTIME_REFERENCE_GEMMEPILOGUE_H

#include "amp_runtime/gemm.h"
#include "amp_runtime/host_device.h"

#include <cmath>
#include <cstdint>

namespace amp {
namespace runtime {

/// How an epilogue uses the bias pointer.
enum class BiasUse : uint8_t {
  None,
  Input,   ///< added to every row: T[i][j] + bias[j]
  GradOfD, ///< output: column sums of D, bias[j] = sum_i D[i][j]
  GradOfA, ///< output: bias[i] = sum_k op(A)[i][k]
  GradOfB, ///< output: bias[j] = sum_k op(B)[k][j]
};

/// The elementwise function applied after the bias.
enum class Activation : uint8_t { None, Relu, Gelu, DRelu, DGelu };

/// How an epilogue uses the aux matrix.
enum class AuxUse : uint8_t { None, Write, Read };

struct EpilogueInfo {
  BiasUse bias;
  Activation act;
  AuxUse aux;
};

/// Indexed by amp_gemm_epilogue_t; the order is checked below.
constexpr EpilogueInfo kEpilogueInfo[AMP_GEMM_NUM_EPILOGUES] = {
    /* NONE          */ {BiasUse::None, Activation::None, AuxUse::None},
    /* BIAS          */ {BiasUse::Input, Activation::None, AuxUse::None},
    /* RELU          */ {BiasUse::None, Activation::Relu, AuxUse::None},
    /* RELU_BIAS     */ {BiasUse::Input, Activation::Relu, AuxUse::None},
    /* GELU          */ {BiasUse::None, Activation::Gelu, AuxUse::None},
    /* GELU_BIAS     */ {BiasUse::Input, Activation::Gelu, AuxUse::None},
    /* GELU_AUX      */ {BiasUse::None, Activation::Gelu, AuxUse::Write},
    /* GELU_AUX_BIAS */ {BiasUse::Input, Activation::Gelu, AuxUse::Write},
    /* DRELU         */ {BiasUse::None, Activation::DRelu, AuxUse::Read},
    /* DRELU_BGRAD   */ {BiasUse::GradOfD, Activation::DRelu, AuxUse::Read},
    /* DGELU         */ {BiasUse::None, Activation::DGelu, AuxUse::Read},
    /* DGELU_BGRAD   */ {BiasUse::GradOfD, Activation::DGelu, AuxUse::Read},
    /* BGRADA        */ {BiasUse::GradOfA, Activation::None, AuxUse::None},
    /* BGRADB        */ {BiasUse::GradOfB, Activation::None, AuxUse::None},
};
static_assert(AMP_GEMM_EPILOGUE_BGRADB == AMP_GEMM_NUM_EPILOGUES - 1 &&
                  AMP_GEMM_EPILOGUE_DGELU_BGRAD == 11 &&
                  AMP_GEMM_EPILOGUE_GELU_AUX_BIAS == 7,
              "kEpilogueInfo is indexed by amp_gemm_epilogue_t");

inline bool isKnownEpilogue(int e) {
  return e >= 0 && e < AMP_GEMM_NUM_EPILOGUES;
}

/// True when the bias pointer is an output (a bias gradient).
inline AMP_HOST_DEVICE bool isBiasGrad(BiasUse use) {
  return use == BiasUse::GradOfD || use == BiasUse::GradOfA ||
         use == BiasUse::GradOfB;
}

// The tanh form of GELU, as cuBLASLt and F.gelu(approximate='tanh') use.
constexpr float kGeluSqrt2OverPi = 0.7978845608028654f;
constexpr float kGeluCubic = 0.044715f;

inline AMP_HOST_DEVICE float gelu(float x) {
  float t = tanhf(kGeluSqrt2OverPi * (x + kGeluCubic * x * x * x));
  return 0.5f * x * (1.0f + t);
}

/// d gelu(x) / dx of the tanh form.
inline AMP_HOST_DEVICE float geluGrad(float x) {
  float t = tanhf(kGeluSqrt2OverPi * (x + kGeluCubic * x * x * x));
  float dInner = kGeluSqrt2OverPi * (1.0f + 3.0f * kGeluCubic * x * x);
  return 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * dInner;
}

/// The epilogue's elementwise step on the fp32 value `t` (after alpha, beta
/// and bias). `aux` is the stored pre-activation for the gradient forms.
/// ReLU keeps NaN (t < 0 is false for NaN), like torch.relu; DRELU selects
/// rather than multiplies so that an infinite t with aux <= 0 gives 0.
inline AMP_HOST_DEVICE float applyActivation(Activation act, float t,
                                             float aux) {
  switch (act) {
  case Activation::None:
    return t;
  case Activation::Relu:
    return t < 0.0f ? 0.0f : t;
  case Activation::Gelu:
    return gelu(t);
  case Activation::DRelu:
    return aux > 0.0f ? t : 0.0f;
  case Activation::DGelu:
    return t * geluGrad(aux);
  }
  return t;
}

} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_GEMMEPILOGUE_H
