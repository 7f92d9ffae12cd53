//===- DeviceBuffer.cpp - runtime buffers ---------------------------------===//

#include "amp/Runner/DeviceBuffer.h"

#include <utility>

using namespace amp::runner;

StatusOr<DeviceBuffer> DeviceBuffer::allocate(const RuntimeLibrary &rt,
                                              int64_t bytes) {
  DeviceBuffer buffer;
  buffer.freeFn = rt.free;
  buffer.memcpyFn = rt.memcpy;
  buffer.lastError = rt.kernelLastError;
  buffer.bytes = bytes;
  buffer.ptr = rt.alloc(bytes, nullptr);
  if (!buffer.ptr)
    return Status::error("amp_alloc of " + std::to_string(bytes) +
                         " bytes failed: " + rt.kernelLastError());
  return buffer;
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr)
    (void)freeFn(ptr, nullptr);
}

Status DeviceBuffer::upload(const void *host) const {
  if (memcpyFn(ptr, host, bytes, nullptr) != AMP_STATUS_OK)
    return Status::error(std::string("amp_memcpy failed: ") + lastError());
  return Status::success();
}

Status DeviceBuffer::download(void *host) const {
  if (memcpyFn(host, ptr, bytes, nullptr) != AMP_STATUS_OK)
    return Status::error(std::string("amp_memcpy failed: ") + lastError());
  return Status::success();
}

StatusOr<std::vector<char>> DeviceBuffer::read() const {
  std::vector<char> host(bytes);
  if (Status s = download(host.data()); s.failed())
    return s;
  return host;
}

void DeviceBuffer::swap(DeviceBuffer &other) noexcept {
  std::swap(freeFn, other.freeFn);
  std::swap(memcpyFn, other.memcpyFn);
  std::swap(lastError, other.lastError);
  std::swap(ptr, other.ptr);
  std::swap(bytes, other.bytes);
}
