//===- NpzFileTest.cpp - the .npz reader, its dataset and their errors ----===//
//
// The archives are built here byte by byte (ZipBuilder), so that each test
// states the structure it reads: stored and deflated members, NumPy's zip64
// local headers, a zip64 directory, and one damage per error.
//
//===----------------------------------------------------------------------===//

#include "RunnerTestUtil.h"

#include "amp/Runner/Dataset.h"
#include "amp/Runner/NpzFile.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>

#ifdef AMP_HAVE_ZLIB
#include <zlib.h>
#endif

using namespace amp::runner;
using namespace amp::runner::test;

namespace {
/// `value` as `width` little-endian bytes (zeros past its eighth).
void put(std::string &out, uint64_t value, int width) {
  for (int i = 0; i < width; ++i)
    out += static_cast<char>(i < 8 ? value >> (8 * i) & 0xff : 0);
}

/// A version 1.0 .npy file of `descr` and `shape` ("(2, 3)") around `data`.
std::string npy(const std::string &descr, const std::string &shape,
                const std::string &data) {
  std::string dict = "{'descr': '" + descr +
                     "', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + dict.size() + 1) % 64 != 0)
    dict += ' ';
  dict += '\n';
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  put(out, dict.size(), 2);
  return out + dict + data;
}

template <typename T> std::string raw(std::initializer_list<T> values) {
  std::string out;
  for (T v : values)
    out.append(reinterpret_cast<const char *>(&v), sizeof v);
  return out;
}

uint32_t crcOf(const std::string &data) {
  uint32_t crc = 0xffffffffu;
  for (unsigned char c : data) {
    crc ^= c;
    for (int k = 0; k < 8; ++k)
      crc = crc >> 1 ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

struct Member {
  std::string name, data;
  bool deflate = false;
  uint16_t flags = 0, method = 0xffff; // 0xffff: stored or deflated
  bool badCrc = false;
};

/// Writes a zip archive as NumPy's np.savez does (local headers with
/// 0xffffffff sizes and a zip64 extra field), optionally with a zip64 end
/// of central directory record and zip64 sizes in the directory.
std::string zip(const std::vector<Member> &members, bool zip64Dir = false) {
  std::string out, dir;
  for (const Member &m : members) {
    std::string content = m.data;
    uint16_t method = 0;
    if (m.deflate) {
#ifdef AMP_HAVE_ZLIB
      z_stream z{};
      EXPECT_EQ(
          deflateInit2(&z, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
          Z_OK);
      content.assign(deflateBound(&z, m.data.size()), '\0');
      z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(m.data.data()));
      z.avail_in = m.data.size();
      z.next_out = reinterpret_cast<Bytef *>(content.data());
      z.avail_out = content.size();
      EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
      content.resize(z.total_out);
      deflateEnd(&z);
      method = 8;
#endif
    }
    if (m.method != 0xffff)
      method = m.method;
    uint32_t crc = crcOf(m.data) ^ (m.badCrc ? 1u : 0u);
    uint64_t offset = out.size();
    put(out, 0x04034b50, 4);
    put(out, 45, 2);
    put(out, m.flags, 2);
    put(out, method, 2);
    put(out, 0, 4);
    put(out, crc, 4);
    put(out, 0xffffffff, 4);
    put(out, 0xffffffff, 4);
    put(out, m.name.size(), 2);
    put(out, 20, 2);
    out += m.name;
    put(out, 1, 2);
    put(out, 16, 2);
    put(out, m.data.size(), 8);
    put(out, content.size(), 8);
    out += content;

    put(dir, 0x02014b50, 4);
    put(dir, 45, 2);
    put(dir, 45, 2);
    put(dir, m.flags, 2);
    put(dir, method, 2);
    put(dir, 0, 4);
    put(dir, crc, 4);
    put(dir, zip64Dir ? 0xffffffff : content.size(), 4);
    put(dir, zip64Dir ? 0xffffffff : m.data.size(), 4);
    put(dir, m.name.size(), 2);
    put(dir, zip64Dir ? 28 : 0, 2);
    put(dir, 0, 2 + 2 + 2 + 4);
    put(dir, zip64Dir ? 0xffffffff : offset, 4);
    dir += m.name;
    if (zip64Dir) {
      put(dir, 1, 2);
      put(dir, 24, 2);
      put(dir, m.data.size(), 8);
      put(dir, content.size(), 8);
      put(dir, offset, 8);
    }
  }
  uint64_t dirOffset = out.size();
  out += dir;
  if (zip64Dir) {
    uint64_t record = out.size();
    put(out, 0x06064b50, 4);
    put(out, 44, 8);
    put(out, 45, 2);
    put(out, 45, 2);
    put(out, 0, 8);
    put(out, members.size(), 8);
    put(out, members.size(), 8);
    put(out, dir.size(), 8);
    put(out, dirOffset, 8);
    put(out, 0x07064b50, 4);
    put(out, 0, 4);
    put(out, record, 8);
    put(out, 1, 4);
  }
  put(out, 0x06054b50, 4);
  put(out, 0, 4);
  put(out, zip64Dir ? 0xffff : members.size(), 2);
  put(out, zip64Dir ? 0xffff : members.size(), 2);
  put(out, zip64Dir ? 0xffffffff : dir.size(), 4);
  put(out, zip64Dir ? 0xffffffff : dirOffset, 4);
  put(out, 0, 2);
  return out;
}

StatusOr<NamedArrays> parse(const std::string &bytes) {
  return parseNpz(std::vector<char>(bytes.begin(), bytes.end()), "P");
}

std::string npzError(const std::string &bytes) {
  StatusOr<NamedArrays> arrays = parse(bytes);
  return arrays.failed() ? arrays.getStatus().message() : "(read)";
}

const std::string kIds = npy("<i8", "(3, 2)", raw<int64_t>({1, 2, 3, 4, 5, 6}));
const std::string kX = npy("<f4", "(3, 1)", raw<float>({0.5f, -1.0f, 2.0f}));
const std::string kLabels = npy("<i4", "(3,)", raw<int32_t>({0, 1, 2}));
} // namespace

TEST(NpzFileTest, ReadsStoredMembers) {
  for (bool zip64Dir : {false, true}) {
    StatusOr<NamedArrays> arrays =
        parse(zip({{"ids.npy", kIds}, {"labels.npy", kLabels}}, zip64Dir));
    ASSERT_FALSE(arrays.failed()) << arrays.getStatus().message();
    ASSERT_EQ(arrays->size(), 2u);
    EXPECT_EQ((*arrays)[0].first, "ids");
    EXPECT_EQ((*arrays)[0].second.type, ElementType::I64);
    EXPECT_EQ((*arrays)[0].second.shape, (std::vector<int64_t>{3, 2}));
    EXPECT_EQ((*arrays)[1].first, "labels");
    EXPECT_EQ((*arrays)[1].second.shape, (std::vector<int64_t>{3}));
    int32_t last;
    std::memcpy(&last, (*arrays)[1].second.bytes.data() + 8, 4);
    EXPECT_EQ(last, 2);
  }
}

// float16 and float64 arrays read as f32: halves exactly (a subnormal and
// the largest finite one too), doubles rounded.
TEST(NpzFileTest, ReadsHalfAndDoubleAsF32) {
  StatusOr<NamedArrays> arrays = parse(
      zip({{"h.npy", npy("<f2", "(4,)",
                         raw<uint16_t>({0x3800, 0xc000, 0x7bff, 0x0001}))},
           {"d.npy", npy("<f8", "(2,)", raw<double>({0.1, -3.0}))}}));
  ASSERT_FALSE(arrays.failed()) << arrays.getStatus().message();
  ASSERT_EQ(arrays->size(), 2u);
  for (const auto &[name, array] : *arrays)
    EXPECT_EQ(array.type, ElementType::F32) << name;
  std::vector<float> h(4), d(2);
  ASSERT_EQ((*arrays)[0].second.bytes.size(), 16u);
  std::memcpy(h.data(), (*arrays)[0].second.bytes.data(), 16);
  EXPECT_EQ(h, (std::vector<float>{0.5f, -2.0f, 65504.0f, 0x1p-24f}));
  ASSERT_EQ((*arrays)[1].second.bytes.size(), 8u);
  std::memcpy(d.data(), (*arrays)[1].second.bytes.data(), 8);
  EXPECT_EQ(d, (std::vector<float>{0.1f, -3.0f}));
}

// The 8- and 16-bit integers read as i32 and uint32 as i64, each value
// exactly (sign- or zero-extended), as the ONNX importer lifts them; an
// integer array converts to another integer type that holds its values.
TEST(NpzFileTest, ReadsNarrowIntegersWidened) {
  StatusOr<NamedArrays> arrays = parse(
      zip({{"u1.npy", npy("|u1", "(3,)", raw<uint8_t>({0, 200, 255}))},
           {"i1.npy", npy("|i1", "(3,)", raw<int8_t>({-128, -1, 127}))},
           {"u2.npy", npy("<u2", "(2,)", raw<uint16_t>({65535, 7}))},
           {"i2.npy", npy("<i2", "(2,)", raw<int16_t>({-32768, 300}))},
           {"u4.npy", npy("<u4", "(2,)", raw<uint32_t>({4294967295u, 1}))}}));
  ASSERT_FALSE(arrays.failed()) << arrays.getStatus().message();
  ASSERT_EQ(arrays->size(), 5u);
  const std::vector<std::vector<int64_t>> expected = {{0, 200, 255},
                                                      {-128, -1, 127},
                                                      {65535, 7},
                                                      {-32768, 300},
                                                      {4294967295, 1}};
  for (size_t k = 0; k < expected.size(); ++k) {
    const auto &[name, array] = (*arrays)[k];
    EXPECT_EQ(array.type, k == 4 ? ElementType::I64 : ElementType::I32) << name;
    ASSERT_EQ(array.numElements(), int64_t(expected[k].size())) << name;
    for (size_t i = 0; i < expected[k].size(); ++i)
      EXPECT_EQ(integerAt(array, i), expected[k][i]) << name << " " << i;
  }
  // |u1 bytes of 0 and 1 feed an i1 mask; 200 does not.
  const HostArray &bytes = (*arrays)[0].second;
  HostArray mask = bytes;
  mask.shape = {2};
  mask.bytes.resize(8);
  std::memcpy(mask.bytes.data(), raw<int32_t>({1, 0}).data(), 8);
  StatusOr<HostArray> asBool = convertIntegers(mask, ElementType::I1);
  ASSERT_FALSE(asBool.failed()) << asBool.getStatus().message();
  EXPECT_EQ(asBool->bytes, (std::vector<char>{1, 0}));
  EXPECT_EQ(convertIntegers(bytes, ElementType::I1).getStatus().message(),
            "its element 1, 200, is no i1 value");
  StatusOr<HostArray> wide = convertIntegers(bytes, ElementType::I64);
  ASSERT_FALSE(wide.failed());
  EXPECT_EQ(integerAt(*wide, 2), 255);
  EXPECT_EQ(convertIntegers((*arrays)[4].second, ElementType::I32)
                .getStatus()
                .message(),
            "its element 0, 4294967295, is no i32 value");
}

TEST(NpzFileTest, ReadsDeflatedMembers) {
#ifndef AMP_HAVE_ZLIB
  EXPECT_EQ(npzError(zip({{"x.npy", kX, true, 0, 8}})),
            "'P' is not a valid .npz file: member 'x.npy': it is compressed "
            "(np.savez_compressed), and this build has no zlib; save it with "
            "np.savez");
  GTEST_SKIP() << "built without zlib";
#else
  StatusOr<NamedArrays> arrays = parse(zip({{"x.npy", kX, true}}));
  ASSERT_FALSE(arrays.failed()) << arrays.getStatus().message();
  float v;
  std::memcpy(&v, (*arrays)[0].second.bytes.data() + 4, 4);
  EXPECT_EQ(v, -1.0f);
  // A member marked deflated whose bytes are no deflate stream.
  std::string garbage = zip({{"x.npy", std::string(40, 'z'), false, 0, 8}});
  EXPECT_EQ(npzError(garbage),
            "'P' is not a valid .npz file: member 'x.npy': its deflate stream "
            "is damaged or does not hold the size the directory says");
#endif
}

// encodeNpz writes what parseNpz (and np.load) read back: every array's
// type, shape and bytes, a 0-d array included, in order; the bytes are
// NumPy's layout (zip64 local headers, as the builder above writes them).
TEST(NpzFileTest, EncodeRoundTrips) {
  NamedArrays arrays;
  HostArray f;
  f.shape = {2, 3};
  std::string fBytes = raw<float>({1, -2, 3.5f, 0, 1e-8f, -0.0f});
  f.bytes.assign(fBytes.begin(), fBytes.end());
  HostArray scalar;
  scalar.type = ElementType::I64;
  std::string sBytes = raw<int64_t>({-42});
  scalar.bytes.assign(sBytes.begin(), sBytes.end());
  HostArray empty;
  empty.type = ElementType::I32;
  empty.shape = {0};
  arrays.emplace_back("param.0", f);
  arrays.emplace_back("amp.step", scalar);
  arrays.emplace_back("empty", empty);
  StatusOr<std::vector<char>> bytes = encodeNpz(arrays);
  ASSERT_FALSE(bytes.failed()) << bytes.getStatus().message();
  StatusOr<NamedArrays> back = parseNpz(*bytes, "P");
  ASSERT_FALSE(back.failed()) << back.getStatus().message();
  ASSERT_EQ(back->size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ((*back)[i].first, arrays[i].first);
    EXPECT_EQ((*back)[i].second.type, arrays[i].second.type);
    EXPECT_EQ((*back)[i].second.shape, arrays[i].second.shape);
    EXPECT_EQ((*back)[i].second.bytes, arrays[i].second.bytes);
  }
  // The first member's local header: zip64's version, stored, the sizes in
  // the zip64 extra field.
  std::string head(bytes->begin(), bytes->begin() + 30);
  EXPECT_EQ(head.substr(0, 4), "PK\x03\x04");
  EXPECT_EQ(head.substr(4, 2), std::string("\x2d\0", 2));
  EXPECT_EQ(head.substr(18, 8), std::string(8, '\xff'));

  // Names must be unique and non-empty; f16 has no .npy spelling here.
  arrays.emplace_back("empty", empty);
  EXPECT_EQ(encodeNpz(arrays).getStatus().message(),
            "cannot write the array 'empty' into a .npz archive: its name is "
            "empty, too long or taken");
  HostArray half;
  half.type = ElementType::F16;
  half.shape = {1};
  half.bytes.resize(2);
  EXPECT_EQ(encodeNpz({{"h", half}}).getStatus().message(),
            "cannot write [1] f16 as .npy");
}

TEST(NpzFileTest, Errors) {
  auto bad = [](const std::string &why) {
    return "'P' is not a valid .npz file: " + why;
  };
  const std::string noRecord =
      bad("no zip end of central directory record (not a zip file?)");
  EXPECT_EQ(npzError(""), noRecord);
  EXPECT_EQ(npzError(kIds), noRecord);
  std::string whole = zip({{"ids.npy", kIds}});
  EXPECT_EQ(npzError(whole.substr(0, whole.size() - 1)), noRecord);
  EXPECT_EQ(npzError(whole.substr(40)),
            bad("its central directory lies outside the file"));
  EXPECT_EQ(npzError(zip({{"ids.txt", kIds}})),
            bad("member 'ids.txt' is not a .npy array"));
  EXPECT_EQ(npzError(zip({{".npy", kIds}})),
            bad("member '.npy' is not a .npy array"));
  EXPECT_EQ(npzError(zip({{"a.npy", kIds}, {"a.npy", kIds}})),
            bad("it holds two arrays named 'a'"));
  EXPECT_EQ(npzError(zip({{"a.npy", kIds, false, 1}})),
            bad("member 'a.npy' is encrypted"));
  EXPECT_EQ(npzError(zip({{"a.npy", kIds, false, 0, 12}})),
            bad("member 'a.npy' uses compression method 12 (only stored and "
                "deflated are read)"));
  Member crc{"a.npy", kIds};
  crc.badCrc = true;
  EXPECT_EQ(npzError(zip({crc})), bad("member 'a.npy' fails its CRC-32 check"));
  // A member whose .npy is damaged: parseNpy's error, naming the member.
  EXPECT_EQ(npzError(zip({{"a.npy", kIds.substr(0, kIds.size() - 1)}})),
            "'P:a.npy' is not a valid .npy file: it holds 47 bytes of data; "
            "shape (3, 2) of '<i8' needs 48");
  // Bytes before the archive: the end record's offsets point 4 bytes early.
  EXPECT_EQ(npzError("0000" + whole),
            bad("central directory entry #0 is damaged"));
  // A deflated member claiming more than deflate can expand to.
  std::string claim = zip({{"a.npy", kIds, false, 0, 8}});
  size_t dirAt = claim.find("PK\x01\x02");
  ASSERT_NE(dirAt, std::string::npos);
  claim[dirAt + 27] = '\x7f'; // size: 0x7fxxxxxx bytes from 176
  EXPECT_EQ(npzError(claim).rfind(bad("member 'a.npy' claims "), 0), 0u)
      << npzError(claim);
}

namespace {
std::string writeNpz(const std::vector<Member> &members) {
  std::string path = tempPath("data.npz");
  writeFile(path, zip(members));
  return path;
}

std::string datasetError(const std::vector<Member> &members,
                         const std::vector<DataInput> &inputs,
                         const DataOptions &options = {}) {
  std::string path = writeNpz(members);
  StatusOr<Dataset> d =
      readNpzDataset(path, inputs, {"labels", "label"}, options);
  std::string message = d.failed() ? d.getStatus().message() : "(read)";
  for (size_t at; (at = message.find(path)) != std::string::npos;)
    message.replace(at, path.size(), "P");
  return message;
}

const std::vector<DataInput> kInputs = {{"ids", "input #0 (ids)", {2}, true},
                                        {"x", "input #1 (x)", {1}, false}};
} // namespace

TEST(NpzDatasetTest, ReadsRowsOfEveryInput) {
  std::string path = writeNpz({{"x.npy", kX},
                               {"unused.npy", kX},
                               {"ids.npy", kIds},
                               {"label.npy", kLabels}});
  DataOptions options;
  options.featureScale = 2.0f;
  options.classes = 3;
  StatusOr<Dataset> d =
      readNpzDataset(path, kInputs, {"labels", "label"}, options);
  ASSERT_FALSE(d.failed()) << d.getStatus().message();
  EXPECT_EQ(d->features, 3);
  EXPECT_EQ(d->x, (std::vector<float>{1, 2, 1, 3, 4, -2, 5, 6, 4}));
  EXPECT_EQ(d->y, (std::vector<int64_t>{0, 1, 2}));
}

// A step without a label: the inputs' arrays alone, the rows counted by
// the first; a label array is ignored.
TEST(NpzDatasetTest, ReadsRowsWithoutLabels) {
  DataOptions options;
  options.labels = false;
  std::string path =
      writeNpz({{"x.npy", kX}, {"ids.npy", kIds}, {"label.npy", kLabels}});
  StatusOr<Dataset> d = readNpzDataset(path, kInputs, {}, options);
  ASSERT_FALSE(d.failed()) << d.getStatus().message();
  EXPECT_EQ(d->labelsPerRow, 0);
  EXPECT_EQ(d->rows(), 3);
  EXPECT_EQ(d->x, (std::vector<float>{1, 2, 0.5f, 3, 4, -1, 5, 6, 2}));
  EXPECT_TRUE(d->y.empty());
  EXPECT_EQ(datasetError({{"ids.npy", kIds}}, kInputs, options),
            "dataset 'P' has no array 'x' for input #1 (x); it holds 'ids' "
            "[3, 2] i64");
  EXPECT_EQ(datasetError({{"ids.npy", kIds},
                          {"x.npy", npy("<f4", "(2, 1)", raw<float>({1, 2}))}},
                         kInputs, options),
            "dataset 'P': array 'x' [2, 1] f32 does not fit input #1 (x), "
            "which takes [rows, 1] for the 3 rows");
  EXPECT_EQ(datasetError({{"ids.npy", npy("<i8", "()", raw<int64_t>({1}))},
                          {"x.npy", kX}},
                         kInputs, options),
            "dataset 'P': array 'ids' [] i64 does not fit input #0 (ids), "
            "which takes [rows, 2]");
  EXPECT_EQ(datasetError({{"ids.npy", npy("<i8", "(0, 2)", "")}, {"x.npy", kX}},
                         kInputs, options),
            "dataset 'P' is empty");
}

TEST(NpzDatasetTest, Errors) {
  const Member ids{"ids.npy", kIds}, x{"x.npy", kX},
      labels{"labels.npy", kLabels};
  EXPECT_EQ(datasetError({ids, labels}, kInputs),
            "dataset 'P' has no array 'x' for input #1 (x); it holds 'ids' "
            "[3, 2] i64, 'labels' [3] i32");
  EXPECT_EQ(datasetError({ids, x}, kInputs),
            "dataset 'P' has no label array 'labels' or 'label'; it holds "
            "'ids' [3, 2] i64, 'x' [3, 1] f32");
  EXPECT_EQ(datasetError({ids, x, {"labels.npy", kX}}, kInputs),
            "dataset 'P': the labels 'labels' are [3, 1] f32, not one "
            "i32/i64 class per row");
  EXPECT_EQ(datasetError({{"ids.npy", kX}, x, labels}, kInputs),
            "dataset 'P': array 'ids' [3, 1] f32 feeds input #0 (ids), which "
            "takes integer ids");
  EXPECT_EQ(datasetError({ids, {"x.npy", kIds}, labels}, kInputs),
            "dataset 'P': array 'x' [3, 2] i64 feeds input #1 (x), which "
            "takes f32 features");
  EXPECT_EQ(datasetError({ids,
                          {"x.npy", npy("<f4", "(3, 2)",
                                        raw<float>({1, 2, 3, 4, 5, 6}))},
                          labels},
                         kInputs),
            "dataset 'P': array 'x' [3, 2] f32 does not fit input #1 (x), "
            "which takes [rows, 1] for the 3 labels");
  EXPECT_EQ(
      datasetError(
          {ids, {"x.npy", npy("<f4", "(2, 1)", raw<float>({1, 2}))}, labels},
          kInputs),
      "dataset 'P': array 'x' [2, 1] f32 does not fit input #1 (x), "
      "which takes [rows, 1] for the 3 labels");
  DataOptions options;
  options.classes = 2;
  EXPECT_EQ(datasetError({ids, x, labels}, kInputs, options),
            "dataset 'P': row 3: label 2 is outside the model's classes [0, "
            "2)");
  Member inf{"x.npy", npy("<f4", "(3, 1)", raw<float>({1.0f, INFINITY, 0.0f}))};
  EXPECT_EQ(datasetError({ids, inf, labels}, kInputs),
            "dataset 'P': row 2 of 'x', value 0: inf is not finite; pass "
            "--allow-nonfinite to keep non-finite features");
  options = {};
  options.allowNonfinite = true;
  EXPECT_EQ(datasetError({ids, inf, labels}, kInputs, options), "(read)");
  EXPECT_EQ(
      datasetError({ids, x, {"labels.npy", npy("<i4", "(0,)", "")}}, kInputs),
      "dataset 'P' is empty");
}
