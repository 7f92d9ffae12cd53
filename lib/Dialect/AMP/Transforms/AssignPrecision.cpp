//===- AssignPrecision.cpp - decide f16/bf16/f32 for every op -------------===//
//
// amp-assign-precision: TensorFlow-AMP-style graph coloring over the whole
// function (forward, backward, regions). Ops tied together (a backward op and
// its forward op) and values that must share one type (loop-carried values,
// region results) are merged with union-find; the coloring then runs a few
// breadth-first passes over the merged graph, each linear in its size.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/Transforms/Passes.h"

#include "CastPlan.h"
#include "PrecisionUtils.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Dialect/AMP/Transforms/PrecisionPolicy.h"
#include "amp/Interfaces/MixedPrecisionOpInterface.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>

namespace amp {
#define GEN_PASS_DEF_ASSIGNPRECISION
#include "amp/Dialect/AMP/Transforms/Passes.h.inc"
} // namespace amp

using namespace mlir;
using namespace amp;

namespace {

/// How a node takes part in the coloring. Pins become Allow (low) or Deny
/// (f32); ops no list names become Fixed32, which neither spreads f32 nor
/// passes low precision along.
enum class Kind : uint8_t { Clear, Infer, Allow, Fixed32, Deny };

/// One op, or one group of values that must share a type.
struct Item {
  Operation *op;
  int group = -1; // result index of a group op, or -1 for an op
  Kind kind = Kind::Clear;
  FloatType lowType;
  std::optional<FloatType> pinned;
  StringRef pinRule; // why it is pinned / fixed
  // For ops: the operands and results that follow the op's precision,
  // queried once from the interface.
  SmallVector<unsigned, 4> operands;
  SmallVector<unsigned, 2> results;
};

/// The decision for one merged node.
struct Color {
  bool low = false;
  StringRef rule;
};

struct Scope {
  FloatType lowType;
  bool disabled = false;
};

/// Formats a location as the report shows it: `"x"` for loc("x"),
/// `file:line:col` for file locations.
std::string formatLoc(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  StringRef str(s);
  if (str.consume_front("loc(") && str.consume_back(")"))
    return str.str();
  return s;
}

/// False when converting the constant would overflow or flush a non-zero
/// value to zero.
bool constantFits(DenseFPElementsAttr attr, FloatType type) {
  auto fits = [&](APFloat v) {
    if (!v.isFinite() || v.isZero())
      return true;
    bool lost = false;
    APFloat::opStatus status = v.convert(type.getFloatSemantics(),
                                         APFloat::rmNearestTiesToEven, &lost);
    return !(status & APFloat::opOverflow) && !v.isZero();
  };
  if (attr.isSplat())
    return fits(attr.getSplatValue<APFloat>());
  return llvm::all_of(attr.getValues<APFloat>(), fits);
}

class Coloring {
public:
  Coloring(FunctionOpInterface fn, const PrecisionPolicy &f16Policy,
           const PrecisionPolicy &bf16Policy, FloatType globalLow)
      : fn(fn), f16Policy(f16Policy), bf16Policy(bf16Policy),
        globalLow(globalLow), attrs(fn->getContext()) {}

  void run();
  void emitDecisionRemarks();
  /// Counts ops by precision (the pass statistics).
  void countOps(unsigned &numLow, unsigned &numF32);
  void annotate();
  /// Totals over the ops of one function, for the report and statistics.
  struct Totals {
    unsigned numLow = 0, numF32 = 0;
    uint64_t lowBytes = 0, f32Bytes = 0;
  };
  /// Writes one report entry per op into the open JSON array `j`.
  void writeReportOps(llvm::json::OStream &j, const CastPlan &plan,
                      Totals &totals);

private:
  Scope scopeOf(Operation *parent);
  unsigned addItem(Item item);
  void classify();
  std::optional<unsigned> producerItem(Value v);
  void buildGraph();
  void color();
  FloatType precisionOf(unsigned item);
  StringRef ruleOf(unsigned item);

  FunctionOpInterface fn;
  const PrecisionPolicy &f16Policy, &bf16Policy;
  FloatType globalLow;
  PrecisionAttrs attrs;

  std::vector<Item> items;
  llvm::DenseMap<Operation *, unsigned> opItem;
  llvm::DenseMap<std::pair<Operation *, unsigned>, unsigned> groupItem;
  llvm::EquivalenceClasses<unsigned> classes;
  llvm::DenseSet<unsigned> tiedItems;
  // Merged graph, indexed by the class leader's item index.
  std::vector<SmallVector<unsigned, 2>> succ, pred;
  std::vector<Kind> kind;
  std::vector<std::optional<FloatType>> classPin; // by leader; f32 wins
  std::vector<Color> colors;
  llvm::DenseMap<Operation *, Scope> scopeCache;
};

} // namespace

Scope Coloring::scopeOf(Operation *parent) {
  if (!parent || parent == fn.getOperation())
    return {globalLow, false};
  auto it = scopeCache.find(parent);
  if (it != scopeCache.end())
    return it->second;
  Scope scope = scopeOf(parent->getParentOp());
  if (auto autocast = dyn_cast<AutocastOp>(parent)) {
    scope.disabled = !autocast.getEnabled();
    if (std::optional<Type> ct = autocast.getComputeType())
      if (auto ft = dyn_cast<FloatType>(*ct); ft && !ft.isF32())
        scope.lowType = ft;
    if (std::optional<Type> ct = autocast.getComputeType(); ct && ct->isF32())
      scope.disabled = true;
  }
  scopeCache[parent] = scope;
  return scope;
}

unsigned Coloring::addItem(Item item) {
  unsigned index = items.size();
  items.push_back(item);
  classes.insert(index);
  return index;
}

void Coloring::classify() {
  // Scalar arithmetic (e.g. inside a linalg body) is not a tensor op of the
  // training graph and keeps its types.
  auto onTensors = [](Operation *op) {
    auto isTensor = [](Type t) { return isa<RankedTensorType>(t); };
    return llvm::any_of(op->getOperandTypes(), isTensor) ||
           llvm::any_of(op->getResultTypes(), isTensor);
  };
  fn->walk<WalkOrder::PreOrder>([&](Operation *op) {
    auto iface = dyn_cast<MixedPrecisionOpInterface>(op);
    if (iface && onTensors(op)) {
      Scope scope = scopeOf(op->getParentOp());
      Item item{op, -1, Kind::Clear, scope.lowType, attrs.get(op), "", {}, {}};
      item.operands.assign(iface.getPrecisionOperands());
      item.results.assign(iface.getPrecisionResults());
      if (item.pinned) {
        item.pinRule = "pinned";
      } else if (scope.disabled) {
        item.pinned = Builder(op->getContext()).getF32Type();
        item.pinRule = "autocast-disabled";
      } else {
        const PrecisionPolicy &policy =
            scope.lowType.isBF16() ? bf16Policy : f16Policy;
        if (std::optional<PrecisionClass> c =
                policy.lookup(op->getName().getStringRef())) {
          item.kind = static_cast<Kind>(
              *c == PrecisionClass::Allow   ? Kind::Allow
              : *c == PrecisionClass::Deny  ? Kind::Deny
              : *c == PrecisionClass::Infer ? Kind::Infer
                                            : Kind::Clear);
        } else {
          item.kind = Kind::Fixed32;
          item.pinRule = "unlisted";
          op->emitRemark() << "'" << op->getName()
                           << "' is in no precision list; it stays f32";
        }
        // A constant operand that does not fit the low type keeps the op
        // in f32 rather than turn into inf or zero.
        for (unsigned i : item.operands) {
          DenseFPElementsAttr value;
          if (!item.pinned && item.kind != Kind::Fixed32 &&
              matchPattern(lookThroughCasts(op->getOperand(i)),
                           m_Constant(&value)) &&
              !constantFits(value, scope.lowType)) {
            item.pinned = Builder(op->getContext()).getF32Type();
            item.pinRule = "constant-out-of-range";
            op->emitRemark() << "operand #" << i << " is a constant that does "
                             << "not fit " << precisionName(scope.lowType)
                             << "; the op stays f32";
          }
        }
      }
      opItem[op] = addItem(item);
    }
    if (isGroupOp(op)) {
      Scope scope = scopeOf(op->getParentOp());
      for (OpResult r : op->getResults()) {
        if (!isFloatTensor(r.getType()))
          continue;
        Item item{op,
                  static_cast<int>(r.getResultNumber()),
                  Kind::Clear,
                  scope.lowType,
                  getResultPrecision(op, r.getResultNumber()),
                  "",
                  {},
                  {}};
        if (item.pinned)
          item.pinRule = "pinned";
        groupItem[{op, r.getResultNumber()}] = addItem(item);
      }
    }
  });

  // A backward op shares its forward op's node.
  for (auto &[op, index] : opItem) {
    Operation *forward =
        cast<MixedPrecisionOpInterface>(op).getTiedForwardOp();
    auto it = forward ? opItem.find(forward) : opItem.end();
    if (it == opItem.end())
      continue;
    classes.unionSets(index, it->second);
    tiedItems.insert(index);
  }
}

std::optional<unsigned> Coloring::producerItem(Value v) {
  Value root = lookThroughCasts(v);
  if (auto group = getGroupOf(root)) {
    auto it = groupItem.find(*group);
    if (it != groupItem.end())
      return it->second;
    return std::nullopt;
  }
  auto result = dyn_cast<OpResult>(root);
  if (!result)
    return std::nullopt;
  auto it = opItem.find(result.getOwner());
  if (it == opItem.end() ||
      !llvm::is_contained(items[it->second].results, result.getResultNumber()))
    return std::nullopt;
  return it->second;
}

void Coloring::buildGraph() {
  unsigned n = items.size();
  succ.assign(n, {});
  pred.assign(n, {});
  kind.assign(n, Kind::Clear);
  classPin.assign(n, std::nullopt);

  // Merge the kinds and pins of each class into its leader: a pin wins (f32
  // over a low type), then the strongest kind.
  for (unsigned i = 0; i < n; ++i) {
    unsigned leader = classes.getLeaderValue(i);
    Item &item = items[i];
    Kind k = item.kind;
    if (item.pinned) {
      k = item.pinned->isF32() ? Kind::Deny : Kind::Allow;
      std::optional<FloatType> &pin = classPin[leader];
      if (!pin || item.pinned->isF32())
        pin = item.pinned;
    }
    if (leader == i || static_cast<int>(k) > static_cast<int>(kind[leader]))
      kind[leader] = std::max(k, kind[leader]);
  }

  auto addEdge = [&](std::optional<unsigned> from, unsigned to) {
    if (!from)
      return;
    unsigned a = classes.getLeaderValue(*from), b = classes.getLeaderValue(to);
    if (a == b)
      return;
    succ[a].push_back(b);
    pred[b].push_back(a);
  };
  for (unsigned i = 0; i < n; ++i) {
    Item &item = items[i];
    if (item.group >= 0) {
      for (OpOperand *input : getGroupInputs(item.op, item.group))
        addEdge(producerItem(input->get()), i);
      continue;
    }
    for (unsigned operand : item.operands)
      addEdge(producerItem(item.op->getOperand(operand)), i);
  }
}

/// Breadth-first search from `seeds` along `edges`, entering only nodes for
/// which `enter` holds; marks visited nodes in `seen`.
static void bfs(ArrayRef<unsigned> seeds,
                const std::vector<SmallVector<unsigned, 2>> &edges,
                llvm::function_ref<bool(unsigned)> enter,
                std::vector<bool> &seen) {
  std::deque<unsigned> work(seeds.begin(), seeds.end());
  for (unsigned s : seeds)
    seen[s] = true;
  while (!work.empty()) {
    unsigned node = work.front();
    work.pop_front();
    for (unsigned next : edges[node]) {
      if (seen[next] || !enter(next))
        continue;
      seen[next] = true;
      work.push_back(next);
    }
  }
}

void Coloring::color() {
  unsigned n = items.size();
  colors.assign(n, {});
  SmallVector<unsigned> leaders, allowNodes, denyNodes;
  for (unsigned i = 0; i < n; ++i) {
    if (classes.getLeaderValue(i) != i)
      continue;
    leaders.push_back(i);
    if (kind[i] == Kind::Allow)
      allowNodes.push_back(i);
    if (kind[i] == Kind::Deny)
      denyNodes.push_back(i);
  }
  auto isFlexible = [&](unsigned i) {
    return kind[i] == Kind::Infer || kind[i] == Kind::Clear;
  };

  // 1. Deny spreads downstream through infer/clear nodes; every node on a
  //    path from a deny node to an infer node becomes f32.
  std::vector<bool> reachedFromDeny(n, false), denied(n, false);
  bfs(denyNodes, succ, isFlexible, reachedFromDeny);
  SmallVector<unsigned> deniedInfers;
  for (unsigned i : leaders)
    if (reachedFromDeny[i] && kind[i] == Kind::Infer)
      deniedInfers.push_back(i);
  bfs(deniedInfers, pred,
      [&](unsigned i) { return reachedFromDeny[i] && isFlexible(i); }, denied);
  for (unsigned i : denyNodes)
    denied[i] = false; // seeds are deny nodes by their own right

  // 2. Infer and clear nodes on a path between two allow nodes.
  auto passable = [&](unsigned i) { return isFlexible(i) && !denied[i]; };
  std::vector<bool> fromAllow(n, false), toAllow(n, false);
  bfs(allowNodes, succ, passable, fromAllow);
  bfs(allowNodes, pred, passable, toAllow);
  for (unsigned i : leaders) {
    Color &c = colors[i];
    if (kind[i] == Kind::Allow) {
      c = {true, "allow"};
    } else if (kind[i] == Kind::Deny) {
      c = {false, "deny"};
    } else if (kind[i] == Kind::Fixed32) {
      c = {false, "unlisted"};
    } else if (denied[i]) {
      c = {false, "deny-propagated"};
    } else if (fromAllow[i] && toAllow[i]) {
      c = {true, "between-allow"};
    } else {
      c = {false, kind[i] == Kind::Infer ? "no-allow-path" : "no-low-neighbour"};
    }
  }

  // 3. bf16: an infer node directly after a low-precision node follows it.
  SmallVector<unsigned> bf16Followers;
  for (unsigned i : leaders) {
    if (kind[i] != Kind::Infer || colors[i].low || denied[i] ||
        !items[i].lowType.isBF16())
      continue;
    if (llvm::any_of(pred[i], [&](unsigned p) { return colors[p].low; }))
      bf16Followers.push_back(i);
  }
  for (unsigned i : bf16Followers)
    colors[i] = {true, "follows-allow-bf16"};

  // 4. Clear nodes follow low-precision neighbours through clear nodes.
  SmallVector<unsigned> lowNodes;
  for (unsigned i : leaders)
    if (colors[i].low)
      lowNodes.push_back(i);
  auto followsNeighbour = [&](unsigned i) {
    return kind[i] == Kind::Clear && !denied[i] && !colors[i].low;
  };
  std::vector<bool> reached(n, false);
  bfs(lowNodes, succ, followsNeighbour, reached);
  bfs(lowNodes, pred, followsNeighbour, reached);
  for (unsigned i : leaders)
    if (reached[i] && !colors[i].low)
      colors[i] = {true, "follows-neighbour"};

  // 5. A clear node painted only for being next to a low node, whose
  //    consumers all stay f32, is better in f32: the cast its consumers need
  //    moves to its input, where it vanishes if the producer can store its
  //    f32 accumulator (a matmul feeding reshape -> cross_entropy) and costs
  //    the same otherwise. Walking backwards lets a whole chain flip.
  for (unsigned i : llvm::reverse(leaders)) {
    if (kind[i] != Kind::Clear || colors[i].rule != "follows-neighbour")
      continue;
    if (llvm::none_of(succ[i], [&](unsigned s) { return colors[s].low; }))
      colors[i] = {false, "f32-consumers"};
  }
}

FloatType Coloring::precisionOf(unsigned item) {
  unsigned leader = classes.getLeaderValue(item);
  if (items[item].pinned)
    return *items[item].pinned;
  if (classPin[leader])
    return *classPin[leader];
  if (colors[leader].low)
    return items[leader].lowType;
  return Builder(fn->getContext()).getF32Type();
}

StringRef Coloring::ruleOf(unsigned item) {
  if (!items[item].pinRule.empty())
    return items[item].pinRule;
  if (tiedItems.contains(item))
    return "tied-to-forward";
  return colors[classes.getLeaderValue(item)].rule;
}

void Coloring::run() {
  classify();
  buildGraph();
  color();
}

void Coloring::annotate() {
  llvm::MapVector<Operation *, SmallVector<Type>> groupTypes;
  Type f32 = Builder(fn->getContext()).getF32Type();
  for (unsigned i = 0, e = items.size(); i < e; ++i) {
    Item &item = items[i];
    if (item.group < 0) {
      attrs.set(item.op, precisionOf(i));
      continue;
    }
    SmallVector<Type> &types = groupTypes[item.op];
    types.resize(item.op->getNumResults(), f32);
    types[item.group] = precisionOf(i);
  }
  for (auto &[op, types] : groupTypes)
    setResultPrecisions(op, types);
}

void Coloring::writeReportOps(llvm::json::OStream &j, const CastPlan &plan,
                              Totals &totals) {
  for (unsigned i = 0, e = items.size(); i < e; ++i) {
    Item &item = items[i];
    if (item.group >= 0)
      continue;
    FloatType p = precisionOf(i);
    (p.isF32() ? totals.numF32 : totals.numLow)++;
    j.object([&] {
      j.attribute("name", item.op->getName().getStringRef());
      j.attribute("loc", formatLoc(item.op->getLoc()));
      j.attribute("precision", precisionName(p));
      j.attribute("rule", ruleOf(i));
    });
    // Activations: the float tensors the op produces, in their final types.
    for (OpResult r : item.op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(plan.getNewType(r));
      if (!type || !isa<FloatType>(type.getElementType()))
        continue;
      uint64_t bytes = type.getNumElements() *
                       (type.getElementType().getIntOrFloatBitWidth() / 8);
      (type.getElementType().isF32() ? totals.f32Bytes : totals.lowBytes) +=
          bytes;
    }
  }
}

void Coloring::countOps(unsigned &numLow, unsigned &numF32) {
  for (unsigned i = 0, e = items.size(); i < e; ++i)
    if (items[i].group < 0)
      (precisionOf(i).isF32() ? numF32 : numLow)++;
}

void Coloring::emitDecisionRemarks() {
  for (unsigned i = 0, e = items.size(); i < e; ++i) {
    if (items[i].group >= 0)
      continue;
    items[i].op->emitRemark()
        << precisionName(precisionOf(i)) << " (" << ruleOf(i) << ")";
  }
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct AssignPrecisionPass
    : amp::impl::AssignPrecisionBase<AssignPrecisionPass> {
  using AssignPrecisionBase::AssignPrecisionBase;

  LogicalResult initialize(MLIRContext *ctx) override;
  void runOnOperation() override;

private:
  FloatType lowType;
  PrecisionPolicy f16Policy, bf16Policy;
};
} // namespace

LogicalResult AssignPrecisionPass::initialize(MLIRContext *ctx) {
  std::optional<FloatType> ct = parsePrecision(ctx, computeType);
  if (!ct || ct->isF32())
    return emitError(UnknownLoc::get(ctx))
           << "amp-assign-precision: compute-type must be f16 or bf16, got '"
           << computeType << "'";
  lowType = *ct;

  auto isKnownOp = [&](StringRef name) {
    return RegisteredOperationName::lookup(name, ctx).has_value();
  };
  f16Policy = PrecisionPolicy::getDefaults(/*bf16=*/false);
  bf16Policy = PrecisionPolicy::getDefaults(/*bf16=*/true);
  for (PrecisionPolicy *policy : {&f16Policy, &bf16Policy}) {
    std::string error;
    if (!policyFile.empty() &&
        failed(policy->applyJSONFile(policyFile, isKnownOp, error)))
      return emitError(UnknownLoc::get(ctx))
             << "amp-assign-precision: policy file '" << policyFile
             << "': " << error;
    auto applyList = [&](ArrayRef<std::string> names,
                         PrecisionClass cls) -> LogicalResult {
      for (const std::string &name : names) {
        if (!isKnownOp(name))
          return emitError(UnknownLoc::get(ctx))
                 << "amp-assign-precision: unknown op '" << name << "' in "
                 << stringifyPrecisionClass(cls)
                 << "= (no registered dialect defines it)";
        policy->set(name, cls);
      }
      return success();
    };
    if (failed(applyList(allowOps, PrecisionClass::Allow)) ||
        failed(applyList(denyOps, PrecisionClass::Deny)) ||
        failed(applyList(inferOps, PrecisionClass::Infer)) ||
        failed(applyList(clearOps, PrecisionClass::Clear)))
      return failure();
  }
  return success();
}

void AssignPrecisionPass::runOnOperation() {
  ModuleOp module = getOperation();
  std::string reportText;
  llvm::raw_string_ostream reportStream(reportText);
  llvm::json::OStream j(reportStream, /*IndentSize=*/2);
  Coloring::Totals totals;
  unsigned casts = 0, constants = 0;

  SmallVector<std::unique_ptr<Coloring>> colorings;
  module.walk([&](FunctionOpInterface fn) {
    if (fn.isExternal())
      return;
    auto coloring =
        std::make_unique<Coloring>(fn, f16Policy, bf16Policy, lowType);
    coloring->run();
    coloring->annotate();
    if (emitRemarks)
      coloring->emitDecisionRemarks();
    colorings.push_back(std::move(coloring));
  });

  if (reportFile.empty()) {
    unsigned low = 0, f32 = 0;
    for (auto &coloring : colorings)
      coloring->countOps(low, f32);
    numLowPrecision += low;
    numF32 += f32;
    return;
  }

  // The report also needs what amp-insert-casts will do with the decisions.
  j.objectBegin();
  j.attribute("compute_type", precisionName(lowType));
  j.attributeBegin("ops");
  j.arrayBegin();
  unsigned index = 0;
  module.walk([&](FunctionOpInterface fn) {
    if (fn.isExternal())
      return;
    CastPlan plan(fn, /*keepIOTypes=*/true);
    casts += plan.getNumRuntimeCasts();
    constants += plan.getNumConstantConversions();
    colorings[index++]->writeReportOps(j, plan, totals);
  });
  numLowPrecision += totals.numLow;
  numF32 += totals.numF32;

  j.arrayEnd();
  j.attributeEnd();
  j.attribute("casts_inserted", casts);
  j.attribute("constants_converted", constants);
  j.attributeObject("op_counts", [&] {
    j.attribute("low_precision", totals.numLow);
    j.attribute("f32", totals.numF32);
  });
  j.attributeObject("activation_bytes", [&] {
    j.attribute("low_precision", static_cast<int64_t>(totals.lowBytes));
    j.attribute("f32", static_cast<int64_t>(totals.f32Bytes));
  });
  j.objectEnd();
  reportStream << "\n";

  std::error_code ec;
  llvm::raw_fd_ostream out(reportFile, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    emitError(module.getLoc()) << "amp-assign-precision: cannot write report '"
                               << reportFile << "': " << ec.message();
    return signalPassFailure();
  }
  out << reportText;
}
