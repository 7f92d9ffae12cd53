//===- Tensors.cpp - TensorProto data and compile-time constants ----------===//

#include "Importer.h"

#include "amp_runtime/checked_size.h"
#include "amp_runtime/float16.h"

#include <cstring>
#include <limits>

#include "llvm/Support/MemoryBuffer.h"

using namespace amp::onnx_import;

int64_t Const::numel() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int64_t amp::onnx_import::constValueBytes(int32_t dtype) {
  return dtype == onnx::TensorProto::FLOAT ? sizeof(float) : sizeof(int64_t);
}

int64_t amp::onnx_import::maxConstElements(int32_t dtype) {
  return kMaxConstBytes / constValueBytes(dtype);
}

std::optional<int64_t>
amp::onnx_import::constElementCount(llvm::ArrayRef<int64_t> shape,
                                    int32_t dtype) {
  return amp::checked::elementCount(shape.data(), shape.size(),
                                    maxConstElements(dtype));
}

std::vector<int64_t> Const::ints() const {
  if (!isFloat())
    return i;
  std::vector<int64_t> out;
  out.reserve(f.size());
  for (float v : f)
    out.push_back(toInt64(v));
  return out;
}

bool amp::onnx_import::isSupportedDataType(int32_t dtype) {
  switch (dtype) {
  case onnx::TensorProto::FLOAT:
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
  case onnx::TensorProto::DOUBLE:
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::BOOL:
    return true;
  default:
    return isLiftedIntType(dtype);
  }
}

bool amp::onnx_import::isLiftedFloatType(int32_t dtype) {
  return dtype == onnx::TensorProto::FLOAT16 ||
         dtype == onnx::TensorProto::BFLOAT16 ||
         dtype == onnx::TensorProto::DOUBLE;
}

bool amp::onnx_import::isLiftedIntType(int32_t dtype) {
  return dtype == onnx::TensorProto::INT8 ||
         dtype == onnx::TensorProto::INT16 ||
         dtype == onnx::TensorProto::UINT8 ||
         dtype == onnx::TensorProto::UINT16 ||
         dtype == onnx::TensorProto::UINT32;
}

int32_t amp::onnx_import::importedDataType(int32_t dtype) {
  if (isLiftedFloatType(dtype))
    return onnx::TensorProto::FLOAT;
  if (dtype == onnx::TensorProto::UINT32)
    return onnx::TensorProto::INT64;
  return isLiftedIntType(dtype) ? int32_t(onnx::TensorProto::INT32) : dtype;
}

IntegerLayout amp::onnx_import::integerLayout(int32_t dtype) {
  switch (dtype) {
  case onnx::TensorProto::INT8:
    return {8, true};
  case onnx::TensorProto::INT16:
    return {16, true};
  case onnx::TensorProto::INT32:
    return {32, true};
  case onnx::TensorProto::INT64:
    return {64, true};
  case onnx::TensorProto::UINT8:
    return {8, false};
  case onnx::TensorProto::UINT16:
    return {16, false};
  case onnx::TensorProto::UINT32:
    return {32, false};
  default:
    return {};
  }
}

int64_t amp::onnx_import::wrapToDataType(int64_t v, int32_t dtype) {
  if (!isLiftedIntType(dtype))
    return v;
  const IntegerLayout layout = integerLayout(dtype);
  const uint64_t range = uint64_t(1) << layout.bits;
  const uint64_t low = static_cast<uint64_t>(v) & (range - 1);
  // The upper half of a signed type's range is its negative values.
  if (layout.isSigned && low >= range / 2)
    return static_cast<int64_t>(low) - static_cast<int64_t>(range);
  return static_cast<int64_t>(low);
}

float amp::onnx_import::roundToDataType(float v, int32_t dtype) {
  using namespace amp::runtime;
  switch (dtype) {
  case onnx::TensorProto::FLOAT16:
    return halfBitsToFloat(floatToHalfBits(v));
  case onnx::TensorProto::BFLOAT16:
    return bfloat16BitsToFloat(floatToBFloat16Bits(v));
  default:
    return v;
  }
}

Const amp::onnx_import::castValues(llvm::ArrayRef<int64_t> shape, int64_t n,
                                   llvm::function_ref<double(int64_t)> at,
                                   int32_t to) {
  Const out;
  out.dtype = importedDataType(to);
  out.shape.assign(shape.begin(), shape.end());
  for (int64_t k = 0; k < n; ++k) {
    const double v = at(k);
    if (out.isFloat())
      out.f.push_back(roundToDataType(float(v), to));
    else if (out.dtype == onnx::TensorProto::BOOL)
      out.i.push_back(v != 0);
    else
      out.i.push_back(wrapToDataType(toInt64(v), to));
  }
  return out;
}

mlir::Type amp::onnx_import::elementType(mlir::MLIRContext *ctx,
                                         int32_t dtype) {
  switch (dtype) {
  case onnx::TensorProto::FLOAT:
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
  case onnx::TensorProto::DOUBLE:
    return mlir::Float32Type::get(ctx);
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT32:
    return mlir::IntegerType::get(ctx, 64);
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT16:
  case onnx::TensorProto::UINT8:
    return mlir::IntegerType::get(ctx, 32);
  case onnx::TensorProto::BOOL:
    return mlir::IntegerType::get(ctx, 1);
  default:
    return {};
  }
}

/// Copies `count` little-endian values of type T from raw_data.
template <typename T>
static void fromRaw(const std::string &raw, int64_t count,
                    std::vector<T> &out) {
  out.resize(count);
  if (count)
    std::memcpy(out.data(), raw.data(), count * sizeof(T));
}

std::optional<Const>
amp::onnx_import::readTensorProto(const onnx::TensorProto &tensor,
                                  std::string &error) {
  Const c;
  c.dtype = tensor.data_type();
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL ||
      tensor.external_data_size() > 0) {
    error = "its data is stored externally, which is not supported";
    return std::nullopt;
  }
  int64_t count = 1;
  for (int64_t d : tensor.dims()) {
    if (d < 0) {
      error = "it has a negative dimension";
      return std::nullopt;
    }
    std::optional<int64_t> n = amp::checked::mul(count, d);
    if (!n || *n > (int64_t(1) << 31)) {
      error = "it has more than 2^31 elements";
      return std::nullopt;
    }
    count = *n;
    c.shape.push_back(d);
  }
  const std::string &raw = tensor.raw_data();
  bool hasRaw = tensor.has_raw_data();
  auto sizeMismatch = [&](int64_t have) {
    error = "it holds " + std::to_string(have) + " values for " +
            std::to_string(count) + " elements";
    return std::nullopt;
  };
  switch (c.dtype) {
  case onnx::TensorProto::FLOAT:
    if (hasRaw) {
      if (int64_t(raw.size()) != count * 4)
        return sizeMismatch(raw.size() / 4);
      fromRaw(raw, count, c.f);
    } else {
      if (tensor.float_data_size() != count)
        return sizeMismatch(tensor.float_data_size());
      c.f.assign(tensor.float_data().begin(), tensor.float_data().end());
    }
    return c;
  case onnx::TensorProto::INT64:
    if (hasRaw) {
      if (int64_t(raw.size()) != count * 8)
        return sizeMismatch(raw.size() / 8);
      fromRaw(raw, count, c.i);
    } else {
      if (tensor.int64_data_size() != count)
        return sizeMismatch(tensor.int64_data_size());
      c.i.assign(tensor.int64_data().begin(), tensor.int64_data().end());
    }
    return c;
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT32:
  case onnx::TensorProto::UINT16:
  case onnx::TensorProto::UINT8:
  case onnx::TensorProto::BOOL: {
    // Each value from its type's bits, sign- or zero-extended; the lifted
    // types become INT32 or INT64 (importedDataType).
    const int32_t type = c.dtype;
    const size_t width =
        type == onnx::TensorProto::BOOL ? 1 : integerLayout(type).bits / 8;
    auto valueOf = [type](uint64_t bits) -> int64_t {
      if (type == onnx::TensorProto::BOOL)
        return bits != 0;
      if (type == onnx::TensorProto::INT32)
        return static_cast<int32_t>(static_cast<uint32_t>(bits));
      return wrapToDataType(static_cast<int64_t>(bits), type);
    };
    c.dtype = importedDataType(type);
    // The values present are checked against the dims before anything is
    // allocated: dims of 2^31 elements over a few bytes are an error, not a
    // 16 GiB allocation.
    // (ONNX keeps UINT32 values in uint64_data.)
    const int64_t have = hasRaw ? int64_t(raw.size() / width)
                         : type == onnx::TensorProto::UINT32
                             ? int64_t(tensor.uint64_data_size())
                             : int64_t(tensor.int32_data_size());
    if (have != count || (hasRaw && raw.size() % width != 0))
      return sizeMismatch(have);
    c.i.resize(count);
    for (int64_t k = 0; k < count; ++k) {
      uint64_t bits = 0;
      if (hasRaw)
        std::memcpy(&bits, raw.data() + width * k, width);
      else if (type == onnx::TensorProto::UINT32)
        bits = tensor.uint64_data(k);
      else
        bits =
            static_cast<uint64_t>(static_cast<int64_t>(tensor.int32_data(k)));
      c.i[k] = valueOf(bits);
    }
    return c;
  }
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16: {
    // Widened to f32, exactly. Without raw_data each value's 16 bits are
    // the low half of an int32_data entry.
    bool half = c.dtype == onnx::TensorProto::FLOAT16;
    c.dtype = onnx::TensorProto::FLOAT;
    std::vector<uint16_t> bits;
    if (hasRaw) {
      if (int64_t(raw.size()) != count * 2)
        return sizeMismatch(raw.size() / 2);
      fromRaw(raw, count, bits);
    } else {
      if (tensor.int32_data_size() != count)
        return sizeMismatch(tensor.int32_data_size());
      for (int32_t v : tensor.int32_data())
        bits.push_back(uint16_t(v));
    }
    c.f.reserve(count);
    for (uint16_t b : bits)
      c.f.push_back(half ? amp::runtime::halfBitsToFloat(b)
                         : amp::runtime::bfloat16BitsToFloat(b));
    return c;
  }
  case onnx::TensorProto::DOUBLE:
    // Read as f32 (rounded): doubles appear in constants of shape
    // computations and in models exported in float64.
    c.dtype = onnx::TensorProto::FLOAT;
    if (hasRaw) {
      if (int64_t(raw.size()) != count * 8)
        return sizeMismatch(raw.size() / 8);
      std::vector<double> d;
      fromRaw(raw, count, d);
      c.f.assign(d.begin(), d.end());
    } else {
      if (tensor.double_data_size() != count)
        return sizeMismatch(tensor.double_data_size());
      c.f.assign(tensor.double_data().begin(), tensor.double_data().end());
    }
    return c;
  default:
    error = "its element type " + dataTypeName(c.dtype) + " is not supported";
    return std::nullopt;
  }
}

std::optional<Const> amp::onnx_import::parseConstBytes(llvm::StringRef data,
                                                       llvm::StringRef name,
                                                       std::string &error) {
  onnx::TensorProto tensor;
  if (data.size() > size_t(std::numeric_limits<int>::max()) ||
      !tensor.ParseFromArray(data.data(), int(data.size()))) {
    error = "'" + name.str() + "' is not an ONNX TensorProto file";
    return std::nullopt;
  }
  std::optional<Const> c = readTensorProto(tensor, error);
  if (!c)
    error = "'" + name.str() + "': " + error;
  return c;
}

std::optional<Const> amp::onnx_import::readConstFile(llvm::StringRef path,
                                                     std::string &error) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (std::error_code ec = file.getError()) {
    error = "cannot read '" + path.str() + "': " + ec.message();
    return std::nullopt;
  }
  return parseConstBytes((*file)->getBuffer(), path, error);
}

/// The constant `c` read from `name` (or `error` when there is none) as a
/// host array.
static amp::runner::StatusOr<amp::runner::HostArray>
hostArrayOf(const std::optional<Const> &c, llvm::StringRef name,
            const std::string &error) {
  using amp::runner::ElementType;
  namespace runner = amp::runner;
  if (!c)
    return runner::Status::error(error);
  runner::HostArray array;
  array.shape.assign(c->shape.begin(), c->shape.end());
  auto append = [&](const auto &value) {
    const char *p = reinterpret_cast<const char *>(&value);
    array.bytes.insert(array.bytes.end(), p, p + sizeof(value));
  };
  switch (c->dtype) {
  case onnx::TensorProto::FLOAT: // DOUBLE is read as FLOAT
    array.type = ElementType::F32;
    array.bytes.reserve(c->f.size() * sizeof(float));
    for (float v : c->f)
      append(v);
    return array;
  case onnx::TensorProto::INT64:
    array.type = ElementType::I64;
    array.bytes.reserve(c->i.size() * sizeof(int64_t));
    for (int64_t v : c->i)
      append(v);
    return array;
  case onnx::TensorProto::INT32:
    array.type = ElementType::I32;
    array.bytes.reserve(c->i.size() * sizeof(int32_t));
    for (int64_t v : c->i)
      append(int32_t(v));
    return array;
  case onnx::TensorProto::BOOL:
    array.type = ElementType::I1;
    for (int64_t v : c->i)
      array.bytes.push_back(v != 0);
    return array;
  default:
    return runner::Status::error("'" + name.str() + "': element type " +
                                 dataTypeName(c->dtype) +
                                 " is not supported");
  }
}

amp::runner::StatusOr<amp::runner::HostArray>
amp::parseONNXTensor(llvm::StringRef data, llvm::StringRef name) {
  std::string error;
  std::optional<Const> c = parseConstBytes(data, name, error);
  return hostArrayOf(c, name, error);
}

amp::runner::StatusOr<amp::runner::HostArray>
amp::readONNXTensorFile(llvm::StringRef path) {
  std::string error;
  std::optional<Const> c = readConstFile(path, error);
  return hostArrayOf(c, path, error);
}

void amp::onnx_import::releaseData(onnx::TensorProto &tensor) {
  // Swapped with empty fields: clear() keeps their capacity.
  std::string().swap(*tensor.mutable_raw_data());
  google::protobuf::RepeatedField<float>().Swap(tensor.mutable_float_data());
  google::protobuf::RepeatedField<double>().Swap(tensor.mutable_double_data());
  google::protobuf::RepeatedField<int32_t>().Swap(tensor.mutable_int32_data());
  google::protobuf::RepeatedField<int64_t>().Swap(tensor.mutable_int64_data());
  google::protobuf::RepeatedField<uint64_t>().Swap(
      tensor.mutable_uint64_data());
  google::protobuf::RepeatedPtrField<std::string>().Swap(
      tensor.mutable_string_data());
}
