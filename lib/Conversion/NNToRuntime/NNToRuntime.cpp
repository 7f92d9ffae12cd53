//===- NNToRuntime.cpp - lower training steps to runtime calls ------------===//
//
// amp-lower-to-runtime. Shapes are static, so every tensor becomes one
// dense buffer (an !llvm.ptr) and every op one call into the runtime's C
// ABI with its shapes as constant arrays. The function is rebuilt op by op
// into an llvm.func: no bufferization framework is needed because nothing
// is ever updated in place except through the runtime's documented aliasing
// (reshape and region results share their source's buffer).
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/NNToRuntime/NNToRuntime.h"

#include "amp/Conversion/MatmulToCublasLt/MatmulToCublasLt.h"
#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Dialect/NN/IR/NNOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace amp {
#define GEN_PASS_DEF_LOWERTORUNTIME
#include "amp/Conversion/Passes.h.inc"
} // namespace amp

using namespace mlir;
using namespace amp;

namespace {

/// amp_dtype_t values (runtime/include/amp_runtime/amp_runtime.h).
std::optional<int32_t> runtimeDtype(Type t) {
  if (t.isF32())
    return 0;
  if (t.isF16())
    return 1;
  if (t.isBF16())
    return 2;
  if (t.isInteger(32))
    return 3;
  if (t.isInteger(64))
    return 4;
  return std::nullopt;
}

int64_t elementBytes(Type t) {
  if (t.isInteger(1))
    return 1; // found_inf flags are int8_t
  return (t.getIntOrFloatBitWidth() + 7) / 8;
}

RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// Rebuilds one func.func as an llvm.func calling the runtime.
class FunctionLowering {
public:
  FunctionLowering(ModuleOp module, func::FuncOp fn)
      : module(module), fn(fn), ctx(fn.getContext()), b(ctx),
        ptrTy(LLVM::LLVMPointerType::get(ctx)), i64Ty(b.getI64Type()),
        i32Ty(b.getI32Type()) {}

  LogicalResult run();

private:
  // Declarations and constants.
  LLVM::LLVMFuncOp declare(StringRef name, Type result, ArrayRef<Type> args);
  Value i64(int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i64Ty, b.getI64IntegerAttr(v));
  }
  Value i32(int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i32Ty, b.getI32IntegerAttr(v));
  }
  Value f32(double v) {
    return LLVM::ConstantOp::create(b, loc, b.getF32Type(),
                                    b.getF32FloatAttr(static_cast<float>(v)));
  }
  Value f64(double v) {
    return LLVM::ConstantOp::create(b, loc, b.getF64Type(),
                                    b.getF64FloatAttr(v));
  }
  Value null() { return LLVM::ZeroOp::create(b, loc, ptrTy); }
  Value dtype(Type elem) { return i32(*runtimeDtype(elem)); }
  /// A constant i64 array (shape, perm, axes...) in a global.
  Value i64Array(ArrayRef<int64_t> values);
  /// A stack array of pointers.
  Value ptrArray(ArrayRef<Value> values);
  Value stringGlobal(StringRef text);

  // Calls.
  /// Calls `name` (declared from the argument types, returning i32) and
  /// branches to a failure exit when the status is not 0.
  void call(StringRef name, ArrayRef<Value> args);
  void checkStatus(Value status);

  // Buffers.
  Value bufferOf(Value tensor);
  Value allocate(Value result);
  Value owner(Value v);

  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerRegionOp(Operation *op, Region &region, Value predicate);

  ModuleOp module;
  func::FuncOp fn;
  MLIRContext *ctx;
  OpBuilder b;
  Location loc = UnknownLoc::get(fn.getContext());
  Type ptrTy, i64Ty, i32Ty;

  LLVM::LLVMFuncOp newFn;
  Value stream;    // always null: the runtime's default stream
  Value predicate; // found_inf inside amp.skip_step_if, else null
  llvm::DenseMap<Value, Value> buffers;
  llvm::DenseMap<Value, Value> destinations; // owner -> result buffer
  llvm::SetVector<Value> owned;               // buffers this function frees
  llvm::DenseMap<Value, Operation *> lastUse; // owner -> top-level op
  unsigned constantCount = 0;
};

} // namespace

LLVM::LLVMFuncOp FunctionLowering::declare(StringRef name, Type result,
                                           ArrayRef<Type> args) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(
      b, loc, name, LLVM::LLVMFunctionType::get(result, args));
}

Value FunctionLowering::i64Array(ArrayRef<int64_t> values) {
  if (values.empty())
    return null();
  std::string name = "__amp_i64";
  for (int64_t v : values)
    name += "_" + (v < 0 ? "m" + std::to_string(-v) : std::to_string(v));
  if (!module.lookupSymbol(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(i64Ty, values.size());
    LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                           LLVM::Linkage::Internal, name,
                           b.getI64TensorAttr(values));
  }
  return LLVM::AddressOfOp::create(b, loc, ptrTy, name);
}

Value FunctionLowering::stringGlobal(StringRef text) {
  std::string name =
      "__amp_site_" + std::to_string(static_cast<size_t>(llvm::hash_value(text)));
  if (!module.lookupSymbol(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    std::string data = text.str();
    data.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
    LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                           LLVM::Linkage::Internal, name,
                           b.getStringAttr(data));
  }
  return LLVM::AddressOfOp::create(b, loc, ptrTy, name);
}

Value FunctionLowering::ptrArray(ArrayRef<Value> values) {
  auto arrayTy = LLVM::LLVMArrayType::get(ptrTy, values.size());
  Value array = LLVM::UndefOp::create(b, loc, arrayTy);
  for (auto [i, v] : llvm::enumerate(values))
    array = LLVM::InsertValueOp::create(b, loc, array, v, i);
  Value slot = LLVM::AllocaOp::create(b, loc, ptrTy, arrayTy, i64(1));
  LLVM::StoreOp::create(b, loc, array, slot);
  return slot;
}

void FunctionLowering::checkStatus(Value status) {
  Value zero = i32(0);
  Value ok = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, status, zero);
  Region &body = newFn.getBody();
  Block *current = b.getInsertionBlock();
  Block *next = b.createBlock(&body, body.end());
  Block *fail = b.createBlock(&body, body.end());
  b.setInsertionPointToEnd(fail);
  // "file:line:col" (or the name of a NameLoc) of the op being lowered.
  std::string site;
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    site = (file.getFilename().getValue() + ":" + Twine(file.getLine()) +
            ":" + Twine(file.getColumn()))
               .str();
  else if (auto name = dyn_cast<NameLoc>(loc))
    site = name.getName().str();
  else {
    llvm::raw_string_ostream os(site);
    loc.print(os);
  }
  Value siteStr = stringGlobal(site);
  Value siteGlobal =
      LLVM::AddressOfOp::create(b, loc, ptrTy, kErrorSiteGlobal);
  LLVM::StoreOp::create(b, loc, siteStr, siteGlobal);
  LLVM::ReturnOp::create(b, loc, status);
  b.setInsertionPointToEnd(current);
  LLVM::CondBrOp::create(b, loc, ok, next, fail);
  b.setInsertionPointToEnd(next);
}

void FunctionLowering::call(StringRef name, ArrayRef<Value> args) {
  SmallVector<Type> types;
  for (Value a : args)
    types.push_back(a.getType());
  LLVM::LLVMFuncOp callee = declare(name, i32Ty, types);
  auto op = LLVM::CallOp::create(b, loc, callee, args);
  checkStatus(op.getResult());
}

Value FunctionLowering::owner(Value v) {
  // Region results alias what their region yields; a reshape aliases its
  // input (same elements, same order).
  if (auto result = dyn_cast<OpResult>(v)) {
    Operation *def = result.getOwner();
    if (isa<SkipStepIfOp, AutocastOp>(def))
      return owner(def->getRegion(0).front().getTerminator()->getOperand(
          result.getResultNumber()));
    if (auto reshape = dyn_cast<nn::ReshapeOp>(def))
      return owner(reshape.getInput());
  }
  return v;
}

Value FunctionLowering::bufferOf(Value tensor) {
  return buffers.lookup(owner(tensor));
}

Value FunctionLowering::allocate(Value result) {
  Value key = owner(result);
  if (Value existing = buffers.lookup(key))
    return existing;
  Value buffer = destinations.lookup(key);
  if (!buffer) {
    RankedTensorType type = tensorType(result);
    int64_t bytes = type.getNumElements() * elementBytes(type.getElementType());
    LLVM::LLVMFuncOp alloc = declare("amp_alloc", ptrTy, {i64Ty, ptrTy});
    buffer = LLVM::CallOp::create(b, loc, alloc, ValueRange{i64(bytes), stream})
                 .getResult();
    // A null buffer is an out-of-memory failure (AMP_STATUS_BACKEND_ERROR).
    Value isNull = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                        buffer, null());
    Value status = LLVM::SelectOp::create(b, loc, isNull, i32(3), i32(0));
    checkStatus(status);
    owned.insert(key);
  }
  buffers[key] = buffer;
  return buffer;
}

LogicalResult FunctionLowering::lowerRegionOp(Operation *op, Region &region,
                                              Value pred) {
  Value saved = predicate;
  predicate = pred;
  for (Operation &inner : region.front().without_terminator())
    if (failed(lowerOp(&inner)))
      return failure();
  predicate = saved;
  (void)op;
  return success();
}

LogicalResult FunctionLowering::lowerOp(Operation *op) {
  loc = op->getLoc();
  auto n = [](Value v) { return tensorType(v).getNumElements(); };
  auto elem = [](Value v) { return tensorType(v).getElementType(); };
  auto dims = [&](Value v) { return i64Array(tensorType(v).getShape()); };
  auto rank = [&](Value v) { return i32(tensorType(v).getRank()); };
  auto in = [&](Value v) { return bufferOf(v); };
  auto out = [&](Value v) { return allocate(v); };
  auto pred = [&]() { return predicate ? predicate : null(); };

  // Values the op only passes through.
  if (isa<nn::ReshapeOp>(op))
    return success();
  if (auto skip = dyn_cast<SkipStepIfOp>(op))
    return lowerRegionOp(op, skip.getBody(), in(skip.getFoundInf()));
  if (auto autocast = dyn_cast<AutocastOp>(op))
    return lowerRegionOp(op, autocast.getBody(), predicate);

  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto type = dyn_cast<RankedTensorType>(constant.getType());
    if (!type)
      return success(); // scalars are only used as attributes
    auto data = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!data || !runtimeDtype(type.getElementType()))
      return op->emitError("amp-lower-to-runtime: unsupported constant");
    // Copy the data into a runtime buffer (device memory on the GPU).
    std::string name = "__amp_const_" + fn.getSymName().str() + "_" +
                       std::to_string(constantCount++);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      int64_t bytes = type.getNumElements() * elementBytes(type.getElementType());
      auto arrayTy = LLVM::LLVMArrayType::get(b.getI8Type(), bytes);
      std::string raw(data.getRawData().begin(), data.getRawData().end());
      if (data.isSplat()) {
        std::string one = raw;
        raw.clear();
        for (int64_t i = 0; i < type.getNumElements(); ++i)
          raw += one;
      }
      LLVM::GlobalOp::create(
          b, loc, arrayTy, /*isConstant=*/true, LLVM::Linkage::Internal, name,
          b.getStringAttr(StringRef(raw.data(), raw.size())));
    }
    Value src = LLVM::AddressOfOp::create(b, loc, ptrTy, name);
    int64_t bytes = type.getNumElements() * elementBytes(type.getElementType());
    call("amp_memcpy", {out(constant.getResult()), src, i64(bytes), stream});
    return success();
  }

  if (auto cast = dyn_cast<CastOp>(op)) {
    call("amp_cast", {in(cast.getInput()), out(cast.getResult()),
                      i64(n(cast.getInput())), dtype(elem(cast.getInput())),
                      dtype(elem(cast.getResult())), stream});
    return success();
  }

  // Elementwise.
  std::optional<int64_t> unary =
      llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
          .Case([](nn::NegOp) { return 0; })
          .Case([](nn::ExpOp) { return 1; })
          .Case([](nn::LogOp) { return 2; })
          .Case([](nn::SqrtOp) { return 3; })
          .Case([](nn::RsqrtOp) { return 4; })
          .Case([](nn::TanhOp) { return 5; })
          .Case([](nn::SigmoidOp) { return 6; })
          .Case([](nn::ReluOp) { return 7; })
          .Case([](nn::GeluOp) { return 8; })
          .Default([](Operation *) { return std::nullopt; });
  if (unary) {
    Value x = op->getOperand(0), y = op->getResult(0);
    call("amp_unary", {i32(*unary), in(x), out(y), i64(n(x)), dtype(elem(x)),
                       stream});
    return success();
  }
  std::optional<int64_t> binary =
      llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
          .Case([](nn::AddOp) { return 0; })
          .Case([](nn::SubOp) { return 1; })
          .Case([](nn::MulOp) { return 2; })
          .Case([](nn::DivOp) { return 3; })
          .Default([](Operation *) { return std::nullopt; });
  if (binary) {
    Value l = op->getOperand(0), r = op->getOperand(1), y = op->getResult(0);
    call("amp_binary", {i32(*binary), in(l), in(r), out(y), dims(l), rank(l),
                        dims(r), rank(r), dims(y), rank(y), dtype(elem(y)),
                        stream});
    return success();
  }
  if (isa<nn::ReluGradOp, nn::GeluGradOp>(op)) {
    Value dy = op->getOperand(0), x = op->getOperand(1), dx = op->getResult(0);
    call(isa<nn::ReluGradOp>(op) ? "amp_relu_grad" : "amp_gelu_grad",
         {in(dy), in(x), out(dx), i64(n(x)), dtype(elem(x)), stream});
    return success();
  }
  if (auto seed = dyn_cast<nn::GradSeedOp>(op)) {
    call("amp_fill", {out(seed.getResult()), i64(n(seed.getResult())),
                      dtype(elem(seed.getResult())), f32(1.0), stream});
    return success();
  }
  if (auto seed = dyn_cast<ScaledGradSeedOp>(op)) {
    call("amp_scaled_grad_seed",
         {in(seed.getScale()), out(seed.getResult()), i64(n(seed.getResult())),
          dtype(elem(seed.getResult())), stream});
    return success();
  }

  // Shapes.
  if (auto t = dyn_cast<nn::TransposeOp>(op)) {
    call("amp_transpose", {in(t.getInput()), out(t.getResult()),
                           dims(t.getInput()), rank(t.getInput()),
                           i64Array(t.getPerm()), dtype(elem(t.getInput())),
                           stream});
    return success();
  }
  if (auto bc = dyn_cast<nn::BroadcastToOp>(op)) {
    call("amp_broadcast_to",
         {in(bc.getInput()), out(bc.getResult()), dims(bc.getInput()),
          rank(bc.getInput()), dims(bc.getResult()), rank(bc.getResult()),
          dtype(elem(bc.getInput())), stream});
    return success();
  }

  // Reductions, softmax.
  std::optional<int64_t> reduce =
      llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
          .Case([](nn::ReduceSumOp) { return 0; })
          .Case([](nn::ReduceMeanOp) { return 1; })
          .Case([](nn::ReduceMaxOp) { return 2; })
          .Default([](Operation *) { return std::nullopt; });
  if (reduce) {
    Value x = op->getOperand(0), y = op->getResult(0);
    int64_t r = tensorType(x).getRank();
    SmallVector<int64_t> axes;
    for (int64_t a : op->getAttrOfType<DenseI64ArrayAttr>("axes").asArrayRef())
      axes.push_back(a < 0 ? a + r : a);
    call("amp_reduce", {i32(*reduce), in(x), out(y), dims(x), rank(x),
                        i64Array(axes), i32(axes.size()), dtype(elem(x)),
                        dtype(elem(y)), stream});
    return success();
  }
  auto normAxis = [](int64_t axis, Value v) {
    return axis < 0 ? axis + tensorType(v).getRank() : axis;
  };
  if (isa<nn::SoftmaxOp, nn::LogSoftmaxOp>(op)) {
    Value x = op->getOperand(0), y = op->getResult(0);
    int64_t axis = normAxis(op->getAttrOfType<IntegerAttr>("axis").getInt(), x);
    call(isa<nn::SoftmaxOp>(op) ? "amp_softmax" : "amp_log_softmax",
         {in(x), out(y), dims(x), rank(x), dtype(elem(x)), i64(axis), stream});
    return success();
  }
  if (auto g = dyn_cast<nn::SoftmaxGradOp>(op)) {
    int64_t axis = normAxis(g.getAxis(), g.getOutput());
    call("amp_softmax_grad",
         {in(g.getGradOutput()), in(g.getOutput()), out(g.getResult()),
          dims(g.getOutput()), rank(g.getOutput()), dtype(elem(g.getOutput())),
          i64(axis), stream});
    return success();
  }

  // Normalizations.
  if (auto ln = dyn_cast<nn::LayerNormOp>(op)) {
    Value x = ln.getInput();
    call("amp_layer_norm",
         {in(x), in(ln.getScale()), in(ln.getBias()), out(ln.getResult()),
          out(ln.getMean()), out(ln.getRstd()), dims(x), rank(x),
          dtype(elem(x)), dtype(elem(ln.getScale())), dtype(elem(ln.getBias())),
          i64(normAxis(ln.getAxis(), x)),
          f32(ln.getEpsilon().convertToDouble()), stream});
    return success();
  }
  if (auto g = dyn_cast<nn::LayerNormGradOp>(op)) {
    Value x = g.getInput();
    call("amp_layer_norm_grad",
         {in(g.getGradOutput()), in(x), in(g.getMean()), in(g.getRstd()),
          in(g.getScale()), out(g.getGradInput()), out(g.getGradScale()),
          out(g.getGradBias()), dims(x), rank(x), dtype(elem(x)),
          dtype(elem(g.getScale())), i64(normAxis(g.getAxis(), x)), stream});
    return success();
  }
  if (auto bn = dyn_cast<nn::BatchNormOp>(op)) {
    Value x = bn.getInput();
    call("amp_batch_norm",
         {in(x), in(bn.getScale()), in(bn.getBias()), out(bn.getResult()),
          out(bn.getMean()), out(bn.getInvstd()), dims(x), rank(x),
          dtype(elem(x)), dtype(elem(bn.getScale())), dtype(elem(bn.getBias())),
          f32(bn.getEpsilon().convertToDouble()), stream});
    return success();
  }
  if (auto g = dyn_cast<nn::BatchNormGradOp>(op)) {
    Value x = g.getInput();
    call("amp_batch_norm_grad",
         {in(g.getGradOutput()), in(x), in(g.getMean()), in(g.getInvstd()),
          in(g.getScale()), out(g.getGradInput()), out(g.getGradScale()),
          out(g.getGradBias()), dims(x), rank(x), dtype(elem(x)),
          dtype(elem(g.getScale())), stream});
    return success();
  }

  // Convolutions: the three shapes are (input, filter, output).
  auto convCall = [&](StringRef name, Value a, Value bIn, Value result,
                      Value xShape, Value wShape, Value yShape,
                      ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
                      ArrayRef<int64_t> dilation, int64_t groups) {
    call(name, {in(a), in(bIn), out(result), dims(xShape), dims(wShape),
                dims(yShape), dtype(elem(a)), dtype(elem(result)),
                i64Array(strides), i64Array(padding), i64Array(dilation),
                i64(groups), stream});
  };
  if (auto c = dyn_cast<nn::Conv2DOp>(op)) {
    convCall("amp_conv2d", c.getInput(), c.getFilter(), c.getResult(),
             c.getInput(), c.getFilter(), c.getResult(), c.getStrides(),
             c.getPadding(), c.getDilation(), c.getGroups());
    return success();
  }
  if (auto c = dyn_cast<nn::Conv2DGradInputOp>(op)) {
    convCall("amp_conv2d_grad_input", c.getGradOutput(), c.getFilter(),
             c.getResult(), c.getResult(), c.getFilter(), c.getGradOutput(),
             c.getStrides(), c.getPadding(), c.getDilation(), c.getGroups());
    return success();
  }
  if (auto c = dyn_cast<nn::Conv2DGradFilterOp>(op)) {
    convCall("amp_conv2d_grad_filter", c.getGradOutput(), c.getInput(),
             c.getResult(), c.getInput(), c.getResult(), c.getGradOutput(),
             c.getStrides(), c.getPadding(), c.getDilation(), c.getGroups());
    return success();
  }

  // Embeddings and losses.
  if (auto e = dyn_cast<nn::EmbeddingOp>(op)) {
    RankedTensorType table = tensorType(e.getTable());
    call("amp_embedding",
         {in(e.getTable()), in(e.getIds()), out(e.getResult()),
          i64(table.getDimSize(0)), i64(table.getDimSize(1)),
          i64(n(e.getIds())), dtype(table.getElementType()),
          dtype(elem(e.getIds())), stream});
    return success();
  }
  if (auto e = dyn_cast<nn::EmbeddingGradOp>(op)) {
    RankedTensorType table = tensorType(e.getResult());
    call("amp_embedding_grad",
         {in(e.getGradOutput()), in(e.getIds()), out(e.getResult()),
          i64(table.getDimSize(0)), i64(table.getDimSize(1)),
          i64(n(e.getIds())), dtype(elem(e.getGradOutput())),
          dtype(elem(e.getIds())), dtype(table.getElementType()), stream});
    return success();
  }
  if (auto ce = dyn_cast<nn::CrossEntropyOp>(op)) {
    RankedTensorType logits = tensorType(ce.getLogits());
    int64_t classes = logits.getShape().back();
    call("amp_cross_entropy",
         {in(ce.getLogits()), in(ce.getLabels()), out(ce.getLoss()),
          i64(logits.getNumElements() / classes), i64(classes),
          dtype(logits.getElementType()), dtype(elem(ce.getLabels())), stream});
    return success();
  }
  if (auto g = dyn_cast<nn::CrossEntropyGradOp>(op)) {
    RankedTensorType logits = tensorType(g.getLogits());
    int64_t classes = logits.getShape().back();
    call("amp_cross_entropy_grad",
         {in(g.getGradLoss()), in(g.getLogits()), in(g.getLabels()),
          out(g.getResult()), i64(logits.getNumElements() / classes),
          i64(classes), dtype(elem(g.getGradLoss())),
          dtype(logits.getElementType()), dtype(elem(g.getLabels())), stream});
    return success();
  }

  // Optimizers; inside amp.skip_step_if they get the found_inf predicate.
  if (auto sgd = dyn_cast<nn::SgdUpdateOp>(op)) {
    Value buf = sgd.getMomentumBuffer();
    Value newBuf = sgd.getNewMomentumBuffer();
    call("amp_sgd_update",
         {in(sgd.getParam()), in(sgd.getGrad()), buf ? in(buf) : null(),
          out(sgd.getNewParam()), newBuf ? out(newBuf) : null(),
          i64(n(sgd.getParam())), dtype(elem(sgd.getParam())),
          f32(sgd.getLr().convertToDouble()),
          f32(sgd.getMomentum().convertToDouble()),
          f32(sgd.getDampening().convertToDouble()),
          f32(sgd.getWeightDecay().convertToDouble()),
          i32(sgd.getNesterov() ? 1 : 0), pred(), stream});
    return success();
  }
  if (auto adam = dyn_cast<nn::AdamUpdateOp>(op)) {
    call("amp_adam_update",
         {in(adam.getParam()), in(adam.getGrad()), in(adam.getExpAvg()),
          in(adam.getExpAvgSq()), in(adam.getStep()), out(adam.getNewParam()),
          out(adam.getNewExpAvg()), out(adam.getNewExpAvgSq()),
          out(adam.getNewStep()), i64(n(adam.getParam())),
          dtype(elem(adam.getParam())), f32(adam.getLr().convertToDouble()),
          f32(adam.getBeta1().convertToDouble()),
          f32(adam.getBeta2().convertToDouble()),
          f32(adam.getEps().convertToDouble()),
          f32(adam.getWeightDecay().convertToDouble()), pred(), stream});
    return success();
  }
  // Multi-buffer ops: arrays of pointers, sizes and dtypes.
  auto bufferLists = [&](ValueRange inputs, ValueRange outputs) {
    SmallVector<Value> ins, outs;
    SmallVector<int64_t> sizes;
    SmallVector<int64_t> dtypes;
    for (auto [i, o] : llvm::zip(inputs, outputs)) {
      ins.push_back(in(i));
      outs.push_back(out(o));
      sizes.push_back(n(i));
      dtypes.push_back(*runtimeDtype(elem(i)));
    }
    // amp_dtype_t is a 32-bit enum: pass an i32 array.
    auto arrayTy = LLVM::LLVMArrayType::get(i32Ty, dtypes.size());
    Value arr = LLVM::UndefOp::create(b, loc, arrayTy);
    for (auto [k, d] : llvm::enumerate(dtypes))
      arr = LLVM::InsertValueOp::create(b, loc, arr, i32(d), k);
    Value dtypeSlot = LLVM::AllocaOp::create(b, loc, ptrTy, arrayTy, i64(1));
    LLVM::StoreOp::create(b, loc, arr, dtypeSlot);
    return std::make_tuple(ptrArray(ins), ptrArray(outs), i64Array(sizes),
                           dtypeSlot, i32(inputs.size()));
  };
  if (auto clip = dyn_cast<nn::ClipGradNormOp>(op)) {
    auto [ins, outs, sizes, dtypes, count] =
        bufferLists(clip.getGrads(), clip.getClipped());
    call("amp_clip_grad_norm",
         {count, ins, outs, sizes, dtypes,
          f32(clip.getMaxNorm().convertToDouble()), out(clip.getTotalNorm()),
          stream});
    return success();
  }
  if (auto check = dyn_cast<UnscaleAndCheckOp>(op)) {
    auto [ins, outs, sizes, dtypes, count] =
        bufferLists(check.getGrads(), check.getUnscaled());
    call("amp_unscale_and_check", {count, ins, outs, sizes, dtypes,
                                   in(check.getScale()),
                                   out(check.getFoundInf()), stream});
    return success();
  }
  if (auto update = dyn_cast<UpdateScaleOp>(op)) {
    Value hyst = update.getHysteresisTracker();
    Value newHyst = update.getNewHysteresisTracker();
    float maxScale = update.getMaxScaleAttr()
                         ? update.getMaxScaleAttr().getValue().convertToFloat()
                         : std::numeric_limits<float>::infinity();
    call("amp_update_scale",
         {in(update.getScale()), in(update.getGrowthTracker()),
          hyst ? in(hyst) : null(), in(update.getFoundInf()),
          out(update.getNewScale()), out(update.getNewGrowthTracker()),
          newHyst ? out(newHyst) : null(),
          f64(update.getGrowthFactor().convertToDouble()),
          f64(update.getBackoffFactor().convertToDouble()),
          i32(update.getGrowthInterval()),
          f32(update.getMinScale().convertToDouble()), f32(maxScale),
          i32(update.getHysteresis()), stream});
    return success();
  }

  // The GEMM: fill amp_gemm_desc_t (runtime/include/amp_runtime/gemm.h).
  if (auto gemm = dyn_cast<GemmOp>(op)) {
    GemmOp::Layout l = gemm.getLayout();
    SmallVector<Type> fields(6, ptrTy);
    fields.append(15, i64Ty);
    fields.append(2, b.getF32Type());
    fields.append(6, i32Ty);
    auto descTy = LLVM::LLVMStructType::getLiteral(ctx, fields);
    Value aux = gemm.getAux() ? in(gemm.getAux())
                : gemm.getAuxOut() ? out(gemm.getAuxOut())
                                   : null();
    Value bias = gemm.getBias() ? in(gemm.getBias())
                 : gemm.getBiasGrad() ? out(gemm.getBiasGrad())
                                      : null();
    Value c = gemm.getC() ? in(gemm.getC()) : null();
    SmallVector<Value> values = {
        in(gemm.getA()), in(gemm.getB()), c, out(gemm.getD()), bias, aux,
        i64(l.m), i64(l.n), i64(l.k), i64(l.batchCount), i64(l.lda),
        i64(l.ldb), i64(l.ldc), i64(l.ldd), i64(l.ldAux), i64(l.strideA),
        i64(l.strideB), i64(l.strideC), i64(l.strideD), i64(l.strideAux),
        i64(l.strideBias), f32(gemm.getAlpha().convertToDouble()),
        f32(gemm.getC() ? gemm.getBeta().convertToDouble() : 0.0),
        i32(gemm.getTransposeA() ? 1 : 0), i32(gemm.getTransposeB() ? 1 : 0),
        dtype(elem(gemm.getA())), dtype(elem(gemm.getB())),
        dtype(elem(gemm.getD())),
        i32(static_cast<int64_t>(gemm.getEpilogue()))};
    Value desc = LLVM::UndefOp::create(b, loc, descTy);
    for (auto [i, v] : llvm::enumerate(values))
      desc = LLVM::InsertValueOp::create(b, loc, desc, v, i);
    Value slot = LLVM::AllocaOp::create(b, loc, ptrTy, descTy, i64(1));
    LLVM::StoreOp::create(b, loc, desc, slot);
    call("amp_gemm", {slot, stream});
    return success();
  }

  return op->emitError() << "amp-lower-to-runtime: cannot lower '"
                         << op->getName() << "'";
}

LogicalResult FunctionLowering::run() {
  if (!fn.getBody().hasOneBlock())
    return fn.emitError("amp-lower-to-runtime expects single-block functions");
  Block &body = fn.getBody().front();
  for (Type t : llvm::concat<const Type>(fn.getArgumentTypes(),
                                         fn.getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !tensor.hasStaticShape() ||
        !(runtimeDtype(tensor.getElementType()) ||
          tensor.getElementType().isInteger(1)))
      return fn.emitError() << "amp-lower-to-runtime: function arguments and "
                               "results must be static tensors of f32, f16, "
                               "bf16, i32, i64 or i1, got "
                            << t;
  }
  WalkResult unsupported = fn.walk([&](Operation *op) {
    if (isa<scf::ForOp, scf::IfOp, scf::WhileOp>(op)) {
      op->emitError("amp-lower-to-runtime does not lower control flow on "
                    "tensors yet");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (unsupported.wasInterrupted())
    return failure();

  // The new function takes one array of buffer pointers: the arguments,
  // then the results. A runner calls any step the same way.
  unsigned numArgs = fn.getNumArguments(), numResults = fn.getNumResults();
  b.setInsertionPoint(fn);
  std::string name = fn.getSymName().str();
  auto fnTy = LLVM::LLVMFunctionType::get(i32Ty, {ptrTy});
  fn.setSymName(name + "__tensor");
  newFn = LLVM::LLVMFuncOp::create(b, fn.getLoc(), name, fnTy);
  Block *entry = newFn.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  stream = null();
  SmallVector<Value> slots;
  for (unsigned i = 0; i < numArgs + numResults; ++i) {
    Value addr = LLVM::GEPOp::create(b, loc, ptrTy, ptrTy,
                                     entry->getArgument(0),
                                     ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    slots.push_back(LLVM::LoadOp::create(b, loc, ptrTy, addr));
  }

  for (unsigned i = 0; i < numArgs; ++i)
    buffers[fn.getArgument(i)] = slots[i];

  // Returned values are computed directly into their result buffers when
  // this function produces them (once).
  Operation *ret = body.getTerminator();
  for (auto [i, v] : llvm::enumerate(ret->getOperands())) {
    Value key = owner(v);
    if (isa<BlockArgument>(key) || destinations.count(key) ||
        matchPattern(key, m_Constant()))
      continue;
    destinations[key] = slots[numArgs + i];
  }

  // Last top-level use of every buffer, and what dies after each op.
  for (Operation &op : body.without_terminator()) {
    op.walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (isa<RankedTensorType>(v.getType()))
          lastUse[owner(v)] = &op;
    });
  }
  for (Value v : ret->getOperands())
    lastUse.erase(owner(v)); // returned buffers outlive the body
  llvm::DenseMap<Operation *, llvm::SetVector<Value>> dyingAfter;
  for (Operation &op : body.without_terminator()) {
    op.walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (isa<RankedTensorType>(v.getType()) &&
            lastUse.lookup(owner(v)) == &op)
          dyingAfter[&op].insert(owner(v));
      for (Value r : nested->getResults())
        if (isa<RankedTensorType>(r.getType()) && !lastUse.count(owner(r)))
          dyingAfter[&op].insert(owner(r));
    });
  }

  auto freeIfOwned = [&](Value key) {
    if (!owned.contains(key) || destinations.count(key))
      return;
    LLVM::LLVMFuncOp freeFn = declare("amp_free", i32Ty, {ptrTy, ptrTy});
    auto status = LLVM::CallOp::create(b, loc, freeFn,
                                       ValueRange{buffers.lookup(key), stream});
    checkStatus(status.getResult());
    owned.remove(key);
  };
  for (Operation &op : body.without_terminator()) {
    if (failed(lowerOp(&op)))
      return failure();
    for (Value key : dyingAfter.lookup(&op))
      freeIfOwned(key);
  }

  // Results not computed in place are copied.
  loc = ret->getLoc();
  for (auto [i, v] : llvm::enumerate(ret->getOperands())) {
    Value key = owner(v);
    Value dst = slots[numArgs + i];
    if (destinations.lookup(key) == dst)
      continue;
    RankedTensorType type = tensorType(v);
    int64_t bytes = type.getNumElements() * elementBytes(type.getElementType());
    call("amp_memcpy", {dst, buffers.lookup(key), i64(bytes), stream});
  }
  for (Value key : owned.takeVector())
    if (!destinations.count(key)) {
      owned.insert(key);
      freeIfOwned(key);
    }
  LLVM::ReturnOp::create(b, loc, i32(0));
  fn.erase();
  return success();
}

namespace {
struct LowerToRuntimePass
    : amp::impl::LowerToRuntimeBase<LowerToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Every matmul becomes amp.gemm first (f32 ones included).
    RewritePatternSet patterns(&getContext());
    LowerMatmulToCublasLtOptions gemmOptions;
    gemmOptions.f32Gemm = true;
    populateMatmulToCublasLtPatterns(patterns, gemmOptions);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();

    OpBuilder b(module.getContext());
    if (!module.lookupSymbol(kErrorSiteGlobal)) {
      // A null pointer until a call fails.
      b.setInsertionPointToStart(module.getBody());
      auto ptrTy = LLVM::LLVMPointerType::get(module.getContext());
      auto global = LLVM::GlobalOp::create(
          b, module.getLoc(), ptrTy, /*isConstant=*/false,
          LLVM::Linkage::External, kErrorSiteGlobal, Attribute());
      b.createBlock(&global.getInitializerRegion());
      Value zero = LLVM::ZeroOp::create(b, module.getLoc(), ptrTy);
      LLVM::ReturnOp::create(b, module.getLoc(), zero);
    }
    for (func::FuncOp fn :
         llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (fn.isExternal())
        continue;
      FunctionLowering lowering(module, fn);
      if (failed(lowering.run()))
        return signalPassFailure();
    }
  }
};
} // namespace
