//===- SplitStep.cpp - a large step as several functions for codegen ------===//
//
// A lowered step is one function: a straight line of runtime calls in
// blocks of up to 64 calls, each ending in a status check. At -O0 the code
// generator holds the machine code of a whole function until it has
// emitted it, so the function's size set the peak memory of amp-compile
// and amp-run: `llc -O0` took 1.9 GB on a 100k-op step. splitLargeFunctions
// outlines runs of consecutive blocks into private functions of about
// `size` instructions each (LLVM's CodeExtractor: values crossing a cut
// travel in a struct on the caller's stack, a branch out of the run
// becomes the callee's return value and a switch in the caller). The code
// generator frees each function's machine code once it is emitted.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Compile.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

#include <functional>
#include <vector>

namespace {

/// Runs of consecutive blocks of `fn` with about `chunk` instructions each
/// that can be outlined: one entry (the run's first block), not the
/// function's entry block (its allocas stay in place), and no return (the
/// run's exits are branches out of it).
std::vector<std::vector<llvm::BasicBlock *>> findRuns(llvm::Function &fn,
                                                      size_t chunk) {
  std::vector<std::vector<llvm::BasicBlock *>> runs;
  std::vector<llvm::BasicBlock *> run;
  llvm::SmallPtrSet<llvm::BasicBlock *, 32> inRun;
  size_t size = 0;
  // Edges from outside the run into a block of the run other than its
  // first: the run can be cut only when there are none.
  size_t sideEntries = 0;
  auto restart = [&] {
    run.clear();
    inRun.clear();
    size = 0;
    sideEntries = 0;
  };
  for (llvm::BasicBlock &block : llvm::drop_begin(fn)) {
    if (!llvm::isa<llvm::BranchInst, llvm::SwitchInst>(block.getTerminator())) {
      // A return ends the run before it; the block stays in `fn`.
      if (size >= chunk / 2 && sideEntries == 0)
        runs.push_back(run);
      restart();
      continue;
    }
    inRun.insert(&block);
    run.push_back(&block);
    if (run.size() > 1)
      for (llvm::BasicBlock *pred : llvm::predecessors(&block))
        sideEntries += !inRun.contains(pred);
    // The edges from this block into the run were counted as side entries
    // when their targets joined it.
    for (llvm::BasicBlock *succ : llvm::successors(&block))
      if (succ != &block && succ != run.front() && inRun.contains(succ))
        --sideEntries;
    size += block.size();
    if (size >= chunk && sideEntries == 0) {
      runs.push_back(run);
      restart();
    }
  }
  if (size >= chunk / 2 && sideEntries == 0)
    runs.push_back(run);
  return runs;
}

/// Gives `run` its own copy of each value it uses from outside, made in
/// its first block: a clone of an address at constant offsets (the arena's
/// buffers, each defined once and used in many blocks: 95% of the values
/// that crossed the cuts of a 10k-op step before), a freeze (a no-op on a
/// value that is not poison) of anything else. So a value crosses a cut only if
/// it must, and the values the whole step uses (its argument, its status slot,
/// its arena) get a user per run instead of one per runtime call: CodeExtractor
/// walks all the users of every value that crosses a cut, which made outlining
/// each run of a 100k-op step walk them all again. `originals` maps the copies
/// made for earlier runs to what they copy: an address in an earlier run may
/// have one as its base.
void copyInputs(llvm::ArrayRef<llvm::BasicBlock *> run,
                llvm::DenseMap<llvm::Value *, llvm::Value *> &originals) {
  llvm::SmallPtrSet<llvm::BasicBlock *, 32> inRun(run.begin(), run.end());
  llvm::DenseMap<llvm::Value *, llvm::Value *> copies;
  llvm::BasicBlock::iterator at = run.front()->getFirstInsertionPt();
  std::function<llvm::Value *(llvm::Value *)> copyOf =
      [&](llvm::Value *value) -> llvm::Value * {
    if (llvm::Value *original = originals.lookup(value))
      value = original;
    if (llvm::Value *copy = copies.lookup(value))
      return copy;
    llvm::Instruction *copy;
    auto *address = llvm::dyn_cast<llvm::GetElementPtrInst>(value);
    if (address && address->hasAllConstantIndices()) {
      llvm::Value *base = address->getPointerOperand();
      if (llvm::isa<llvm::Argument, llvm::Instruction>(base))
        base = copyOf(base);
      copy = address->clone();
      copy->setOperand(0, base);
      copy->insertBefore(at);
    } else {
      copy = new llvm::FreezeInst(value, "", at);
    }
    copies[value] = copy;
    originals[copy] = value;
    return copy;
  };
  for (llvm::BasicBlock *block : run) {
    for (llvm::Instruction &inst : *block) {
      // The first block's phis take their values on edges from outside.
      if (block == run.front() && llvm::isa<llvm::PHINode>(inst))
        continue;
      for (llvm::Use &use : inst.operands()) {
        llvm::Value *value = use.get();
        auto *def = llvm::dyn_cast<llvm::Instruction>(value);
        bool fromOutside = llvm::isa<llvm::Argument>(value) ||
                           (def && !inRun.contains(def->getParent()));
        if (fromOutside && !value->getType()->isTokenTy())
          use.set(copyOf(value));
      }
    }
  }
}

} // namespace

void amp::runner::splitLargeFunctions(llvm::Module &module, size_t chunk) {
  if (chunk == 0)
    return;
  std::vector<llvm::Function *> large;
  for (llvm::Function &fn : module)
    if (!fn.isDeclaration() && fn.getInstructionCount() > 2 * chunk)
      large.push_back(&fn);
  for (llvm::Function *fn : large) {
    std::vector<std::vector<llvm::BasicBlock *>> runs = findRuns(*fn, chunk);
    // Not invalidated by the extractions (CodeExtractor.h).
    llvm::CodeExtractorAnalysisCache cache(*fn);
    llvm::DenseMap<llvm::Value *, llvm::Value *> originals;
    for (const std::vector<llvm::BasicBlock *> &run : runs)
      copyInputs(run, originals);
    for (const std::vector<llvm::BasicBlock *> &run : runs) {
      llvm::CodeExtractor extractor(run, /*DT=*/nullptr,
                                    /*AggregateArgs=*/true,
                                    /*BFI=*/nullptr, /*BPI=*/nullptr,
                                    /*AC=*/nullptr, /*AllowVarArgs=*/false,
                                    /*AllowAlloca=*/false,
                                    /*AllocationBlock=*/nullptr,
                                    /*Suffix=*/"part");
      // A run that cannot be outlined stays where it is: the split only
      // saves memory.
      if (extractor.isEligible())
        extractor.extractCodeRegion(cache);
    }
  }
}
