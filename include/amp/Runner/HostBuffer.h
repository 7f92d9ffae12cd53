//===- HostBuffer.h - host staging memory owned by the runner ---*- C++ -*-===//
//
// Memory from the backend's amp_host_alloc, freed with amp_host_free: where
// the runner assembles a batch before copying it to the device. On a GPU
// backend it is page-locked, so that the copy is a DMA at the bus's full
// rate which runs after amp_memcpy returns (the buffer must then stay
// unchanged until amp_synchronize).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_HOSTBUFFER_H
#define AMP_RUNNER_HOSTBUFFER_H

#include "amp/Runner/RuntimeLibrary.h"
#include "amp/Runner/Status.h"

#include <cstdint>
#include <utility>

namespace amp::runner {

class HostBuffer {
public:
  HostBuffer() = default;
  static StatusOr<HostBuffer> allocate(const RuntimeLibrary &rt, int64_t bytes);
  HostBuffer(HostBuffer &&other) noexcept { swap(other); }
  HostBuffer &operator=(HostBuffer &&other) noexcept {
    swap(other);
    return *this;
  }
  HostBuffer(const HostBuffer &) = delete;
  HostBuffer &operator=(const HostBuffer &) = delete;
  ~HostBuffer();

  char *data() const { return ptr; }
  int64_t size() const { return bytes; }

  void swap(HostBuffer &other) noexcept {
    std::swap(freeFn, other.freeFn);
    std::swap(ptr, other.ptr);
    std::swap(bytes, other.bytes);
  }

private:
  decltype(&amp_host_free) freeFn = nullptr;
  char *ptr = nullptr;
  int64_t bytes = 0;
};

} // namespace amp::runner

#endif // AMP_RUNNER_HOSTBUFFER_H
