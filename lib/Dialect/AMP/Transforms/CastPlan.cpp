//===- CastPlan.cpp - the retyping and casts a precision decision implies -===//
//
// Types follow producers: a result that the policy moved to f16 is f16, and
// a use that wants another type gets a cast of the producer's value. Casts
// the input already had are absorbed (looked through) and re-planned, so
// the result has exactly one cast per (value, target type).
//
//===----------------------------------------------------------------------===//

#include "CastPlan.h"

#include "PrecisionUtils.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Dialect/NN/IR/NNDialect.h"
#include "amp/Interfaces/MixedPrecisionOpInterface.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace amp;

/// Roles whose values stay f32 at the boundary whatever keep-io-types says.
static bool isStateRole(std::optional<nn::Role> role) {
  if (!role)
    return false;
  switch (*role) {
  case nn::Role::Param:
  case nn::Role::OptState:
  case nn::Role::Buffer:
  case nn::Role::ScheduleState:
  case nn::Role::RngState:
  case nn::Role::Ema:
  case nn::Role::EmaCount:
  case nn::Role::Loss:
  case nn::Role::LossScale:
  case nn::Role::GrowthTracker:
  case nn::Role::FoundInf:
  case nn::Role::Lr:
  case nn::Role::GradNorm:
    return true;
  case nn::Role::Input:
  case nn::Role::Label:
  case nn::Role::HysteresisTracker:
    return false;
  }
  llvm_unreachable("unknown nn::Role");
}

Type CastPlan::plannedType(Value root) const {
  auto it = newTypes.find(root);
  return it == newTypes.end() ? root.getType() : it->second;
}

Type CastPlan::getNewType(Value v) const {
  return plannedType(lookThroughCasts(v));
}

/// The type `use` needs from its (cast-free) producer `root`, when its owner
/// is not an op with an assigned precision (those are handled in the walk).
Type CastPlan::desiredType(OpOperand &use, Value root) const {
  Operation *owner = use.getOwner();
  Type current = use.get().getType();
  if (auto group = getGroupFedBy(use))
    if (std::optional<FloatType> p =
            getResultPrecision(group->first, group->second))
      return withElementType(current, *p);
  FunctionOpInterface function = fn;
  if (lowerIO && isa<func::ReturnOp>(owner) && owner->getParentOp() == fn) {
    if (!isStateRole(nn::getResultRole(function, use.getOperandNumber())))
      return plannedType(root);
  }
  // Anything else keeps the type it was written with.
  return current;
}

/// The cast dialect of the precision op that `use` connects: its owner,
/// else the producer of `root` (a return or a tensor.expand_shape has none).
static const PrecisionCastInterface *casterFor(OpOperand &use, Value root) {
  Operation *side = use.getOwner();
  if (!isa<MixedPrecisionOpInterface>(side))
    side = root.getDefiningOp();
  if (!side || !isa<MixedPrecisionOpInterface>(side) || !side->getDialect())
    return nullptr;
  return side->getDialect()->getRegisteredInterface<PrecisionCastInterface>();
}

CastPlan::CastKey CastPlan::castKey(const UseFix &fix) {
  return {fix.root, fix.desired,
          fix.caster ? fix.caster->getCastNamespace()
                     : AMPDialect::getDialectNamespace()};
}

CastPlan::CastPlan(FunctionOpInterface fn, bool keepIOTypes) : fn(fn) {
  lowerIO = !keepIOTypes && !fn.isExternal() &&
            SymbolTable::symbolKnownUseEmpty(fn, fn->getParentOp());

  // What the uses of each value want: the first desired type and whether all
  // agree, which is all the accumulator rule and keep-io-types=false need.
  struct UseSummary {
    Type first;
    bool uniform = true;
  };
  llvm::DenseMap<Value, UseSummary> summaries;
  auto recordUse = [&](OpOperand &use, Value root, Type desired) {
    uses.push_back({&use, root, desired, casterFor(use, root)});
    auto [it, inserted] = summaries.try_emplace(root, UseSummary{desired});
    if (!inserted && it->second.first != desired)
      it->second.uniform = false;
  };

  // 1. In one walk (definitions before uses): the new types of results and
  //    region-carried values, and what every use wants.
  SmallVector<OpResult> accumulatorResults;
  // f32 ops that accumulate in f32 and the indices of their uses in `uses`.
  SmallVector<std::pair<Operation *, SmallVector<unsigned, 4>>> f32Accumulators;
  SmallVector<unsigned> precisionOperands;
  fn->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<CastOp>(op)) {
      absorbedCasts.push_back(op);
      return;
    }
    std::optional<FloatType> p;
    bool readsAnyFloat = false;
    precisionOperands.clear();
    if (auto iface = dyn_cast<MixedPrecisionOpInterface>(op)) {
      p = getOpPrecision(op);
      if (p) {
        precisionOperands = iface.getPrecisionOperands();
        readsAnyFloat = p->isF32() && iface.hasF32Accumulator();
        if (readsAnyFloat)
          f32Accumulators.emplace_back(op, SmallVector<unsigned, 4>());
        bool accumulates = iface.hasF32Accumulator() && !p->isF32();
        for (unsigned i : iface.getPrecisionResults()) {
          OpResult r = op->getResult(i);
          if (!isFloatTensor(r.getType()))
            continue;
          newTypes[r] = withElementType(r.getType(), *p);
          if (accumulates)
            accumulatorResults.push_back(r);
        }
      }
    } else if (isGroupOp(op)) {
      for (OpResult r : op->getResults()) {
        std::optional<FloatType> rp =
            getResultPrecision(op, r.getResultNumber());
        if (!rp || !isFloatTensor(r.getType()))
          continue;
        newTypes[r] = withElementType(r.getType(), *rp);
        if (auto forOp = dyn_cast<scf::ForOp>(op)) {
          Value arg = forOp.getRegionIterArgs()[r.getResultNumber()];
          newTypes[arg] = withElementType(arg.getType(), *rp);
        }
      }
    }
    for (OpOperand &use : op->getOpOperands()) {
      Value root = lookThroughCasts(use.get());
      if (!isFloatTensor(root.getType()))
        continue;
      Type desired;
      bool follows =
          p && llvm::is_contained(precisionOperands, use.getOperandNumber());
      if (follows)
        desired = withElementType(use.get().getType(), *p);
      else
        desired = desiredType(use, root);
      if (follows && readsAnyFloat)
        f32Accumulators.back().second.push_back(uses.size());
      recordUse(use, root, desired);
    }
  });

  // 2. keep-io-types=false: an argument every use wants in one other type
  //    takes that type.
  if (lowerIO) {
    for (BlockArgument arg : fn.getArguments()) {
      if (!isFloatTensor(arg.getType()) ||
          isStateRole(nn::getArgRole(fn, arg.getArgNumber())))
        continue;
      auto it = summaries.find(arg);
      if (it != summaries.end() && it->second.uniform)
        newTypes[arg] = it->second.first;
    }
  }

  // 3. A low-precision accumulating op whose users all want f32 stores its
  //    f32 accumulator directly.
  for (OpResult r : accumulatorResults) {
    auto it = summaries.find(r);
    if (it == summaries.end() || !it->second.uniform)
      continue;
    Type f32 = withElementType(r.getType(), Float32Type::get(r.getContext()));
    if (it->second.first == f32)
      newTypes[r] = f32;
  }

  // 4. An f32 op that accumulates in f32 reads f16/bf16 operands as they
  //    are: widening is exact, so a cast in front of it would only cost a
  //    pass over memory. All its operands must agree on the type.
  for (auto &[op, useIndices] : f32Accumulators) {
    if (useIndices.empty())
      continue;
    Type elem =
        getElementTypeOrSelf(plannedType(uses[useIndices.front()].root));
    if (elem.isF32() || !llvm::all_of(useIndices, [&](unsigned u) {
          return getElementTypeOrSelf(plannedType(uses[u].root)) == elem;
        }))
      continue;
    for (unsigned u : useIndices)
      uses[u].desired = plannedType(uses[u].root);
  }

  // Function results follow the return operands when lowering the IO types.
  if (lowerIO) {
    for (Block &block : fn.getFunctionBody()) {
      auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
      if (!ret)
        continue;
      for (Value v : ret.getOperands())
        newResultTypes.push_back(plannedType(lookThroughCasts(v)));
      break;
    }
  }

  // 5. One cast per (value, type, cast dialect) that some use wants and
  //    does not get.
  for (UseFix &fix : uses)
    if (fix.desired != plannedType(fix.root))
      casts.insert({castKey(fix), fix.caster});
}

unsigned CastPlan::getNumConstantConversions() const {
  unsigned n = 0;
  for (auto &entry : casts)
    if (matchPattern(std::get<0>(entry.first), m_Constant()))
      ++n;
  return n;
}

unsigned CastPlan::getNumRuntimeCasts() const {
  return casts.size() - getNumConstantConversions();
}

void CastPlan::apply(unsigned &numCasts, unsigned &numConstants) {
  numConstants = getNumConstantConversions();
  numCasts = getNumRuntimeCasts();

  for (auto &[value, type] : newTypes)
    value.setType(type);

  if (lowerIO) {
    SmallVector<Type> argTypes;
    for (BlockArgument arg : fn.getArguments())
      argTypes.push_back(arg.getType());
    SmallVector<Type> resultTypes =
        newResultTypes.empty() ? SmallVector<Type>(fn.getResultTypes())
                               : newResultTypes;
    fn.setFunctionTypeAttr(TypeAttr::get(
        FunctionType::get(fn->getContext(), argTypes, resultTypes)));
  }

  // Casts go right after the value's definition so that they dominate every
  // use, in any nested region, and are shared by all of them.
  // Casts of block arguments are kept in argument order after each other.
  OpBuilder builder(fn->getContext());
  llvm::DenseMap<CastKey, Value> created;
  llvm::DenseMap<Block *, Operation *> lastArgCast;
  for (auto &[key, caster] : casts) {
    auto [root, type, ns] = key;
    auto arg = dyn_cast<BlockArgument>(root);
    Operation *after = arg ? lastArgCast.lookup(arg.getOwner()) : nullptr;
    if (after)
      builder.setInsertionPointAfter(after);
    else
      builder.setInsertionPointAfterValue(root);
    Value cast =
        caster ? caster->buildCast(builder, root.getLoc(), root, type)
               : builder.createOrFold<CastOp>(root.getLoc(), type, root);
    created[key] = cast;
    if (arg && cast.getDefiningOp())
      lastArgCast[arg.getOwner()] = cast.getDefiningOp();
  }
  for (UseFix &fix : uses) {
    auto it = created.find(castKey(fix));
    fix.use->set(it == created.end() ? fix.root : it->second);
  }
  // Ops whose payload or attributes follow their operand types catch up
  // (collected first: adapting may add and erase ops around them).
  SmallVector<MixedPrecisionOpInterface> retyped;
  fn->walk([&](MixedPrecisionOpInterface op) {
    if (getOpPrecision(op))
      retyped.push_back(op);
  });
  for (MixedPrecisionOpInterface op : retyped)
    op.adaptToNewTypes();
  for (Operation *cast : llvm::reverse(absorbedCasts))
    if (cast->use_empty())
      cast->erase();
  // Constants (and empty tensors) replaced by converted copies are dead now.
  llvm::SetVector<Operation *> deadConstants;
  for (auto &entry : casts) {
    Operation *def = std::get<0>(entry.first).getDefiningOp();
    if (def && isOpTriviallyDead(def))
      deadConstants.insert(def);
  }
  for (Operation *def : deadConstants)
    def->erase();
}
