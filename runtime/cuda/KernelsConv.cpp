//===- KernelsConv.cpp - amp_conv2d and its gradients on cuDNN ------------===//
//
// The three convolution entry points run cuDNN's legacy convolution API
// (cudnnConvolutionForward / BackwardData / BackwardFilter) on NCHW tensors
// with an f32 compute type, one cudnnHandle per device bound to the call's
// stream. cuDNN is dlopen()ed on the first call (CudnnApi.h).
//
// What cuDNN cannot express is bridged with ConvPadKernels.cu:
//  - Asymmetric padding: cuDNN pads min(top, bottom) rows on both sides
//    (and min(left, right) columns); the excess is explicit zeros in a
//    padded copy of x (forward, filter gradient), and the input gradient is
//    computed on that padded extent and cropped into dx.
//  - out_dtype f32 with f16/bf16 operands: cuDNN wants one dtype for every
//    tensor, so the operands are widened (exactly) into f32 copies. The
//    same route, with the f32 result rounded once into f16/bf16, serves the
//    f16/bf16 calls cuDNN has no 16-bit algorithm for, and every f16/bf16
//    input gradient (cuDNN's 16-bit backward data was measured more than
//    one rounding off, planFor).
//  - Pointers not 16-byte aligned (views into a buffer) go through aligned
//    copies.
// The copies come from amp_alloc and are freed once the work is queued.
//
// Each distinct call (kind, device, shapes, geometry, dtypes) gets a plan
// once: the descriptors and the algorithms allowed for it, in cuDNN's
// heuristic order (cudnnGet*Algorithm_v7, nothing is run), each with its
// math type and a workspace size cuDNN accepted. Allowed are the algorithms
// that form each output as a plain f32 sum of products (the GEMM and direct
// ones; FFT and Winograd transform the operands and round the transforms),
// deterministic ones only (a non-deterministic algorithm's atomic adds
// would make a step replayed from a CUDA graph differ from the uncaptured
// one). Math types: f32 operands use FMA math (no TF32);
// f16/bf16 ones may use tensor cores (f32 accumulation); widened f16/bf16
// operands may use TF32 tensor cores, whose operand rounding is exact on
// values with at most 11 significant bits. A call runs the first
// candidate cuDNN does not refuse (a refusal, such as a pointer the kernel
// cannot take, returns before anything is queued).
//
//===----------------------------------------------------------------------===//

#include "cuda/ConvPadKernels.h"
#include "cuda/CudaCommon.h"
#include "cuda/CudnnApi.h"
#include "reference/ConvChecks.h"

#include "amp_runtime/checked_size.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

/// The largest cuDNN workspace a plan may ask for.
constexpr size_t kMaxWorkspace = size_t(512) << 20;

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

amp_status_t cudnnFailure(Checker &check, const CudnnApi &api, const char *what,
                          cudnnStatus_t status) {
  return check.fail(AMP_STATUS_BACKEND_ERROR, "%s failed: %s", what,
                    api.cudnnGetErrorString(status));
}

/// A status after which another algorithm may still work.
bool isRefusal(cudnnStatus_t status) {
  return CUDNN_STATUS_CATEGORY(status) == CUDNN_STATUS_NOT_SUPPORTED ||
         status == CUDNN_STATUS_BAD_PARAM_MISALIGNED_POINTER;
}

//===----------------------------------------------------------------------===//
// Plans
//===----------------------------------------------------------------------===//

/// How cuDNN may multiply and add.
enum class MathPolicy {
  Fma,      // f32 operands: FMA units only (no TF32)
  Tensor16, // f16/bf16 operands and result: tensor cores, f32 accumulation
  Tf32Exact // f16/bf16 operands widened to f32: TF32 is exact on them
};

/// The split of the padding between cuDNN (ph, pw on both sides) and the
/// explicit zeros of a padded copy (et, el, eb, er).
struct PadSplit {
  int64_t ph, pw, et, el, eb, er;
};

PadSplit splitPadding(const ConvGeometry &g, bool allExplicit) {
  PadSplit s;
  s.ph = allExplicit ? 0 : std::min(g.pt, g.pb);
  s.pw = allExplicit ? 0 : std::min(g.pl, g.pr);
  s.et = g.pt - s.ph, s.eb = g.pb - s.ph;
  s.el = g.pl - s.pw, s.er = g.pr - s.pw;
  return s;
}

struct Candidate {
  int algo;
  cudnnMathType_t math;
  size_t workspace;
};

/// One configured convolution. x is the input (or input gradient) as cuDNN
/// sees it: [N, C, hs, ws] = the image with the explicit padding.
struct Plan {
  const CudnnApi *api = nullptr;
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  amp_dtype_t dtype = AMP_DTYPE_F32;    // of every tensor cuDNN sees
  amp_dtype_t outDtype = AMP_DTYPE_F32; // of the caller's result
  bool widens = false;                  // f16/bf16 operands -> f32 copies
  PadSplit pad{};
  int64_t hs = 0, ws = 0;
  std::vector<Candidate> candidates;
  mutable bool logged = false; // AMP_CUDNN_LOG: the algorithm, said once

  explicit Plan(const CudnnApi &api) : api(&api) {}
  Plan(const Plan &) = delete;
  Plan &operator=(const Plan &) = delete;
  ~Plan() {
    if (x)
      api->cudnnDestroyTensorDescriptor(x);
    if (y)
      api->cudnnDestroyTensorDescriptor(y);
    if (w)
      api->cudnnDestroyFilterDescriptor(w);
    if (conv)
      api->cudnnDestroyConvolutionDescriptor(conv);
  }
};

cudnnDataType_t cudnnTypeOf(amp_dtype_t dtype) {
  switch (dtype) {
  case AMP_DTYPE_F16:
    return CUDNN_DATA_HALF;
  case AMP_DTYPE_BF16:
    return CUDNN_DATA_BFLOAT16;
  default:
    return CUDNN_DATA_FLOAT;
  }
}

/// Whether `algo` forms each output as a plain sum of products.
bool isSumOfProducts(ConvKind kind, int algo) {
  switch (kind) {
  case ConvKind::Forward:
    return algo == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM ||
           algo == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM ||
           algo == CUDNN_CONVOLUTION_FWD_ALGO_GEMM ||
           algo == CUDNN_CONVOLUTION_FWD_ALGO_DIRECT;
  case ConvKind::GradInput:
    return algo == CUDNN_CONVOLUTION_BWD_DATA_ALGO_0 ||
           algo == CUDNN_CONVOLUTION_BWD_DATA_ALGO_1;
  case ConvKind::GradFilter:
    return algo == CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0 ||
           algo == CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1 ||
           algo == CUDNN_CONVOLUTION_BWD_FILTER_ALGO_3;
  }
  return false;
}

/// The deterministic algorithm that handles every configuration, tried
/// when the heuristic proposes nothing usable.
int fallbackAlgo(ConvKind kind) {
  switch (kind) {
  case ConvKind::Forward:
    return CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  case ConvKind::GradInput:
    return CUDNN_CONVOLUTION_BWD_DATA_ALGO_1;
  case ConvKind::GradFilter:
    return CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1;
  }
  return 0;
}

/// A proposal of the heuristic.
struct Proposal {
  int algo;
  cudnnMathType_t math;
  bool deterministic;
};

template <typename Perf>
void collect(const Perf *perf, int count, std::vector<Proposal> &out) {
  for (int i = 0; i < count; ++i)
    if (perf[i].status == CUDNN_STATUS_SUCCESS)
      out.push_back({int(perf[i].algo), perf[i].mathType,
                     perf[i].determinism == CUDNN_DETERMINISTIC});
}

#define AMP_CUDNN_TRY(fn, ...)                                                 \
  do {                                                                         \
    if (cudnnStatus_t status_ = api.fn(__VA_ARGS__)) {                         \
      what = #fn;                                                              \
      return status_;                                                          \
    }                                                                          \
  } while (0)

cudnnStatus_t heuristic(const CudnnApi &api, cudnnHandle_t handle,
                        ConvKind kind, const Plan &p,
                        std::vector<Proposal> &out, const char *&what) {
  int n = 0;
  switch (kind) {
  case ConvKind::Forward: {
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    AMP_CUDNN_TRY(cudnnGetConvolutionForwardAlgorithm_v7, handle, p.x, p.w,
                  p.conv, p.y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &n, perf);
    collect(perf, n, out);
    break;
  }
  case ConvKind::GradInput: {
    cudnnConvolutionBwdDataAlgoPerf_t
        perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
    AMP_CUDNN_TRY(cudnnGetConvolutionBackwardDataAlgorithm_v7, handle, p.w, p.y,
                  p.conv, p.x, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &n, perf);
    collect(perf, n, out);
    break;
  }
  case ConvKind::GradFilter: {
    cudnnConvolutionBwdFilterAlgoPerf_t
        perf[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
    AMP_CUDNN_TRY(cudnnGetConvolutionBackwardFilterAlgorithm_v7, handle, p.x,
                  p.y, p.conv, p.w, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &n,
                  perf);
    collect(perf, n, out);
    break;
  }
  }
  return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t workspaceSize(const CudnnApi &api, cudnnHandle_t handle,
                            ConvKind kind, const Plan &p, int algo,
                            size_t *bytes) {
  switch (kind) {
  case ConvKind::Forward:
    return api.cudnnGetConvolutionForwardWorkspaceSize(
        handle, p.x, p.w, p.conv, p.y, cudnnConvolutionFwdAlgo_t(algo), bytes);
  case ConvKind::GradInput:
    return api.cudnnGetConvolutionBackwardDataWorkspaceSize(
        handle, p.w, p.y, p.conv, p.x, cudnnConvolutionBwdDataAlgo_t(algo),
        bytes);
  case ConvKind::GradFilter:
    return api.cudnnGetConvolutionBackwardFilterWorkspaceSize(
        handle, p.x, p.y, p.conv, p.w, cudnnConvolutionBwdFilterAlgo_t(algo),
        bytes);
  }
  return CUDNN_STATUS_BAD_PARAM;
}

/// Creates the descriptors of `p` for the padding split `s` and fills its
/// candidates (possibly none). Returns the first failing cuDNN status and
/// names the function in `what`.
cudnnStatus_t configure(const CudnnApi &api, cudnnHandle_t handle,
                        ConvKind kind, const ConvGeometry &g, PadSplit s,
                        MathPolicy policy, Plan &p, const char *&what) {
  p.pad = s;
  p.hs = g.h + s.et + s.eb, p.ws = g.w + s.el + s.er;
  const cudnnDataType_t dt = cudnnTypeOf(p.dtype);
  AMP_CUDNN_TRY(cudnnCreateTensorDescriptor, &p.x);
  AMP_CUDNN_TRY(cudnnCreateTensorDescriptor, &p.y);
  AMP_CUDNN_TRY(cudnnCreateFilterDescriptor, &p.w);
  AMP_CUDNN_TRY(cudnnCreateConvolutionDescriptor, &p.conv);
  AMP_CUDNN_TRY(cudnnSetTensor4dDescriptor, p.x, CUDNN_TENSOR_NCHW, dt,
                int(g.n), int(g.c), int(p.hs), int(p.ws));
  AMP_CUDNN_TRY(cudnnSetTensor4dDescriptor, p.y, CUDNN_TENSOR_NCHW, dt,
                int(g.n), int(g.o), int(g.oh), int(g.ow));
  AMP_CUDNN_TRY(cudnnSetFilter4dDescriptor, p.w, dt, CUDNN_TENSOR_NCHW,
                int(g.o), int(g.cg), int(g.kh), int(g.kw));
  AMP_CUDNN_TRY(cudnnSetConvolution2dDescriptor, p.conv, int(s.ph), int(s.pw),
                int(g.sh), int(g.sw), int(g.dh), int(g.dw),
                CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT);
  AMP_CUDNN_TRY(cudnnSetConvolutionGroupCount, p.conv, int(g.groups));
  const cudnnMathType_t base =
      policy == MathPolicy::Fma ? CUDNN_FMA_MATH : CUDNN_TENSOR_OP_MATH;
  AMP_CUDNN_TRY(cudnnSetConvolutionMathType, p.conv, base);

  // cuDNN must see the output extent the checks computed.
  int dims[4] = {0, 0, 0, 0};
  AMP_CUDNN_TRY(cudnnGetConvolution2dForwardOutputDim, p.conv, p.x, p.w,
                &dims[0], &dims[1], &dims[2], &dims[3]);
  if (dims[0] != g.n || dims[1] != g.o || dims[2] != g.oh || dims[3] != g.ow) {
    what = "cudnnGetConvolution2dForwardOutputDim (another output extent)";
    return CUDNN_STATUS_NOT_SUPPORTED_SHAPE;
  }

  std::vector<Proposal> proposals;
  if (cudnnStatus_t st = heuristic(api, handle, kind, p, proposals, what))
    return st;
  std::vector<Proposal> tries;
  for (const Proposal &q : proposals) {
    // ALLOW_CONVERSION would round f32 operands to f16.
    if (!isSumOfProducts(kind, q.algo) || !q.deterministic ||
        (policy != MathPolicy::Fma &&
         q.math == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION))
      continue;
    tries.push_back({q.algo, policy == MathPolicy::Fma ? base : q.math, true});
  }
  tries.push_back({fallbackAlgo(kind), base, true});
  if (policy != MathPolicy::Fma)
    tries.push_back({fallbackAlgo(kind), CUDNN_DEFAULT_MATH, true});

  for (const Proposal &q : tries) {
    const bool seen = std::any_of(p.candidates.begin(), p.candidates.end(),
                                  [&](const Candidate &c) {
                                    return c.algo == q.algo && c.math == q.math;
                                  });
    if (seen)
      continue;
    AMP_CUDNN_TRY(cudnnSetConvolutionMathType, p.conv, q.math);
    size_t bytes = 0;
    if (workspaceSize(api, handle, kind, p, q.algo, &bytes) ==
            CUDNN_STATUS_SUCCESS &&
        bytes <= kMaxWorkspace)
      p.candidates.push_back({q.algo, q.math, bytes});
  }
  return CUDNN_STATUS_SUCCESS;
}

#undef AMP_CUDNN_TRY

/// Whether every tensor cuDNN sees has at most INT32_MAX elements (its
/// descriptors take int dims and strides).
bool fitsCudnn(const ConvGeometry &g, PadSplit s) {
  const int64_t hs = g.h + s.et + s.eb, ws = g.w + s.el + s.er;
  const int64_t x[4] = {g.n, g.c, hs, ws}, y[4] = {g.n, g.o, g.oh, g.ow},
                w[4] = {g.o, g.cg, g.kh, g.kw};
  for (const int64_t *dims : {x, y, w})
    if (!amp::checked::elementCount(dims, 4, INT32_MAX))
      return false;
  return true;
}

using PlanKey = std::array<int64_t, 22>;

PlanKey planKeyOf(ConvKind kind, int device, const ConvGeometry &g,
                  amp_dtype_t in, amp_dtype_t out) {
  return {int64_t(kind), device,      g.n,          g.c,  g.h,  g.w,
          g.o,           g.cg,        g.kh,         g.kw, g.sh, g.sw,
          g.dh,          g.dw,        g.pt,         g.pl, g.pb, g.pr,
          g.groups,      int64_t(in), int64_t(out), 0};
}

/// All process-wide state, behind one mutex that a call holds while it
/// plans and queues its work: the descriptors' math type and the handles'
/// stream are set per call.
struct Backend {
  std::mutex mutex;
  bool loadTried = false;
  std::string loadError;
  CudnnApi api;
  std::map<int, cudnnHandle_t> handles;
  std::map<PlanKey, std::unique_ptr<Plan>> plans;

  amp_status_t load(Checker &check) {
    if (!loadTried) {
      loadTried = true;
      loadError = loadCudnn(api);
    }
    if (!loadError.empty())
      return check.fail(AMP_STATUS_BACKEND_ERROR, "%s", loadError.c_str());
    return AMP_STATUS_OK;
  }

  amp_status_t handleFor(Checker &check, int device, cudnnHandle_t &out) {
    auto it = handles.find(device);
    if (it == handles.end()) {
      cudnnHandle_t handle = nullptr;
      if (cudnnStatus_t st = api.cudnnCreate(&handle))
        return cudnnFailure(check, api, "cudnnCreate", st);
      it = handles.emplace(device, handle).first;
    }
    out = it->second;
    return AMP_STATUS_OK;
  }

  amp_status_t planFor(Checker &check, cudnnHandle_t handle, ConvKind kind,
                       int device, const ConvGeometry &g, amp_dtype_t in,
                       amp_dtype_t out, Plan *&plan);
};

/// Never destroyed: at exit the driver may be gone already.
Backend &backend() {
  static Backend *b = new Backend;
  return *b;
}

amp_status_t Backend::planFor(Checker &check, cudnnHandle_t handle,
                              ConvKind kind, int device, const ConvGeometry &g,
                              amp_dtype_t in, amp_dtype_t out, Plan *&plan) {
  const PlanKey key = planKeyOf(kind, device, g, in, out);
  auto it = plans.find(key);
  if (it != plans.end()) {
    plan = it->second.get();
    return AMP_STATUS_OK;
  }
  if (!fitsCudnn(g, splitPadding(g, false)))
    return check.fail(AMP_STATUS_NOT_SUPPORTED,
                      "a tensor of this convolution has more than 2^31 - 1 "
                      "elements, cuDNN's limit");
  // Attempts in order: the operands' own dtype (f32 for an f32 result);
  // then, for an f16/bf16 result cuDNN has no algorithm for, f32 on widened
  // copies, rounded once into the result. Each first with the symmetric
  // part of the padding in cuDNN, then with all of it explicit. An f16/bf16
  // input gradient always takes the widened route: cuDNN's 16-bit
  // backward-data results were 2 f16 ulps off on an H100 and an H200
  // (amp-backend-compare's conv2d_grad_input), more than one rounding of
  // an f32 sum, under tensor-op and default math alike.
  const bool sixteenBitOk = kind != ConvKind::GradInput;
  const MathPolicy first = in == AMP_DTYPE_F32         ? MathPolicy::Fma
                           : out == in && sixteenBitOk ? MathPolicy::Tensor16
                                                       : MathPolicy::Tf32Exact;
  const bool canMoveAll = (std::min(g.pt, g.pb) || std::min(g.pl, g.pr)) &&
                          fitsCudnn(g, splitPadding(g, true));
  struct Attempt {
    MathPolicy policy;
    bool allExplicit;
  };
  std::vector<Attempt> attempts = {{first, false}};
  if (canMoveAll)
    attempts.push_back({first, true});
  if (first == MathPolicy::Tensor16) {
    attempts.push_back({MathPolicy::Tf32Exact, false});
    if (canMoveAll)
      attempts.push_back({MathPolicy::Tf32Exact, true});
  }
  cudnnStatus_t failed = CUDNN_STATUS_SUCCESS;
  const char *failedWhat = "";
  for (const Attempt &at : attempts) {
    auto p = std::make_unique<Plan>(api);
    p->dtype = at.policy == MathPolicy::Tensor16 ? in : AMP_DTYPE_F32;
    p->outDtype = out;
    p->widens = in != p->dtype;
    const char *what = "";
    const cudnnStatus_t st =
        configure(api, handle, kind, g, splitPadding(g, at.allExplicit),
                  at.policy, *p, what);
    if (st == CUDNN_STATUS_SUCCESS && !p->candidates.empty()) {
      plan = plans.emplace(key, std::move(p)).first->second.get();
      return AMP_STATUS_OK;
    }
    // Refusals and bad parameters may be this geometry's or dtype's; any
    // other failure ends the planning.
    if (st != CUDNN_STATUS_SUCCESS && failed == CUDNN_STATUS_SUCCESS)
      failed = st, failedWhat = what;
    if (st != CUDNN_STATUS_SUCCESS && !isRefusal(st) &&
        CUDNN_STATUS_CATEGORY(st) != CUDNN_STATUS_BAD_PARAM)
      return cudnnFailure(check, api, what, st);
  }
  if (failed != CUDNN_STATUS_SUCCESS)
    return cudnnFailure(check, api, failedWhat, failed);
  return check.fail(AMP_STATUS_BACKEND_ERROR,
                    "cuDNN has no algorithm for this convolution that sums "
                    "products in f32 within a %zu MiB workspace",
                    kMaxWorkspace >> 20);
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

/// Scratch buffers of one call, from amp_alloc, returned with amp_free once
/// the work that uses them is queued (the allocator is stream-ordered).
class Scratch {
public:
  Scratch(Checker &check, void *stream) : check(check), stream(stream) {}
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;

  amp_status_t alloc(int64_t bytes, const char *what, void *&out) {
    out = amp_alloc(bytes, stream);
    if (!out) {
      const std::string why = kernelLastError();
      return check.fail(AMP_STATUS_BACKEND_ERROR,
                        "allocating %s (%lld bytes) failed: %s", what,
                        (long long)bytes, why.c_str());
    }
    buffers.push_back(out);
    return AMP_STATUS_OK;
  }

  /// Frees every buffer and returns `status`, whose message amp_free (which
  /// clears the thread's last error) must not erase.
  amp_status_t finish(amp_status_t status) {
    const std::string message = status ? kernelLastError() : "";
    amp_status_t freed = AMP_STATUS_OK;
    std::string freeError;
    for (void *p : buffers)
      if (amp_status_t s = amp_free(p, stream); s && !freed) {
        freed = s;
        freeError = kernelLastError();
      }
    buffers.clear();
    if (status) {
      const size_t prefix = std::strlen(check.function()) + 2; // "fn: "
      return check.fail(status, "%s",
                        message.size() >= prefix ? message.c_str() + prefix
                                                 : message.c_str());
    }
    if (freed)
      return check.fail(AMP_STATUS_BACKEND_ERROR,
                        "freeing a scratch buffer failed: %s",
                        freeError.c_str());
    return AMP_STATUS_OK;
  }

private:
  Checker &check;
  void *stream;
  std::vector<void *> buffers;
};

/// The operands of one call, as cuDNN gets them.
struct Operands {
  const void *a, *b; // x, w / dy, w / dy, x
  void *out;         // y / dx (or its padded extent) / dw
};

cudnnStatus_t runAlgo(const CudnnApi &api, cudnnHandle_t handle, ConvKind kind,
                      const Plan &p, const Candidate &c, const Operands &ops,
                      void *work) {
  const float one = 1.0f, zero = 0.0f;
  switch (kind) {
  case ConvKind::Forward:
    return api.cudnnConvolutionForward(handle, &one, p.x, ops.a, p.w, ops.b,
                                       p.conv,
                                       cudnnConvolutionFwdAlgo_t(c.algo), work,
                                       c.workspace, &zero, p.y, ops.out);
  case ConvKind::GradInput:
    return api.cudnnConvolutionBackwardData(
        handle, &one, p.w, ops.b, p.y, ops.a, p.conv,
        cudnnConvolutionBwdDataAlgo_t(c.algo), work, c.workspace, &zero, p.x,
        ops.out);
  case ConvKind::GradFilter:
    return api.cudnnConvolutionBackwardFilter(
        handle, &one, p.x, ops.b, p.y, ops.a, p.conv,
        cudnnConvolutionBwdFilterAlgo_t(c.algo), work, c.workspace, &zero, p.w,
        ops.out);
  }
  return CUDNN_STATUS_BAD_PARAM;
}

const char *cudnnFunctionOf(ConvKind kind) {
  return kind == ConvKind::Forward     ? "cudnnConvolutionForward"
         : kind == ConvKind::GradInput ? "cudnnConvolutionBackwardData"
                                       : "cudnnConvolutionBackwardFilter";
}

/// With AMP_CUDNN_LOG set, says on stderr which algorithm and math type a
/// plan runs, the first time it runs: what a numeric difference from the
/// reference or a slow convolution is traced back to.
void logAlgorithm(ConvKind kind, const Plan &p, const Candidate &c) {
  static const bool enabled = std::getenv("AMP_CUDNN_LOG") != nullptr;
  if (!enabled || p.logged)
    return;
  p.logged = true;
  std::fprintf(stderr,
               "amp-cudnn: %s on %s (result %s%s): algo %d, math type %d, "
               "workspace %zu bytes\n",
               cudnnFunctionOf(kind), amp_dtype_name(p.dtype),
               amp_dtype_name(p.outDtype), p.widens ? ", operands widened" : "",
               c.algo, int(c.math), c.workspace);
}

/// Runs the plan's first candidate that cuDNN does not refuse.
amp_status_t convolve(Checker &check, const CudnnApi &api, cudnnHandle_t handle,
                      ConvKind kind, const Plan &p, const Operands &ops,
                      Scratch &scratch) {
  cudnnStatus_t last = CUDNN_STATUS_NOT_SUPPORTED;
  for (const Candidate &c : p.candidates) {
    if (cudnnStatus_t st = api.cudnnSetConvolutionMathType(p.conv, c.math))
      return cudnnFailure(check, api, "cudnnSetConvolutionMathType", st);
    void *work = nullptr;
    if (c.workspace)
      if (amp_status_t s =
              scratch.alloc(int64_t(c.workspace), "the cuDNN workspace", work))
        return s;
    last = runAlgo(api, handle, kind, p, c, ops, work);
    if (last == CUDNN_STATUS_SUCCESS) {
      logAlgorithm(kind, p, c);
      return AMP_STATUS_OK;
    }
    if (!isRefusal(last))
      break;
  }
  return cudnnFailure(check, api, cudnnFunctionOf(kind), last);
}

/// Queues a window copy (pad, crop, widen or realign) and checks its
/// launch.
amp_status_t windowCopy(Checker &check, const ConvWindowCopy &c,
                        cudaStream_t stream) {
  launchConvWindowCopy(c, stream);
  return launched(check, "the convolution's pad/crop kernel");
}

/// cuDNN gets 16-byte aligned tensors only: whether its kernels accept
/// less is not documented, and a misaligned access would poison the
/// context. Pointers into the middle of a buffer go through a copy.
bool aligned16(const void *p) {
  return reinterpret_cast<uintptr_t>(p) % 16 == 0;
}

/// A [planes, h, w] tensor: an operand, with the explicit zeros cuDNN gets
/// around it, or the result as cuDNN computes it, of which the caller's
/// tensor is the window at (top, left).
struct View {
  int64_t planes, h, w;
  int64_t top = 0, left = 0, bottom = 0, right = 0;
};

/// Operand `src` (of dtype `from`) as cuDNN gets it: widened to the plan's
/// dtype, padded and/or realigned into scratch memory, or `src` itself.
amp_status_t prepare(Checker &check, Scratch &scratch, const Plan &p,
                     const void *src, amp_dtype_t from, const View &v,
                     cudaStream_t stream, const void *&out) {
  out = src;
  const bool pads = v.top || v.left || v.bottom || v.right;
  if (!p.widens && !pads && aligned16(src))
    return AMP_STATUS_OK;
  ConvWindowCopy c{};
  c.src = src, c.srcDtype = from, c.dstDtype = p.dtype;
  c.planes = v.planes, c.srcH = v.h, c.srcW = v.w;
  c.dstH = v.h + v.top + v.bottom, c.dstW = v.w + v.left + v.right;
  c.offH = v.top, c.offW = v.left;
  void *dst = nullptr;
  if (amp_status_t s =
          scratch.alloc(v.planes * c.dstH * c.dstW * amp_dtype_size(p.dtype),
                        "a copy of an operand", dst))
    return s;
  c.dst = dst;
  out = dst;
  return windowCopy(check, c, stream);
}

amp_status_t enqueue(Checker &check, const CudnnApi &api, cudnnHandle_t handle,
                     ConvKind kind, const ConvGeometry &g, const Plan &p,
                     const void *a, const void *b, void *out,
                     amp_dtype_t inDtype, Scratch &scratch,
                     cudaStream_t stream) {
  const PadSplit &s = p.pad;
  const View image{g.n * g.c, g.h, g.w, s.et, s.el, s.eb, s.er};
  const View grad{g.n * g.o, g.oh, g.ow};
  const View filter{g.o * g.cg, g.kh, g.kw};
  // Operands a and b, and the result: cuDNN's extent (the padded image for
  // the input gradient) and the caller's window of it.
  const View &va = kind == ConvKind::Forward ? image : grad;
  const View &vb = kind == ConvKind::GradFilter ? image : filter;
  const View result = kind == ConvKind::Forward ? grad
                      : kind == ConvKind::GradInput
                          ? View{g.n * g.c, p.hs, p.ws, s.et, s.el}
                          : filter;
  const int64_t outH = kind == ConvKind::GradInput ? g.h : result.h;
  const int64_t outW = kind == ConvKind::GradInput ? g.w : result.w;

  Operands ops{a, b, out};
  if (amp_status_t st =
          prepare(check, scratch, p, a, inDtype, va, stream, ops.a))
    return st;
  if (amp_status_t st =
          prepare(check, scratch, p, b, inDtype, vb, stream, ops.b))
    return st;
  const bool direct = outH == result.h && outW == result.w &&
                      p.dtype == p.outDtype && aligned16(out);
  if (!direct)
    if (amp_status_t st = scratch.alloc(result.planes * result.h * result.w *
                                            amp_dtype_size(p.dtype),
                                        "the result before its copy", ops.out))
      return st;
  if (amp_status_t st = convolve(check, api, handle, kind, p, ops, scratch))
    return st;
  if (direct)
    return AMP_STATUS_OK;
  ConvWindowCopy c{};
  c.src = ops.out, c.dst = out, c.srcDtype = p.dtype, c.dstDtype = p.outDtype;
  c.planes = result.planes, c.srcH = result.h, c.srcW = result.w;
  c.dstH = outH, c.dstW = outW, c.offH = -result.top, c.offW = -result.left;
  return windowCopy(check, c, stream);
}

} // namespace

amp_status_t amp::runtime::kernels::convolve(Checker &check, ConvKind kind,
                                             const ConvGeometry &g,
                                             const void *a, const void *b,
                                             void *out, amp_dtype_t inDtype,
                                             amp_dtype_t outDtype,
                                             void *stream) {
  const int64_t resultSize = convResultSize(kind, g);
  const cudaStream_t cudaStream = toStream(stream);
  if (g.n == 0) {
    // The filter gradient of an empty batch: zeros (all-zero bits).
    if (cudaError_t e = cudaMemsetAsync(
            out, 0, size_t(resultSize) * amp_dtype_size(outDtype), cudaStream))
      return cudaFailure(check, "cudaMemsetAsync", e);
    return AMP_STATUS_OK;
  }

  Backend &be = backend();
  std::lock_guard<std::mutex> lock(be.mutex);
  if (amp_status_t s = be.load(check))
    return s;
  int device = 0;
  if (cudaError_t e = cudaGetDevice(&device))
    return cudaFailure(check, "cudaGetDevice (is there a CUDA device?)", e);
  cudnnHandle_t handle = nullptr;
  Plan *plan = nullptr;
  if (amp_status_t s = be.handleFor(check, device, handle))
    return s;
  if (amp_status_t s =
          be.planFor(check, handle, kind, device, g, inDtype, outDtype, plan))
    return s;
  if (cudnnStatus_t st = be.api.cudnnSetStream(handle, cudaStream))
    return cudnnFailure(check, be.api, "cudnnSetStream", st);
  Scratch scratch(check, stream);
  return scratch.finish(enqueue(check, be.api, handle, kind, g, *plan, a, b,
                                out, inDtype, scratch, cudaStream));
}
