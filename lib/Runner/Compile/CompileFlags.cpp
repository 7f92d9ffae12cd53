//===- CompileFlags.cpp - the compile options of amp-run and amp-compile --===//

#include "amp/Runner/CompileFlags.h"

using namespace amp::runner;
namespace cl = llvm::cl;

CompileFlags::CompileFlags(cl::OptionCategory &category)
    : inputFile(cl::Positional, cl::Required, cl::desc("<training-step .mlir>"),
                cl::cat(category)),
      precision("precision", cl::init("f16"),
                cl::desc("f32 (no AMP pipeline), f16 or bf16 (amp-pipeline "
                         "with that compute type)"),
                cl::cat(category)),
      pipelineOptions("pipeline-options", cl::init(""),
                      cl::desc("Extra amp-pipeline options, e.g. "
                               "\"loss-scale=static init-scale=1024\""),
                      cl::cat(category)),
      autodiffOptions(
          "autodiff-options", cl::init(""),
          cl::desc("nn-autodiff options for a forward loss function as "
                   "--entry, e.g. \"optimizer=adamw lr=3e-4\""),
          cl::cat(category)),
      entry("entry", cl::init("train_step"), cl::cat(category),
            cl::desc("The training step, or a forward loss function for "
                     "nn-autodiff")),
      evalEntry("eval-entry", cl::init(""),
                cl::desc("A function (params..., input) -> logits used to "
                         "measure accuracy on the held-out split (for a "
                         "forward --entry F, F_forward is its forward pass)"),
                cl::cat(category)),
      underflowReport(
          "underflow-report", cl::init(""),
          cl::desc("A probe function (params..., input, label) -> (f32 "
                   "tensors...) run on the first batch before training, "
                   "reporting which fraction of the non-zero values an f16 "
                   "cast flushes to zero or makes subnormal"),
          cl::cat(category)),
      fuseAttention(
          "fuse-attention", cl::init(true),
          cl::desc("Fuse each matmul-scale-softmax-matmul attention into one "
                   "nn.attention (nn-fuse-attention) before nn-autodiff, so "
                   "that neither pass stores the [..., Sq, Sk] scores; "
                   "=false keeps the ops as written"),
          cl::cat(category)),
      recompute(
          "recompute", cl::init(false),
          cl::desc("Recompute forward values in the backward pass where "
                   "that costs no memory (nn-recompute, after "
                   "amp-pipeline): a GELU's output, a layer norm's f16 "
                   "copy, an f16 weight copy are computed again from what "
                   "the backward pass keeps anyway, which lowers the "
                   "step's peak memory and adds their ops' time"),
          cl::cat(category)),
      bufferArena(
          "buffer-arena", cl::init(true),
          cl::desc("Place each step's temporary tensors in one allocation "
                   "planned at compile time (amp-runtime-plan-buffers); "
                   "=false gives each its own amp_alloc, so that a memory "
                   "checker sees every tensor"),
          cl::cat(category)),
      donateState(
          "donate-state", cl::init(true),
          cl::desc("Compute the new params and optimizer state in place, in "
                   "the buffers of the old (the step's arguments donate "
                   "them, amp.aliasing_output), so that the state is held "
                   "once; =false gives every result a buffer of its own"),
          cl::cat(category)),
      inPlace("in-place", cl::init(true),
              cl::desc("Compute a result in the buffer of an operand that "
                       "dies at the op where the kernel allows it "
                       "(amp-lower-to-runtime's in-place); =false gives "
                       "every result a buffer of its own"),
              cl::cat(category)),
      codegenFunctionSize(
          "codegen-function-size", cl::init(kDefaultCodegenFunctionSize),
          cl::desc("Before code generation, outline runs of a large step's "
                   "blocks into functions of about this many LLVM "
                   "instructions: the code generator's memory grows with "
                   "the largest function; 0 keeps every function whole"),
          cl::cat(category)) {}

CompileRequest CompileFlags::request() const {
  CompileRequest r;
  r.precision = precision;
  r.pipelineOptions = pipelineOptions;
  r.autodiffOptions = autodiffOptions;
  r.entry = entry;
  r.evalEntry = evalEntry;
  r.underflowProbe = underflowReport;
  r.source = inputFile;
  r.fuseAttention = fuseAttention;
  r.recompute = recompute;
  r.bufferArena = bufferArena;
  r.donateState = donateState;
  r.inPlace = inPlace;
  r.codegenFunctionSize = codegenFunctionSize;
  return r;
}
