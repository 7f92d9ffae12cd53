//===- CsvDataset.cpp - the CSV loader ------------------------------------===//

#include "amp/Runner/Dataset.h"

#include "amp/Runner/ReadFile.h"
#include "amp/Runner/Text.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string_view>

using namespace amp::runner;

static std::string_view trim(std::string_view s) {
  constexpr std::string_view space = " \t\n\v\f\r";
  size_t first = s.find_first_not_of(space);
  if (first == std::string_view::npos)
    return {};
  return s.substr(first, s.find_last_not_of(space) - first + 1);
}

/// The whole of `text` as a double (decimal or hex, inf, nan; out-of-range
/// values round to +-inf or 0 as strtod does).
static bool parseDouble(std::string_view text, double &value) {
  if (text.empty())
    return false;
  std::string copy(text); // strtod needs a terminator
  char *end = nullptr;
  value = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size();
}

static bool parseInt(std::string_view text, int64_t &value) {
  auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

StatusOr<Dataset> amp::runner::readCsvDataset(const std::string &path,
                                              const DataOptions &options) {
  StatusOr<std::vector<char>> bytes = readFileBytes(path, "dataset ");
  if (bytes.failed())
    return bytes.takeStatus();
  return parseCsvDataset(std::string_view(bytes->data(), bytes->size()), path,
                         options);
}

StatusOr<Dataset> amp::runner::parseCsvDataset(std::string_view text,
                                               const std::string &path,
                                               const DataOptions &options) {
  Dataset d;
  d.labelsPerRow = options.labelsPerRow();
  const int64_t labels = d.labelsPerRow;
  std::vector<std::string_view> lines = splitString(text, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty())
      continue;
    std::string where = path + ":" + std::to_string(i + 1) + ": ";
    std::vector<std::string_view> cells = splitString(trim(lines[i]), ',');
    if (static_cast<int64_t>(cells.size()) <= labels)
      return Status::error(where + "expected features and " +
                           (labels == 1 ? std::string("a label")
                                        : std::to_string(labels) + " labels"));
    int64_t features = cells.size() - labels;
    if (d.features == 0)
      d.features = features;
    if (features != d.features)
      return Status::error(where + std::to_string(features) +
                           " features, but the first row has " +
                           std::to_string(d.features));
    for (int64_t f = 0; f < features; ++f) {
      double v;
      if (!parseDouble(trim(cells[f]), v))
        return Status::error(where + "'" + std::string(cells[f]) +
                             "' is not a number");
      float value = static_cast<float>(v) * options.featureScale;
      if (!std::isfinite(value) && !options.allowNonfinite)
        return Status::error(
            where + "feature " + std::to_string(f) + " ('" +
            std::string(trim(cells[f])) + "') is " +
            (std::isfinite(v) ? "not finite as a scaled f32" : "not finite") +
            "; pass --allow-nonfinite to keep non-finite features");
      d.x.push_back(value);
    }
    for (int64_t k = features; k < features + labels; ++k) {
      if (options.targets) {
        double target;
        if (!parseDouble(trim(cells[k]), target))
          return Status::error(where + "target '" + std::string(cells[k]) +
                               "' is not a number");
        if (Status s = options.checkTarget(target, where); s.failed())
          return s;
        d.targets.push_back(static_cast<float>(target));
        continue;
      }
      int64_t label;
      if (!parseInt(trim(cells[k]), label))
        return Status::error(where + "label '" + std::string(cells[k]) +
                             "' is not an integer");
      if (Status s = options.checkLabel(label, where); s.failed())
        return s;
      d.y.push_back(label);
    }
  }
  if (d.rows() == 0)
    return Status::error("dataset '" + path + "' is empty");
  return d;
}
