//===- PrecisionPolicy.cpp - default policies and policy files ------------===//
//
// The default allow/deny/infer/clear lists for f16 and bf16 (as tables) and
// the JSON policy-file reader.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/Transforms/PrecisionPolicy.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace amp;
using llvm::StringRef;

namespace {
struct PolicyEntry {
  StringRef opName;
  PrecisionClass f16;
  PrecisionClass bf16;
};
} // namespace

// The defaults follow TensorFlow's AutoMixedPrecisionLists and PyTorch's
// autocast op lists; docs/precision.md (Defaults) gives the reason for each
// row. bf16 has f32's exponent range, so the ops denied in f16 only for range
// (exp, rsqrt, the normalizations' variances) are infer in bf16.
static constexpr PrecisionClass A = PrecisionClass::Allow;
static constexpr PrecisionClass D = PrecisionClass::Deny;
static constexpr PrecisionClass I = PrecisionClass::Infer;
static constexpr PrecisionClass C = PrecisionClass::Clear;

static constexpr PolicyEntry kDefaultPolicy[] = {
    // Tensor-core contractions with f32 accumulation.
    {"nn.matmul", A, A},
    {"nn.conv2d", A, A},
    {"nn.conv2d_grad_input", A, A},
    {"nn.conv2d_grad_filter", A, A},
    // Fused attention: tensor-core products, with its softmax and sums in f32
    // inside the kernel (PyTorch's autocast runs scaled_dot_product_attention
    // in f16/bf16).
    {"nn.attention", A, A},
    {"nn.attention_grad", A, A},
    {"linalg.matmul", A, A},
    {"linalg.batch_matmul", A, A},
    {"linalg.conv_2d_nchw_fchw", A, A},
    {"linalg.conv_2d_nhwc_hwcf", A, A},
    {"tosa.matmul", A, A},
    {"tosa.conv2d", A, A},
    {"tosa.depthwise_conv2d", A, A},
    // Range-sensitive in f16 (overflow above 65504, underflow below 2^-24).
    {"nn.exp", D, I},
    // e^|x| / 2 for large |x|: past 65504 above |x| = 11.8.
    {"nn.sinh", D, I},
    {"nn.cosh", D, I},
    {"nn.rsqrt", D, I},
    {"nn.rsqrt_grad", D, I},
    {"nn.layer_norm", D, I},
    {"nn.layer_norm_grad", D, I},
    {"nn.embedding_grad", D, I},
    {"math.exp", D, I},
    {"math.rsqrt", D, I},
    {"linalg.exp", D, I},
    {"tosa.exp", D, I},
    {"tosa.rsqrt", D, I},
    {"tosa.reciprocal", D, I},
    // Precision-sensitive in both: logs, probabilities, sums and losses.
    {"nn.log", D, D},
    {"nn.softmax", D, D},
    {"nn.log_softmax", D, D},
    {"nn.softmax_grad", D, D},
    {"nn.reduce_sum", D, D},
    {"nn.reduce_mean", D, D},
    {"nn.cumsum", D, D},
    {"nn.cross_entropy", D, D},
    {"nn.cross_entropy_grad", D, D},
    {"nn.mse_loss", D, D},
    {"nn.mse_loss_grad", D, D},
    {"nn.l1_loss", D, D},
    {"nn.l1_loss_grad", D, D},
    {"nn.huber_loss", D, D},
    {"nn.huber_loss_grad", D, D},
    {"nn.bce_with_logits_loss", D, D},
    {"nn.bce_with_logits_loss_grad", D, D},
    {"nn.pow", D, D},
    {"nn.pow_grad", D, D},
    {"nn.powf", D, D},
    // Their argument reduction needs the angle's low bits, which f16 and
    // bf16 drop: at a rotary embedding's angles (positions times
    // frequencies, into the thousands) f16's spacing is 0.5 rad and bf16's
    // 8 (HF's rotary embeddings force f32 for the same reason).
    {"nn.sin", D, D},
    {"nn.cos", D, D},
    {"nn.tan", D, D},
    // Ill-conditioned at the ends of their domains, where their derivatives
    // grow without bound (asin and acos at +-1, acosh at 1, atanh at +-1):
    // a 16-bit input there has lost the digits the result depends on.
    // PyTorch's autocast runs asin and acos in f32 too.
    {"nn.asin", D, D},
    {"nn.acos", D, D},
    {"nn.acosh", D, D},
    {"nn.atanh", D, D},
    // In f32 a comparison with a constant does not round the constant
    // (PyTorch promotes mixed operands to the wider type); widening its
    // float operands is exact, and its i1 result is no float edge.
    {"nn.compare", D, D},
    {"math.log", D, D},
    {"math.powf", D, D},
    {"linalg.log", D, D},
    {"linalg.softmax", D, D},
    {"linalg.reduce", D, D},
    {"tosa.log", D, D},
    {"tosa.pow", D, D},
    {"tosa.reduce_sum", D, D},
    {"tosa.reduce_max", D, D},
    // Optimizer updates read and write f32 masters and state; so does the
    // update of the running statistics.
    {"nn.sgd_update", D, D},
    {"nn.adam_update", D, D},
    {"nn.radam_update", D, D},
    {"nn.rmsprop_update", D, D},
    {"nn.adagrad_update", D, D},
    {"nn.adafactor_update", D, D},
    {"nn.clip_grad_norm", D, D},
    {"nn.clip_grad_value", D, D},
    {"nn.ema_update", D, D},
    {"nn.lr_schedule", D, D},
    {"nn.running_stats_update", D, D},
    // Numerically safe in low precision when their inputs already are.
    // Batch norm's statistics and sums are f32 inside the op (its saved
    // mean and invstd are f32 results), its output is normalized: as
    // TensorFlow's FusedBatchNormV3 (InferList) and PyTorch's autocast,
    // which leaves batch_norm in its input's type.
    {"nn.batch_norm", I, I},
    {"nn.batch_norm_grad", I, I},
    {"nn.add", I, I},
    {"nn.sub", I, I},
    {"nn.mul", I, I},
    {"nn.div", I, I},
    {"nn.mod", I, I},
    {"nn.sqrt", I, I},
    {"nn.sqrt_grad", I, I},
    {"nn.tanh", I, I},
    {"nn.tanh_grad", I, I},
    {"nn.sigmoid", I, I},
    {"nn.sigmoid_grad", I, I},
    {"nn.gelu", I, I},
    {"nn.gelu_grad", I, I},
    {"nn.gelu_erf", I, I},
    {"nn.gelu_erf_grad", I, I},
    {"nn.erf", I, I},
    // Well conditioned everywhere (relative condition number at most 1)
    // and in range: they follow their inputs.
    {"nn.atan", I, I},
    {"nn.asinh", I, I},
    {"nn.erf_grad", I, I},
    {"arith.addf", I, I},
    {"arith.subf", I, I},
    {"arith.mulf", I, I},
    {"arith.divf", I, I},
    {"math.tanh", I, I},
    {"math.sqrt", I, I},
    {"math.erf", I, I},
    {"linalg.add", I, I},
    {"linalg.sub", I, I},
    {"linalg.mul", I, I},
    {"linalg.div", I, I},
    {"tosa.add", I, I},
    {"tosa.sub", I, I},
    {"tosa.mul", I, I},
    {"tosa.tanh", I, I},
    {"tosa.sigmoid", I, I},
    {"tosa.erf", I, I},
    // Exact in any precision (data movement, sign, max, selection), or as
    // exact as the low type allows (averages accumulate in f32, dropout
    // scales by one constant).
    {"nn.neg", C, C},
    {"nn.relu", C, C},
    {"nn.relu_grad", C, C},
    {"nn.abs", C, C},
    {"nn.abs_grad", C, C},
    {"nn.floor", C, C},
    {"nn.ceil", C, C},
    {"nn.round", C, C},
    {"nn.sign", C, C},
    {"nn.clamp", C, C},
    {"nn.clamp_grad", C, C},
    {"nn.maximum", C, C},
    {"nn.maximum_grad", C, C},
    {"nn.minimum", C, C},
    {"nn.minimum_grad", C, C},
    {"nn.where", C, C},
    {"nn.where_grad", C, C},
    {"nn.dropout", C, C},
    {"nn.max_pool2d", C, C},
    {"nn.max_pool2d_grad", C, C},
    {"nn.avg_pool2d", C, C},
    {"nn.avg_pool2d_grad", C, C},
    {"nn.global_avg_pool", C, C},
    {"nn.reshape", C, C},
    {"nn.transpose", C, C},
    {"nn.broadcast_to", C, C},
    {"nn.concat", C, C},
    {"nn.slice", C, C},
    {"nn.slice_grad", C, C},
    {"nn.pad", C, C},
    {"nn.reduce_max", C, C},
    {"nn.reduce_max_grad", C, C},
    {"nn.argmax", C, C},
    {"nn.topk", C, C},
    {"nn.embedding", C, C},
    // An id or mask to float: f32 then the low type rounds as the low type
    // directly.
    {"nn.convert", C, C},
    {"nn.grad_seed", C, C},
    {"arith.negf", C, C},
    {"math.absf", C, C},
    {"arith.maximumf", C, C},
    {"arith.minimumf", C, C},
    // A linalg.generic payload's comparisons, selections and conversions
    // (torch-mlir's relu is cmpf + select).
    {"arith.cmpf", C, C},
    {"arith.select", C, C},
    {"arith.extf", C, C},
    {"arith.truncf", C, C},
    {"linalg.max", C, C},
    {"linalg.min", C, C},
    {"linalg.abs", C, C},
    {"linalg.negf", C, C},
    {"linalg.transpose", C, C},
    {"linalg.broadcast", C, C},
    {"tosa.clamp", C, C},
    {"tosa.maximum", C, C},
    {"tosa.minimum", C, C},
    {"tosa.negate", C, C},
    {"tosa.abs", C, C},
    {"tosa.reshape", C, C},
    {"tosa.transpose", C, C},
    {"tosa.slice", C, C},
    {"tosa.concat", C, C},
    {"tosa.max_pool2d", C, C},
    {"tosa.avg_pool2d", C, C},
};

PrecisionPolicy PrecisionPolicy::getDefaults(bool bf16) {
  PrecisionPolicy policy;
  for (const PolicyEntry &e : kDefaultPolicy)
    policy.set(e.opName, bf16 ? e.bf16 : e.f16);
  return policy;
}

std::optional<PrecisionClass> PrecisionPolicy::lookup(StringRef opName) const {
  auto it = classes.find(opName);
  if (it == classes.end())
    return std::nullopt;
  return it->second;
}

mlir::LogicalResult
PrecisionPolicy::applyJSON(StringRef json,
                           llvm::function_ref<bool(StringRef)> isKnownOp,
                           std::string &error) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed) {
    error = "malformed JSON: " + llvm::toString(parsed.takeError());
    return mlir::failure();
  }
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root) {
    error = "expected a JSON object with \"allow\", \"deny\", \"infer\" or "
            "\"clear\" lists";
    return mlir::failure();
  }
  // Validate everything before changing anything.
  llvm::SmallVector<std::pair<std::string, PrecisionClass>> updates;
  for (const auto &[key, value] : *root) {
    std::optional<PrecisionClass> c = parsePrecisionClass(key);
    if (!c) {
      error = ("unknown key \"" + key.str() +
               "\"; expected \"allow\", \"deny\", \"infer\" or \"clear\"");
      return mlir::failure();
    }
    const llvm::json::Array *names = value.getAsArray();
    if (!names) {
      error = "\"" + key.str() + "\" must be a list of op names";
      return mlir::failure();
    }
    for (const llvm::json::Value &name : *names) {
      std::optional<StringRef> str = name.getAsString();
      if (!str) {
        error = "\"" + key.str() + "\" must contain only op-name strings";
        return mlir::failure();
      }
      if (!isKnownOp(*str)) {
        error = "unknown op \"" + str->str() + "\" in \"" + key.str() +
                "\" (no registered dialect defines it)";
        return mlir::failure();
      }
      updates.emplace_back(str->str(), *c);
    }
  }
  for (auto &[name, c] : updates)
    set(name, c);
  return mlir::success();
}

mlir::LogicalResult
PrecisionPolicy::applyJSONFile(StringRef path,
                               llvm::function_ref<bool(StringRef)> isKnownOp,
                               std::string &error) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = "cannot read policy file: " + buffer.getError().message();
    return mlir::failure();
  }
  return applyJSON((*buffer)->getBuffer(), isKnownOp, error);
}
