//===- DeviceBuffer.cpp - runtime buffers ---------------------------------===//

#include "amp/Runner/DeviceBuffer.h"

#include <utility>

using namespace amp::runner;

StatusOr<DeviceBuffer> DeviceBuffer::allocate(const RuntimeLibrary &rt,
                                              int64_t bytes) {
  DeviceBuffer buffer;
  buffer.rt = &rt;
  buffer.bytes = bytes;
  buffer.ptr = rt.alloc(bytes, nullptr);
  if (!buffer.ptr)
    return Status::error("amp_alloc of " + std::to_string(bytes) +
                         " bytes failed: " + rt.kernelLastError());
  return buffer;
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr)
    (void)rt->free(ptr, nullptr);
}

Status DeviceBuffer::upload(const void *host) const {
  if (rt->memcpy(ptr, host, bytes, nullptr) != AMP_STATUS_OK)
    return Status::error(std::string("amp_memcpy failed: ") +
                         rt->kernelLastError());
  return Status::success();
}

Status DeviceBuffer::download(void *host) const {
  if (rt->memcpy(host, ptr, bytes, nullptr) != AMP_STATUS_OK)
    return Status::error(std::string("amp_memcpy failed: ") +
                         rt->kernelLastError());
  return Status::success();
}

StatusOr<std::vector<char>> DeviceBuffer::read() const {
  std::vector<char> host(bytes);
  if (Status s = download(host.data()); s.failed())
    return s;
  return host;
}

void DeviceBuffer::swap(DeviceBuffer &other) noexcept {
  std::swap(rt, other.rt);
  std::swap(ptr, other.ptr);
  std::swap(bytes, other.bytes);
}
