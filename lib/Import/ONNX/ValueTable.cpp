//===- ValueTable.cpp - ONNX value names to tensors -----------------------===//
//
// Every ONNX value the graph defines (inputs, initializers, node outputs)
// is a Tensor: a static shape and element type with an SSA value, a
// compile-time constant, or both. Constants stay constants as long as only
// shape computations read them (Shape -> Gather -> Concat -> Reshape folds
// away); the first op that needs an SSA value materializes them: a float
// initializer as a new param argument (unless --constants), anything else
// as an arith.constant. One-element float initializers are constants too.
// The running statistics of a BatchNormalization that trains (--train)
// become buffer arguments instead (materializeBuffer). A param that the
// torch.export-based exporter folded materializes as the computation on a
// param that restoreFoldedParams found.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace amp::onnx_import;
using namespace mlir;

Tensor *ValueTable::lookup(llvm::StringRef name) {
  auto it = values.find(name);
  return it == values.end() ? nullptr : &it->second;
}

void ValueTable::define(llvm::StringRef name, Tensor tensor) {
  tensor.name = name.str();
  values[name] = std::move(tensor);
}

static DenseElementsAttr denseAttr(RankedTensorType type, const Const &c) {
  switch (c.dtype) {
  case onnx::TensorProto::FLOAT:
    return DenseElementsAttr::get(type, llvm::ArrayRef<float>(c.f));
  case onnx::TensorProto::INT64:
    return DenseElementsAttr::get(type, llvm::ArrayRef<int64_t>(c.i));
  case onnx::TensorProto::INT32: {
    llvm::SmallVector<int32_t> v(c.i.begin(), c.i.end());
    return DenseElementsAttr::get(type, llvm::ArrayRef<int32_t>(v));
  }
  default: {
    llvm::SmallVector<bool> v;
    for (int64_t x : c.i)
      v.push_back(x != 0);
    return DenseElementsAttr::get(type, llvm::ArrayRef<bool>(v));
  }
  }
}

Value ValueTable::addParam(llvm::StringRef name, const Const &value,
                           ONNXInitializerUse use) {
  auto type = RankedTensorType::get(value.shape, builder.getF32Type());
  Value param =
      body.addArgument(type, NameLoc::get(builder.getStringAttr(name)));
  paramArgIndices.push_back(body.getNumArguments() - 1);
  paramValues.push_back(
      ONNXParam{name.str(),
                std::vector<int64_t>(value.shape.begin(), value.shape.end()),
                value.f,
                /*buffer=*/false,
                {std::move(use)}});
  return param;
}

void ValueTable::recordUse(Value arg, ONNXInitializerUse use) {
  auto blockArg = dyn_cast<BlockArgument>(arg);
  if (!blockArg || blockArg.getOwner() != &body)
    return;
  const unsigned number = blockArg.getArgNumber();
  for (size_t i = 0; i < paramArgIndices.size(); ++i)
    if (paramArgIndices[i] == number)
      return paramValues[i].initializers.push_back(std::move(use));
  for (Buffer &b : bufferArgs)
    if (b.arg == number)
      return b.value.initializers.push_back(std::move(use));
}

Value ValueTable::materialize(Tensor &t, Location loc) {
  if (t.value)
    return t.value;
  assert(t.constant && "a tensor is an SSA value or a constant");
  auto type = RankedTensorType::get(t.shape,
                                    elementType(builder.getContext(), t.dtype));
  // A param the exporter folded (restoreFoldedParams): the computation on
  // the param, at the initializer's name.
  if (t.initializer && !options.constants &&
      t.derived != Tensor::Derived::None) {
    Location at = NameLoc::get(builder.getStringAttr(t.name));
    if (t.derived == Tensor::Derived::Same) {
      Tensor *source = lookup(t.derivedFrom);
      assert(source && "restoreRepeatedFolds names an initializer");
      t.value = materialize(*source, loc);
      recordUse(t.value, {t.name});
    } else if (t.derived == Tensor::Derived::Transpose) {
      Tensor *source = lookup(t.derivedFrom);
      assert(source && "restoreFoldedParams names an initializer");
      Value param = materialize(*source, loc);
      recordUse(param, {t.name, ONNXInitializerUse::Kind::Transpose, {}});
      t.value = amp::nn::TransposeOp::create(
          builder, at, type, param, builder.getDenseI64ArrayAttr({1, 0}));
    } else {
      ONNXInitializerUse use{
          t.name, ONNXInitializerUse::Kind::Broadcast,
          std::vector<int64_t>(t.base->shape.begin(), t.base->shape.end())};
      Value base;
      if (Tensor *source =
              t.derivedFrom.empty() ? nullptr : lookup(t.derivedFrom)) {
        auto baseType =
            RankedTensorType::get(t.base->shape, builder.getF32Type());
        base = materialize(*source, loc);
        recordUse(base, std::move(use));
        if (cast<RankedTensorType>(base.getType()) != baseType)
          base = amp::nn::ReshapeOp::create(builder, at, baseType, base);
      } else {
        base = addParam(t.name, *t.base, std::move(use));
      }
      t.value = amp::nn::BroadcastToOp::create(builder, at, type, base);
    }
    return t.value;
  }
  // One-element initializers (an epsilon, the 2.0 of x / 2) are constants
  // of the model, not weights to train, unless torch.export's metadata
  // says PyTorch's module has them as parameters.
  if (t.initializer && t.isFloat() && !options.constants &&
      (t.constant->numel() > 1 || t.parameter)) {
    t.value = addParam(t.name, *t.constant, {t.name});
    return t.value;
  }
  t.value = arith::ConstantOp::create(builder, loc, type,
                                      denseAttr(type, *t.constant));
  return t.value;
}

FailureOr<Value> ValueTable::materializeBuffer(Tensor &t, float init) {
  if (t.value || !(t.initializer || t.buffer) || !t.isFloat() || !t.constant)
    return failure();
  auto type = RankedTensorType::get(t.shape, builder.getF32Type());
  t.value = body.addArgument(type, NameLoc::get(builder.getStringAttr(t.name)));
  bufferArgs.push_back(
      {body.getNumArguments() - 1, init,
       ONNXParam{t.name,
                 std::vector<int64_t>(t.shape.begin(), t.shape.end()),
                 t.constant->f,
                 /*buffer=*/true,
                 {{t.name}}},
       Value()});
  return t.value;
}

void ValueTable::setBufferUpdate(Value buffer, Value update) {
  unsigned arg = cast<BlockArgument>(buffer).getArgNumber();
  auto it =
      llvm::find_if(bufferArgs, [&](const Buffer &b) { return b.arg == arg; });
  assert(it != bufferArgs.end() && "a buffer argument");
  it->update = update;
}
