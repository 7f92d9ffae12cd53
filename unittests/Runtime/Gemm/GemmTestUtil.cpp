//===- GemmTestUtil.cpp - GEMM test cases, f64 expectations, comparisons --===//
//
// The naive f64 oracle knows the epilogues from gemm.h's documentation
// through its own table, not the runtime's, so that a wrong entry in the
// runtime's table fails the tests instead of agreeing with them.
//
//===----------------------------------------------------------------------===//

#include "GemmTestUtil.h"

#include "amp_runtime/float16.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

using namespace amp::test;
using amp::runtime::BFloat16;
using amp::runtime::Half;

namespace {

enum class Bias { None, Input, GradOfD, GradOfA, GradOfB };
enum class Act { None, Relu, Gelu, DRelu, DGelu };
enum class Aux { None, Write, Read };
struct Spec {
  Bias bias;
  Act act;
  Aux aux;
};

Spec specOf(amp_gemm_epilogue_t e) {
  switch (e) {
  case AMP_GEMM_EPILOGUE_NONE:
    return {Bias::None, Act::None, Aux::None};
  case AMP_GEMM_EPILOGUE_BIAS:
    return {Bias::Input, Act::None, Aux::None};
  case AMP_GEMM_EPILOGUE_RELU:
    return {Bias::None, Act::Relu, Aux::None};
  case AMP_GEMM_EPILOGUE_RELU_BIAS:
    return {Bias::Input, Act::Relu, Aux::None};
  case AMP_GEMM_EPILOGUE_GELU:
    return {Bias::None, Act::Gelu, Aux::None};
  case AMP_GEMM_EPILOGUE_GELU_BIAS:
    return {Bias::Input, Act::Gelu, Aux::None};
  case AMP_GEMM_EPILOGUE_GELU_AUX:
    return {Bias::None, Act::Gelu, Aux::Write};
  case AMP_GEMM_EPILOGUE_GELU_AUX_BIAS:
    return {Bias::Input, Act::Gelu, Aux::Write};
  case AMP_GEMM_EPILOGUE_DRELU:
    return {Bias::None, Act::DRelu, Aux::Read};
  case AMP_GEMM_EPILOGUE_DRELU_BGRAD:
    return {Bias::GradOfD, Act::DRelu, Aux::Read};
  case AMP_GEMM_EPILOGUE_DGELU:
    return {Bias::None, Act::DGelu, Aux::Read};
  case AMP_GEMM_EPILOGUE_DGELU_BGRAD:
    return {Bias::GradOfD, Act::DGelu, Aux::Read};
  case AMP_GEMM_EPILOGUE_BGRADA:
    return {Bias::GradOfA, Act::None, Aux::None};
  case AMP_GEMM_EPILOGUE_BGRADB:
    return {Bias::GradOfB, Act::None, Aux::None};
  }
  return {Bias::None, Act::None, Aux::None};
}

bool biasIsOutput(Bias b) {
  return b == Bias::GradOfD || b == Bias::GradOfA || b == Bias::GradOfB;
}

const char *shortDtype(amp_dtype_t t) { return amp_dtype_name(t); }

const char *formName(BatchForm f) {
  switch (f) {
  case BatchForm::Single:
    return "Single";
  case BatchForm::Strided:
    return "Strided";
  case BatchForm::BroadcastA:
    return "BroadcastA";
  case BatchForm::BroadcastB:
    return "BroadcastB";
  }
  return "?";
}

constexpr double kU = 1.0 / (1 << 24); // fp32 unit roundoff, 2^-24

/// The spacing of `dtype` values around |x|; subnormal spacing below the
/// smallest normal.
double ulpOf(amp_dtype_t dtype, double x) {
  int precision = 23, minExponent = -126;
  if (dtype == AMP_DTYPE_F16) {
    precision = 10;
    minExponent = -14;
  } else if (dtype == AMP_DTYPE_BF16) {
    precision = 7;
  }
  int e = x == 0.0 ? minExponent : std::max(std::ilogb(x), minExponent);
  return std::ldexp(1.0, e - precision);
}

double geluF64(double x) {
  double t = std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x));
  return 0.5 * x * (1.0 + t);
}

double geluGradF64(double x) {
  const double k0 = 0.7978845608028654, k1 = 0.044715;
  double t = std::tanh(k0 * (x + k1 * x * x * x));
  return 0.5 * (1.0 + t) +
         0.5 * x * (1.0 - t * t) * k0 * (1.0 + 3 * k1 * x * x);
}

int64_t elementSize(amp_dtype_t t) { return t == AMP_DTYPE_F32 ? 4 : 2; }

/// Elements a strided batch of rows x cols (leading dimension ld) spans.
int64_t spanOf(int64_t rows, int64_t cols, int64_t ld, int64_t stride,
               int64_t batch) {
  int64_t extent = (rows - 1) * ld + cols;
  return stride == 0 ? extent : (batch - 1) * stride + extent;
}

uint32_t sentinelBits(amp_dtype_t t) {
  return t == AMP_DTYPE_F32 ? 0x7fc5a5a5u
                            : (t == AMP_DTYPE_F16 ? 0x7e5au : 0x7fdau);
}

void fillSentinel(amp_dtype_t t, std::vector<uint8_t> &buffer) {
  uint32_t bits = sentinelBits(t);
  int64_t size = elementSize(t);
  for (size_t i = 0; i < buffer.size(); i += size)
    std::memcpy(&buffer[i], &bits, size);
}

void fillRandom(amp_dtype_t t, std::vector<uint8_t> &buffer, std::mt19937 &rng,
                float range) {
  std::uniform_real_distribution<float> dist(-range, range);
  int64_t count = buffer.size() / elementSize(t);
  for (int64_t i = 0; i < count; ++i)
    storeElement(t, buffer, i, dist(rng));
}

} // namespace

double amp::test::loadElement(amp_dtype_t dtype,
                              const std::vector<uint8_t> &buffer,
                              int64_t index) {
  if (dtype == AMP_DTYPE_F32) {
    float v;
    std::memcpy(&v, &buffer[index * 4], 4);
    return v;
  }
  uint16_t bits;
  std::memcpy(&bits, &buffer[index * 2], 2);
  return dtype == AMP_DTYPE_F16 ? Half{bits}.toFloat()
                                : BFloat16{bits}.toFloat();
}

void amp::test::storeElement(amp_dtype_t dtype, std::vector<uint8_t> &buffer,
                             int64_t index, float value) {
  if (dtype == AMP_DTYPE_F32) {
    std::memcpy(&buffer[index * 4], &value, 4);
    return;
  }
  uint16_t bits = dtype == AMP_DTYPE_F16 ? Half::fromFloat(value).bits
                                         : BFloat16::fromFloat(value).bits;
  std::memcpy(&buffer[index * 2], &bits, 2);
}

std::string amp::test::caseName(const GemmCase &c) {
  std::string name = amp_gemm_epilogue_name(c.epilogue);
  name += std::string("_") + shortDtype(c.abDtype) + "_" + shortDtype(c.dDtype);
  name += std::string("_") + (c.transA ? "T" : "N") + (c.transB ? "T" : "N");
  name += std::string("_") + formName(c.form);
  return name;
}

std::vector<std::pair<amp_dtype_t, amp_dtype_t>> amp::test::supportedDtypes() {
  return {{AMP_DTYPE_F16, AMP_DTYPE_F16},
          {AMP_DTYPE_F16, AMP_DTYPE_F32},
          {AMP_DTYPE_BF16, AMP_DTYPE_BF16},
          {AMP_DTYPE_BF16, AMP_DTYPE_F32},
          {AMP_DTYPE_F32, AMP_DTYPE_F32}};
}

std::vector<GemmCase> amp::test::allGemmCases() {
  std::vector<GemmCase> cases;
  for (int e = 0; e < AMP_GEMM_NUM_EPILOGUES; ++e)
    for (auto [ab, d] : supportedDtypes())
      for (int t = 0; t < 4; ++t)
        for (BatchForm f : {BatchForm::Single, BatchForm::Strided,
                            BatchForm::BroadcastA, BatchForm::BroadcastB}) {
          GemmCase c;
          c.epilogue = static_cast<amp_gemm_epilogue_t>(e);
          c.abDtype = ab;
          c.dDtype = d;
          c.transA = t & 1;
          c.transB = t & 2;
          c.form = f;
          cases.push_back(c);
        }
  return cases;
}

HostGemm HostGemm::make(const GemmCase &gc, uint32_t seed) {
  HostGemm h;
  h.gemmCase = gc;
  amp_gemm_desc_t &g = h.desc;
  amp_gemm_desc_init(&g);
  const Spec spec = specOf(gc.epilogue);
  const bool single = gc.form == BatchForm::Single;
  const int64_t batch = single ? 1 : 3;
  // Padding makes every leading dimension and stride differ from the
  // tight one, and from each other, so that mixing them up shows.
  const int64_t pad = single ? 0 : 3, gap = single ? 0 : 5;
  const int64_t m = gc.m, n = gc.n, k = gc.k;

  g.m = m;
  g.n = n;
  g.k = k;
  g.batch_count = batch;
  g.trans_a = gc.transA;
  g.trans_b = gc.transB;
  g.a_dtype = g.b_dtype = gc.abDtype;
  g.d_dtype = gc.dDtype;
  g.epilogue = gc.epilogue;
  switch (gc.form) {
  case BatchForm::Single:
    g.alpha = 1.0f, g.beta = 0.0f;
    break;
  case BatchForm::Strided:
    g.alpha = 0.75f, g.beta = -0.5f;
    break;
  case BatchForm::BroadcastA:
    g.alpha = -1.25f, g.beta = 1.0f;
    break;
  case BatchForm::BroadcastB:
    g.alpha = 0.5f, g.beta = 0.25f;
    break;
  }

  const int64_t abSize = elementSize(gc.abDtype),
                dSize = elementSize(gc.dDtype);
  auto layout = [&](int64_t rows, int64_t cols, int64_t extraLd, bool broadcast,
                    int64_t &ld, int64_t &stride) {
    ld = cols + extraLd;
    stride = broadcast ? 0 : (rows - 1) * ld + cols + gap;
    return spanOf(rows, cols, ld, stride, batch);
  };
  const int64_t aRows = gc.transA ? k : m, aCols = gc.transA ? m : k;
  const int64_t bRows = gc.transB ? n : k, bCols = gc.transB ? k : n;
  h.a.resize(abSize * layout(aRows, aCols, pad,
                             gc.form == BatchForm::BroadcastA, g.lda,
                             g.stride_a));
  h.b.resize(abSize * layout(bRows, bCols, pad + 1,
                             gc.form == BatchForm::BroadcastB, g.ldb,
                             g.stride_b));
  h.d.resize(dSize * layout(m, n, single ? 0 : 1, false, g.ldd, g.stride_d));
  if (g.beta != 0.0f)
    h.c.resize(dSize * layout(m, n, pad, gc.form == BatchForm::BroadcastA,
                              g.ldc, g.stride_c));
  if (spec.aux != Aux::None) {
    bool broadcast = spec.aux == Aux::Read && gc.form == BatchForm::BroadcastB;
    h.aux.resize(dSize * layout(m, n, single ? 0 : 2, broadcast, g.ld_aux,
                                g.stride_aux));
  }
  if (spec.bias != Bias::None) {
    int64_t len = spec.bias == Bias::GradOfA ? m : n;
    bool broadcast =
        single || (!biasIsOutput(spec.bias) && gc.form != BatchForm::Strided);
    g.stride_bias = broadcast ? 0 : len + 2;
    h.bias.resize(dSize * spanOf(1, len, len, g.stride_bias, batch));
  }

  std::mt19937 rng(seed);
  fillRandom(gc.abDtype, h.a, rng, 1.0f);
  fillRandom(gc.abDtype, h.b, rng, 1.0f);
  fillRandom(gc.dDtype, h.c, rng, 1.0f);
  fillSentinel(gc.dDtype, h.d);
  if (spec.aux == Aux::Read)
    fillRandom(gc.dDtype, h.aux, rng, 3.0f);
  else
    fillSentinel(gc.dDtype, h.aux);
  if (biasIsOutput(spec.bias))
    fillSentinel(gc.dDtype, h.bias);
  else
    fillRandom(gc.dDtype, h.bias, rng, 1.0f);
  h.pointDescAtBuffers();
  return h;
}

void HostGemm::pointDescAtBuffers() {
  auto ptr = [](std::vector<uint8_t> &v) -> void * {
    return v.empty() ? nullptr : v.data();
  };
  desc.a = ptr(a);
  desc.b = ptr(b);
  desc.c = ptr(c);
  desc.d = ptr(d);
  desc.bias = ptr(bias);
  desc.aux = ptr(aux);
}

Expected amp::test::expectedF64(const HostGemm &in, double tanhRelError,
                                bool productRoundedToD) {
  const amp_gemm_desc_t &g = in.desc;
  const Spec spec = specOf(g.epilogue);
  const amp_dtype_t ab = g.a_dtype, dt = g.d_dtype;
  const int64_t m = g.m, n = g.n, k = g.k, batch = g.batch_count;
  auto opA = [&](int64_t b, int64_t i, int64_t kk) {
    return loadElement(ab, in.a,
                       b * g.stride_a +
                           (g.trans_a ? kk * g.lda + i : i * g.lda + kk));
  };
  auto opB = [&](int64_t b, int64_t kk, int64_t j) {
    return loadElement(ab, in.b,
                       b * g.stride_b +
                           (g.trans_b ? j * g.ldb + kk : kk * g.ldb + j));
  };
  auto halfUlp = [&](double x) { return 0.5 * ulpOf(dt, std::fabs(x)); };

  Expected e;
  e.d.resize(batch * m * n);
  e.dTol.resize(batch * m * n);
  if (spec.aux == Aux::Write) {
    e.aux.resize(batch * m * n);
    e.auxTol.resize(batch * m * n);
  }
  int64_t biasLen = spec.bias == Bias::GradOfA ? m : n;
  if (biasIsOutput(spec.bias)) {
    e.bias.assign(batch * biasLen, 0.0);
    e.biasTol.assign(batch * biasLen, 0.0);
    e.biasRoundingSlack.assign(batch * biasLen, 0.0);
  }

  for (int64_t b = 0; b < batch; ++b) {
    std::vector<double> colAbs(n, 0.0); // sum_i |D64| for DRELU/DGELU_BGRAD
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0.0, sumAbs = 0.0;
        for (int64_t kk = 0; kk < k; ++kk) {
          double p = opA(b, i, kk) * opB(b, kk, j);
          sum += p;
          sumAbs += std::fabs(p);
        }
        double pre = g.alpha * sum;
        double scale = std::fabs(g.alpha) * sumAbs;
        if (g.beta != 0.0f) {
          double c =
              g.beta * loadElement(dt, in.c, b * g.stride_c + i * g.ldc + j);
          pre += c;
          scale += std::fabs(c);
        }
        // One ulp of D's type at the product's magnitude where it may be
        // rounded before the epilogue.
        const double productRounding =
            productRoundedToD && dt != AMP_DTYPE_F32 &&
                    (spec.bias == Bias::Input || spec.act != Act::None)
                ? ulpOf(dt, std::fabs(pre) + 1.01 * (k + 4) * kU * scale)
                : 0.0;
        if (spec.bias == Bias::Input) {
          double bias = loadElement(dt, in.bias, b * g.stride_bias + j);
          pre += bias;
          scale += std::fabs(bias);
        }
        const double ePre = 1.01 * (k + 4) * kU * scale + productRounding;
        double aux =
            spec.aux == Aux::Read
                ? loadElement(dt, in.aux, b * g.stride_aux + i * g.ld_aux + j)
                : 0.0;
        double value = pre, eAct = ePre;
        switch (spec.act) {
        case Act::None:
          break;
        case Act::Relu:
          value = pre < 0.0 ? 0.0 : pre;
          break;
        case Act::Gelu:
          value = geluF64(pre);
          // An error d in tanh moves 0.5 x (1 + t) by 0.5 |x| d.
          eAct = 1.13 * ePre + (16 * kU + 0.5 * tanhRelError) * std::fabs(pre);
          break;
        case Act::DRelu:
          value = aux > 0.0 ? pre : 0.0;
          break;
        case Act::DGelu: {
          // gelu' = 0.5 (1 + t) + 0.5 x (1 - t^2) k0 (1 + 3 k1 x^2): an
          // error d in t moves it by d (0.5 + |x| k0 (1 + 3 k1 x^2)).
          double growth = 1.0 + std::fabs(aux) * (1.0 + 0.14 * aux * aux);
          double eGrad = (8 * kU + tanhRelError) * growth;
          value = pre * geluGradF64(aux);
          eAct = 1.13 * ePre + std::fabs(pre) * eGrad;
          break;
        }
        }
        int64_t o = (b * m + i) * n + j;
        e.d[o] = value;
        e.dTol[o] = eAct + halfUlp(std::fabs(value) + eAct);
        if (spec.aux == Aux::Write) {
          e.aux[o] = pre;
          e.auxTol[o] = ePre + halfUlp(std::fabs(pre) + ePre);
        }
        if (spec.bias == Bias::GradOfD) {
          e.bias[b * n + j] += value;
          e.biasTol[b * n + j] += eAct;
          e.biasRoundingSlack[b * n + j] += halfUlp(value);
          colAbs[j] += std::fabs(value);
        }
      }
    }
    // The reductions: their own fp32 sum, then one rounding.
    for (int64_t x = 0; x < (biasIsOutput(spec.bias) ? biasLen : 0); ++x) {
      double &value = e.bias[b * biasLen + x];
      double &tol = e.biasTol[b * biasLen + x];
      double terms = spec.bias == Bias::GradOfD ? m : k, absSum = 0.0;
      if (spec.bias == Bias::GradOfD) {
        absSum = colAbs[x];
      } else {
        for (int64_t kk = 0; kk < k; ++kk) {
          double v = spec.bias == Bias::GradOfA ? opA(b, x, kk) : opB(b, kk, x);
          value += v;
          absSum += std::fabs(v);
        }
      }
      tol += 1.01 * terms * kU * absSum;
      tol += halfUlp(std::fabs(value) + tol);
    }
  }
  return e;
}

Expected amp::test::expectedFromOutputs(const HostGemm &ref,
                                        const Expected &bounds) {
  const amp_gemm_desc_t &g = ref.desc;
  const Spec spec = specOf(g.epilogue);
  Expected e = bounds;
  for (int64_t b = 0; b < g.batch_count; ++b)
    for (int64_t i = 0; i < g.m; ++i)
      for (int64_t j = 0; j < g.n; ++j) {
        int64_t o = (b * g.m + i) * g.n + j;
        e.d[o] = loadElement(g.d_dtype, ref.d, b * g.stride_d + i * g.ldd + j);
        if (spec.aux == Aux::Write)
          e.aux[o] = loadElement(g.d_dtype, ref.aux,
                                 b * g.stride_aux + i * g.ld_aux + j);
      }
  int64_t len = spec.bias == Bias::GradOfA ? g.m : g.n;
  for (int64_t b = 0; b < g.batch_count && !e.bias.empty(); ++b)
    for (int64_t x = 0; x < len; ++x)
      e.bias[b * len + x] =
          loadElement(g.d_dtype, ref.bias, b * g.stride_bias + x);
  return e;
}

::testing::AssertionResult amp::test::checkOutputs(const HostGemm &before,
                                                   const HostGemm &out,
                                                   const Expected &expected,
                                                   double tolScale,
                                                   bool biasRoundingSlack) {
  const amp_gemm_desc_t &g = out.desc;
  const Spec spec = specOf(g.epilogue);
  const amp_dtype_t dt = g.d_dtype;
  std::ostringstream errors;
  int64_t failures = 0;
  auto report = [&](const char *what, int64_t b, int64_t i, int64_t j,
                    double actual, double want, double tol) {
    if (failures++ < 6)
      errors << "\n  " << what << "[batch " << b << "][" << i << "][" << j
             << "] = " << actual << ", expected " << want << " +- " << tol
             << " (off by " << std::fabs(actual - want) << ")";
  };
  auto close = [](double actual, double want, double tol) {
    return std::fabs(actual - want) <= tol; // false for NaN
  };

  // Which elements of each output buffer the GEMM may write.
  std::vector<char> dWritten(out.d.size() / elementSize(dt), 0);
  std::vector<char> auxWritten(out.aux.size() / elementSize(dt), 0);
  std::vector<char> biasWritten(out.bias.size() / elementSize(dt), 0);
  for (int64_t b = 0; b < g.batch_count; ++b) {
    for (int64_t i = 0; i < g.m; ++i) {
      for (int64_t j = 0; j < g.n; ++j) {
        int64_t o = (b * g.m + i) * g.n + j;
        int64_t di = b * g.stride_d + i * g.ldd + j;
        dWritten[di] = 1;
        double v = loadElement(dt, out.d, di);
        if (!close(v, expected.d[o], tolScale * expected.dTol[o]))
          report("D", b, i, j, v, expected.d[o], tolScale * expected.dTol[o]);
        if (spec.aux == Aux::Write) {
          int64_t ai = b * g.stride_aux + i * g.ld_aux + j;
          auxWritten[ai] = 1;
          double a = loadElement(dt, out.aux, ai);
          if (!close(a, expected.aux[o], tolScale * expected.auxTol[o]))
            report("aux", b, i, j, a, expected.aux[o],
                   tolScale * expected.auxTol[o]);
        }
      }
    }
    if (biasIsOutput(spec.bias)) {
      int64_t len = spec.bias == Bias::GradOfA ? g.m : g.n;
      for (int64_t x = 0; x < len; ++x) {
        int64_t bi = b * g.stride_bias + x;
        biasWritten[bi] = 1;
        double v = loadElement(dt, out.bias, bi);
        double tol = tolScale * expected.biasTol[b * len + x];
        if (biasRoundingSlack)
          tol += expected.biasRoundingSlack[b * len + x];
        if (!close(v, expected.bias[b * len + x], tol))
          report("bias", b, 0, x, v, expected.bias[b * len + x], tol);
      }
    }
  }

  // Everything else must be exactly as before: padding, gaps, inputs.
  auto unchanged = [&](const char *what, const std::vector<uint8_t> &was,
                       const std::vector<uint8_t> &now,
                       const std::vector<char> *written, int64_t size) {
    for (size_t e = 0; e < was.size() / size; ++e) {
      if (written && (*written)[e])
        continue;
      if (std::memcmp(&was[e * size], &now[e * size], size)) {
        if (failures++ < 6)
          errors << "\n  " << what << " element " << e
                 << " changed but is not an output of the GEMM";
      }
    }
  };
  const int64_t abSize = elementSize(g.a_dtype), dSize = elementSize(dt);
  unchanged("A", before.a, out.a, nullptr, abSize);
  unchanged("B", before.b, out.b, nullptr, abSize);
  unchanged("C", before.c, out.c, nullptr, dSize);
  unchanged("D", before.d, out.d, &dWritten, dSize);
  unchanged("aux", before.aux, out.aux,
            spec.aux == Aux::Write ? &auxWritten : nullptr, dSize);
  unchanged("bias", before.bias, out.bias,
            biasIsOutput(spec.bias) ? &biasWritten : nullptr, dSize);

  if (failures == 0)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << failures << " mismatches in " << caseName(out.gemmCase)
         << errors.str();
}

amp_gemm_desc_t amp::test::f32Desc(int64_t m, int64_t n, int64_t k) {
  amp_gemm_desc_t g;
  amp_gemm_desc_init(&g);
  g.a_dtype = g.b_dtype = g.d_dtype = AMP_DTYPE_F32;
  g.m = m;
  g.n = n;
  g.k = k;
  g.lda = k;
  g.ldb = g.ldc = g.ldd = g.ld_aux = n;
  return g;
}
