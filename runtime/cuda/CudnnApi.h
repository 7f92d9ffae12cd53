//===- CudnnApi.h - cuDNN, loaded at run time -----------------------------===//
//
// libamp_runtime_cuda does not link cuDNN: every kernel but the
// convolutions must work where cuDNN is not installed (on the GPU machines
// it may exist only inside a framework's pip package). The first
// convolution dlopen()s libcudnn.so.9 (then libcudnn.so) and resolves the
// functions below into a table typed with cudnn.h's own prototypes.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CUDA_CUDNNAPI_H
#define AMP_RUNTIME_CUDA_CUDNNAPI_H

#include <cudnn.h>

#include <string>

namespace amp {
namespace runtime {
namespace cuda {

/// The cuDNN functions the backend calls.
#define AMP_CUDNN_FUNCTIONS(X)                                                 \
  X(cudnnGetVersion)                                                           \
  X(cudnnGetErrorString)                                                       \
  X(cudnnCreate)                                                               \
  X(cudnnSetStream)                                                            \
  X(cudnnCreateTensorDescriptor)                                               \
  X(cudnnSetTensor4dDescriptor)                                                \
  X(cudnnDestroyTensorDescriptor)                                              \
  X(cudnnCreateFilterDescriptor)                                               \
  X(cudnnSetFilter4dDescriptor)                                                \
  X(cudnnDestroyFilterDescriptor)                                              \
  X(cudnnCreateConvolutionDescriptor)                                          \
  X(cudnnSetConvolution2dDescriptor)                                           \
  X(cudnnSetConvolutionGroupCount)                                             \
  X(cudnnSetConvolutionMathType)                                               \
  X(cudnnGetConvolution2dForwardOutputDim)                                     \
  X(cudnnDestroyConvolutionDescriptor)                                         \
  X(cudnnGetConvolutionForwardAlgorithm_v7)                                    \
  X(cudnnGetConvolutionForwardWorkspaceSize)                                   \
  X(cudnnConvolutionForward)                                                   \
  X(cudnnGetConvolutionBackwardDataAlgorithm_v7)                               \
  X(cudnnGetConvolutionBackwardDataWorkspaceSize)                              \
  X(cudnnConvolutionBackwardData)                                              \
  X(cudnnGetConvolutionBackwardFilterAlgorithm_v7)                             \
  X(cudnnGetConvolutionBackwardFilterWorkspaceSize)                            \
  X(cudnnConvolutionBackwardFilter)

struct CudnnApi {
#define AMP_CUDNN_MEMBER(name) decltype(&::name) name = nullptr;
  AMP_CUDNN_FUNCTIONS(AMP_CUDNN_MEMBER)
#undef AMP_CUDNN_MEMBER
};

/// Loads cuDNN into `api`: "" on success, else a one-line reason
/// ("cuDNN (libcudnn.so.9) cannot be loaded: <dlerror>; put its directory on
/// LD_LIBRARY_PATH", a missing function, a major version other than the
/// headers'). Not thread-safe: the caller serializes.
std::string loadCudnn(CudnnApi &api);

} // namespace cuda
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_CUDA_CUDNNAPI_H
