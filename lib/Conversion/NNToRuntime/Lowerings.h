//===- Lowerings.h - the op lowerings of amp-lower-to-runtime ---*- C++ -*-===//
//
// amp-lower-to-runtime visits each function's ops once, in order, and hands
// each nn/amp op (and tensor constants, tensor.empty, linalg.copy) to the
// lowering of its name: the lowering emits runtime calls on buffers
// (!llvm.ptr) right before the op and records the buffers that stand for
// the op's results. The ops on tensors are erased when the function is
// done (lowerFunction). One add function per op family (*Patterns.cpp).
// Private to lib/Conversion/NNToRuntime.
//
// This is a direct walk, not MLIR's dialect conversion: the lowering is
// 1:1 from tensors to pointers, never fails after emitting IR and never
// needs a rollback, and the conversion driver's bookkeeping (its value
// mapping, the rewrites it records and replays) took about half of the
// pass's time.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_NNTORUNTIME_LOWERINGS_H
#define AMP_LIB_CONVERSION_NNTORUNTIME_LOWERINGS_H

#include "Donation.h"
#include "InPlace.h"
#include "RuntimeBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>

namespace amp {

/// The found_inf tensor that predicates each optimizer op that was inside an
/// amp.skip_step_if (the regions are inlined before the lowering).
using SkipPredicates = llvm::DenseMap<mlir::Operation *, mlir::Value>;

/// What stands for each value lowered so far: the buffer of a tensor, the
/// new argument or result where a block or an scf op was rebuilt.
class BufferMap {
public:
  /// What stands for `value`; a value not lowered is itself.
  mlir::Value lookup(mlir::Value value) const {
    return buffers.lookup_or(value, value);
  }
  llvm::SmallVector<mlir::Value> lookup(mlir::ValueRange values) const;
  /// Whether `op` was lowered already (with an earlier op, as the later
  /// updates of an optimizer run are).
  bool isLowered(mlir::Operation *op) const { return lowered.contains(op); }
  /// Records the buffers of `op`'s results; the function's lowering erases
  /// `op` at the end.
  void replace(mlir::Operation *op, mlir::ValueRange results);
  /// Records what stands for a value that is not an op's result (a block
  /// argument).
  void map(mlir::Value from, mlir::Value to) { buffers[from] = to; }
  /// The ops replaced, in the order they were.
  llvm::ArrayRef<mlir::Operation *> replacedOps() const { return replaced; }
  /// Whether a result may be computed in the buffer of an operand that
  /// dies at its op (InPlace.cpp); the lowering's `in-place` option.
  bool reusesDyingOperands() const { return inPlace; }
  void setReusesDyingOperands(bool value) { inPlace = value; }

private:
  llvm::DenseMap<mlir::Value, mlir::Value> buffers;
  llvm::DenseSet<mlir::Operation *> lowered;
  llvm::SmallVector<mlir::Operation *> replaced;
  bool inPlace = true;
};

/// Lowers the ops of one name.
class OpLowering {
public:
  virtual ~OpLowering() = default;
  /// Emits the runtime calls of `op` with `rb` (right before `op`, at its
  /// location) and records its results' buffers in `buffers`. A failure has
  /// emitted an error and built nothing.
  virtual mlir::LogicalResult apply(mlir::Operation *op, BufferMap &buffers,
                                    RuntimeBuilder &rb) const = 0;
};

/// The lowering of each op name, declared once per op family.
class LoweringTable {
public:
  explicit LoweringTable(mlir::MLIRContext *ctx) : ctx(ctx) {}

  /// Adds lowerings, each constructed from `args`; `L::OpType` names the op.
  template <typename... L, typename... Args> void add(const Args &...args) {
    (insert(L::OpType::getOperationName(), std::make_unique<L>(args...)), ...);
  }
  const OpLowering *lookup(mlir::OperationName name) const {
    auto it = lowerings.find(name);
    return it == lowerings.end() ? nullptr : it->second.get();
  }

private:
  void insert(llvm::StringRef name, std::unique_ptr<OpLowering> lowering);

  mlir::MLIRContext *ctx;
  llvm::DenseMap<mlir::OperationName, std::unique_ptr<OpLowering>> lowerings;
};

/// The lowering of one op class.
template <typename Op> class TypedLowering : public OpLowering {
public:
  using OpType = Op;
  using Adaptor = typename Op::Adaptor;
};

/// The operands whose buffer a kernel allows a result to be (it reads each
/// element of the operand before writing that element of the result), in
/// the order the lowering prefers them.
using InPlaceOperands = llvm::SmallVector<unsigned, 2>;

/// A lowering whose results are fresh buffers: it allocates them, lets
/// `lower` emit the calls with the operands' buffers in `adaptor`, and
/// records the buffers. A result that its kernel may write over an operand
/// (inPlaceOperands) is computed in the buffer of the first such operand of
/// its type that dies at the op (InPlace.cpp), or that is an argument
/// donated to the result the function returns it as and read nowhere after
/// the op (Donation.cpp: nn-autodiff's moving averages, `ema + t`, are
/// computed in their argument's buffer), each operand's buffer used for one
/// result at most.
template <typename Op> class RuntimeOpLowering : public TypedLowering<Op> {
public:
  using Adaptor = typename TypedLowering<Op>::Adaptor;

  mlir::LogicalResult apply(mlir::Operation *op, BufferMap &buffers,
                            RuntimeBuilder &rb) const final {
    auto typed = llvm::cast<Op>(op);
    llvm::SmallVector<mlir::Value> operands = buffers.lookup(op->getOperands());
    llvm::SmallVector<mlir::Value> results;
    llvm::SmallVector<unsigned, 2> taken;
    for (mlir::OpResult result : op->getResults()) {
      mlir::Value reused;
      for (unsigned operand :
           inPlaceOperands(typed, result.getResultNumber())) {
        if (llvm::is_contained(taken, operand))
          continue;
        if ((reused = dyingOperandBuffer(result, operand, buffers)) ||
            (reused = donatedBuffer(op, op, operand, result.getResultNumber(),
                                    buffers))) {
          taken.push_back(operand);
          break;
        }
      }
      results.push_back(
          reused ? reused
                 : rb.alloc(llvm::cast<mlir::RankedTensorType>(
                       result.getType())));
    }
    lower(typed, Adaptor(operands, typed), rb, results);
    buffers.replace(op, results);
    return mlir::success();
  }

protected:
  virtual void lower(Op op, Adaptor adaptor, RuntimeBuilder &rb,
                     mlir::ValueRange results) const = 0;
  /// The operands whose buffer the kernel (its header says "may equal")
  /// allows result `result` to be; none by default.
  virtual InPlaceOperands inPlaceOperands(Op op, unsigned result) const {
    return {};
  }
};

/// Lowers the body of `fn`, which checkLowerable accepted: every op on
/// tensors becomes its lowering's runtime calls, the structured control flow
/// (scf.for, scf.if, scf.while) carries buffers instead of tensors, and the
/// arguments and results of `fn` are buffers. Fails, with an error, at an op
/// that has no lowering.
/// With `inPlace`, results may be computed in dying operands' buffers
/// (RuntimeOpLowering, InPlace.cpp).
mlir::LogicalResult lowerFunction(mlir::func::FuncOp fn,
                                  const LoweringTable &table, bool inPlace);

void addElementwiseLowerings(LoweringTable &table);
void addShapeLowerings(LoweringTable &table);
void addReductionLowerings(LoweringTable &table);
void addNormLowerings(LoweringTable &table);
void addAttentionLowerings(LoweringTable &table);
void addConvLowerings(LoweringTable &table);
void addPoolLowerings(LoweringTable &table);
void addLossLowerings(LoweringTable &table);
void addGemmLowerings(LoweringTable &table);
void addOptimizerLowerings(LoweringTable &table,
                           const SkipPredicates &predicates);
void addLossScaleLowerings(LoweringTable &table);
/// Tensor constants, tensor.empty and linalg.copy (the copies that buffer
/// ownership asks for).
void addBufferLowerings(LoweringTable &table);

} // namespace amp

#endif // AMP_LIB_CONVERSION_NNTORUNTIME_LOWERINGS_H
