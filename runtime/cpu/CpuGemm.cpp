//===- CpuGemm.cpp - amp_gemm on oneDNN matmul ----------------------------===//
//
// The GEMM ABI of libamp_runtime_cpu. Each request is a oneDNN matmul over
// the caller's buffers: transposes, leading dimensions and batch strides
// are memory-descriptor strides (no copies), and a broadcast operand (batch
// stride 0) is a batch dimension of 1. Two ways to finish:
//
//   fused    NONE, BIAS, RELU(_BIAS), GELU(_BIAS), BGRADA, BGRADB with
//            alpha = 1 and either beta = 0 or C = D: the matmul writes D
//            itself, with the bias, the sum (beta C) and the activation as
//            oneDNN post-ops; BGRADA/BGRADB's sums of op(A) or op(B) are a
//            separate pass over the operand. For an f16 D (which oneDNN
//            2.6 cannot write) and beta = 0 the matmul writes an f32
//            accumulator with the same post-ops, rounded into D by rows.
//   unfused  every other request: the matmul writes an f32 accumulator,
//            then one pass applies alpha, beta C, the bias, the activation
//            and aux of GemmEpilogue.h and rounds into D, and the bias
//            gradients sum in ascending order as the reference does.
//
// oneDNN 2.6 has no f16 matmul on the CPU, so f16 operands are widened in
// blocks (Convert.h) and multiplied in f32, which is exact for the products
// and keeps the f32 accumulation the ABI asks for. bf16 runs natively (AMX
// or AVX512-BF16 where the CPU has them). Plans are cached by everything
// their descriptors bake in; when oneDNN offers only its naive reference
// implementation for a batched layout, the plan runs batch by batch.
//
// Deterministic mode (AMP_DETERMINISTIC=1) runs every oneDNN primitive on
// one thread, since how a primitive splits its sums over threads would
// change its results. To keep the cores busy anyway, a request with enough
// rows is cut into blocks of kDeterministicRows rows of D, a cut that
// depends on its shape alone; the blocks run in parallel, each one request
// on one thread, so the result is the same at any thread count. Each
// primitive gets its scratchpad from the executing thread (scratchpad mode
// user), so that one primitive may run on several threads at once.
//
//===----------------------------------------------------------------------===//

#include "amp_runtime/float16.h"
#include "amp_runtime/gemm.h"
#include "cpu/CpuContext.h"
#include "reference/Convert.h"
#include "reference/GemmCommon.h"
#include "reference/GemmEpilogue.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <type_traits>
#include <unordered_map>

using namespace amp::runtime;
using namespace amp::runtime::cpu;
using namespace amp::runtime::kernels;
using dnnl::memory;

namespace {

std::atomic<uint64_t> callCount{0}, planHits{0}, planMisses{0}, unfusedCalls{0};
std::atomic<int> forceUnfused{0};

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

/// How a request is finished (see the file comment).
enum class Finish {
  Fused,      ///< oneDNN writes D with the post-ops
  FusedToF32, ///< oneDNN writes an f32 accumulator with the post-ops; amp
              ///< rounds it into D (f16 D: oneDNN 2.6 cannot write f16)
  Unfused,    ///< oneDNN writes an f32 accumulator; amp's epilogue finishes
};

Finish finishOf(const amp_gemm_desc_t &g) {
  const EpilogueInfo epi = kEpilogueInfo[g.epilogue];
  const bool postOps = !forceUnfused.load(std::memory_order_relaxed) &&
                       epi.aux == AuxUse::None &&
                       epi.bias != BiasUse::GradOfD && g.alpha == 1.0f;
  if (!postOps)
    return Finish::Unfused;
  // f16 operands are widened to f32: oneDNN can then write an f32 D only.
  if (g.a_dtype != AMP_DTYPE_F16 || g.d_dtype == AMP_DTYPE_F32) {
    const bool cIsD = g.c == g.d && g.ldc == g.ldd && g.stride_c == g.stride_d;
    return g.beta == 0.0f || cIsD ? Finish::Fused : Finish::Unfused;
  }
  // The sum post-op would read the accumulator, not C.
  return g.beta == 0.0f ? Finish::FusedToF32 : Finish::Unfused;
}

/// An operand as oneDNN sees it: [batch or 1, rows, cols] over the stored
/// matrix, the transpose in the strides.
memory::desc operandDesc(memory::data_type type, int64_t batches, int64_t rows,
                         int64_t cols, int64_t ld, int64_t stride, bool trans) {
  const int64_t batchStride = batches == 1 ? rows * cols : stride;
  return trans
             ? memory::desc({batches, rows, cols}, type, {batchStride, 1, ld})
             : memory::desc({batches, rows, cols}, type, {batchStride, ld, 1});
}

/// How one cached request shape runs.
struct GemmPlan {
  dnnl::matmul matmul;
  Finish finish = Finish::Unfused;
  bool perBatch = false; // one execution per batch, pointers advanced
  memory::desc a, b, bias, d, scratchpad;
};

/// The request's layout of A and B after widening (dense, op() applied by
/// the strides as stored) or as given.
struct Operands {
  const void *a, *b;
  int64_t lda, ldb, strideA, strideB;
  amp_dtype_t dtype;
};

/// Widens a strided matrix (rows x cols, leading dimension ld) of `dtype`
/// into a dense row-major f32 one, for `batches` batches `stride` apart.
void widenMatrix(amp_dtype_t dtype, const void *src, int64_t rows, int64_t cols,
                 int64_t ld, int64_t batches, int64_t stride, float *dst) {
  const int64_t size = amp_dtype_size(dtype);
  const char *base = static_cast<const char *>(src);
#pragma omp parallel for collapse(2)                                           \
    schedule(static) if (batches * rows * cols > 65536)
  for (int64_t b = 0; b < batches; ++b)
    for (int64_t r = 0; r < rows; ++r)
      widenToF32(dtype, base + (b * stride + r * ld) * size,
                 dst + (b * rows + r) * cols, cols);
}

Operands widenIfNeeded(const amp_gemm_desc_t &g) {
  Operands ops{g.a, g.b, g.lda, g.ldb, g.stride_a, g.stride_b, g.a_dtype};
  if (g.a_dtype != AMP_DTYPE_F16)
    return ops;
  // Stored shapes: A is M x K (K x M if trans_a), B is K x N (N x K).
  const int64_t aRows = g.trans_a ? g.k : g.m, aCols = g.trans_a ? g.m : g.k;
  const int64_t bRows = g.trans_b ? g.n : g.k, bCols = g.trans_b ? g.k : g.n;
  const int64_t aBatches = g.stride_a == 0 ? 1 : g.batch_count;
  const int64_t bBatches = g.stride_b == 0 ? 1 : g.batch_count;
  float *a = scratch(Scratch::A, aBatches * aRows * aCols);
  float *b = scratch(Scratch::B, bBatches * bRows * bCols);
  widenMatrix(AMP_DTYPE_F16, g.a, aRows, aCols, g.lda, aBatches, g.stride_a, a);
  widenMatrix(AMP_DTYPE_F16, g.b, bRows, bCols, g.ldb, bBatches, g.stride_b, b);
  return {a,
          b,
          aCols,
          bCols,
          g.stride_a == 0 ? 0 : aRows * aCols,
          g.stride_b == 0 ? 0 : bRows * bCols,
          AMP_DTYPE_F32};
}

GemmPlan makePlan(const amp_gemm_desc_t &g, const Operands &ops,
                  Finish finish) {
  OneDnnThreads threads;
  GemmPlan plan;
  plan.finish = finish;
  const bool postOps = finish != Finish::Unfused;
  // D and the bias as oneDNN sees them: the caller's, or f32 (the
  // accumulator, and a bias widened densely, one row per batch).
  const bool callersD = finish == Finish::Fused;
  const memory::data_type dType =
      callersD ? dnnlType(g.d_dtype) : memory::data_type::f32;
  const memory::data_type abType = dnnlType(ops.dtype);
  const EpilogueInfo epi = kEpilogueInfo[g.epilogue];

  dnnl::primitive_attr attr;
  dnnl::post_ops postOpList;
  if (postOps) {
    if (g.beta != 0.0f)
      postOpList.append_sum(g.beta);
    if (epi.act == Activation::Relu)
      postOpList.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f,
                                0.0f);
    if (epi.act == Activation::Gelu)
      postOpList.append_eltwise(1.0f, dnnl::algorithm::eltwise_gelu_tanh, 0.0f,
                                0.0f);
  }
  attr.set_post_ops(postOpList);
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);

  // Batched first; batch by batch when oneDNN would fall back to its naive
  // implementation for the batched layout (or has none).
  for (bool perBatch : {false, true}) {
    if (perBatch && g.batch_count == 1)
      break;
    const int64_t batches = perBatch ? 1 : g.batch_count;
    auto batchesOf = [&](int64_t stride) { return stride == 0 ? 1 : batches; };
    plan.perBatch = perBatch;
    plan.a = operandDesc(abType, batchesOf(ops.strideA), g.m, g.k, ops.lda,
                         ops.strideA, g.trans_a);
    plan.b = operandDesc(abType, batchesOf(ops.strideB), g.k, g.n, ops.ldb,
                         ops.strideB, g.trans_b);
    plan.d =
        callersD
            ? operandDesc(dType, batches, g.m, g.n, g.ldd, g.stride_d, false)
            : memory::desc({batches, g.m, g.n}, dType, memory::format_tag::abc);
    const int64_t biasStride =
        callersD && g.stride_bias != 0 ? g.stride_bias : g.n;
    plan.bias = postOps && epi.bias == BiasUse::Input
                    ? memory::desc({batchesOf(g.stride_bias), 1, g.n}, dType,
                                   {biasStride, g.n, 1})
                    : memory::desc();
    try {
      dnnl::matmul::primitive_desc pd(
          dnnl::matmul::desc(plan.a, plan.b, plan.bias, plan.d), attr,
          engine());
      if (isNaiveImplementation(pd.impl_info_str()) && !perBatch &&
          g.batch_count > 1)
        continue;
      plan.matmul = dnnl::matmul(pd);
      plan.scratchpad = pd.scratchpad_desc();
      return plan;
    } catch (const dnnl::error &) {
      if (perBatch || g.batch_count == 1)
        throw;
    }
  }
  throw dnnl::error(dnnl_unimplemented, "no matmul for the request");
}

/// Runs the plan's matmul into `d` (D when fused, else the accumulator)
/// with `bias` (batch stride in elements) when the plan adds one.
void runMatmul(const GemmPlan &plan, const amp_gemm_desc_t &g,
               const Operands &ops, void *d, int64_t strideD, const void *bias,
               int64_t strideBias) {
  const int64_t abSize = amp_dtype_size(ops.dtype);
  const int64_t dSize =
      plan.finish == Finish::Fused ? amp_dtype_size(g.d_dtype) : 4;
  const int64_t biasSize = dSize;
  const int64_t runs = plan.perBatch ? g.batch_count : 1;
  OneDnnThreads threads;
  const size_t scratchpadBytes = plan.scratchpad.get_size();
  void *scratchpad =
      scratchpadBytes ? scratch(Scratch::OneDnn, (scratchpadBytes + 3) / 4)
                      : nullptr;
  for (int64_t r = 0; r < runs; ++r) {
    auto at = [&](const void *p, int64_t stride, int64_t size) {
      return const_cast<char *>(static_cast<const char *>(p)) +
             r * stride * size;
    };
    std::unordered_map<int, memory> args{
        {DNNL_ARG_SRC,
         memory(plan.a, engine(), at(ops.a, ops.strideA, abSize))},
        {DNNL_ARG_WEIGHTS,
         memory(plan.b, engine(), at(ops.b, ops.strideB, abSize))},
        {DNNL_ARG_DST, memory(plan.d, engine(), at(d, strideD, dSize))}};
    if (!plan.bias.is_zero())
      args.emplace(DNNL_ARG_BIAS,
                   memory(plan.bias, engine(), at(bias, strideBias, biasSize)));
    if (scratchpad)
      args.emplace(DNNL_ARG_SCRATCHPAD,
                   memory(plan.scratchpad, engine(), scratchpad));
    plan.matmul.execute(stream(), args);
  }
  stream().wait();
}

template <typename T> constexpr amp_dtype_t dtypeOf() {
  return std::is_same_v<T, Half>       ? AMP_DTYPE_F16
         : std::is_same_v<T, BFloat16> ? AMP_DTYPE_BF16
                                       : AMP_DTYPE_F32;
}

/// n elements of `src` as f32: `src` itself, or widened into `buffer` (a
/// run at a time, F16C for f16), so that the loops reading them vectorize.
template <typename T>
const float *asF32(const T *src, int64_t n, float *buffer) {
  if constexpr (std::is_same_v<T, float>) {
    return src;
  } else {
    widenToF32(dtypeOf<T>(), src, buffer, n);
    return buffer;
  }
}

/// out[r] = the sum over l of x(r, l) in ascending l, for r < count and
/// l < length, with x(r, l) at x[r * ld + l] (`rowMajor`) or x[l * ld + r].
/// Rows run in parallel; a column-major walk keeps a block of sums and reads
/// whole lines, so both walks touch memory in order.
template <typename X, typename D>
void sumLines(const X *x, int64_t count, int64_t length, int64_t ld,
              bool rowMajor, D *out) {
  const bool work = count * length > 16384;
  if (rowMajor) {
#pragma omp parallel for schedule(static) if (work)
    for (int64_t r = 0; r < count; ++r) {
      const float *row =
          asF32(x + r * ld, length, scratch(Scratch::RowC, length));
      float sum = 0.0f;
      for (int64_t l = 0; l < length; ++l)
        sum += row[l];
      out[r] = fromF32<D>(sum);
    }
    return;
  }
  constexpr int64_t kBlock = 256;
#pragma omp parallel for schedule(static) if (work)
  for (int64_t r0 = 0; r0 < count; r0 += kBlock) {
    const int64_t rows = std::min(kBlock, count - r0);
    float sums[kBlock] = {}, wide[kBlock];
    for (int64_t l = 0; l < length; ++l) {
      const float *run = asF32(x + l * ld + r0, rows, wide);
#pragma omp simd
      for (int64_t r = 0; r < rows; ++r)
        sums[r] += run[r];
    }
    for (int64_t r = 0; r < rows; ++r)
      out[r0 + r] = fromF32<D>(sums[r]);
  }
}

/// The bias gradients of BGRADA and BGRADB: sums of op(A) or op(B) over k
/// (rows of the stored matrix, or columns when it is transposed).
template <typename AB, typename D> void operandSums(const amp_gemm_desc_t &g) {
  const BiasUse use = kEpilogueInfo[g.epilogue].bias;
  if (use != BiasUse::GradOfA && use != BiasUse::GradOfB)
    return;
  for (int64_t b = 0; b < g.batch_count; ++b) {
    D *bias = static_cast<D *>(g.bias) + b * g.stride_bias;
    if (use == BiasUse::GradOfA)
      sumLines(static_cast<const AB *>(g.a) + b * g.stride_a, g.m, g.k, g.lda,
               /*rowMajor=*/!g.trans_a, bias);
    else
      sumLines(static_cast<const AB *>(g.b) + b * g.stride_b, g.n, g.k, g.ldb,
               /*rowMajor=*/g.trans_b != 0, bias);
  }
}

/// The unfused epilogue E over the f32 accumulator `acc` ([batch, M, N]):
/// the reference's arithmetic, element by element, in parallel over rows,
/// each row one vectorized loop with E's choices made at compile time;
/// bias-gradient sums in ascending order (sumLines), so the result does not
/// depend on the thread count.
template <amp_gemm_epilogue_t E, typename AB, typename D>
void finish(const amp_gemm_desc_t &g, float *acc) {
  constexpr EpilogueInfo epi = kEpilogueInfo[E];
  // f16 and bf16 results (and aux) are rounded a row at a time
  // (narrowFromF32: F16C or AVX-512 where the CPU has them); converting
  // element by element inside the loop kept it from vectorizing.
  constexpr bool kNarrowRows =
      std::is_same_v<D, Half> || std::is_same_v<D, BFloat16>;
  const int64_t m = g.m, n = g.n;
  const float alpha = g.alpha, beta = g.beta;
  const bool readsC = beta != 0.0f;
  const bool work = m * n > 16384;
  for (int64_t b = 0; b < g.batch_count; ++b) {
    float *t = acc + b * m * n;
    const D *c = g.c ? static_cast<const D *>(g.c) + b * g.stride_c : nullptr;
    D *d = static_cast<D *>(g.d) + b * g.stride_d;
    D *aux = g.aux ? static_cast<D *>(g.aux) + b * g.stride_aux : nullptr;
    D *bias = g.bias ? static_cast<D *>(g.bias) + b * g.stride_bias : nullptr;
    // The inputs of the loop as f32, widened a run at a time.
    const float *biasF32 = nullptr;
    if constexpr (epi.bias == BiasUse::Input)
      biasF32 = asF32(bias, n, scratch(Scratch::Bias, n));
#pragma omp parallel for schedule(static) if (work)
    for (int64_t i = 0; i < m; ++i) {
      float *tRow = t + i * n;
      const float *cRow =
          readsC ? asF32(c + i * g.ldc, n, scratch(Scratch::RowC, n)) : nullptr;
      D *dRow = d + i * g.ldd;
      D *auxRow = aux ? aux + i * g.ld_aux : nullptr;
      // aux is read (widened) before D is written: DRELU may run in place
      // on its aux.
      const float *auxF32 = nullptr;
      if constexpr (epi.aux == AuxUse::Read)
        auxF32 = asF32(auxRow, n, scratch(Scratch::RowAux, n));
      float *auxOut = nullptr; // aux's f32 row, narrowed after the loop
      if constexpr (epi.aux == AuxUse::Write && kNarrowRows)
        auxOut = scratch(Scratch::RowAux, n);
#pragma omp simd
      for (int64_t j = 0; j < n; ++j) {
        float v = alpha * tRow[j];
        if (readsC)
          v += beta * cRow[j];
        if constexpr (epi.bias == BiasUse::Input)
          v += biasF32[j];
        float auxIn = 0.0f;
        if constexpr (epi.aux == AuxUse::Read)
          auxIn = auxF32[j];
        if constexpr (epi.aux == AuxUse::Write && kNarrowRows)
          auxOut[j] = v;
        else if constexpr (epi.aux == AuxUse::Write)
          auxRow[j] = fromF32<D>(v);
        const float out = applyActivation(epi.act, v, auxIn);
        if constexpr (epi.bias == BiasUse::GradOfD || kNarrowRows)
          tRow[j] = out;
        if constexpr (!kNarrowRows)
          dRow[j] = fromF32<D>(out);
      }
      if constexpr (kNarrowRows) {
        narrowFromF32(g.d_dtype, tRow, dRow, n);
        if constexpr (epi.aux == AuxUse::Write)
          narrowFromF32(g.d_dtype, auxOut, auxRow, n);
      }
    }
    // DRELU_BGRAD / DGELU_BGRAD: column sums of D's f32 values.
    if constexpr (epi.bias == BiasUse::GradOfD)
      sumLines(t, n, m, n, /*rowMajor=*/false, bias);
  }
  operandSums<AB, D>(g);
}

/// finish<E> for the request's epilogue.
template <typename AB, typename D, int E = 0>
void finishEpilogue(const amp_gemm_desc_t &g, float *acc) {
  if constexpr (E < AMP_GEMM_NUM_EPILOGUES) {
    if (g.epilogue == E)
      return finish<static_cast<amp_gemm_epilogue_t>(E), AB, D>(g, acc);
    return finishEpilogue<AB, D, E + 1>(g, acc);
  }
}

/// Calls f(AB{}, D{}) with the storage types of the request's dtypes.
template <typename F> void dispatchGemmTypes(const amp_gemm_desc_t &g, F &&f) {
  // validateGemm admits exactly these five combinations.
  switch (g.a_dtype) {
  case AMP_DTYPE_F16:
    return g.d_dtype == AMP_DTYPE_F16 ? f(Half{}, Half{}) : f(Half{}, float{});
  case AMP_DTYPE_BF16:
    return g.d_dtype == AMP_DTYPE_BF16 ? f(BFloat16{}, BFloat16{})
                                       : f(BFloat16{}, float{});
  default:
    return f(float{}, float{});
  }
}

PlanCache<GemmPlan> &planCache() {
  static PlanCache<GemmPlan> cache;
  return cache;
}

/// D's rows from the f32 accumulator ([batch, M, N]), rounded to f16 a row
/// at a time.
void narrowRows(const amp_gemm_desc_t &g, const float *acc) {
  const int64_t rows = g.batch_count * g.m;
#pragma omp parallel for schedule(static) if (rows * g.n > 16384)
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t b = r / g.m, i = r % g.m;
    narrowFromF32(g.d_dtype, acc + r * g.n,
                  static_cast<char *>(g.d) +
                      (b * g.stride_d + i * g.ldd) * amp_dtype_size(g.d_dtype),
                  g.n);
  }
}

amp_status_t runGemm(const amp_gemm_desc_t &g) {
  const Finish finish = finishOf(g);
  Operands ops = widenIfNeeded(g);
  // Everything makePlan bakes into the descriptors and post-ops.
  PlanCache<GemmPlan>::Key key = {static_cast<int64_t>(finish),
                                  g.a_dtype,
                                  g.d_dtype,
                                  g.epilogue,
                                  g.m,
                                  g.n,
                                  g.k,
                                  g.batch_count,
                                  ops.lda,
                                  ops.ldb,
                                  ops.strideA,
                                  ops.strideB,
                                  g.trans_a,
                                  g.trans_b,
                                  bitsOf(g.beta),
                                  g.stride_bias == 0};
  if (finish == Finish::Fused)
    key.insert(key.end(), {g.ldd, g.stride_d, g.stride_bias});
  bool hit = false;
  std::shared_ptr<const GemmPlan> plan =
      planCache().get(key, hit, [&] { return makePlan(g, ops, finish); });
  (hit ? planHits : planMisses).fetch_add(1, std::memory_order_relaxed);
  auto sums = [&] {
    dispatchGemmTypes(
        g, [&](auto ab, auto d) { operandSums<decltype(ab), decltype(d)>(g); });
  };
  float *acc = finish == Finish::Fused
                   ? nullptr
                   : scratch(Scratch::Accumulator, g.batch_count * g.m * g.n);
  switch (finish) {
  case Finish::Fused:
    runMatmul(*plan, g, ops, g.d, g.stride_d, g.bias, g.stride_bias);
    sums();
    break;
  case Finish::FusedToF32: {
    // The bias widened to f32, one dense row per batch.
    float *bias = nullptr;
    const int64_t biasRows = g.stride_bias == 0 ? 1 : g.batch_count;
    if (kEpilogueInfo[g.epilogue].bias == BiasUse::Input) {
      bias = scratch(Scratch::Bias, biasRows * g.n);
      for (int64_t b = 0; b < biasRows; ++b)
        widenToF32(g.d_dtype,
                   static_cast<const char *>(g.bias) +
                       b * g.stride_bias * amp_dtype_size(g.d_dtype),
                   bias + b * g.n, g.n);
    }
    runMatmul(*plan, g, ops, acc, g.m * g.n, bias,
              g.stride_bias == 0 ? 0 : g.n);
    narrowRows(g, acc);
    sums();
    break;
  }
  case Finish::Unfused:
    unfusedCalls.fetch_add(1, std::memory_order_relaxed);
    runMatmul(*plan, g, ops, acc, g.m * g.n, nullptr, 0);
    dispatchGemmTypes(g, [&](auto ab, auto d) {
      finishEpilogue<decltype(ab), decltype(d)>(g, acc);
    });
    break;
  }
  return AMP_STATUS_OK;
}

/// Rows of D per block in deterministic mode (the file comment).
constexpr int64_t kDeterministicRows = 128;

/// Whether `g` runs as row blocks: deterministic mode, at least two blocks,
/// and no bias gradient summed over D's rows (DRELU_BGRAD, DGELU_BGRAD) or
/// over op(B) (BGRADB), which a block does not see whole.
bool splitsRows(const amp_gemm_desc_t &g) {
  const BiasUse use = kEpilogueInfo[g.epilogue].bias;
  return deterministic() && g.m >= 2 * kDeterministicRows &&
         use != BiasUse::GradOfD && use != BiasUse::GradOfB;
}

/// Rows [row, row + rows) of `g`: op(A)'s and C's, D's and aux's rows, and
/// BGRADA's bias entries (one per row); op(B) and an input bias whole.
amp_gemm_desc_t rowBlock(const amp_gemm_desc_t &g, int64_t row, int64_t rows) {
  auto advance = [](const void *p, int64_t elements, amp_dtype_t dtype) {
    return p ? static_cast<const char *>(p) + elements * amp_dtype_size(dtype)
             : nullptr;
  };
  amp_gemm_desc_t part = g;
  part.m = rows;
  part.a = advance(g.a, g.trans_a ? row : row * g.lda, g.a_dtype);
  part.c = advance(g.c, row * g.ldc, g.d_dtype);
  part.d = const_cast<char *>(advance(g.d, row * g.ldd, g.d_dtype));
  part.aux = const_cast<char *>(advance(g.aux, row * g.ld_aux, g.d_dtype));
  if (kEpilogueInfo[g.epilogue].bias == BiasUse::GradOfA)
    part.bias = const_cast<char *>(advance(g.bias, row, g.d_dtype));
  return part;
}

/// runGemm over the row blocks of `g`, in parallel; the first failure of a
/// block is rethrown.
amp_status_t runGemmRowBlocks(const amp_gemm_desc_t &g) {
  const int64_t blocks = (g.m + kDeterministicRows - 1) / kDeterministicRows;
  std::exception_ptr failure;
  amp_status_t status = AMP_STATUS_OK;
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < blocks; ++i) {
    const int64_t row = i * kDeterministicRows;
    try {
      amp_status_t s =
          runGemm(rowBlock(g, row, std::min(kDeterministicRows, g.m - row)));
      if (s != AMP_STATUS_OK) {
#pragma omp critical(amp_gemm_blocks)
        status = s;
      }
    } catch (...) {
#pragma omp critical(amp_gemm_blocks)
      if (!failure)
        failure = std::current_exception();
    }
  }
  if (failure)
    std::rethrow_exception(failure);
  return status;
}

} // namespace

extern "C" {

amp_status_t amp_gemm(const amp_gemm_desc_t *desc, void * /*stream*/) {
  clearGemmError();
  if (amp_status_t status = validateGemm(desc))
    return status;
  if (!threadSettingError().empty())
    return gemmError(AMP_STATUS_INVALID_ARGUMENT, "%s",
                     threadSettingError().c_str());
  amp_status_t status;
  try {
    status = splitsRows(*desc) ? runGemmRowBlocks(*desc) : runGemm(*desc);
  } catch (const dnnl::error &e) {
    return gemmError(AMP_STATUS_BACKEND_ERROR, "oneDNN matmul failed: %s",
                     e.what());
  } catch (const std::bad_alloc &) {
    return gemmError(AMP_STATUS_BACKEND_ERROR,
                     "out of memory for the GEMM's scratch buffers");
  }
  if (status == AMP_STATUS_OK)
    callCount.fetch_add(1, std::memory_order_relaxed);
  return status;
}

const char *amp_gemm_last_error(void) { return lastGemmError(); }

const char *amp_gemm_backend_name(void) { return "cpu"; }

void amp_gemm_get_stats(amp_gemm_stats_t *stats) {
  if (!stats)
    return;
  stats->calls = callCount.load(std::memory_order_relaxed);
  stats->plan_hits = planHits.load(std::memory_order_relaxed);
  stats->plan_misses = planMisses.load(std::memory_order_relaxed);
  stats->unfused_calls = unfusedCalls.load(std::memory_order_relaxed);
}

void amp_gemm_reset_stats(void) {
  callCount.store(0);
  planHits.store(0);
  planMisses.store(0);
  unfusedCalls.store(0);
}

int amp_gemm_set_force_unfused(int force) {
  return forceUnfused.exchange(force != 0);
}

void amp_gemm_release_resources(void) { planCache().clear(); }

} // extern "C"
