//===- CudnnApi.cpp - cuDNN, loaded at run time ---------------------------===//

#include "cuda/CudnnApi.h"

#include <dlfcn.h>

using namespace amp::runtime::cuda;

std::string amp::runtime::cuda::loadCudnn(CudnnApi &api) {
  void *lib = dlopen("libcudnn.so.9", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *error = dlerror();
    const std::string why = error ? error : "unknown dlopen error";
    lib = dlopen("libcudnn.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      return "cuDNN (libcudnn.so.9) cannot be loaded: " + why +
             "; put its directory on LD_LIBRARY_PATH";
  }
  CudnnApi loaded;
#define AMP_CUDNN_RESOLVE(name)                                                \
  loaded.name = reinterpret_cast<decltype(loaded.name)>(dlsym(lib, #name));    \
  if (!loaded.name) {                                                          \
    dlclose(lib);                                                              \
    return "cuDNN (libcudnn.so.9) has no " #name;                              \
  }
  AMP_CUDNN_FUNCTIONS(AMP_CUDNN_RESOLVE)
#undef AMP_CUDNN_RESOLVE
  // The legacy API's structs and enums are those of the headers' major
  // version (CUDNN_VERSION is major * 10000 + minor * 100 + patch).
  const size_t version = loaded.cudnnGetVersion();
  if (version / 10000 != CUDNN_MAJOR) {
    dlclose(lib);
    return "cuDNN " + std::to_string(version) +
           " was loaded, but the backend was built for cuDNN " +
           std::to_string(CUDNN_MAJOR);
  }
  api = loaded;
  return "";
}
