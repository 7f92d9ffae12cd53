//===- TensorFile.cpp - tensors in NumPy .npy files -----------------------===//

#include "amp/Runner/TensorFile.h"

#include "amp/Runner/ReadFile.h"
#include "amp_runtime/checked_size.h"
#include "amp_runtime/float16.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

using namespace amp::runner;

int64_t HostArray::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string amp::runner::describeArray(const HostArray &array) {
  TensorDesc desc;
  desc.shape = array.shape;
  desc.type = array.type;
  return describeType(desc);
}

static const char kMagic[] = "\x93NUMPY";

namespace {
/// The dtype spellings of the header's 'descr'.
/// Writing takes the first spelling of an element type whose file size is
/// its size.
struct Descr {
  const char *text;
  ElementType type;
  int64_t fileSize; // bytes per element in the file
  bool isUnsigned = false;
};
const Descr kDescrs[] = {
    {"<f4", ElementType::F32, 4},       {"<f8", ElementType::F32, 8},
    {"<f2", ElementType::F32, 2},       {"<i8", ElementType::I64, 8},
    {"<i4", ElementType::I32, 4},       {"|b1", ElementType::I1, 1},
    {"|u1", ElementType::I32, 1, true}, {"|i1", ElementType::I32, 1},
    {"<u2", ElementType::I32, 2, true}, {"<i2", ElementType::I32, 2},
    {"<u4", ElementType::I64, 4, true},
};
} // namespace

/// The value of `key` in the header dict, up to the next ',' or '}' (or the
/// closing ')' of the shape tuple).
static bool headerValue(const std::string &header, const std::string &key,
                        std::string &value) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos)
    return false;
  size_t colon = header.find(':', k);
  if (colon == std::string::npos)
    return false;
  size_t start = header.find_first_not_of(' ', colon + 1);
  if (start == std::string::npos)
    return false;
  size_t end = header[start] == '('    ? header.find(')', start) + 1
               : header[start] == '\'' ? header.find('\'', start + 1) + 1
                                       : header.find_first_of(",}", start);
  if (end == std::string::npos || end == 0 || end <= start)
    return false;
  value = header.substr(start, end - start);
  return true;
}

StatusOr<HostArray> amp::runner::parseNpy(const std::vector<char> &bytes,
                                          const std::string &path) {
  auto bad = [&](const std::string &why) {
    return Status::error("'" + path + "' is not a valid .npy file: " + why);
  };
  if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic, 6) != 0)
    return bad("no \\x93NUMPY magic");
  int major = static_cast<unsigned char>(bytes[6]);
  size_t headerLen, offset;
  if (major == 1) {
    headerLen = static_cast<unsigned char>(bytes[8]) |
                static_cast<unsigned char>(bytes[9]) << 8;
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return bad("truncated header");
    uint32_t len;
    std::memcpy(&len, bytes.data() + 8, 4);
    headerLen = len;
    offset = 12;
  } else {
    return bad("version " + std::to_string(major) + " is not supported");
  }
  if (headerLen > bytes.size() - offset)
    return bad("the header is longer than the file");
  std::string header(bytes.data() + offset, headerLen);
  offset += headerLen;

  std::string descr, fortran, shapeText;
  if (!headerValue(header, "descr", descr) ||
      !headerValue(header, "fortran_order", fortran) ||
      !headerValue(header, "shape", shapeText))
    return bad("the header lacks descr, fortran_order or shape");
  if (fortran.rfind("False", 0) != 0)
    return bad("Fortran order is not supported");
  const Descr *d = nullptr;
  for (const Descr &candidate : kDescrs)
    if (descr == "'" + std::string(candidate.text) + "'")
      d = &candidate;
  if (!d) {
    std::string known;
    for (const Descr &candidate : kDescrs)
      known += (known.empty() ? "" : ", ") + std::string(candidate.text);
    return bad("dtype " + descr + " is not supported (" + known + ")");
  }

  HostArray array;
  array.type = d->type;
  // "(2, 3)", "(5,)" or "()".
  std::string dims = shapeText.substr(1, shapeText.size() - 2);
  std::stringstream ss(dims);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t b = item.find_first_not_of(' ');
    if (b == std::string::npos)
      continue;
    char *end = nullptr;
    errno = 0;
    long long v = std::strtoll(item.c_str() + b, &end, 10);
    if (errno || v < 0 || (*end && *end != ' ' && *end != 'L'))
      return bad("shape " + shapeText + " is not a tuple of sizes");
    array.shape.push_back(v);
  }
  std::optional<int64_t> count = amp::checked::elementCount(
      array.shape.data(), array.shape.size(), amp::checked::kInt64Max);
  std::optional<int64_t> fileBytes =
      count ? amp::checked::mul(*count, d->fileSize) : std::nullopt;
  if (!fileBytes)
    return bad("shape " + shapeText + " is too large");
  if (static_cast<uint64_t>(*fileBytes) != bytes.size() - offset)
    return bad("it holds " + std::to_string(bytes.size() - offset) +
               " bytes of data; shape " + shapeText + " of " + descr +
               " needs " + std::to_string(*fileBytes));
  const char *data = bytes.data() + offset;
  // Float64 and float16 arrays are read as f32 (doubles rounded, halves
  // exactly), and the 8- and 16-bit integers as i32 and uint32 as i64
  // (exactly), as the ONNX importer lifts those types.
  if (isInteger(d->type) && d->fileSize != elementSize(d->type)) {
    const int64_t size = elementSize(d->type);
    array.bytes.resize(*count * size);
    for (int64_t i = 0; i < *count; ++i) {
      uint64_t bits = 0;
      std::memcpy(&bits, data + d->fileSize * i, d->fileSize);
      const int shift = 64 - 8 * int(d->fileSize);
      int64_t v = d->isUnsigned ? int64_t(bits)
                                : static_cast<int64_t>(bits << shift) >> shift;
      if (size == 4) {
        int32_t narrow = int32_t(v);
        std::memcpy(array.bytes.data() + 4 * i, &narrow, 4);
      } else {
        std::memcpy(array.bytes.data() + 8 * i, &v, 8);
      }
    }
  } else if (d->type == ElementType::F32 && d->fileSize != 4) {
    array.bytes.resize(*count * 4);
    for (int64_t i = 0; i < *count; ++i) {
      float f;
      if (d->fileSize == 8) {
        double v;
        std::memcpy(&v, data + 8 * i, 8);
        f = static_cast<float>(v);
      } else {
        uint16_t h;
        std::memcpy(&h, data + 2 * i, 2);
        f = amp::runtime::halfBitsToFloat(h);
      }
      std::memcpy(array.bytes.data() + 4 * i, &f, 4);
    }
  } else {
    array.bytes.assign(data, data + *fileBytes);
  }
  return array;
}

StatusOr<HostArray> amp::runner::readNpyFile(const std::string &path) {
  StatusOr<std::vector<char>> bytes = readFileBytes(path, "");
  if (bytes.failed())
    return bytes.takeStatus();
  return parseNpy(*bytes, path);
}

StatusOr<std::vector<char>> amp::runner::encodeNpy(const HostArray &array) {
  const char *descr = nullptr;
  for (const Descr &d : kDescrs)
    if (!descr && d.type == array.type && d.fileSize == elementSize(array.type))
      descr = d.text;
  if (!descr)
    return Status::error("cannot write " + describeArray(array) + " as .npy");
  std::string shape = "(";
  for (size_t i = 0; i < array.shape.size(); ++i)
    shape +=
        std::to_string(array.shape[i]) + (array.shape.size() == 1      ? ","
                                          : i + 1 < array.shape.size() ? ", "
                                                                       : "");
  shape += ")";
  std::string header = "{'descr': '" + std::string(descr) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Magic (6) + version (2) + length (2) + header + '\n', a multiple of 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::vector<char> bytes(kMagic, kMagic + 6);
  bytes.push_back(1); // version 1.0
  bytes.push_back(0);
  bytes.push_back(static_cast<char>(header.size() & 0xff));
  bytes.push_back(static_cast<char>(header.size() >> 8));
  bytes.insert(bytes.end(), header.begin(), header.end());
  bytes.insert(bytes.end(), array.bytes.begin(), array.bytes.end());
  return bytes;
}

Status amp::runner::writeNpyFile(const std::string &path,
                                 const HostArray &array) {
  StatusOr<std::vector<char>> bytes = encodeNpy(array);
  if (bytes.failed())
    return bytes.takeStatus();
  return writeFileBytes(path, *bytes);
}

int64_t amp::runner::integerAt(const HostArray &a, int64_t i) {
  if (a.type == ElementType::I1)
    return static_cast<unsigned char>(a.bytes[i]);
  if (a.type == ElementType::I32) {
    int32_t v;
    std::memcpy(&v, a.bytes.data() + i * sizeof v, sizeof v);
    return v;
  }
  int64_t v;
  std::memcpy(&v, a.bytes.data() + i * sizeof v, sizeof v);
  return v;
}

StatusOr<HostArray> amp::runner::convertIntegers(const HostArray &array,
                                                 ElementType type) {
  HostArray out;
  out.type = type;
  out.shape = array.shape;
  const int64_t n = array.numElements(), size = elementSize(type);
  const int64_t low = type == ElementType::I1    ? 0
                      : type == ElementType::I32 ? INT32_MIN
                                                 : INT64_MIN;
  const int64_t high = type == ElementType::I1    ? 1
                       : type == ElementType::I32 ? INT32_MAX
                                                  : INT64_MAX;
  out.bytes.resize(n * size);
  for (int64_t i = 0; i < n; ++i) {
    int64_t v = integerAt(array, i);
    if (v < low || v > high)
      return Status::error("its element " + std::to_string(i) + ", " +
                           std::to_string(v) + ", is no " +
                           elementTypeName(type) + " value");
    if (size == 1) {
      out.bytes[i] = static_cast<char>(v);
    } else if (size == 4) {
      int32_t narrow = int32_t(v);
      std::memcpy(out.bytes.data() + 4 * i, &narrow, 4);
    } else {
      std::memcpy(out.bytes.data() + 8 * i, &v, 8);
    }
  }
  return out;
}

/// Element `i` as a double (I1 as 0/1).
static double elementAt(const HostArray &a, int64_t i) {
  switch (a.type) {
  case ElementType::F32: {
    float v;
    std::memcpy(&v, a.bytes.data() + 4 * i, 4);
    return v;
  }
  case ElementType::I64: {
    int64_t v;
    std::memcpy(&v, a.bytes.data() + 8 * i, 8);
    return static_cast<double>(v);
  }
  case ElementType::I32: {
    int32_t v;
    std::memcpy(&v, a.bytes.data() + 4 * i, 4);
    return v;
  }
  case ElementType::I1:
    return a.bytes[i] != 0;
  default:
    return NAN; // f16/bf16 results are not compared
  }
}

Status amp::runner::compareArrays(const HostArray &actual,
                                  const HostArray &expected, double tolerance,
                                  const std::string &what) {
  const bool integers = isInteger(actual.type) && isInteger(expected.type);
  if (actual.shape != expected.shape ||
      (actual.type != expected.type && !integers))
    return Status::error(what + " is " + describeArray(actual) +
                         "; the expected output is " + describeArray(expected));
  int64_t n = actual.numElements(), bad = 0, first = -1;
  double firstA = 0, firstE = 0, worst = 0;
  bool isFloat = actual.type == ElementType::F32;
  for (int64_t i = 0; i < n; ++i) {
    double a = elementAt(actual, i), e = elementAt(expected, i);
    bool ok;
    if (integers)
      ok = integerAt(actual, i) == integerAt(expected, i);
    else if (!isFloat)
      ok = a == e;
    else if (std::isnan(e))
      ok = std::isnan(a);
    else if (std::isinf(e))
      ok = a == e;
    else
      ok = std::fabs(a - e) <= tolerance * (1 + std::fabs(e));
    if (!std::isnan(a) && !std::isnan(e) && !std::isinf(e))
      worst = std::max(worst, std::fabs(a - e));
    if (!ok) {
      if (first < 0) {
        first = i;
        firstA = a;
        firstE = e;
      }
      ++bad;
    }
  }
  if (bad == 0)
    return Status::success();
  std::ostringstream msg;
  msg.precision(9);
  msg << what << " differs from the expected output in " << bad << " of " << n
      << " elements (tolerance " << tolerance << "); the first is element "
      << first << ": " << firstA << " vs " << firstE << " (max abs difference "
      << worst << ")";
  return Status::error(msg.str());
}
