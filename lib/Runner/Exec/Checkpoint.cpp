//===- Checkpoint.cpp - save and resume a training run --------------------===//
//
// A checkpoint is what PyTorch users save as the state dicts of the model,
// the optimizer, the GradScaler and the lr scheduler, plus where the data
// loader stands, so that a resumed run continues bitwise like one that
// never stopped. It is a NumPy .npz archive (np.load reads it):
//   - one array per threaded step argument, named by role and index within
//     the role: "param.0", "buffer.1", "opt_state.3", "loss_scale.0",
//     "growth_tracker.0", "hysteresis_tracker.0", "schedule_state.0",
//     "rng_state.0";
//   - "amp.version" (1), "amp.step" (the steps done), "amp.skipped" (those
//     skipped for overflow), all 0-d i64;
//   - "amp.data" [rows, values per row, labels per row, fingerprint] i64:
//     the dataset the run trains on (Dataset::fingerprint);
//   - "amp.train_rows" and "amp.eval_rows" i64: the held-out split and the
//     current epoch's order of the training rows; "amp.cursor" (0-d i64):
//     the next training row; "amp.rng" i64: the words of the runner's
//     std::mt19937_64 as its operator<< writes them (bit patterns).
// The file is replaced atomically; a "{step}" in its name becomes the step,
// keeping one file per checkpoint. Loading checks every array against the step
// and the data before anything runs: a missing, extra, mistyped or misshapen
// array, other data or a damaged order is an error that names it.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Trainer.h"

#include "amp/Runner/NpzFile.h"
#include "amp/Runner/ReadFile.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <tuple>

using namespace amp::runner;

static constexpr int64_t kCheckpointVersion = 1;
static constexpr char kMeta[] = "amp.";

static HostArray i64Array(std::vector<int64_t> values,
                          std::vector<int64_t> shape) {
  HostArray array;
  array.type = ElementType::I64;
  array.shape = std::move(shape);
  array.bytes.resize(values.size() * sizeof(int64_t));
  if (!values.empty()) // memcpy takes no null pointer, even for 0 bytes
    std::memcpy(array.bytes.data(), values.data(), array.bytes.size());
  return array;
}

static HostArray scalar(int64_t value) { return i64Array({value}, {}); }

static HostArray i64Vector(const std::vector<int64_t> &values) {
  return i64Array(values, {static_cast<int64_t>(values.size())});
}

static std::vector<int64_t> i64Values(const HostArray &array) {
  std::vector<int64_t> values(array.bytes.size() / sizeof(int64_t));
  if (!values.empty())
    std::memcpy(values.data(), array.bytes.data(),
                values.size() * sizeof(int64_t));
  return values;
}

/// The words of `rng`'s state, as operator<< writes them.
static std::vector<int64_t> rngWords(const std::mt19937_64 &rng) {
  std::ostringstream text;
  text << rng;
  std::istringstream in(text.str());
  std::vector<int64_t> words;
  for (uint64_t word = 0; in >> word;)
    words.push_back(static_cast<int64_t>(word));
  return words;
}

std::vector<int> Trainer::checkpointArgs() const {
  std::vector<int> args;
  for (int a : binding.feedsArg)
    if (a >= 0)
      args.push_back(a);
  std::sort(args.begin(), args.end());
  args.erase(std::unique(args.begin(), args.end()), args.end());
  return args;
}

std::string amp::runner::checkpointArrayName(Role role, size_t index) {
  return std::string(roleName(role)) + "." + std::to_string(index);
}

std::string Trainer::checkpointName(int arg) const {
  Role role = *program.step.args[arg].role;
  const std::vector<int> &same = binding.args(role);
  auto index = std::find(same.begin(), same.end(), arg) - same.begin();
  return checkpointArrayName(role, index);
}

Status Trainer::saveCheckpoint(int step) const {
  NamedArrays arrays;
  for (int a : checkpointArgs()) {
    HostArray array;
    array.type = program.step.args[a].type;
    array.shape = program.step.args[a].shape;
    StatusOr<std::vector<char>> bytes = argBuffers[a].read();
    if (bytes.failed())
      return bytes.takeStatus();
    array.bytes = std::move(*bytes);
    arrays.emplace_back(checkpointName(a), std::move(array));
  }
  const std::string m = kMeta;
  arrays.emplace_back(m + "version", scalar(kCheckpointVersion));
  arrays.emplace_back(m + "step", scalar(step));
  arrays.emplace_back(m + "skipped", scalar(skipped));
  arrays.emplace_back(m + "data",
                      i64Vector({data.rows(), data.features, data.labelsPerRow,
                                 static_cast<int64_t>(dataFingerprint)}));
  arrays.emplace_back(m + "train_rows", i64Vector(split.train));
  arrays.emplace_back(m + "eval_rows", i64Vector(split.eval));
  arrays.emplace_back(m + "cursor", scalar(static_cast<int64_t>(cursor)));
  arrays.emplace_back(m + "rng", i64Vector(rngWords(rng)));
  StatusOr<std::vector<char>> bytes = encodeNpz(arrays);
  if (bytes.failed())
    return Status::error("--save-checkpoint: " + bytes.getStatus().message());
  // "{step}" in the name keeps one file per checkpoint.
  std::string path = options.saveCheckpoint;
  const std::string placeholder = "{step}";
  for (size_t at = path.find(placeholder); at != std::string::npos;
       at = path.find(placeholder, at))
    path.replace(at, placeholder.size(), std::to_string(step));
  return replaceFileBytes(path, *bytes);
}

Status Trainer::loadCheckpoint(std::map<int, std::vector<char>> &state) {
  const std::string &path = options.resume;
  StatusOr<std::vector<char>> bytes = readFileBytes(path, "checkpoint ");
  if (bytes.failed())
    return bytes.takeStatus();
  StatusOr<NamedArrays> file = parseNpz(*bytes, path);
  if (file.failed())
    return file.takeStatus();
  auto bad = [&](const std::string &why) {
    return Status::error("--resume '" + path + "': " + why);
  };
  std::map<std::string, const HostArray *> arrays;
  for (const auto &[name, array] : *file)
    arrays[name] = &array;

  // The metadata: an i64 array of each, of the expected rank.
  auto meta = [&](const std::string &key, bool isVector,
                  std::vector<int64_t> &values) -> Status {
    auto it = arrays.find(kMeta + key);
    if (it == arrays.end())
      return bad("it has no '" + std::string(kMeta) + key +
                 "' (not a checkpoint from --save-checkpoint?)");
    const HostArray &a = *it->second;
    if (a.type != ElementType::I64 || a.shape.size() != (isVector ? 1u : 0u))
      return bad("'" + it->first + "' is " + describeArray(a) + ", not " +
                 (isVector ? "a vector" : "a scalar") + " of i64");
    values = i64Values(a);
    arrays.erase(it);
    return Status::success();
  };
  std::vector<int64_t> version, step, skippedSteps, shape, train, eval, at,
      words;
  for (auto [key, isVector, values] : {std::tuple{"version", false, &version},
                                       {"step", false, &step},
                                       {"skipped", false, &skippedSteps},
                                       {"data", true, &shape},
                                       {"train_rows", true, &train},
                                       {"eval_rows", true, &eval},
                                       {"cursor", false, &at},
                                       {"rng", true, &words}})
    if (Status s = meta(key, isVector, *values); s.failed())
      return s;
  if (version[0] != kCheckpointVersion)
    return bad("it is of version " + std::to_string(version[0]) +
               "; this amp reads version " +
               std::to_string(kCheckpointVersion));
  if (step[0] < 0 || skippedSteps[0] < 0 || skippedSteps[0] > step[0])
    return bad("it says " + std::to_string(step[0]) + " steps were run, " +
               std::to_string(skippedSteps[0]) + " of them skipped");
  if (step[0] > options.steps)
    return bad("it was saved after step " + std::to_string(step[0]) +
               ", past --steps " + std::to_string(options.steps) +
               " (--steps counts from the start of the training)");

  // The data: the same rows, and a split that orders each exactly once.
  const std::string sameData =
      "resume with the run's --data, --feature-scale and --seed (for "
      "synthetic data), or start from its params with --load-params";
  const std::vector<int64_t> here = {data.rows(), data.features,
                                     data.labelsPerRow,
                                     static_cast<int64_t>(dataFingerprint)};
  if (shape.size() != here.size() ||
      !std::equal(shape.begin(), shape.begin() + 3, here.begin()))
    return bad("it was saved training on other data (" +
               std::to_string(shape.size() > 2 ? shape[0] : -1) + " rows of " +
               std::to_string(shape.size() > 2 ? shape[1] : -1) +
               " values; this run has " + std::to_string(data.rows()) + " of " +
               std::to_string(data.features) + "); " + sameData);
  if (shape[3] != here[3])
    return bad("it was saved training on data with other values or labels "
               "than this run's; " +
               sameData);
  std::vector<char> seen(data.rows(), 0);
  for (const std::vector<int64_t> *rows : {&train, &eval})
    for (int64_t row : *rows) {
      if (row < 0 || row >= data.rows() || seen[row])
        return bad("its row order is damaged (row " + std::to_string(row) +
                   ")");
      seen[row] = 1;
    }
  if (static_cast<int64_t>(train.size() + eval.size()) != data.rows())
    return bad("its row order misses rows");
  if (static_cast<int64_t>(train.size()) < batch)
    return bad("its training split has " + std::to_string(train.size()) +
               " rows, fewer than one batch of " + std::to_string(batch));
  if (at[0] < 0 || at[0] > static_cast<int64_t>(train.size()))
    return bad("its cursor " + std::to_string(at[0]) +
               " lies outside the training rows");
  std::string rngText;
  for (int64_t word : words)
    rngText += std::to_string(static_cast<uint64_t>(word)) + " ";
  std::istringstream rngIn(rngText);
  std::mt19937_64 restored;
  rngIn >> restored;
  if (!rngIn || words.size() != rngWords(restored).size())
    return bad("its 'amp.rng' is not the state of this runner's random "
               "generator");

  // The state: every threaded argument, as the step types it.
  for (int a : checkpointArgs()) {
    const TensorDesc &arg = program.step.args[a];
    std::string name = checkpointName(a);
    auto it = arrays.find(name);
    std::string what = withName("argument #" + std::to_string(a), arg) +
                       " of @" + program.step.name;
    if (it == arrays.end())
      return bad("it has no '" + name + "' for " + what + " (" +
                 describeType(arg) + ")");
    const HostArray &array = *it->second;
    if (array.type != arg.type || array.shape != arg.shape)
      return bad("'" + name + "' is " + describeArray(array) + ", but " + what +
                 " is " + describeType(arg));
    state[a] = array.bytes;
    arrays.erase(it);
  }
  if (!arrays.empty()) {
    std::string extra;
    for (const auto &entry : *file)
      if (arrays.count(entry.first))
        extra += (extra.empty() ? "'" : ", '") + entry.first + "'";
    return bad("it holds " + extra + ", for which @" + program.step.name +
               " has no threaded argument (the checkpoint of another step?)");
  }

  split.train = std::move(train);
  split.eval = std::move(eval);
  cursor = static_cast<size_t>(at[0]);
  rng = restored;
  firstStep = static_cast<int>(step[0]) + 1;
  skipped = skippedSteps[0];
  return Status::success();
}
