//===- RuntimeBuilder.h - helpers of the runtime lowerings -----*- C++ -*-===//
//
// What every op lowering of amp-lower-to-runtime builds: constants of the ABI's
// types, shape arrays, buffer allocations and calls through the ABI table.
// Private to lib/Conversion/NNToRuntime.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_NNTORUNTIME_RUNTIMEBUILDER_H
#define AMP_LIB_CONVERSION_NNTORUNTIME_RUNTIMEBUILDER_H

#include "amp/Conversion/NNToRuntime/RuntimeABI.h"

#include "amp_runtime/amp_runtime.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace amp {

/// The amp_dtype_t of a tensor element type, if the runtime has one.
std::optional<amp_dtype_t> getRuntimeDtype(mlir::Type elementType);

/// Bytes of one element in a runtime buffer (amp_dtype_size: an i1 is one
/// byte).
int64_t getRuntimeElementBytes(mlir::Type elementType);

/// Bytes of a whole static tensor.
int64_t getRuntimeBufferBytes(mlir::RankedTensorType type);

/// The element count of a static tensor value.
int64_t getNumElements(mlir::Value tensor);

/// `axis` of a tensor value counted from the front (negative axes count from
/// the end).
int64_t normalizeAxis(int64_t axis, mlir::Value tensor);

/// Whether the runtime can hold `type` in a buffer: a static tensor of f32,
/// f16, bf16, i32, i64 or i1.
bool isRuntimeTensorType(mlir::Type type);

/// The value amp_fill writes for a splat tensor constant, when it stores
/// exactly the constant's elements: a float splat that is not a NaN (whose
/// payload could change), an integer splat of magnitude at most 2^24, a bool
/// splat. Other splats are one element broadcast, other constants are
/// copied from their bytes in a global.
std::optional<float> getFillValue(mlir::DenseElementsAttr data);

/// Builds the pieces of runtime calls at the builder's insertion point.
class RuntimeBuilder {
public:
  /// Builds at `b`'s insertion point with `loc`; calls go to `callees`.
  RuntimeBuilder(mlir::OpBuilder &b, mlir::Location loc,
                 runtime_abi::RuntimeCallees &callees);

  mlir::Value i64(int64_t v);
  mlir::Value i32(int64_t v);
  mlir::Value f32(double v);
  mlir::Value f64(double v);
  mlir::Value null();
  /// The `stream` argument: the backend's default stream.
  mlir::Value stream() { return null(); }
  /// The amp_dtype_t of a tensor's element type.
  mlir::Value dtype(mlir::Type tensorOrElementType);
  /// A constant int64_t array (shapes, perms, axes) in a module global, or
  /// null when empty.
  mlir::Value i64Array(llvm::ArrayRef<int64_t> values);
  /// The address of an internal constant global holding `bytes` (an i8
  /// array); equal byte strings share one global.
  mlir::Value constantBytes(llvm::StringRef bytes);
  /// The dims and the rank of a tensor's static shape.
  mlir::Value dims(mlir::Value tensor);
  mlir::Value rank(mlir::Value tensor);
  /// A stack array of pointers, as a placeholder that amp-lower-to-runtime's
  /// entry point materializes (PointerArrays.h).
  mlir::Value ptrArray(mlir::ValueRange values);
  /// A stack array of pointers, stored element by element.
  mlir::Value storedPtrArray(mlir::ValueRange values);
  /// A stack array of `size` pointers, not yet stored.
  mlir::Value uninitializedPtrArray(int64_t size);
  /// A constant int32_t array (amp_dtype_t lists) in a module global, or
  /// null when empty.
  mlir::Value i32Array(llvm::ArrayRef<int64_t> values);
  /// The arrays of a call over a list of buffers (amp_clip_grad_norm,
  /// amp_unscale_and_check): input and output pointers, the element counts
  /// and dtypes of `tensors`, and their count.
  struct BufferLists {
    mlir::Value inputs, outputs, sizes, dtypes, count;
  };
  BufferLists bufferLists(mlir::ValueRange tensors, mlir::ValueRange inputs,
                          mlir::ValueRange outputs);
  /// An uninitialized buffer for a tensor of `type` (amp_alloc).
  mlir::Value alloc(mlir::RankedTensorType type);
  /// Calls a runtime function; returns its result.
  mlir::Value call(runtime_abi::RuntimeFn fn, mlir::ValueRange args);

  mlir::OpBuilder &builder() { return b; }
  mlir::Location location() const { return loc; }

private:
  /// A scalar constant, built once per builder: an op's calls share their
  /// constants (the pass unifies them across ops at the end, see
  /// ConstantUniquing.cpp).
  mlir::Value constant(mlir::TypedAttr value);
  /// A constant global array of `type` holding `values`, or null when
  /// empty; equal arrays share one global.
  mlir::Value intArray(mlir::IntegerType type, llvm::ArrayRef<int64_t> values);
  /// The address of the internal constant global `base` (or `base_N`) of
  /// `type` holding `value`: one global per distinct value.
  mlir::Value constantGlobal(const std::string &base, mlir::Type type,
                             mlir::Attribute value);

  mlir::OpBuilder &b;
  mlir::Location loc;
  runtime_abi::RuntimeCallees &callees;
  mlir::Type ptrTy, i64Ty, i32Ty;
  llvm::DenseMap<mlir::Attribute, mlir::Value> constants;
  mlir::Value nullPtr;
};

/// Allocates the buffers of `op`'s results and returns them, for lowerings
/// whose results are all fresh buffers.
llvm::SmallVector<mlir::Value> allocResults(RuntimeBuilder &rb,
                                            mlir::Operation *op);

} // namespace amp

#endif // AMP_LIB_CONVERSION_NNTORUNTIME_RUNTIMEBUILDER_H
