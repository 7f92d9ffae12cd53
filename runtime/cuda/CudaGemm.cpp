//===- CudaGemm.cpp - The C ABI of libamp_runtime_cuda (cuBLASLt) ---------===//
//
// amp_gemm on the GPU. A row-major D = op(A) op(B) is the column-major
// D^T = op(B)^T op(A)^T, so cuBLASLt gets B as its A and A as its B, with
// m and n swapped and the default column order (CUBLASLT_ORDER_ROW would
// rule out the epilogues). The swap turns our bias over columns of D into
// cuBLASLt's bias over rows of D^T, and exchanges BGRADA and BGRADB.
//
// Each distinct request (shape, strides, leading dimensions, dtypes,
// transposes, epilogue, pointer alignments, the alpha/beta cases that
// change the route, device) gets a plan once: the descriptors and the
// algorithm cuBLASLt's heuristic picked. Later calls with the same key only
// set the bias/aux pointers and launch. A plan is either fused (cuBLASLt
// runs the epilogue) or unfused (a plain cuBLASLt GEMM, then the kernels of
// GemmEpilogueKernels.cu); the unfused route is taken when a guard below
// rules the fused form out or cuBLASLt answers NOT_SUPPORTED.
//
//===----------------------------------------------------------------------===//

#include "amp_runtime/gemm.h"
#include "cuda/CudaCommon.h"
#include "cuda/GemmEpilogueKernels.h"
#include "reference/GemmCommon.h"
#include "reference/GemmEpilogue.h"

#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

using namespace amp::runtime;
using namespace amp::runtime::cuda;

namespace {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

amp_status_t cublasFailure(const char *what, cublasStatus_t status) {
  return gemmError(
      AMP_STATUS_BACKEND_ERROR, "amp_gemm (cuda): %s failed: %s (%s)", what,
      cublasLtGetStatusName(status), cublasLtGetStatusString(status));
}

amp_status_t cudaFailure(const char *what, cudaError_t error) {
  return gemmError(AMP_STATUS_BACKEND_ERROR,
                   "amp_gemm (cuda): %s failed: %s (%s)", what,
                   cudaGetErrorName(error), cudaGetErrorString(error));
}

//===----------------------------------------------------------------------===//
// cuBLASLt objects
//===----------------------------------------------------------------------===//

struct DescDeleter {
  void operator()(cublasLtMatmulDescOpaque_t *d) const {
    cublasLtMatmulDescDestroy(d);
  }
};
struct LayoutDeleter {
  void operator()(cublasLtMatrixLayoutOpaque_t *l) const {
    cublasLtMatrixLayoutDestroy(l);
  }
};
struct PreferenceDeleter {
  void operator()(cublasLtMatmulPreferenceOpaque_t *p) const {
    cublasLtMatmulPreferenceDestroy(p);
  }
};
using DescPtr = std::unique_ptr<cublasLtMatmulDescOpaque_t, DescDeleter>;
using LayoutPtr = std::unique_ptr<cublasLtMatrixLayoutOpaque_t, LayoutDeleter>;
using PreferencePtr =
    std::unique_ptr<cublasLtMatmulPreferenceOpaque_t, PreferenceDeleter>;

cudaDataType_t cudaTypeOf(amp_dtype_t dtype) {
  switch (dtype) {
  case AMP_DTYPE_F16:
    return CUDA_R_16F;
  case AMP_DTYPE_BF16:
    return CUDA_R_16BF;
  default:
    return CUDA_R_32F;
  }
}

/// The cuBLASLt epilogue of each amp epilogue after the operand swap, and
/// whether cuBLASLt can run it with our semantics at all: its DRELU forms
/// read a bit mask, not the pre-activation our aux holds.
struct LtEpilogue {
  cublasLtEpilogue_t epilogue;
  bool fusable;
};
constexpr LtEpilogue kLtEpilogue[AMP_GEMM_NUM_EPILOGUES] = {
    /* NONE          */ {CUBLASLT_EPILOGUE_DEFAULT, true},
    /* BIAS          */ {CUBLASLT_EPILOGUE_BIAS, true},
    /* RELU          */ {CUBLASLT_EPILOGUE_RELU, true},
    /* RELU_BIAS     */ {CUBLASLT_EPILOGUE_RELU_BIAS, true},
    /* GELU          */ {CUBLASLT_EPILOGUE_GELU, true},
    /* GELU_BIAS     */ {CUBLASLT_EPILOGUE_GELU_BIAS, true},
    /* GELU_AUX      */ {CUBLASLT_EPILOGUE_GELU_AUX, true},
    /* GELU_AUX_BIAS */ {CUBLASLT_EPILOGUE_GELU_AUX_BIAS, true},
    /* DRELU         */ {CUBLASLT_EPILOGUE_DEFAULT, false},
    /* DRELU_BGRAD   */ {CUBLASLT_EPILOGUE_DEFAULT, false},
    /* DGELU         */ {CUBLASLT_EPILOGUE_DGELU, true},
    /* DGELU_BGRAD   */ {CUBLASLT_EPILOGUE_DGELU_BGRAD, true},
    /* BGRADA        */ {CUBLASLT_EPILOGUE_BGRADB, true}, // A is Lt's B
    /* BGRADB        */ {CUBLASLT_EPILOGUE_BGRADA, true}, // B is Lt's A
};

/// The dimensions (bias length included) for which PyTorch hands bias
/// epilogues to cuBLASLt: above 1 and below 65535 * 32. Outside that range
/// some cuBLASLt versions refused or miscomputed fused epilogues.
constexpr int64_t kMaxFusedDim = 65535 * 32;

/// Whether a request may try the fused cuBLASLt epilogue at all. The
/// guards are cuBLASLt's documented limits (aux leading dimension and batch
/// stride multiples of 8), the dimension and bias-length range above,
/// 16-byte epilogue pointers, and the cases where
/// cuBLASLt's semantics do not pin ours down: whether beta C is added before
/// the DGELU product, whether BGRADA/B are scaled by alpha, and how the bias
/// gradients of a batch are laid out. Those take the unfused route, whose
/// semantics are ours by construction.
bool mayFuse(const amp_gemm_desc_t &g, bool forceUnfused) {
  const EpilogueInfo &epi = kEpilogueInfo[g.epilogue];
  if (forceUnfused || !kLtEpilogue[g.epilogue].fusable)
    return false;
  if (g.epilogue != AMP_GEMM_EPILOGUE_NONE)
    for (int64_t dim : {g.m, g.n, g.k})
      if (dim <= 1 || dim >= kMaxFusedDim)
        return false;
  if (epi.aux != AuxUse::None && (g.ld_aux % 8 || g.stride_aux % 8 ||
                                  reinterpret_cast<uintptr_t>(g.aux) % 16))
    return false;
  if (epi.bias != BiasUse::None && reinterpret_cast<uintptr_t>(g.bias) % 16)
    return false;
  if (epi.aux == AuxUse::Read && g.beta != 0.0f)
    return false;
  if ((epi.bias == BiasUse::GradOfA || epi.bias == BiasUse::GradOfB) &&
      g.alpha != 1.0f)
    return false;
  return !(isBiasGrad(epi.bias) && g.batch_count > 1);
}

/// The largest power of two (up to 256) dividing the address: what the
/// heuristic may assume about a pointer, and part of the plan key.
int64_t alignmentOf(const void *p) {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  return a == 0 ? 256 : std::min<int64_t>(int64_t(a & (~a + 1)), 256);
}

//===----------------------------------------------------------------------===//
// Plans
//===----------------------------------------------------------------------===//

using PlanKey = std::array<int64_t, 31>;

struct PlanKeyHash {
  size_t operator()(const PlanKey &key) const {
    uint64_t h = 0xcbf29ce484222325ull; // FNV-1a over the words
    for (int64_t v : key)
      h = (h ^ uint64_t(v)) * 0x100000001b3ull;
    return size_t(h);
  }
};

PlanKey planKeyOf(const amp_gemm_desc_t &g, int device, bool forceUnfused) {
  const bool readsC = g.beta != 0.0f;
  // With beta == 0 cuBLASLt gets D as C: C's layout does not matter.
  const void *c = readsC ? g.c : g.d;
  return {device,
          g.m,
          g.n,
          g.k,
          g.batch_count,
          g.lda,
          g.ldb,
          readsC ? g.ldc : g.ldd,
          g.ldd,
          g.ld_aux,
          g.stride_a,
          g.stride_b,
          readsC ? g.stride_c : g.stride_d,
          g.stride_d,
          g.stride_aux,
          g.stride_bias,
          g.trans_a,
          g.trans_b,
          g.a_dtype,
          g.d_dtype,
          g.epilogue,
          alignmentOf(g.a),
          alignmentOf(g.b),
          alignmentOf(c),
          alignmentOf(g.d),
          alignmentOf(g.bias),
          alignmentOf(g.aux),
          readsC,
          g.alpha == 1.0f,
          forceUnfused,
          c == g.d};
}

/// One configured cublasLtMatmul: descriptors plus the chosen algorithm.
struct LtMatmul {
  DescPtr desc;
  LayoutPtr a, b, c, d;
  cublasLtMatmulAlgo_t algo;
};

struct Plan {
  bool fused = false;
  /// Unfused elementwise epilogues: the GEMM writes fp32 to a scratch
  /// buffer (dense, ld n) that the epilogue kernel reads.
  bool viaScratch = false;
  LtMatmul gemm;
};

struct DeviceState {
  cublasLtHandle_t handle = nullptr;
  size_t workspaceSize = 0;
};

/// All process-wide state, behind one mutex: a call holds it while it looks
/// up its plan and enqueues its work (microseconds), so that the cached
/// descriptors, whose pointer attributes each call sets, are never shared
/// by two calls at once.
struct Backend {
  std::mutex mutex;
  std::map<int, DeviceState> devices;
  std::map<std::pair<int, cudaStream_t>, void *> workspaces;
  std::unordered_map<PlanKey, std::unique_ptr<Plan>, PlanKeyHash> plans;
  bool forceUnfused = false;
  std::atomic<uint64_t> calls{0}, planHits{0}, planMisses{0}, unfused{0};
};

/// Never destroyed: at process exit the CUDA driver may already be gone,
/// and freeing device memory then would fail or crash.
Backend &backend() {
  static Backend *b = new Backend;
  return *b;
}

amp_status_t deviceState(Backend &be, int device, DeviceState *&state) {
  auto it = be.devices.find(device);
  if (it != be.devices.end()) {
    state = &it->second;
    return AMP_STATUS_OK;
  }
  int major = 0;
  if (cudaError_t e = cudaDeviceGetAttribute(
          &major, cudaDevAttrComputeCapabilityMajor, device))
    return cudaFailure("cudaDeviceGetAttribute", e);
  DeviceState s;
  if (cublasStatus_t st = cublasLtCreate(&s.handle))
    return cublasFailure("cublasLtCreate", st);
  // NVIDIA's recommendation: 32 MiB of workspace on Hopper and later, where
  // the fastest kernels want it; 4 MiB before.
  s.workspaceSize = size_t(major >= 9 ? 32 : 4) << 20;
  state = &be.devices.emplace(device, s).first->second;
  return AMP_STATUS_OK;
}

amp_status_t workspaceFor(Backend &be, int device, const DeviceState &state,
                          cudaStream_t stream, void *&workspace) {
  auto key = std::make_pair(device, stream);
  auto it = be.workspaces.find(key);
  if (it != be.workspaces.end()) {
    workspace = it->second;
    return AMP_STATUS_OK;
  }
  if (cudaError_t e = cudaMalloc(&workspace, state.workspaceSize))
    return cudaFailure("cudaMalloc of the cuBLASLt workspace", e);
  be.workspaces.emplace(key, workspace);
  return AMP_STATUS_OK;
}

template <typename T>
cublasStatus_t setDescAttr(cublasLtMatmulDesc_t desc,
                           cublasLtMatmulDescAttributes_t attr, const T &v) {
  return cublasLtMatmulDescSetAttribute(desc, attr, &v, sizeof(v));
}

cublasStatus_t makeLayout(LayoutPtr &out, amp_dtype_t dtype, int64_t rows,
                          int64_t cols, int64_t ld, int64_t batch,
                          int64_t stride) {
  cublasLtMatrixLayout_t layout = nullptr;
  cublasStatus_t st = cublasLtMatrixLayoutCreate(
      &layout, cudaTypeOf(dtype), uint64_t(rows), uint64_t(cols), ld);
  if (st)
    return st;
  out.reset(layout);
  if (batch == 1)
    return CUBLAS_STATUS_SUCCESS;
  int32_t count = int32_t(batch);
  if ((st = cublasLtMatrixLayoutSetAttribute(
           layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof(count))))
    return st;
  return cublasLtMatrixLayoutSetAttribute(
      layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
      sizeof(stride));
}

/// Configures `mm` for `g` with cuBLASLt epilogue `epilogue` and runs the
/// heuristic. With `scratchOutput` the GEMM writes dense fp32 (C = D, beta
/// applied later by the epilogue kernel). Returns the cuBLASLt status;
/// NOT_SUPPORTED when the heuristic finds no algorithm.
cublasStatus_t configure(LtMatmul &mm, const amp_gemm_desc_t &g,
                         cublasLtEpilogue_t epilogue, bool scratchOutput,
                         cublasLtHandle_t handle, size_t workspaceSize) {
  const int64_t m = g.m, n = g.n, k = g.k, batch = g.batch_count;
  const bool readsC = g.beta != 0.0f && !scratchOutput;
  cublasStatus_t st;
  cublasLtMatmulDesc_t desc = nullptr;
  if ((st = cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F)))
    return st;
  mm.desc.reset(desc);
  const int32_t transA = g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N; // Lt A = B
  const int32_t transB = g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N; // Lt B = A
  const uint32_t ltEpilogue = epilogue;
  if ((st = setDescAttr(desc, CUBLASLT_MATMUL_DESC_TRANSA, transA)) ||
      (st = setDescAttr(desc, CUBLASLT_MATMUL_DESC_TRANSB, transB)) ||
      (st = setDescAttr(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, ltEpilogue)))
    return st;
  if (epilogue != CUBLASLT_EPILOGUE_DEFAULT) {
    const EpilogueInfo &epi = kEpilogueInfo[g.epilogue];
    // The real pointers: the heuristic reads their alignment.
    if (epi.bias != BiasUse::None &&
        ((st = setDescAttr(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, g.bias)) ||
         (st = setDescAttr(desc, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE,
                           g.stride_bias))))
      return st;
    if (epi.aux != AuxUse::None &&
        ((st = setDescAttr(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER,
                           g.aux)) ||
         (st = setDescAttr(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD,
                           g.ld_aux)) ||
         (st = setDescAttr(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE,
                           g.stride_aux))))
      return st;
  }

  // Column-major views: B (K x N, or N x K stored) is Lt's A, A is Lt's B.
  const amp_dtype_t ab = g.a_dtype;
  const amp_dtype_t out = scratchOutput ? AMP_DTYPE_F32 : g.d_dtype;
  const int64_t ldOut = scratchOutput ? n : g.ldd;
  const int64_t strideOut = scratchOutput ? m * n : g.stride_d;
  if ((st = makeLayout(mm.a, ab, g.trans_b ? k : n, g.trans_b ? n : k, g.ldb,
                       batch, g.stride_b)) ||
      (st = makeLayout(mm.b, ab, g.trans_a ? m : k, g.trans_a ? k : m, g.lda,
                       batch, g.stride_a)) ||
      (st = makeLayout(mm.c, out, n, m, readsC ? g.ldc : ldOut, batch,
                       readsC ? g.stride_c : strideOut)) ||
      (st = makeLayout(mm.d, out, n, m, ldOut, batch, strideOut)))
    return st;

  cublasLtMatmulPreference_t prefRaw = nullptr;
  if ((st = cublasLtMatmulPreferenceCreate(&prefRaw)))
    return st;
  PreferencePtr pref(prefRaw);
  const uint64_t maxWorkspace = workspaceSize;
  // The scratch output comes from cudaMallocAsync per call, so the plan
  // assumes only the 16 bytes any allocation of it has.
  const uint32_t align[4] = {
      uint32_t(alignmentOf(g.b)), uint32_t(alignmentOf(g.a)),
      uint32_t(scratchOutput ? 16 : alignmentOf(readsC ? g.c : g.d)),
      uint32_t(scratchOutput ? 16 : alignmentOf(g.d))};
  const cublasLtMatmulPreferenceAttributes_t alignAttr[4] = {
      CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
      CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
      CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
      CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES};
  if ((st = cublasLtMatmulPreferenceSetAttribute(
           prefRaw, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &maxWorkspace,
           sizeof(maxWorkspace))))
    return st;
  for (int i = 0; i < 4; ++i)
    if ((st = cublasLtMatmulPreferenceSetAttribute(
             prefRaw, alignAttr[i], &align[i], sizeof(align[i]))))
      return st;
  // Split-K partial sums must add up in f32. cuBLASLt's INPLACE and
  // OUTPUT_TYPE reductions add them in D's type: with an f16/bf16 D each
  // partial sum is rounded to 16 bits first (on an H100 and an H200, a
  // fused GELU_AUX_BIAS f16 GEMM at 256x192x320 was up to 27 f16 ulps off,
  // 2^-8 at 0.5). So for a 16-bit D only the compute-type reduction is
  // allowed (algorithms without split-K always are).
  if (out != AMP_DTYPE_F32) {
    const uint32_t reduction = CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE;
    if ((st = cublasLtMatmulPreferenceSetAttribute(
             prefRaw, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, &reduction,
             sizeof(reduction))))
      return st;
  }

  cublasLtMatmulHeuristicResult_t result = {};
  int found = 0;
  st = cublasLtMatmulAlgoGetHeuristic(handle, desc, mm.a.get(), mm.b.get(),
                                      mm.c.get(), mm.d.get(), prefRaw, 1,
                                      &result, &found);
  if (st)
    return st;
  if (found == 0)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  mm.algo = result.algo;
  return CUBLAS_STATUS_SUCCESS;
}

/// True for the epilogues whose unfused form needs the fp32 GEMM result
/// (everything but NONE and the input reductions BGRADA/B).
bool needsScratch(const amp_gemm_desc_t &g) {
  const EpilogueInfo &epi = kEpilogueInfo[g.epilogue];
  return epi.act != Activation::None || epi.aux != AuxUse::None ||
         epi.bias == BiasUse::Input || epi.bias == BiasUse::GradOfD;
}

amp_status_t configureUnfused(Plan &plan, const amp_gemm_desc_t &g,
                              cublasLtHandle_t handle, size_t workspaceSize) {
  plan.fused = false;
  plan.viaScratch = needsScratch(g);
  plan.gemm = LtMatmul{};
  cublasStatus_t st = configure(plan.gemm, g, CUBLASLT_EPILOGUE_DEFAULT,
                                plan.viaScratch, handle, workspaceSize);
  if (st == CUBLAS_STATUS_NOT_SUPPORTED)
    return gemmError(AMP_STATUS_NOT_SUPPORTED,
                     "amp_gemm (cuda): cuBLASLt has no algorithm for this "
                     "GEMM (%s): check the alignment of the pointers and "
                     "leading dimensions",
                     cublasLtGetStatusName(st));
  if (st)
    return cublasFailure("planning the unfused GEMM", st);
  return AMP_STATUS_OK;
}

amp_status_t buildPlan(Plan &plan, const amp_gemm_desc_t &g, bool forceUnfused,
                       cublasLtHandle_t handle, size_t workspaceSize) {
  if (mayFuse(g, forceUnfused)) {
    cublasStatus_t st =
        configure(plan.gemm, g, kLtEpilogue[g.epilogue].epilogue,
                  /*scratchOutput=*/false, handle, workspaceSize);
    if (st == CUBLAS_STATUS_SUCCESS) {
      plan.fused = true;
      return AMP_STATUS_OK;
    }
    // INVALID_VALUE too: some cuBLASLt versions report an epilogue they
    // cannot do for these operands that way rather than NOT_SUPPORTED.
    if (st != CUBLAS_STATUS_NOT_SUPPORTED && st != CUBLAS_STATUS_INVALID_VALUE)
      return cublasFailure("planning the fused GEMM", st);
  }
  return configureUnfused(plan, g, handle, workspaceSize);
}

cublasStatus_t runMatmul(const LtMatmul &mm, cublasLtHandle_t handle,
                         const amp_gemm_desc_t &g, const void *c, void *d,
                         float beta, void *workspace, size_t workspaceSize,
                         cudaStream_t stream) {
  // Lt's A is our B and Lt's B is our A.
  return cublasLtMatmul(handle, mm.desc.get(), &g.alpha, g.b, mm.a.get(), g.a,
                        mm.b.get(), &beta, c, mm.c.get(), d, mm.d.get(),
                        &mm.algo, workspace, workspaceSize, stream);
}

/// Launches the reduction behind a bias gradient of the unfused path.
amp_status_t reduceBias(const amp_gemm_desc_t &g, const float *scratch,
                        cudaStream_t stream) {
  const EpilogueInfo &epi = kEpilogueInfo[g.epilogue];
  ReduceArgs r;
  r.out = g.bias;
  r.outDtype = g.d_dtype;
  r.outBatchStride = g.stride_bias;
  r.batch = g.batch_count;
  if (epi.bias == BiasUse::GradOfD) {
    // Column sums of the dense fp32 result.
    r.in = scratch;
    r.inDtype = AMP_DTYPE_F32;
    r.count = g.n;
    r.length = g.m;
    r.strideOut = 1;
    r.strideRed = g.n;
    r.inBatchStride = g.m * g.n;
  } else if (epi.bias == BiasUse::GradOfA) {
    // bias[i] = sum_k op(A)[i][k]; op(A)[i][k] is A[i][k] or A[k][i].
    r.in = g.a;
    r.inDtype = g.a_dtype;
    r.count = g.m;
    r.length = g.k;
    r.strideOut = g.trans_a ? 1 : g.lda;
    r.strideRed = g.trans_a ? g.lda : 1;
    r.inBatchStride = g.stride_a;
  } else {
    // bias[j] = sum_k op(B)[k][j]; op(B)[k][j] is B[k][j] or B[j][k].
    r.in = g.b;
    r.inDtype = g.b_dtype;
    r.count = g.n;
    r.length = g.k;
    r.strideOut = g.trans_b ? g.ldb : 1;
    r.strideRed = g.trans_b ? 1 : g.ldb;
    r.inBatchStride = g.stride_b;
  }
  if (cudaError_t e = launchReduce(r, stream))
    return cudaFailure("the bias-gradient reduction kernel", e);
  return AMP_STATUS_OK;
}

amp_status_t runUnfused(const Plan &plan, cublasLtHandle_t handle,
                        const amp_gemm_desc_t &g, void *workspace,
                        size_t workspaceSize, cudaStream_t stream) {
  const EpilogueInfo &epi = kEpilogueInfo[g.epilogue];
  const bool readsC = g.beta != 0.0f;
  if (!plan.viaScratch) {
    if (cublasStatus_t st =
            runMatmul(plan.gemm, handle, g, readsC ? g.c : g.d, g.d, g.beta,
                      workspace, workspaceSize, stream))
      return cublasFailure("cublasLtMatmul", st);
    return isBiasGrad(epi.bias) ? reduceBias(g, nullptr, stream)
                                : AMP_STATUS_OK;
  }

  // The stream-ordered allocator keeps this cheap and safe: the buffer is
  // reused only after the kernels queued before its free have run.
  float *scratch = nullptr;
  const size_t bytes = size_t(g.batch_count * g.m * g.n) * sizeof(float);
  if (cudaError_t e =
          cudaMallocAsync(reinterpret_cast<void **>(&scratch), bytes, stream))
    return cudaFailure("cudaMallocAsync of the unfused GEMM's fp32 result", e);
  amp_status_t status = AMP_STATUS_OK;
  if (cublasStatus_t st = runMatmul(plan.gemm, handle, g, scratch, scratch,
                                    0.0f, workspace, workspaceSize, stream)) {
    status = cublasFailure("cublasLtMatmul", st);
  } else {
    EpilogueArgs e;
    e.acc = scratch;
    e.c = readsC ? g.c : nullptr;
    e.ldc = g.ldc;
    e.strideC = g.stride_c;
    e.beta = g.beta;
    e.biasIn = epi.bias == BiasUse::Input ? g.bias : nullptr;
    e.strideBias = g.stride_bias;
    e.aux = g.aux;
    e.ldAux = g.ld_aux;
    e.strideAux = g.stride_aux;
    e.d = g.d;
    e.ldd = g.ldd;
    e.strideD = g.stride_d;
    e.m = g.m;
    e.n = g.n;
    e.batch = g.batch_count;
    e.dtype = g.d_dtype;
    e.info = epi;
    if (cudaError_t err = launchEpilogue(e, stream))
      status = cudaFailure("the epilogue kernel", err);
    else if (epi.bias == BiasUse::GradOfD)
      status = reduceBias(g, scratch, stream);
  }
  if (cudaError_t e = cudaFreeAsync(scratch, stream))
    if (status == AMP_STATUS_OK)
      status = cudaFailure("cudaFreeAsync", e);
  return status;
}

amp_status_t runGemm(const amp_gemm_desc_t &g, cudaStream_t stream) {
  Backend &be = backend();
  std::lock_guard<std::mutex> lock(be.mutex);

  // cuBLASLt takes the batch count as int32_t.
  if (g.batch_count > INT32_MAX)
    return gemmError(AMP_STATUS_NOT_SUPPORTED,
                     "amp_gemm (cuda): batch_count %lld exceeds cuBLASLt's "
                     "int32 limit",
                     (long long)g.batch_count);

  int device = 0;
  if (cudaError_t e = cudaGetDevice(&device))
    return cudaFailure("cudaGetDevice (is there a CUDA device?)", e);
  DeviceState *state = nullptr;
  void *workspace = nullptr;
  if (amp_status_t s = deviceState(be, device, state))
    return s;
  if (amp_status_t s = workspaceFor(be, device, *state, stream, workspace))
    return s;

  const PlanKey key = planKeyOf(g, device, be.forceUnfused);
  auto it = be.plans.find(key);
  if (it == be.plans.end()) {
    auto plan = std::make_unique<Plan>();
    if (amp_status_t s = buildPlan(*plan, g, be.forceUnfused, state->handle,
                                   state->workspaceSize))
      return s;
    it = be.plans.emplace(key, std::move(plan)).first;
    be.planMisses.fetch_add(1, std::memory_order_relaxed);
  } else {
    be.planHits.fetch_add(1, std::memory_order_relaxed);
  }
  Plan &plan = *it->second;

  if (plan.fused) {
    const EpilogueInfo &epi = kEpilogueInfo[g.epilogue];
    cublasLtMatmulDesc_t desc = plan.gemm.desc.get();
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (epi.bias != BiasUse::None)
      st = setDescAttr(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, g.bias);
    if (!st && epi.aux != AuxUse::None)
      st = setDescAttr(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, g.aux);
    if (st)
      return cublasFailure("cublasLtMatmulDescSetAttribute", st);
    const bool readsC = g.beta != 0.0f;
    st = runMatmul(plan.gemm, state->handle, g, readsC ? g.c : g.d, g.d, g.beta,
                   workspace, state->workspaceSize, stream);
    if (st == CUBLAS_STATUS_SUCCESS)
      return AMP_STATUS_OK;
    if (st != CUBLAS_STATUS_NOT_SUPPORTED)
      return cublasFailure("cublasLtMatmul", st);
    // The heuristic accepted what the launch refused: from now on this key
    // takes the unfused route.
    if (amp_status_t s =
            configureUnfused(plan, g, state->handle, state->workspaceSize))
      return s;
  }
  be.unfused.fetch_add(1, std::memory_order_relaxed);
  return runUnfused(plan, state->handle, g, workspace, state->workspaceSize,
                    stream);
}

} // namespace

extern "C" {

amp_status_t amp_gemm(const amp_gemm_desc_t *desc, void *stream) {
  clearGemmError();
  if (amp_status_t status = validateGemm(desc))
    return status;
  amp_status_t status = runGemm(*desc, toStream(stream));
  if (status == AMP_STATUS_OK)
    backend().calls.fetch_add(1, std::memory_order_relaxed);
  return status;
}

const char *amp_gemm_last_error(void) { return lastGemmError(); }

const char *amp_gemm_backend_name(void) { return "cuda"; }

void amp_gemm_get_stats(amp_gemm_stats_t *stats) {
  if (!stats)
    return;
  Backend &be = backend();
  stats->calls = be.calls.load(std::memory_order_relaxed);
  stats->plan_hits = be.planHits.load(std::memory_order_relaxed);
  stats->plan_misses = be.planMisses.load(std::memory_order_relaxed);
  stats->unfused_calls = be.unfused.load(std::memory_order_relaxed);
}

void amp_gemm_reset_stats(void) {
  Backend &be = backend();
  be.calls = be.planHits = be.planMisses = be.unfused = 0;
}

int amp_gemm_set_force_unfused(int force) {
  Backend &be = backend();
  std::lock_guard<std::mutex> lock(be.mutex);
  int previous = be.forceUnfused;
  be.forceUnfused = force != 0;
  return previous;
}

void amp_gemm_release_resources(void) {
  Backend &be = backend();
  std::lock_guard<std::mutex> lock(be.mutex);
  be.plans.clear();
  int current = 0;
  bool haveCurrent = cudaGetDevice(&current) == cudaSuccess;
  for (auto &[key, workspace] : be.workspaces) {
    // Work queued on the stream may still use the workspace.
    cudaSetDevice(key.first);
    cudaDeviceSynchronize();
    cudaFree(workspace);
  }
  be.workspaces.clear();
  for (auto &[device, state] : be.devices)
    cublasLtDestroy(state.handle);
  be.devices.clear();
  if (haveCurrent)
    cudaSetDevice(current);
}

} // extern "C"
