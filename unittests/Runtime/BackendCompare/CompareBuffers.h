//===- CompareBuffers.h - Lists of buffers for the multi-buffer kernels ---===//
//
// Helpers of the optimizer and loss-scaling cases (CompareOptimizer.cpp,
// CompareLossScale.cpp): lists of buffers of mixed sizes and dtypes, each
// optionally one element past a 16-byte boundary (the kernels' unpacked
// path), uploaded to a backend as the pointer arrays the kernels take; a
// byte-exact comparison (NaN payloads included); and a same-status,
// same-message comparison of malformed calls.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UNITTESTS_RUNTIME_BACKENDCOMPARE_COMPAREBUFFERS_H
#define AMP_UNITTESTS_RUNTIME_BACKENDCOMPARE_COMPAREBUFFERS_H

#include "Compare.h"

#include <cstring>

namespace amp {
namespace compare {

/// Buffers of one backend: ptrs[i] is element `offset` of bufs[i].
struct DevList {
  std::vector<Buf> bufs;
  std::vector<void *> ptrs;
  std::vector<int64_t> offsets;
  const void *const *in() const { return ptrs.data(); }
  void *const *out() const { return ptrs.data(); }
};

/// Uploads hosts[i] at element offsets[i] (0 when offsets is empty) of a
/// fresh buffer.
inline DevList uploadList(Backend &b, const std::vector<Host> &hosts,
                          const std::vector<int64_t> &offsets = {}) {
  DevList l;
  for (size_t i = 0; i < hosts.size(); ++i) {
    const int64_t off = offsets.empty() ? 0 : offsets[i];
    const int64_t size = amp_dtype_size(hosts[i].dtype);
    Buf buf = b.alloc(hosts[i].dtype, hosts[i].numel() + off);
    char *p = static_cast<char *>(buf.ptr) + off * size;
    b.ok(AMP_CALL(b, amp_memcpy, p, hosts[i].bytes.data(),
                  static_cast<int64_t>(hosts[i].bytes.size()), nullptr),
         "amp_memcpy (upload)");
    l.ptrs.push_back(p);
    l.offsets.push_back(off);
    l.bufs.push_back(std::move(buf));
  }
  return l;
}

/// The elements the pointers of `l` address.
inline std::vector<Host> downloadList(Backend &b, const DevList &l) {
  std::vector<Host> out;
  for (size_t i = 0; i < l.bufs.size(); ++i) {
    Host whole = b.download(l.bufs[i]);
    const size_t skip =
        static_cast<size_t>(l.offsets[i] * amp_dtype_size(whole.dtype));
    Host h;
    h.dtype = whole.dtype;
    h.bytes.assign(whole.bytes.begin() + skip, whole.bytes.end());
    out.push_back(std::move(h));
  }
  return out;
}

/// `count` buffers with sizes cycling through a mixed list (empties and
/// chunk boundaries included) and dtypes cycling through the float ones;
/// every fifth one starts one element past a 16-byte boundary.
struct MixedList {
  std::vector<int64_t> sizes;
  std::vector<amp_dtype_t> dtypes;
  std::vector<int64_t> offsets;
};

inline MixedList mixedList(int count, bool small) {
  const int64_t big[] = {1000, 0, 7, 16384, 1, 16385, 33, 40000, 8, 3};
  const int64_t tiny[] = {5, 1, 0, 17, 64, 3, 9};
  MixedList l;
  for (int i = 0; i < count; ++i) {
    l.sizes.push_back(small ? tiny[i % 7] : big[i % 10]);
    l.dtypes.push_back(floatDtypes()[(i / 2) % 3]);
    l.offsets.push_back(i % 5 == 4 ? 1 : 0);
  }
  return l;
}

inline std::vector<Host> randomList(Context &c, const MixedList &l, double lo,
                                    double hi) {
  std::vector<Host> out;
  for (size_t i = 0; i < l.sizes.size(); ++i)
    out.push_back(randomHost(c.rng, l.dtypes[i], l.sizes[i], lo, hi));
  return out;
}

/// A one-value host tensor.
inline Host scalarHost(amp_dtype_t dtype, double v) {
  Host h = zeros(dtype, 1);
  h.set(0, v);
  return h;
}

/// Byte-for-byte equality (for copies, which keep NaN payloads).
inline bool expectSameBytes(Context &c, const std::string &what,
                            const Host &expected, const Host &actual) {
  ++c.checks;
  if (expected.dtype == actual.dtype && expected.bytes == actual.bytes)
    return true;
  c.fail(what + ": not a bitwise copy");
  return false;
}

/// The same status and the same last-error message on both backends (the
/// shared argument checks).
inline bool expectSameError(Context &c, const std::string &what,
                            amp_status_t ref, amp_status_t dev) {
  if (!c.expectSameStatus(what, ref, dev))
    return false;
  ++c.checks;
  if (ref == AMP_STATUS_OK)
    c.fail(what + ": a malformed call succeeded");
  else if (c.ref->lastError() != c.dev->lastError())
    c.fail(what + ": messages differ: reference \"" + c.ref->lastError() +
           "\", cuda \"" + c.dev->lastError() + "\"");
  else
    return true;
  return false;
}

/// An error path, whose calls pass host pointers: `call` (Backend & ->
/// amp_status_t) must fail on the reference, and only then runs on the
/// device, which must fail the same way (expectSameError). A call that has
/// become valid (an op number given a meaning since, say) would otherwise
/// launch a kernel on host memory and break the CUDA context for every
/// later case.
template <typename Call>
bool expectRejected(Context &c, const std::string &what, Call call) {
  const amp_status_t ref = call(*c.ref);
  if (ref == AMP_STATUS_OK) {
    ++c.checks;
    c.fail(what + ": the reference accepted a malformed call");
    return false;
  }
  return expectSameError(c, what, ref, call(*c.dev));
}

} // namespace compare
} // namespace amp

#endif // AMP_UNITTESTS_RUNTIME_BACKENDCOMPARE_COMPAREBUFFERS_H
