//===- StepLoop.cpp - run the training steps ------------------------------===//
//
// Each step takes the next batch of the (shuffled) training rows, calls the
// compiled step, reads the loss and the loss-scale state, and threads every
// state result into the next step's argument by swapping the buffers.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Text.h"
#include "amp/Runner/Trainer.h"

#include "amp/Runner/ParamsFile.h"
#include "amp/Runner/TrainingLog.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

using namespace amp::runner;

namespace {
using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}
} // namespace

Status Trainer::run(const EntryPoints &entry, std::ostream &out) {
  if (!entry.step || (program.eval && !entry.eval) ||
      (program.underflowProbe && !entry.underflowProbe))
    return Status::error("an entry point of @" + program.step.name +
                         "'s program is missing");
  TrainingLog log;
  if (!options.logFile.empty())
    if (Status s =
            log.open(options.logFile, binding.lr >= 0, binding.gradNorm >= 0);
        s.failed())
      return s;
  out << options.programName << ": @" << program.step.name << " on "
      << rt.backendName() << ", precision " << options.precision << ", batch "
      << batch << ", " << split.train.size() << " training rows";
  if (!split.eval.empty())
    out << ", " << split.eval.size() << " held out";
  out << "\n";
  if (!options.resume.empty())
    out << "resumed from '" << options.resume << "' after step "
        << firstStep - 1 << " (" << skipped << " skipped)\n";

  if (program.underflowProbe)
    if (Status s = reportUnderflow(entry, out); s.failed())
      return s;
  std::vector<StepTimes> times;
  for (int step = firstStep; step <= options.steps; ++step) {
    auto start = Clock::now();
    if (Status s = runStep(step, entry, log, out); s.failed())
      return s;
    stepTimes.total = secondsSince(start);
    times.push_back(stepTimes);
    if (options.evalEvery > 0 && step % options.evalEvery == 0 &&
        step < options.steps) {
      StatusOr<EvalResult> result = evaluate(entry);
      if (result.failed())
        return result.takeStatus();
      out << "step " << step << "  held-out" << evalModel() << " "
          << (reportsAccuracy() ? "accuracy " : "") << describe(*result)
          << "\n";
    }
    if (options.checkpointEvery > 0 && step % options.checkpointEvery == 0 &&
        step < options.steps)
      if (Status s = saveCheckpoint(step); s.failed())
        return s;
  }
  if (!options.saveCheckpoint.empty())
    if (Status s = saveCheckpoint(options.steps); s.failed())
      return s;
  out << "done: " << options.steps << " steps";
  if (!options.resume.empty())
    out << " (" << options.steps - firstStep + 1 << " in this run)";
  out << ", final loss " << formatString("%.6g", lastLoss);
  if (binding.lossScale >= 0)
    out << ", loss scale " << formatString("%g", lastScale);
  out << ", skipped steps " << skipped << "\n";

  if (program.eval && !split.eval.empty()) {
    StatusOr<EvalResult> result = evaluate(entry);
    if (result.failed())
      return result.takeStatus();
    out << "eval" << evalModel() << (reportsAccuracy() ? " accuracy: " : ": ")
        << describe(*result) << "\n";
  }
  if (options.reportMemory)
    reportMemory(out);
  if (options.reportTime)
    reportTime(std::move(times), out);
  if (!options.saveParams.empty())
    if (Status s = saveParams(options.saveParams, Role::Param); s.failed())
      return s;
  if (!options.saveEma.empty())
    return saveParams(options.saveEma, Role::Ema);
  return Status::success();
}

Status Trainer::runCompiledStep(int step, const EntryPoints &entry,
                                std::vector<void *> &pointers) {
  const std::string what = "step " + std::to_string(step);
  if (!options.cudaGraph || step == firstStep)
    return call(entry.step, pointers, what, entry);
  Graph &graph = graphs[step % 2];
  if (!graph.exec) {
    graph.rt = &rt;
    if (rt.graphBeginCapture(nullptr) != AMP_STATUS_OK)
      return Status::error(what + ": --cuda-graph: " + rt.lastError());
    Status called = call(entry.step, pointers, what + " (captured)", entry);
    void *exec = nullptr;
    amp_status_t ended = rt.graphEndCapture(nullptr, &exec);
    if (called.failed())
      return called;
    if (ended != AMP_STATUS_OK)
      return Status::error(what + ": --cuda-graph: " + rt.lastError());
    graph.exec = exec;
  }
  if (rt.graphLaunch(graph.exec, nullptr) != AMP_STATUS_OK)
    return Status::error(what + ": --cuda-graph: " + rt.lastError());
  return Status::success();
}

void Trainer::reportMemory(std::ostream &out) const {
  amp_memory_stats_t stats{};
  rt.memoryStats(&stats);
  auto mib = [](int64_t bytes) {
    return formatString("%.2f MiB", static_cast<double>(bytes) / (1 << 20));
  };
  out << "memory (" << rt.backendName() << "): peak in use "
      << mib(stats.peak_in_use_bytes) << ", peak reserved "
      << mib(stats.peak_reserved_bytes) << ", " << stats.alloc_calls
      << " allocations, " << stats.cache_hits << " from the cache\n";
  // What of it the runner holds between steps: the state the step does not
  // compute in place is there twice, as the step's arguments and as the
  // results it writes the next state into.
  int64_t args = 0, results = 0, state = 0, inPlace = 0;
  for (const DeviceBuffer &b : argBuffers)
    args += b.size();
  for (size_t j = 0; j < resultBuffers.size(); ++j) {
    results += resultBuffers[j].size();
    if (binding.feedsArg[j] >= 0)
      state += resultBuffers[j].size();
    if (program.step.results[j].inArgument)
      inPlace += program.step.results[j].bytes();
  }
  out << "runner buffers: arguments " << mib(args) << ", results "
      << mib(results) << " (" << mib(state)
      << " of them the state the next step takes as arguments); "
      << mib(inPlace) << " of the state computed in place, in the arguments\n";
}

void Trainer::reportTime(std::vector<StepTimes> times,
                         std::ostream &out) const {
  if (times.size() > 1)
    times.erase(times.begin());
  if (times.empty()) {
    out << "time: no steps\n";
    return;
  }
  auto median = [&](double StepTimes::*phase) {
    std::vector<double> v;
    for (const StepTimes &t : times)
      v.push_back(t.*phase);
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  };
  double mean = 0;
  for (const StepTimes &t : times)
    mean += t.total / static_cast<double>(times.size());
  auto ms = [](double s) { return formatString("%.4g", s * 1e3); };
  out << "time: " << times.size() << " steps, median "
      << ms(median(&StepTimes::total)) << " ms/step, mean " << ms(mean)
      << " ms/step; phase medians: batch " << ms(median(&StepTimes::batch))
      << " ms (rows gathered unless prefetched, upload queued), step "
      << ms(median(&StepTimes::compute))
      << " ms (until the backend finished it, upload and prefetch "
         "included), prefetch "
      << ms(median(&StepTimes::prefetch))
      << " ms (the next batch gathered while the step ran)\n";
}

Status Trainer::runStep(int step, const EntryPoints &entry, TrainingLog &log,
                        std::ostream &out) {
  if (cursor + batch > split.train.size()) {
    if (options.shuffle)
      std::shuffle(split.train.begin(), split.train.end(), rng);
    cursor = 0;
  }
  const auto start = Clock::now();
  // The rows go into the spare host batch (whose last upload finished
  // with the previous step), unless prefetchBatch put them there already.
  if (prefetchedAt != cursor)
    assembleBatch(split.train, cursor, staging[1 - current]);
  prefetchedAt.reset();
  current = 1 - current;
  cursor += batch;
  // --inject-inf: the first feature of the first input (all are f32).
  auto poison = [&](float value) {
    std::memcpy(staging[current].inputs[0].data(), &value, sizeof value);
  };
  if (options.infSteps.count(step))
    poison(INFINITY);
  if (options.nanSteps.count(step))
    poison(NAN);
  if (Status s = uploadBatch(staging[current]); s.failed())
    return s;
  stepTimes.batch = secondsSince(start);

  // With --verify-skipped-steps, keep the state the step starts from.
  std::vector<std::pair<int, std::vector<char>>> before;
  if (options.verifySkippedSteps)
    for (size_t j = 0; j < binding.feedsArg.size(); ++j) {
      int a = binding.feedsArg[j];
      if (a < 0 || !(program.step.args[a].role == Role::Param ||
                     program.step.args[a].role == Role::OptState))
        continue;
      StatusOr<std::vector<char>> bytes = argBuffers[a].read();
      if (bytes.failed())
        return bytes.takeStatus();
      before.emplace_back(j, std::move(*bytes));
    }

  std::vector<void *> pointers = argPointers();
  for (size_t j = 0; j < resultBuffers.size(); ++j)
    pointers.push_back(resultBuffer(j).data());
  const auto called = Clock::now();
  // The next batch is gathered while this step runs: a large one on
  // another thread, which also overlaps the step's launches (it writes
  // only the spare host batch and prefetchedAt, which the step does not
  // read); a small one after the launches, where a thread would cost more
  // than it saves.
  auto prefetch = [this] {
    const auto prefetchStart = Clock::now();
    prefetchBatch();
    stepTimes.prefetch = secondsSince(prefetchStart);
  };
  stepTimes.prefetch = 0;
  const bool prefetching = options.prefetch && step < options.steps;
  std::thread prefetcher;
  if (prefetching && hostBatchBytes() >= kGatherBytesPerThread)
    prefetcher = std::thread(prefetch);
  Status ran = runCompiledStep(step, entry, pointers);
  if (prefetcher.joinable())
    prefetcher.join();
  else if (prefetching && ran.succeeded())
    prefetch();
  if (ran.failed())
    return ran;
  if (rt.synchronize(nullptr) != AMP_STATUS_OK)
    return Status::error("step " + std::to_string(step) + ": " +
                         rt.kernelLastError());
  stepTimes.compute = secondsSince(called);

  StepReport report;
  report.step = step;
  Status read = resultBuffer(binding.loss).download(&report.loss);
  auto readIf = [&](int result, auto *value) {
    if (read.succeeded() && result >= 0)
      read = resultBuffer(result).download(value);
  };
  readIf(binding.lossScale, &report.scale);
  readIf(binding.foundInf, &report.foundInf);
  readIf(binding.growthTracker, &report.growthTracker);
  for (auto [result, value] : {std::pair(binding.lr, &report.lr),
                               std::pair(binding.gradNorm, &report.gradNorm)})
    if (result >= 0)
      readIf(result, &value->emplace());
  if (read.failed())
    return read;
  const bool foundInf = report.foundInf != 0;
  skipped += foundInf;
  if (options.verifySkippedSteps && foundInf) {
    for (auto &[j, bytes] : before) {
      StatusOr<std::vector<char>> after = resultBuffer(j).read();
      if (after.failed())
        return after.takeStatus();
      if (*after != bytes)
        return Status::error("step " + std::to_string(step) +
                             " was skipped but result #" + std::to_string(j) +
                             " (" + roleName(*program.step.results[j].role) +
                             ") changed");
    }
    out << "step " << step << ": skipped; " << before.size()
        << " params and optimizer-state tensors are bitwise unchanged\n";
  }
  lastLoss = report.loss;
  lastScale = report.scale;
  if (log.isOpen())
    log.write(report);
  int every = options.printEvery;
  if (every > 0 &&
      (step % every == 0 || step == firstStep || step == options.steps)) {
    out << "step " << step << "  loss " << formatString("%.6g", report.loss);
    if (binding.lossScale >= 0)
      out << "  scale " << formatString("%g", report.scale);
    if (report.lr)
      out << "  lr " << formatString("%.6g", *report.lr);
    if (report.gradNorm)
      out << "  grad_norm " << formatString("%.6g", *report.gradNorm);
    if (foundInf)
      out << "  (skipped: inf/nan gradients)";
    out << "\n";
  }
  // Thread the state: results become the next step's arguments (those
  // computed in place are there already).
  for (size_t j = 0; j < binding.feedsArg.size(); ++j)
    if (binding.feedsArg[j] >= 0 && !program.step.results[j].inArgument)
      argBuffers[binding.feedsArg[j]].swap(resultBuffers[j]);
  return Status::success();
}

int64_t Trainer::hostBatchBytes() const {
  int64_t bytes = staging[0].labels.size();
  for (const HostBuffer &input : staging[0].inputs)
    bytes += input.size();
  return bytes;
}

void Trainer::prefetchBatch() {
  // staging[1 - current] was last uploaded for the previous step, which
  // has finished. A reshuffle changes the rows: the next step gathers its
  // own then.
  if (cursor + batch > split.train.size())
    return;
  assembleBatch(split.train, cursor, staging[1 - current]);
  prefetchedAt = cursor;
}

Status Trainer::saveParams(const std::string &path, Role weights) const {
  std::vector<HostTensor> params;
  for (int a : paramsFileArgs(program.step, weights)) {
    HostTensor param;
    param.shape = program.step.args[a].shape;
    param.values.resize(program.step.args[a].numElements());
    if (Status s = argBuffers[a].download(param.values.data()); s.failed())
      return s;
    params.push_back(std::move(param));
  }
  return writeParamsFile(path, params);
}
