//===- PrecisionAnalysis.cpp - the precision coloring of a function -------===//
//
// TensorFlow-AMP-style graph coloring over the whole function (forward,
// backward, regions). Ops tied together (a backward op and its forward op)
// and values that must share one type (loop-carried values, region results)
// are merged with union-find; the coloring then runs a few breadth-first
// passes over the merged graph, each linear in its size.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/Transforms/PrecisionAnalysis.h"

#include "PrecisionUtils.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Interfaces/MixedPrecisionOpInterface.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/EquivalenceClasses.h"

#include <deque>

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

Kind kindOf(PrecisionClass c) {
  switch (c) {
  case PrecisionClass::Allow:
    return Kind::Allow;
  case PrecisionClass::Deny:
    return Kind::Deny;
  case PrecisionClass::Infer:
    return Kind::Infer;
  case PrecisionClass::Clear:
    return Kind::Clear;
  }
  llvm_unreachable("unknown precision class");
}

struct Scope {
  FloatType lowType;
  bool disabled = false;
};

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
  Coloring(Operation *fn, const PrecisionConfig &config)
      : fn(fn), config(config) {}

  void run();
  FloatType precisionOf(unsigned item);
  StringRef ruleOf(unsigned item);

  std::vector<Item> items;
  std::vector<PrecisionNote> notes;

private:
  Scope scopeOf(Operation *parent);
  unsigned addItem(Item item);
  void classify();
  std::optional<unsigned> producerItem(Value v);
  void buildGraph();
  void color();

  Operation *fn;
  const PrecisionConfig &config;

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
  if (!parent || parent == fn)
    return {config.lowType, false};
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
      Item item{op, -1, Kind::Clear, scope.lowType, getOpPrecision(op),
                "", {}, {}};
      item.operands.assign(iface.getPrecisionOperands());
      item.results.assign(iface.getPrecisionResults());
      if (item.pinned) {
        item.pinRule = "pinned";
      } else if (scope.disabled) {
        item.pinned = Builder(op->getContext()).getF32Type();
        item.pinRule = "autocast-disabled";
      } else {
        const PrecisionPolicy &policy =
            scope.lowType.isBF16() ? *config.bf16Policy : *config.f16Policy;
        // The strongest class of the names the op is classified by; an
        // empty list (a linalg.generic that only moves data) is clear.
        SmallVector<StringRef, 2> names;
        iface.getPolicyNames(names);
        StringRef opName = op->getName().getStringRef(), unlisted;
        item.kind = Kind::Clear;
        for (StringRef name : names) {
          std::optional<PrecisionClass> c = policy.lookup(name);
          if (!c && name == opName)
            c = iface.getDefaultPrecisionClass();
          if (!c && unlisted.empty())
            unlisted = name;
          item.kind = std::max(item.kind, c ? kindOf(*c) : Kind::Fixed32);
        }
        if (item.kind == Kind::Fixed32) {
          item.pinRule = "unlisted";
          notes.push_back(
              {op, unlisted == opName
                       ? ("'" + opName + "' is in no precision list; it "
                                         "stays f32")
                             .str()
                       : ("'" + opName + "' computes '" + unlisted +
                          "', which is in no precision list; it stays f32")
                             .str()});
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
            notes.push_back(
                {op, ("operand #" + Twine(i) + " is a constant that does " +
                      "not fit " + precisionName(scope.lowType) +
                      "; the op stays f32")
                         .str()});
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
    Operation *forward = cast<MixedPrecisionOpInterface>(op).getTiedForwardOp();
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
  bfs(
      deniedInfers, pred,
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
      c = {false,
           kind[i] == Kind::Infer ? "no-allow-path" : "no-low-neighbour"};
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
  //    the same otherwise. Walking backwards lets a whole chain flip. A node
  //    with no float result (nn.argmax, a conversion to ids) has no
  //    consumer to serve: it reads its input as the producer stores it.
  for (unsigned i : llvm::reverse(leaders)) {
    if (kind[i] != Kind::Clear || colors[i].rule != "follows-neighbour")
      continue;
    if (items[i].group < 0 && items[i].results.empty())
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
  return Float32Type::get(fn->getContext());
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

//===----------------------------------------------------------------------===//
// PrecisionAnalysis
//===----------------------------------------------------------------------===//

void PrecisionAnalysis::compute(const PrecisionConfig &config) {
  Coloring coloring(function, config);
  coloring.run();
  ops.clear();
  groups.clear();
  opIndex.clear();
  notes = std::move(coloring.notes);

  llvm::DenseMap<Operation *, unsigned> groupIndex;
  Type f32 = Float32Type::get(function->getContext());
  for (unsigned i = 0, e = coloring.items.size(); i < e; ++i) {
    const Item &item = coloring.items[i];
    if (item.group < 0) {
      opIndex[item.op] = ops.size();
      ops.push_back({item.op, coloring.precisionOf(i), coloring.ruleOf(i)});
      continue;
    }
    auto [it, inserted] = groupIndex.try_emplace(item.op, groups.size());
    if (inserted)
      groups.push_back(
          {item.op, SmallVector<Type>(item.op->getNumResults(), f32)});
    groups[it->second].precisions[item.group] = coloring.precisionOf(i);
  }
}

const OpPrecision *PrecisionAnalysis::lookup(Operation *op) const {
  auto it = opIndex.find(op);
  return it == opIndex.end() ? nullptr : &ops[it->second];
}
