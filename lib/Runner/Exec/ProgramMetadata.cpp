//===- ProgramMetadata.cpp - the metadata of a compiled step --------------===//
//
// The format, one record per line, fields separated by spaces; strings are
// written length-prefixed ("<n>:<bytes>") so that any name or option string
// survives:
//
//   amp-step-metadata 7
//   precision f16
//   source <str>
//   pipeline-options <str>
//   autodiff-options <str>
//   function step|eval|probe <str name> <n args> <n results>
//   tensor <role|-> <type> <rank> <dims...> <init|-> <classes|-> <ignore|->
//          <in-argument|-> <str name> <str loss>
//   ...                      (the function's args, then its results)
//   end
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/ProgramMetadata.h"

#include "amp/Runner/Role.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

using namespace amp::runner;

namespace {

void writeString(std::ostream &os, const std::string &s) {
  os << s.size() << ':' << s;
}

void writeTensor(std::ostream &os, const TensorDesc &t) {
  os << "tensor " << (t.role ? roleName(*t.role) : "-") << ' '
     << elementTypeName(t.type) << ' ' << t.shape.size();
  for (int64_t d : t.shape)
    os << ' ' << d;
  if (t.init) {
    // %a: the exact double, read back bit for bit.
    char hex[64];
    std::snprintf(hex, sizeof(hex), "%a", *t.init);
    os << ' ' << hex;
  } else {
    os << " -";
  }
  const std::optional<int64_t> inArgument = t.inArgument;
  for (const std::optional<int64_t> *n :
       {&t.classes, &t.ignoreIndex, &inArgument}) {
    os << ' ';
    if (*n)
      os << **n;
    else
      os << '-';
  }
  os << ' ';
  writeString(os, t.name);
  os << ' ';
  writeString(os, t.loss);
  os << '\n';
}

void writeFunction(std::ostream &os, const char *kind,
                   const FunctionSignature &fn) {
  os << "function " << kind << ' ';
  writeString(os, fn.name);
  os << ' ' << fn.args.size() << ' ' << fn.results.size() << '\n';
  for (const TensorDesc &t : fn.args)
    writeTensor(os, t);
  for (const TensorDesc &t : fn.results)
    writeTensor(os, t);
}

/// Reads the metadata's tokens, failing with the line it stopped at.
class Reader {
public:
  explicit Reader(const std::string &text) : in(text), size(text.size()) {}

  /// The most tensor records the text can hold: each takes at least
  /// kMinTensorRecordBytes ("tensor - i1 0 - - - 0:"), so a
  /// count beyond it is corrupt, and what it allocates is bounded by the
  /// text's size.
  size_t maxTensors() const { return size / kMinTensorRecordBytes; }

  bool word(std::string &out) { return bool(in >> out); }
  bool expect(const char *keyword) {
    std::string w;
    return word(w) && w == keyword;
  }
  template <typename T> bool number(T &out) { return bool(in >> out); }
  bool string(std::string &out) {
    size_t n;
    char colon;
    if (!(in >> n) || !in.get(colon) || colon != ':' || n > (1u << 20))
      return false;
    out.resize(n);
    return n == 0 || bool(in.read(out.data(), static_cast<std::streamsize>(n)));
  }

private:
  static constexpr size_t kMinTensorRecordBytes = 20;
  std::istringstream in;
  size_t size;
};

Status corrupt(const std::string &what) {
  return Status::error("the step's metadata is corrupt (" + what +
                       "); compile it again with this version of amp-compile");
}

bool readTensor(Reader &r, TensorDesc &t) {
  std::string role, type, init, classes, ignore, inArgument;
  size_t rank;
  if (!r.expect("tensor") || !r.word(role) || !r.word(type) ||
      !r.number(rank) || rank > 64)
    return false;
  if (role != "-") {
    t.role = parseRole(role);
    if (!t.role)
      return false;
  }
  std::optional<ElementType> parsed = parseElementType(type);
  if (!parsed)
    return false;
  t.type = *parsed;
  t.shape.resize(rank);
  for (int64_t &d : t.shape)
    if (!r.number(d) || d < 0)
      return false;
  if (!r.word(init) || !r.word(classes) || !r.word(ignore) ||
      !r.word(inArgument))
    return false;
  if (init != "-") {
    char *end = nullptr;
    t.init = std::strtod(init.c_str(), &end);
    if (*end)
      return false;
  }
  std::optional<int64_t> argument;
  for (auto [word, value] :
       {std::pair{&classes, &t.classes}, std::pair{&ignore, &t.ignoreIndex},
        std::pair{&inArgument, &argument}}) {
    if (*word == "-")
      continue;
    char *end = nullptr;
    errno = 0;
    *value = std::strtoll(word->c_str(), &end, 10);
    if (*end || errno)
      return false;
  }
  // checkSignature checks the index against the arguments.
  if (argument) {
    if (*argument < 0 || *argument > std::numeric_limits<int>::max())
      return false;
    t.inArgument = static_cast<int>(*argument);
  }
  return r.string(t.name) && r.string(t.loss);
}

} // namespace

std::string
amp::runner::serializeProgramMetadata(const CompiledProgram &compiled) {
  std::ostringstream os;
  os << kStepMetadataVersion << '\n';
  os << "precision " << compiled.precision << '\n';
  for (auto [key, value] :
       {std::pair{"source", &compiled.source},
        std::pair{"pipeline-options", &compiled.pipelineOptions},
        std::pair{"autodiff-options", &compiled.autodiffOptions}}) {
    os << key << ' ';
    writeString(os, *value);
    os << '\n';
  }
  writeFunction(os, "step", compiled.program.step);
  if (compiled.program.eval)
    writeFunction(os, "eval", *compiled.program.eval);
  if (compiled.program.underflowProbe)
    writeFunction(os, "probe", *compiled.program.underflowProbe);
  os << "end\n";
  return os.str();
}

StatusOr<CompiledProgram>
amp::runner::parseProgramMetadata(const std::string &text) {
  std::string first = text.substr(0, text.find('\n'));
  if (first != kStepMetadataVersion)
    return Status::error("the step was compiled for another metadata format "
                         "('" +
                         first.substr(0, 40) + "', this amp-exec reads '" +
                         kStepMetadataVersion +
                         "'); compile it again with this version");
  Reader r(text.substr(first.size()));
  CompiledProgram compiled;
  if (!r.expect("precision") || !r.word(compiled.precision))
    return corrupt("precision");
  for (auto [key, value] :
       {std::pair{"source", &compiled.source},
        std::pair{"pipeline-options", &compiled.pipelineOptions},
        std::pair{"autodiff-options", &compiled.autodiffOptions}})
    if (!r.expect(key) || !r.string(*value))
      return corrupt(key);
  bool haveStep = false;
  while (true) {
    std::string word;
    if (!r.word(word))
      return corrupt("no end");
    if (word == "end")
      break;
    std::string kind;
    FunctionSignature fn;
    size_t args, results;
    if (word != "function" || !r.word(kind) || !r.string(fn.name) ||
        !r.number(args) || !r.number(results) || args > r.maxTensors() ||
        results > r.maxTensors() - args)
      return corrupt("a function header");
    fn.args.resize(args);
    fn.results.resize(results);
    for (TensorDesc &t : fn.args)
      if (!readTensor(r, t))
        return corrupt("an argument of @" + fn.name);
    for (TensorDesc &t : fn.results)
      if (!readTensor(r, t))
        return corrupt("a result of @" + fn.name);
    if (Status s = checkSignature(fn); s.failed())
      return s;
    if (kind == "step" && !haveStep) {
      compiled.program.step = std::move(fn);
      haveStep = true;
    } else if (kind == "eval" && !compiled.program.eval) {
      compiled.program.eval = std::move(fn);
    } else if (kind == "probe" && !compiled.program.underflowProbe) {
      compiled.program.underflowProbe = std::move(fn);
    } else {
      return corrupt("function kind '" + kind + "'");
    }
  }
  if (!haveStep)
    return corrupt("no step function");
  return compiled;
}
