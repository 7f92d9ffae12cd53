//===- HostBuffer.cpp - host staging memory -------------------------------===//

#include "amp/Runner/HostBuffer.h"

#include <string>

using namespace amp::runner;

StatusOr<HostBuffer> HostBuffer::allocate(const RuntimeLibrary &rt,
                                          int64_t bytes) {
  HostBuffer buffer;
  buffer.freeFn = rt.hostFree;
  buffer.bytes = bytes;
  buffer.ptr = static_cast<char *>(rt.hostAlloc(bytes));
  if (!buffer.ptr)
    return Status::error("amp_host_alloc of " + std::to_string(bytes) +
                         " bytes failed: " + rt.kernelLastError());
  return buffer;
}

HostBuffer::~HostBuffer() {
  if (ptr)
    (void)freeFn(ptr);
}
