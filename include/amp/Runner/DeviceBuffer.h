//===- DeviceBuffer.h - a runtime buffer owned by the runner ----*- C++ -*-===//
//
// Memory from the backend's amp_alloc (host memory on the reference backend,
// device memory on a GPU one), freed with amp_free, copied with amp_memcpy.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_DEVICEBUFFER_H
#define AMP_RUNNER_DEVICEBUFFER_H

#include "amp/Runner/RuntimeLibrary.h"
#include "amp/Runner/Status.h"

#include <cstdint>
#include <vector>

namespace amp::runner {

class DeviceBuffer {
public:
  DeviceBuffer() = default;
  static StatusOr<DeviceBuffer> allocate(const RuntimeLibrary &rt,
                                         int64_t bytes);
  DeviceBuffer(DeviceBuffer &&other) noexcept { swap(other); }
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept {
    swap(other);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();

  void *data() const { return ptr; }
  int64_t size() const { return bytes; }

  /// Copies size() bytes from host memory in.
  Status upload(const void *host) const;
  /// Copies size() bytes out to host memory.
  Status download(void *host) const;
  /// The whole buffer as host bytes.
  StatusOr<std::vector<char>> read() const;

  void swap(DeviceBuffer &other) noexcept;

private:
  // The entry points it needs, copied: the RuntimeLibrary may move.
  decltype(&amp_free) freeFn = nullptr;
  decltype(&amp_memcpy) memcpyFn = nullptr;
  decltype(&amp_kernel_last_error) lastError = nullptr;
  void *ptr = nullptr;
  int64_t bytes = 0;
};

} // namespace amp::runner

#endif // AMP_RUNNER_DEVICEBUFFER_H
