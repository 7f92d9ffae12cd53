/*===- host_device.h - amp runtime: code shared by host and CUDA device ---===
 *
 * AMP_HOST_DEVICE marks inline functions that host code and CUDA kernels
 * both run (`__host__ __device__` under nvcc, nothing elsewhere), so that
 * the reference backend and the CUDA kernels share one implementation.
 *
 *===----------------------------------------------------------------------===*/

#ifndef AMP_RUNTIME_HOST_DEVICE_H
#define AMP_RUNTIME_HOST_DEVICE_H

#ifndef AMP_HOST_DEVICE
#ifdef __CUDACC__
#define AMP_HOST_DEVICE __host__ __device__
#else
#define AMP_HOST_DEVICE
#endif
#endif

#endif /* AMP_RUNTIME_HOST_DEVICE_H */
