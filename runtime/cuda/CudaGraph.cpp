//===- CudaGraph.cpp - Capture a step into a CUDA graph and replay it -----===//
//
// amp_graph_begin_capture / end_capture / launch / destroy on CUDA graphs.
// Capture uses cudaStreamCaptureModeRelaxed: the caching allocator may still
// call cudaMalloc during a capture (a block it has not cached yet), which
// the stricter modes forbid. Kernels recorded in a graph keep the pointers
// they were given, so the caller must keep those buffers, and the blocks the
// step allocated and freed while being captured, untouched between replays:
// the caching allocator hands such blocks out again only to later
// amp_alloc calls, and a replayed step makes none.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaCommon.h"

using namespace amp::runtime::cuda;
using amp::runtime::kernels::Checker;

extern "C" {

amp_status_t amp_graph_begin_capture(void *stream) {
  Checker check("amp_graph_begin_capture");
  if (cudaError_t e = cudaStreamBeginCapture(toStream(stream),
                                             cudaStreamCaptureModeRelaxed))
    return cudaFailure(check, "cudaStreamBeginCapture", e);
  return AMP_STATUS_OK;
}

amp_status_t amp_graph_end_capture(void *stream, void **graph) {
  Checker check("amp_graph_end_capture");
  if (!graph)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "graph is NULL");
  *graph = nullptr;
  cudaGraph_t captured = nullptr;
  if (cudaError_t e = cudaStreamEndCapture(toStream(stream), &captured))
    return cudaFailure(check, "cudaStreamEndCapture", e);
  cudaGraphExec_t exec = nullptr;
  cudaError_t e = cudaGraphInstantiate(&exec, captured, 0);
  (void)cudaGraphDestroy(captured);
  if (e != cudaSuccess)
    return cudaFailure(check, "cudaGraphInstantiate", e);
  *graph = exec;
  return AMP_STATUS_OK;
}

amp_status_t amp_graph_launch(void *graph, void *stream) {
  Checker check("amp_graph_launch");
  if (!graph)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "graph is NULL");
  if (cudaError_t e = cudaGraphLaunch(static_cast<cudaGraphExec_t>(graph),
                                      toStream(stream)))
    return cudaFailure(check, "cudaGraphLaunch", e);
  return AMP_STATUS_OK;
}

amp_status_t amp_graph_destroy(void *graph) {
  Checker check("amp_graph_destroy");
  if (!graph)
    return AMP_STATUS_OK;
  if (cudaError_t e = cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(graph)))
    return cudaFailure(check, "cudaGraphExecDestroy", e);
  return AMP_STATUS_OK;
}

} // extern "C"
