//===- ProgramMetadata.h - what a compiled step carries as data -*- C++ -*-===//
//
// A step compiled ahead of time (amp-compile) is a shared object holding the
// lowered functions and, behind the C symbol kStepMetadataSymbol, a text
// description of the program: its functions' signatures (roles, shapes,
// element types, `nn.init`), which function is the step, the eval function
// and the underflow probe, and the options it was compiled with. amp-exec
// reads it back with parseProgramMetadata and needs nothing else to bind,
// initialize and run the step. The format is line-based text, versioned by
// its first line; docs/amp-compile.md describes it.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_PROGRAMMETADATA_H
#define AMP_RUNNER_PROGRAMMETADATA_H

#include "amp/Runner/Status.h"
#include "amp/Runner/Trainer.h"

#include <string>

namespace amp::runner {

/// The C symbol of the compiled object: `const char *amp_step_metadata(void)`.
inline constexpr const char *kStepMetadataSymbol = "amp_step_metadata";

/// The first line of the current format. It also names the runtime ABI the
/// step's code calls: 5 since amp_attention and amp_attention_grad take the
/// key/value head group (kv_group), 7 since amp_embedding_grad takes
/// padding_idx, so that a step compiled for the older calls is refused
/// instead of run with arguments missing.
inline constexpr const char *kStepMetadataVersion = "amp-step-metadata 7";

struct CompiledProgram {
  /// The signatures: program.step's name is the step's symbol, and so on.
  TrainingProgram program;
  /// f32, f16 or bf16, as amp-run's --precision.
  std::string precision = "f32";
  /// The compile options, as given (for the run's first line and --help).
  std::string pipelineOptions;
  std::string autodiffOptions;
  /// The source file.
  std::string source;
};

std::string serializeProgramMetadata(const CompiledProgram &compiled);

/// Parses what serializeProgramMetadata wrote; a clear error for anything
/// else (another version, a truncated or corrupt table).
StatusOr<CompiledProgram> parseProgramMetadata(const std::string &text);

} // namespace amp::runner

#endif // AMP_RUNNER_PROGRAMMETADATA_H
