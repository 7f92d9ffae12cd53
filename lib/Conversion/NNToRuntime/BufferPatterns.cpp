//===- BufferPatterns.cpp - constants and copies to runtime calls ---------===//
//
// Tensor constants are copied from a module global into a runtime buffer
// (device memory on the GPU) on each call; splats that amp_fill stores
// exactly are filled instead (getFillValue), so a splat of any size costs
// one call and no bytes in the module. Other splats (a NaN with its
// payload, an integer beyond 2^24) keep one element in the module, copied
// into a one-element buffer and broadcast: a few bytes at any size.
// tensor.empty and linalg.copy are the explicit copies that buffer ownership
// inserts (BufferOwnership.cpp): a fresh buffer and amp_memcpy into it.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace amp;
using runtime_abi::RuntimeFn;

namespace {

struct ConstantLowering : RuntimeOpLowering<arith::ConstantOp> {
  void lower(arith::ConstantOp op, Adaptor, RuntimeBuilder &rb,
             ValueRange results) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto data = cast<DenseElementsAttr>(op.getValue());
    if (std::optional<float> value = getFillValue(data)) {
      rb.call(RuntimeFn::amp_fill,
              {results[0], rb.i64(type.getNumElements()), rb.dtype(type),
               rb.f32(*value), rb.stream()});
      return;
    }
    if (data.isSplat() && type.getNumElements() > 1) {
      auto one = RankedTensorType::get({1}, type.getElementType());
      Value element = rb.alloc(one); // freed by amp-runtime-deallocate
      rb.call(RuntimeFn::amp_memcpy,
              {element, global(rb, data.resizeSplat(one)),
               rb.i64(getRuntimeBufferBytes(one)), rb.stream()});
      rb.call(RuntimeFn::amp_broadcast_to,
              {element, results[0], rb.i64Array({1}), rb.i32(1),
               rb.i64Array(type.getShape()), rb.i32(type.getRank()),
               rb.dtype(type), rb.stream()});
      return;
    }
    rb.call(RuntimeFn::amp_memcpy,
            {results[0], global(rb, data), rb.i64(getRuntimeBufferBytes(type)),
             rb.stream()});
  }

  /// The constant's bytes in an internal global, shared by equal constants.
  /// A splat reaching here has one element, which its raw data holds.
  static Value global(RuntimeBuilder &rb, DenseElementsAttr data) {
    std::string raw;
    if (data.getElementType().isInteger(1)) {
      for (bool v : data.getValues<bool>())
        raw.push_back(v ? 1 : 0);
    } else {
      ArrayRef<char> bytes = data.getRawData();
      raw.assign(bytes.begin(), bytes.end());
    }
    return rb.constantBytes(raw);
  }
};

struct EmptyLowering : RuntimeOpLowering<tensor::EmptyOp> {
  void lower(tensor::EmptyOp, Adaptor, RuntimeBuilder &,
             ValueRange) const override {}
};

/// linalg.copy ins(%x) outs(%buf): the result is %buf's buffer.
/// (A copy of memrefs cannot reach here: checkLowerable admits no memref.)
struct CopyLowering : TypedLowering<linalg::CopyOp> {
  LogicalResult apply(Operation *op, BufferMap &buffers,
                      RuntimeBuilder &rb) const override {
    auto copy = cast<linalg::CopyOp>(op);
    Value dst = buffers.lookup(copy.getOutputs()[0]);
    auto type = cast<RankedTensorType>(copy.getResult(0).getType());
    rb.call(RuntimeFn::amp_memcpy,
            {dst, buffers.lookup(copy.getInputs()[0]),
             rb.i64(getRuntimeBufferBytes(type)), rb.stream()});
    buffers.replace(op, dst);
    return success();
  }
};

} // namespace

void amp::addBufferLowerings(LoweringTable &table) {
  table.add<ConstantLowering, EmptyLowering, CopyLowering>();
}
