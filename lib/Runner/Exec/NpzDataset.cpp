//===- NpzDataset.cpp - the .npz loader -----------------------------------===//

#include "amp/Runner/Dataset.h"

#include "amp/Runner/NpzFile.h"
#include "amp/Runner/Text.h"

#include <cmath>
#include <cstring>

using namespace amp::runner;

static std::string describeShape(const std::vector<int64_t> &shape) {
  std::string text = "[rows";
  for (int64_t d : shape)
    text += ", " + std::to_string(d);
  return text + "]";
}

StatusOr<Dataset> amp::runner::readNpzDataset(
    const std::string &path, const std::vector<DataInput> &inputs,
    const std::vector<std::string> &labelArrays, const DataOptions &options) {
  StatusOr<NamedArrays> archive = readNpzFile(path);
  if (archive.failed())
    return archive.takeStatus();
  auto find = [&](const std::string &name) -> const HostArray * {
    for (const auto &[n, array] : *archive)
      if (n == name)
        return &array;
    return nullptr;
  };
  auto held = [&] {
    std::string text;
    for (const auto &[n, array] : *archive)
      text += (text.empty() ? "'" : ", '") + n + "' " + describeArray(array);
    return text.empty() ? std::string("no arrays") : text;
  };
  const std::string where = "dataset '" + path + "'";

  const HostArray *labels = nullptr;
  std::string labelName;
  if (options.labels) {
    for (const std::string &name : labelArrays)
      if (!labels && (labels = find(name)))
        labelName = name;
    if (!labels) {
      std::string names;
      for (const std::string &name : labelArrays)
        names += (names.empty() ? "'" : " or '") + name + "'";
      return Status::error(where + " has no label array " + names +
                           "; it holds " + held());
    }
  }
  const bool floatLabels = labels && labels->type == ElementType::F32;
  if (labels &&
      (labels->shape.empty() ||
       std::vector<int64_t>(labels->shape.begin() + 1, labels->shape.end()) !=
           options.labelShape ||
       (floatLabels && !options.targets) ||
       !(floatLabels || labels->type == ElementType::I32 ||
         labels->type == ElementType::I64)))
    return Status::error(
        where + ": the labels '" + labelName + "' are " +
        describeArray(*labels) + ", not " +
        (options.targets
             ? "f32 (or integer) targets " + describeShape(options.labelShape)
         : options.labelShape.empty()
             ? std::string("one i32/i64 class per row")
             : "i32/i64 " + describeShape(options.labelShape) +
                   " (a label per position)"));
  // Without labels, the first input's array counts the rows (the loop below
  // reports one that is missing or has no rows).
  const HostArray *counted = labels           ? labels
                             : inputs.empty() ? nullptr
                                              : find(inputs[0].array);
  const int64_t rows =
      counted && !counted->shape.empty() ? counted->shape[0] : -1;
  if (rows == 0)
    return Status::error(where + " is empty");

  Dataset d;
  d.labelsPerRow = options.labelsPerRow();
  std::vector<const HostArray *> arrays;
  for (const DataInput &in : inputs) {
    const HostArray *a = find(in.array);
    if (!a)
      return Status::error(where + " has no array '" + in.array + "' for " +
                           in.what + "; it holds " + held());
    std::string what = "array '" + in.array + "' " + describeArray(*a);
    bool integer = a->type != ElementType::F32;
    if (integer != in.integer)
      return Status::error(where + ": " + what + " feeds " + in.what +
                           ", which takes " +
                           (in.integer ? "integer ids" : "f32 features"));
    if (a->shape.empty() || a->shape[0] != rows ||
        std::vector<int64_t>(a->shape.begin() + 1, a->shape.end()) !=
            in.rowShape)
      return Status::error(where + ": " + what + " does not fit " + in.what +
                           ", which takes " + describeShape(in.rowShape) +
                           (rows < 0 ? std::string()
                                     : " for the " + std::to_string(rows) +
                                           (labels ? " labels" : " rows")));
    arrays.push_back(a);
    d.features += a->numElements() / rows;
  }

  d.x.reserve(rows * d.features);
  for (int64_t r = 0; r < rows; ++r) {
    for (size_t k = 0; k < inputs.size(); ++k) {
      const HostArray &a = *arrays[k];
      int64_t size = a.numElements() / rows;
      for (int64_t i = r * size; i < (r + 1) * size; ++i) {
        if (inputs[k].integer) {
          d.x.push_back(static_cast<float>(integerAt(a, i)));
          continue;
        }
        float v;
        std::memcpy(&v, a.bytes.data() + i * sizeof v, sizeof v);
        v *= options.featureScale;
        if (!std::isfinite(v) && !options.allowNonfinite)
          return Status::error(
              where + ": row " + std::to_string(r + 1) + " of '" +
              inputs[k].array + "', value " + std::to_string(i - r * size) +
              ": " + formatString("%g", double(v)) +
              " is not finite; pass --allow-nonfinite to keep non-finite "
              "features");
        d.x.push_back(v);
      }
    }
    const std::string row = where + ": row " + std::to_string(r + 1) + ": ";
    for (int64_t i = r * d.labelsPerRow; i < (r + 1) * d.labelsPerRow; ++i) {
      if (options.targets) {
        float target;
        if (floatLabels)
          std::memcpy(&target, labels->bytes.data() + i * sizeof target,
                      sizeof target);
        else
          target = static_cast<float>(integerAt(*labels, i));
        if (Status s = options.checkTarget(target, row); s.failed())
          return s;
        d.targets.push_back(target);
        continue;
      }
      int64_t label = integerAt(*labels, i);
      if (Status s = options.checkLabel(label, row); s.failed())
        return s;
      d.y.push_back(label);
    }
  }
  return d;
}
