//===- NpzFile.h - named arrays in NumPy .npz files -------------*- C++ -*-===//
//
// What `amp-run --data train.npz` reads: NumPy's `np.savez` (stored) and
// `np.savez_compressed` (deflated, when the build has zlib) archives, a zip
// file of one .npy file per array (`ids.npy` holds the array `ids`). The
// reader walks the zip's central directory (zip64 included, as NumPy
// writes it), checks every offset and size against the file and every
// member's CRC-32, and parses the members with parseNpy, so a damaged file
// is an error, never a crash or an allocation the file does not justify.
// encodeNpz writes such archives (amp-run's --save-checkpoint).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_NPZFILE_H
#define AMP_RUNNER_NPZFILE_H

#include "amp/Runner/Status.h"
#include "amp/Runner/TensorFile.h"

#include <string>
#include <utility>
#include <vector>

namespace amp::runner {

/// The arrays of an archive, in the order of its directory, by name (the
/// member's name without `.npy`).
using NamedArrays = std::vector<std::pair<std::string, HostArray>>;

StatusOr<NamedArrays> readNpzFile(const std::string &path);
/// The same for the bytes of a file; `path` names it in errors.
StatusOr<NamedArrays> parseNpz(const std::vector<char> &bytes,
                               const std::string &path);

/// The bytes of an `np.savez` archive of `arrays` (names unique and
/// non-empty; each written with encodeNpy).
StatusOr<std::vector<char>> encodeNpz(const NamedArrays &arrays);

} // namespace amp::runner

#endif // AMP_RUNNER_NPZFILE_H
