//===- PlanBuffers.cpp - place a function's temporaries in one arena ------===//
//
// amp-runtime-plan-buffers, after amp-runtime-deallocate. A training step
// allocates and frees every intermediate tensor: three amp_alloc and three
// amp_free per forward op of a transformer, each followed by a status check.
// Their sizes are static and their lifetimes are known once the frees are
// placed, so the pass gives each buffer an offset in one arena at compile
// time, in the smaller of two placements: the block's allocations and frees
// replayed on a best-fit free list (what the runtime's allocator would do
// at run time), and the buffers placed largest first, each in the smallest
// gap that the placed buffers whose lifetimes overlap its own leave (which
// knows the future). At run time the step makes one amp_alloc and one
// amp_free for all of them.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/NNToRuntime/NNToRuntime.h"
#include "amp/Conversion/NNToRuntime/RuntimeABI.h"

#include "PointerArrays.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

#include <map>
#include <set>

namespace amp {
#define GEN_PASS_DEF_RUNTIMEPLANBUFFERS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp

using namespace mlir;
using namespace amp;
using namespace amp::runtime_abi;

namespace {

/// A buffer the block allocates with a constant size and frees itself.
struct Buffer {
  LLVM::CallOp alloc, free;
  int64_t bytes = 0;  // rounded up to the alignment, at least one unit
  int64_t offset = 0; // in the arena
  /// Positions of the amp_alloc and the amp_free in the block: two buffers
  /// are live at once when each is allocated before the other is freed.
  int64_t from = 0, to = 0;
};

/// The buffer `alloc` returns, if it can live in the arena: its size is a
/// constant and its only amp_free is an op of the same block whose status
/// nobody reads.
std::optional<Buffer> plannable(LLVM::CallOp alloc, int64_t alignment) {
  APInt size;
  if (!matchPattern(alloc.getOperand(0), m_ConstantInt(&size)) ||
      size.isNegative() || size.getActiveBits() > 59)
    return std::nullopt;
  Buffer buffer;
  buffer.alloc = alloc;
  for (Operation *user : alloc.getResult().getUsers()) {
    if (!isRuntimeCall(user, RuntimeFn::amp_free))
      continue;
    if (buffer.free || user->getBlock() != alloc->getBlock() ||
        user->getOperand(0) != alloc.getResult() ||
        !user->getResult(0).use_empty())
      return std::nullopt;
    buffer.free = cast<LLVM::CallOp>(user);
  }
  if (!buffer.free)
    return std::nullopt;
  buffer.bytes = std::max<int64_t>(
      alignment, llvm::alignTo(size.getZExtValue(), uint64_t(alignment)));
  return buffer;
}

/// An arena's largest size: far beyond any memory, and small enough that
/// sums of sizes and offsets stay in int64_t.
constexpr int64_t kMaxArenaBytes = int64_t(1) << 60;

/// Free ranges of the arena, found by size (best fit: the smallest range
/// that is large enough, the lowest offset among equals) and by offset (to
/// merge a freed range with its neighbours).
class FreeList {
public:
  /// The offset of a `bytes`-sized range taken from the list, or from the
  /// end of the arena (growing it, and reusing a free range at its end);
  /// none when the arena would outgrow kMaxArenaBytes.
  std::optional<int64_t> take(int64_t bytes) {
    auto fit = bySize.lower_bound({bytes, 0});
    if (fit != bySize.end()) {
      auto [size, offset] = *fit;
      erase(offset, size);
      if (size > bytes)
        insert(offset + bytes, size - bytes);
      return offset;
    }
    int64_t offset = end;
    if (!byOffset.empty()) {
      auto last = std::prev(byOffset.end());
      if (last->first + last->second == end) {
        offset = last->first;
        erase(last->first, last->second);
      }
    }
    if (bytes > kMaxArenaBytes - offset) {
      if (offset != end)
        insert(offset, end - offset);
      return std::nullopt;
    }
    end = offset + bytes;
    return offset;
  }

  /// Returns [offset, offset + bytes), merged with free neighbours.
  void give(int64_t offset, int64_t bytes) {
    auto next = byOffset.lower_bound(offset);
    if (next != byOffset.end() && offset + bytes == next->first) {
      bytes += next->second;
      erase(next->first, next->second);
    }
    auto after = byOffset.lower_bound(offset);
    if (after != byOffset.begin()) {
      auto prev = std::prev(after);
      if (prev->first + prev->second == offset) {
        offset = prev->first;
        bytes += prev->second;
        erase(prev->first, prev->second);
      }
    }
    insert(offset, bytes);
  }

  /// The arena's size: the end of the highest range ever taken.
  int64_t size() const { return end; }

private:
  void insert(int64_t offset, int64_t bytes) {
    byOffset[offset] = bytes;
    bySize.insert({bytes, offset});
  }
  void erase(int64_t offset, int64_t bytes) {
    byOffset.erase(offset);
    bySize.erase({bytes, offset});
  }

  std::map<int64_t, int64_t> byOffset;
  std::set<std::pair<int64_t, int64_t>> bySize;
  int64_t end = 0;
};

/// The most buffers placeBySize is given: 8192, about half a second.
constexpr size_t kMaxBySize = 8192;

/// Offsets for `buffers` placed largest first (earlier allocations first
/// among equals), each at the start of the smallest gap, lowest offset
/// among equals, that the already placed buffers live at the same time
/// leave (or after the highest of them); the arena's size, or none when it
/// would outgrow kMaxArenaBytes. O(n^2) in the buffers.
std::optional<int64_t> placeBySize(ArrayRef<Buffer> buffers,
                                   SmallVectorImpl<int64_t> &offsets) {
  SmallVector<unsigned> order(buffers.size());
  for (unsigned i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return buffers[a].bytes > buffers[b].bytes;
  });
  offsets.assign(buffers.size(), -1);
  SmallVector<unsigned> placed;
  int64_t size = 0;
  for (unsigned i : order) {
    const Buffer &buffer = buffers[i];
    // [offset, end) of the placed buffers live with this one, by offset.
    SmallVector<std::pair<int64_t, int64_t>> taken;
    for (unsigned j : placed)
      if (buffers[j].from < buffer.to && buffer.from < buffers[j].to)
        taken.push_back({offsets[j], offsets[j] + buffers[j].bytes});
    llvm::sort(taken);
    int64_t best = -1, bestGap = 0, cursor = 0;
    for (auto [start, end] : taken) {
      const int64_t gap = start - cursor;
      if (gap >= buffer.bytes && (best < 0 || gap < bestGap))
        best = cursor, bestGap = gap;
      cursor = std::max(cursor, end);
    }
    if (best < 0)
      best = cursor;
    if (buffer.bytes > kMaxArenaBytes - best)
      return std::nullopt;
    offsets[i] = best;
    size = std::max(size, best + buffer.bytes);
    placed.push_back(i);
  }
  return size;
}

struct RuntimePlanBuffersPass
    : amp::impl::RuntimePlanBuffersBase<RuntimePlanBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (alignment < 64 || alignment > (1 << 30) ||
        !llvm::isPowerOf2_64(alignment)) {
      fn.emitError() << "amp-runtime-plan-buffers: alignment " << alignment
                     << " is not a power of two from 64 to 2^30";
      return signalPassFailure();
    }
    // Loops and branches are still scf ops here; a body of several blocks
    // is not what amp-lower-to-runtime makes, and is left alone.
    if (fn.isExternal() || !fn.getBody().hasOneBlock())
      return;
    Block &block = fn.getBody().front();

    // Replay the block: each buffer takes a range at its amp_alloc and
    // gives it back at its amp_free.
    SmallVector<Buffer> buffers;
    DenseMap<Operation *, unsigned> freeing;
    FreeList arena;
    int64_t live = 0, peakLive = 0, position = 0;
    for (Operation &op : block) {
      ++position;
      if (isRuntimeCall(&op, RuntimeFn::amp_alloc)) {
        auto buffer = plannable(cast<LLVM::CallOp>(op), alignment);
        if (!buffer)
          continue;
        std::optional<int64_t> offset = arena.take(buffer->bytes);
        if (!offset)
          continue;
        buffer->offset = *offset;
        buffer->from = position;
        live += buffer->bytes;
        peakLive = std::max(peakLive, live);
        freeing[buffer->free] = buffers.size();
        buffers.push_back(*buffer);
      } else if (auto it = freeing.find(&op); it != freeing.end()) {
        Buffer &buffer = buffers[it->second];
        buffer.to = position;
        arena.give(buffer.offset, buffer.bytes);
        live -= buffer.bytes;
      }
    }
    if (buffers.empty())
      return;
    // The placement by size where it needs less. It is quadratic in the
    // buffers, so it is tried only where the replay left room (above the
    // bytes live at the peak, the least any placement needs) and on up to
    // kMaxBySize buffers (the BERT layer's f16 step has 110: 1.73 GiB
    // replayed, 1.34 GiB placed by size, 1.34 GiB live at the peak; a
    // transformer of 20k ops has 60k, placed by size in 27 s).
    int64_t arenaBytes = arena.size();
    SmallVector<int64_t> bySize;
    std::optional<int64_t> size;
    if (arenaBytes > peakLive && buffers.size() <= kMaxBySize &&
        (size = placeBySize(buffers, bySize)) && *size < arenaBytes) {
      arenaBytes = *size;
      for (auto [buffer, offset] : llvm::zip_equal(buffers, bySize))
        buffer.offset = offset;
    }

    // The arena: allocated where the first buffer was, freed where the last
    // free was.
    Operation *lastFree = buffers.front().free;
    for (const Buffer &buffer : buffers)
      if (lastFree->isBeforeInBlock(buffer.free))
        lastFree = buffer.free;
    MLIRContext *ctx = &getContext();
    Location loc = NameLoc::get(
        StringAttr::get(ctx, "buffer arena of @" + fn.getSymName()),
        fn.getLoc());
    OpBuilder b(buffers.front().alloc);
    Value bytes = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                           b.getI64IntegerAttr(arenaBytes));
    Value base =
        createRuntimeCall(b, loc, RuntimeFn::amp_alloc,
                          {bytes, buffers.front().alloc.getOperand(1)});
    b.setInsertionPoint(lastFree);
    createRuntimeCall(b, loc, RuntimeFn::amp_free,
                      {base, lastFree->getOperand(1)});

    Type ptrTy = LLVM::LLVMPointerType::get(ctx);
    // A GEP's constant indices hold 29 bits, signed (LLVM::GEPArg packs them
    // in a PointerUnion and truncates larger ones silently: the 100k-op
    // transformer's 1.47 GB arena wrote below itself). An arena larger than
    // that is cut in windows of kWindowBytes: the start of each window is
    // one GEP with an i64 operand, made after the arena's amp_alloc, and a
    // buffer is a constant index from the start of its window.
    constexpr int64_t kWindowBytes = int64_t(1)
                                     << (LLVM::kGEPConstantBitWidth - 1);
    DenseMap<int64_t, Value> windows{{0, base}};
    OpBuilder wb(ctx);
    wb.setInsertionPointAfter(base.getDefiningOp());
    for (const Buffer &buffer : buffers) {
      Value &start = windows[buffer.offset / kWindowBytes];
      if (start)
        continue;
      Value bytes = LLVM::ConstantOp::create(
          wb, loc, wb.getI64Type(),
          wb.getI64IntegerAttr(buffer.offset / kWindowBytes * kWindowBytes));
      start = LLVM::GEPOp::create(wb, loc, ptrTy, wb.getI8Type(), base,
                                  ArrayRef<LLVM::GEPArg>{bytes});
    }
    DenseMap<Value, int64_t> offsetOf;
    for (Buffer &buffer : buffers) {
      b.setInsertionPoint(buffer.alloc);
      Location at = buffer.alloc.getLoc();
      Value ptr = base;
      if (buffer.offset != 0) {
        Value start = windows.lookup(buffer.offset / kWindowBytes);
        auto index = static_cast<int32_t>(buffer.offset % kWindowBytes);
        ptr = index == 0
                  ? start
                  : LLVM::GEPOp::create(b, at, ptrTy, b.getI8Type(), start,
                                        ArrayRef<LLVM::GEPArg>{index});
      }
      buffer.alloc.getResult().replaceAllUsesWith(ptr);
      offsetOf[ptr] = buffer.offset;
      Operation *size = buffer.alloc.getOperand(0).getDefiningOp();
      buffer.alloc.erase();
      buffer.free.erase();
      if (size->use_empty())
        size->erase();
    }
    // The pointer arrays of temporaries (the grads that the multi-tensor
    // calls read) are filled from a table of offsets.
    gatherPointerArrays(
        fn, {offsetOf, 64,
             [&](OpBuilder &nb, Location l, Value offset) -> Value {
               return LLVM::GEPOp::create(nb, l, ptrTy, nb.getI8Type(), base,
                                          ArrayRef<LLVM::GEPArg>{offset});
             }});
    if (emitRemarks)
      fn.emitRemark() << "buffer arena: " << buffers.size() << " buffers in "
                      << arenaBytes << " bytes, " << peakLive
                      << " bytes live at the peak";
  }
};

} // namespace
