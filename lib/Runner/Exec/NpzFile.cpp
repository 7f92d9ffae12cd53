//===- NpzFile.cpp - named arrays in NumPy .npz files ---------------------===//
//
// The zip structures read here (APPNOTE.TXT 6.3): the end of central
// directory record, its zip64 locator and record, the central directory's
// file headers with their zip64 extra field, and each member's local file
// header, whose name and extra lengths place the member's data. Sizes and
// offsets come from the central directory (NumPy's local headers carry
// 0xffffffff and a zip64 extra field instead). encodeNpz writes the same
// structures as NumPy does: stored members, each header's sizes (and the
// central directory's offsets) in a zip64 extra field, and the zip64 end
// records, so that one layout serves archives of any size.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/NpzFile.h"

#include "amp/Runner/ReadFile.h"

#include <algorithm>
#include <cstdint>
#include <set>

#ifdef AMP_HAVE_ZLIB
#include <zlib.h>
#endif

using namespace amp::runner;

namespace {
constexpr uint32_t kLocalHeader = 0x04034b50, kCentralHeader = 0x02014b50,
                   kEndRecord = 0x06054b50, kZip64EndRecord = 0x06064b50,
                   kZip64Locator = 0x07064b50;
constexpr size_t kLocalHeaderSize = 30, kCentralHeaderSize = 46,
                 kEndRecordSize = 22, kZip64LocatorSize = 20,
                 kZip64EndRecordSize = 56;
constexpr uint16_t kStored = 0, kDeflated = 8, kZip64ExtraId = 0x0001;
/// The most a deflate stream expands: 258 bytes from each 2-bit code, so
/// under 1032 times its size; a larger claimed size is a damaged header.
constexpr uint64_t kMaxDeflateRatio = 1032;

/// Little-endian fields of `bytes`, each read only after a bounds check.
class Reader {
public:
  explicit Reader(const std::vector<char> &bytes) : bytes(bytes) {}
  bool has(uint64_t offset, uint64_t size) const {
    return offset <= bytes.size() && size <= bytes.size() - offset;
  }
  uint64_t le(uint64_t offset, int width) const {
    uint64_t v = 0;
    for (int i = width - 1; i >= 0; --i)
      v = v << 8 | static_cast<unsigned char>(bytes[offset + i]);
    return v;
  }
  const std::vector<char> &bytes;
};

/// One member as the central directory describes it.
struct Member {
  std::string name;
  uint16_t flags = 0, method = 0;
  uint32_t crc = 0;
  uint64_t compressedSize = 0, size = 0, localOffset = 0;
};
} // namespace

static uint32_t crc32Of(const char *data, size_t size) {
#ifdef AMP_HAVE_ZLIB
  uLong crc = crc32(0L, Z_NULL, 0);
  while (size > 0) {
    uInt chunk = static_cast<uInt>(std::min<size_t>(size, 1u << 30));
    crc = crc32(crc, reinterpret_cast<const Bytef *>(data), chunk);
    data += chunk;
    size -= chunk;
  }
  return static_cast<uint32_t>(crc);
#else
  uint32_t crc = 0xffffffffu;
  for (size_t i = 0; i < size; ++i) {
    crc ^= static_cast<unsigned char>(data[i]);
    for (int k = 0; k < 8; ++k)
      crc = crc >> 1 ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
#endif
}

/// Inflates a raw deflate stream into exactly `size` bytes.
static StatusOr<std::vector<char>>
inflateMember(const char *data, uint64_t compressedSize, uint64_t size) {
#ifdef AMP_HAVE_ZLIB
  std::vector<char> out(size);
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK)
    return Status::error("zlib cannot start inflating");
  z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data));
  z.next_out = reinterpret_cast<Bytef *>(out.data());
  uint64_t inLeft = compressedSize, outLeft = size;
  int ret = Z_OK;
  while (ret == Z_OK) {
    // zlib counts in uInt; feed and drain at most 1 GiB at a time.
    uInt in = static_cast<uInt>(std::min<uint64_t>(inLeft, 1u << 30));
    uInt avail = static_cast<uInt>(std::min<uint64_t>(outLeft, 1u << 30));
    z.avail_in = in;
    z.avail_out = avail;
    ret = inflate(&z, Z_NO_FLUSH);
    inLeft -= in - z.avail_in;
    outLeft -= avail - z.avail_out;
    if (ret == Z_BUF_ERROR && (inLeft > 0 && outLeft > 0))
      ret = Z_OK; // a chunk boundary, not the end of the data
    if (ret == Z_OK && z.avail_in == in && z.avail_out == avail)
      break; // no progress
  }
  inflateEnd(&z);
  if (ret != Z_STREAM_END || inLeft != 0 || outLeft != 0)
    return Status::error("its deflate stream is damaged or does not hold "
                         "the size the directory says");
  return out;
#else
  (void)data;
  (void)compressedSize;
  (void)size;
  return Status::error("it is compressed (np.savez_compressed), and this "
                       "build has no zlib; save it with np.savez");
#endif
}

/// The zip64 extra field's values replace the fields that are 0xffffffff,
/// in the order size, compressed size, local header offset.
static bool readZip64Extra(const Reader &r, uint64_t extra, uint64_t length,
                           Member &m, bool sizeMax, bool compressedMax,
                           bool offsetMax) {
  for (uint64_t at = extra; at + 4 <= extra + length;) {
    uint64_t id = r.le(at, 2), fieldSize = r.le(at + 2, 2);
    if (at + 4 + fieldSize > extra + length)
      return false;
    if (id == kZip64ExtraId) {
      uint64_t field = at + 4, end = field + fieldSize;
      for (auto [needed, value] : {std::pair{sizeMax, &m.size},
                                   std::pair{compressedMax, &m.compressedSize},
                                   std::pair{offsetMax, &m.localOffset}}) {
        if (!needed)
          continue;
        if (field + 8 > end)
          return false;
        *value = r.le(field, 8);
        field += 8;
      }
      return true;
    }
    at += 4 + fieldSize;
  }
  return !(sizeMax || compressedMax || offsetMax);
}

StatusOr<NamedArrays> amp::runner::parseNpz(const std::vector<char> &bytes,
                                            const std::string &path) {
  auto bad = [&](const std::string &why) {
    return Status::error("'" + path + "' is not a valid .npz file: " + why);
  };
  Reader r(bytes);
  // The end of central directory record: the last signature with room for
  // the record and its comment.
  if (bytes.size() < kEndRecordSize)
    return bad("no zip end of central directory record (not a zip file?)");
  uint64_t end = bytes.size() - kEndRecordSize;
  uint64_t lowest = end > 0xffff ? end - 0xffff : 0;
  while (!(r.le(end, 4) == kEndRecord &&
           end + kEndRecordSize + r.le(end + 20, 2) == bytes.size())) {
    if (end == lowest)
      return bad("no zip end of central directory record (not a zip file?)");
    --end;
  }
  uint64_t entries = r.le(end + 10, 2), dirSize = r.le(end + 12, 4),
           dirOffset = r.le(end + 16, 4);
  if (r.le(end + 4, 2) != 0 || r.le(end + 6, 2) != 0)
    return bad("it spans several disks");
  if (entries == 0xffff || dirSize == 0xffffffff || dirOffset == 0xffffffff) {
    if (end < kZip64LocatorSize ||
        r.le(end - kZip64LocatorSize, 4) != kZip64Locator)
      return bad("its zip64 end of central directory locator is missing");
    uint64_t record = r.le(end - kZip64LocatorSize + 8, 8);
    if (!r.has(record, kZip64EndRecordSize) ||
        r.le(record, 4) != kZip64EndRecord)
      return bad("its zip64 end of central directory record is missing");
    entries = r.le(record + 32, 8);
    dirSize = r.le(record + 40, 8);
    dirOffset = r.le(record + 48, 8);
  }
  if (!r.has(dirOffset, dirSize))
    return bad("its central directory lies outside the file");
  if (entries > dirSize / kCentralHeaderSize)
    return bad("its central directory is shorter than its " +
               std::to_string(entries) + " entries");

  NamedArrays arrays;
  std::set<std::string> names;
  uint64_t at = dirOffset, dirEnd = dirOffset + dirSize;
  for (uint64_t e = 0; e < entries; ++e) {
    std::string where = "central directory entry #" + std::to_string(e);
    if (at + kCentralHeaderSize > dirEnd || r.le(at, 4) != kCentralHeader)
      return bad(where + " is damaged");
    Member m;
    m.flags = r.le(at + 8, 2);
    m.method = r.le(at + 10, 2);
    m.crc = r.le(at + 16, 4);
    m.compressedSize = r.le(at + 20, 4);
    m.size = r.le(at + 24, 4);
    uint64_t nameLength = r.le(at + 28, 2), extraLength = r.le(at + 30, 2),
             commentLength = r.le(at + 32, 2);
    m.localOffset = r.le(at + 42, 4);
    uint64_t name = at + kCentralHeaderSize, extra = name + nameLength;
    at = extra + extraLength + commentLength;
    if (at > dirEnd)
      return bad(where + " runs past the central directory");
    m.name.assign(bytes.data() + name, nameLength);
    if (!readZip64Extra(r, extra, extraLength, m, m.size == 0xffffffff,
                        m.compressedSize == 0xffffffff,
                        m.localOffset == 0xffffffff))
      return bad(where + " ('" + m.name + "') has a damaged zip64 field");

    where = "member '" + m.name + "'";
    static const std::string suffix = ".npy";
    if (m.name.size() <= suffix.size() ||
        m.name.compare(m.name.size() - suffix.size(), suffix.size(), suffix) !=
            0)
      return bad(where + " is not a .npy array");
    std::string arrayName = m.name.substr(0, m.name.size() - suffix.size());
    if (!names.insert(arrayName).second)
      return bad("it holds two arrays named '" + arrayName + "'");
    if (m.flags & 1)
      return bad(where + " is encrypted");
    if (m.method != kStored && m.method != kDeflated)
      return bad(where + " uses compression method " +
                 std::to_string(m.method) + " (only stored and deflated are " +
                 "read)");
    if (!r.has(m.localOffset, kLocalHeaderSize) ||
        r.le(m.localOffset, 4) != kLocalHeader)
      return bad(where + " has no local header at offset " +
                 std::to_string(m.localOffset));
    uint64_t data = m.localOffset + kLocalHeaderSize +
                    r.le(m.localOffset + 26, 2) + r.le(m.localOffset + 28, 2);
    if (!r.has(data, m.compressedSize))
      return bad(where + "'s data runs past the end of the file");
    const char *first = bytes.data() + data;
    StatusOr<std::vector<char>> content = std::vector<char>();
    if (m.method == kStored) {
      if (m.size != m.compressedSize)
        return bad(where + " is stored with two different sizes");
      content = std::vector<char>(first, first + m.size);
    } else if (m.size / kMaxDeflateRatio > m.compressedSize) {
      return bad(where + " claims " + std::to_string(m.size) + " bytes from " +
                 std::to_string(m.compressedSize) + " deflated ones");
    } else {
      content = inflateMember(first, m.compressedSize, m.size);
    }
    if (content.failed())
      return bad(where + ": " + content.getStatus().message());
    if (crc32Of(content->data(), content->size()) != m.crc)
      return bad(where + " fails its CRC-32 check");
    StatusOr<HostArray> array = parseNpy(*content, path + ":" + m.name);
    if (array.failed())
      return array.takeStatus();
    arrays.emplace_back(std::move(arrayName), std::move(*array));
  }
  return arrays;
}

StatusOr<NamedArrays> amp::runner::readNpzFile(const std::string &path) {
  StatusOr<std::vector<char>> bytes = readFileBytes(path, "");
  if (bytes.failed())
    return bytes.takeStatus();
  return parseNpz(*bytes, path);
}

namespace {
/// Appends little-endian fields.
struct Writer {
  std::vector<char> &bytes;
  void le(uint64_t value, int width) {
    for (int i = 0; i < width; ++i)
      bytes.push_back(static_cast<char>(value >> (8 * i) & 0xff));
  }
  void text(const std::string &s) {
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
};
/// "Version needed to extract" of zip64 archives (4.5), and the DOS date of
/// 1980-01-01: the members carry no time.
constexpr uint16_t kZip64Version = 45, kFirstDosDate = 0x21;
} // namespace

StatusOr<std::vector<char>> amp::runner::encodeNpz(const NamedArrays &arrays) {
  struct Entry {
    std::string name;
    uint32_t crc;
    uint64_t size, offset;
  };
  std::vector<Entry> entries;
  std::vector<char> bytes;
  Writer w{bytes};
  std::set<std::string> names;
  for (const auto &[name, array] : arrays) {
    if (name.empty() || name.size() > 0xfff0 || !names.insert(name).second)
      return Status::error("cannot write the array '" + name +
                           "' into a .npz archive: its name is empty, too "
                           "long or taken");
    StatusOr<std::vector<char>> npy = encodeNpy(array);
    if (npy.failed())
      return npy.takeStatus();
    Entry e{name + ".npy", crc32Of(npy->data(), npy->size()), npy->size(),
            bytes.size()};
    w.le(kLocalHeader, 4);
    w.le(kZip64Version, 2);
    w.le(0, 2); // flags
    w.le(kStored, 2);
    w.le(0, 2); // time
    w.le(kFirstDosDate, 2);
    w.le(e.crc, 4);
    w.le(0xffffffff, 4); // compressed size, then size: in the extra field
    w.le(0xffffffff, 4);
    w.le(e.name.size(), 2);
    w.le(20, 2); // the extra field's length
    w.text(e.name);
    w.le(kZip64ExtraId, 2);
    w.le(16, 2);
    w.le(e.size, 8);
    w.le(e.size, 8);
    bytes.insert(bytes.end(), npy->begin(), npy->end());
    entries.push_back(std::move(e));
  }
  const uint64_t dirOffset = bytes.size();
  for (const Entry &e : entries) {
    w.le(kCentralHeader, 4);
    w.le(kZip64Version, 2); // made by
    w.le(kZip64Version, 2); // needed
    w.le(0, 2);
    w.le(kStored, 2);
    w.le(0, 2);
    w.le(kFirstDosDate, 2);
    w.le(e.crc, 4);
    w.le(0xffffffff, 4);
    w.le(0xffffffff, 4);
    w.le(e.name.size(), 2);
    w.le(28, 2); // the extra field's length
    w.le(0, 2);  // comment
    w.le(0, 2);  // disk
    w.le(0, 2);  // internal attributes
    w.le(0, 4);  // external attributes
    w.le(0xffffffff, 4);
    w.text(e.name);
    w.le(kZip64ExtraId, 2);
    w.le(24, 2);
    w.le(e.size, 8);
    w.le(e.size, 8);
    w.le(e.offset, 8);
  }
  const uint64_t dirSize = bytes.size() - dirOffset, record = bytes.size();
  w.le(kZip64EndRecord, 4);
  w.le(kZip64EndRecordSize - 12, 8); // the record's size after this field
  w.le(kZip64Version, 2);
  w.le(kZip64Version, 2);
  w.le(0, 4); // this disk
  w.le(0, 4); // the directory's disk
  w.le(entries.size(), 8);
  w.le(entries.size(), 8);
  w.le(dirSize, 8);
  w.le(dirOffset, 8);
  w.le(kZip64Locator, 4);
  w.le(0, 4);
  w.le(record, 8);
  w.le(1, 4); // disks
  w.le(kEndRecord, 4);
  w.le(0, 2);
  w.le(0, 2);
  w.le(0xffff, 2); // entries, sizes and offset: in the zip64 record
  w.le(0xffff, 2);
  w.le(0xffffffff, 4);
  w.le(0xffffffff, 4);
  w.le(0, 2); // comment
  return bytes;
}
