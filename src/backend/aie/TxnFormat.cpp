#include "backend/aie/TxnFormat.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace tilec::aie {

enum class FieldKind : uint8_t { Opcode, Size, Value, Pad };

struct TxnField {
  const char* name;
  uint8_t word, shift, bits;  // 64 bits: the low half in `word`, the high half in the next
  FieldKind kind;
  bool hex;
};

struct TxnOpLayout {
  int version;  // 0: TXN 0.1, 1: legacy 1.0
  uint8_t opcode;
  const char* name;
  uint8_t headerWords;
  int8_t sizeWord;  // the word holding the op's size in bytes; -1: always headerWords long
  std::vector<TxnField> fields;
};

namespace {

constexpr FieldKind kOp = FieldKind::Opcode, kSize = FieldKind::Size, kVal = FieldKind::Value,
                    kPad = FieldKind::Pad;

TxnField dec(const char* n, uint8_t w, uint8_t s, uint8_t b) { return {n, w, s, b, kVal, false}; }
TxnField hex(const char* n, uint8_t w, uint8_t s = 0, uint8_t b = 32) { return {n, w, s, b, kVal, true}; }
TxnField pad(const char* n, uint8_t w, uint8_t s = 0, uint8_t b = 32) { return {n, w, s, b, kPad, true}; }
TxnField size(uint8_t w) { return {"size", w, 0, 32, kSize, false}; }

// Word 0 of the 0.1 ops: the opcode, then aie-rt's column and row bytes (mlir-aie writes 0).
std::vector<TxnField> opHeader(std::vector<TxnField> rest) {
  std::vector<TxnField> f = {{"op", 0, 0, 8, kOp, false}, pad("hdr_col", 0, 8, 8), pad("hdr_row", 0, 16, 8),
                             pad("hdr_pad", 0, 24, 8)};
  f.insert(f.end(), rest.begin(), rest.end());
  return f;
}
std::vector<TxnField> opByte(std::vector<TxnField> rest) {
  std::vector<TxnField> f = {{"op", 0, 0, 8, kOp, false}};
  f.insert(f.end(), rest.begin(), rest.end());
  return f;
}

const std::vector<TxnOpLayout>& layouts() {
  static const std::vector<TxnOpLayout> kLayouts = {
      // ---- TXN 0.1 ----
      {0, 0x00, "write32", 6, 5, opHeader({pad("pad1", 1), hex("addr", 2, 0, 64), hex("value", 4), size(5)})},
      {0, 0x01, "blockwrite", 4, 3,
       opHeader({dec("col", 1, 0, 8), dec("row", 1, 8, 8), pad("pad1", 1, 16, 16), hex("addr", 2), size(3)})},
      {0, 0x03, "maskwrite32", 7, 6,
       opHeader({pad("pad1", 1), hex("addr", 2, 0, 64), hex("value", 4), hex("mask", 5), size(6)})},
      {0, 0x04, "maskpoll32", 7, 6,
       opHeader({pad("pad1", 1), hex("addr", 2, 0, 64), hex("value", 4), hex("mask", 5), size(6)})},
      {0, 0x05, "noop", 1, -1, opHeader({})},
      {0, 0x06, "preempt", 1, -1, opByte({dec("level", 0, 8, 8), pad("reserved", 0, 16, 16)})},
      {0, 0x07, "maskpoll32_busy", 7, 6,
       opHeader({pad("pad1", 1), hex("addr", 2, 0, 64), hex("value", 4), hex("mask", 5), size(6)})},
      {0, 0x08, "load_pdi", 4, -1,
       opByte({pad("pad0", 0, 8, 8), dec("id", 0, 16, 16), dec("size", 1, 0, 32), hex("addr", 2, 0, 64)})},
      {0, 0x09, "load_pm_start", 2, -1, opByte({dec("count", 0, 8, 24), dec("pm_id", 1, 0, 32)})},
      {0, 0x0A, "create_scratchpad", 4, -1,
       opByte({dec("usage", 0, 8, 8), pad("pad0", 0, 16, 16), dec("size", 1, 0, 32), hex("offset", 2, 0, 64)})},
      {0, 0x0B, "update_state_table", 2, -1,
       opByte({dec("index", 0, 8, 8), dec("func", 0, 16, 8), pad("reserved", 0, 24, 8), dec("arg", 1, 0, 32)})},
      {0, 0x0C, "update_reg", 3, -1,
       opByte({dec("index", 0, 8, 8), dec("func", 0, 16, 8), pad("reserved", 0, 24, 8), dec("arg", 1, 0, 32),
               hex("addr", 2)})},
      {0, 0x0D, "update_scratch", 1, -1, opHeader({})},
      {0, 0x80, "sync", 4, 1,
       opHeader({size(1), dec("dir", 2, 0, 8), dec("row", 2, 8, 8), dec("col", 2, 16, 8), pad("pad2", 2, 24, 8),
                 pad("pad3", 3, 0, 8), dec("nrow", 3, 8, 8), dec("ncol", 3, 16, 8), dec("chan", 3, 24, 8)})},
      {0, 0x81, "address_patch", 12, 1,
       opHeader({size(1), pad("pad2", 2, 0, 64), dec("action", 4, 0, 32), pad("pad5", 5), hex("addr", 6, 0, 64),
                 dec("arg_idx", 8, 0, 64), hex("arg_plus", 10, 0, 64)})},
      {0, 0x82, "read_regs", 3, 1, opHeader({size(1), dec("count", 2, 0, 32)})},
      {0, 0x83, "record_timer", 3, 1, opHeader({size(1), dec("id", 2, 0, 32)})},
      {0, 0x84, "merge_sync", 4, 1,
       opHeader({size(1), dec("tokens", 2, 0, 8), dec("cols", 2, 8, 8), pad("pad2", 2, 16, 16), hex("config", 3)})},
      {0, 0x85, "next", 2, 1, opHeader({size(1)})},
      // ---- legacy 1.0: word 0 is the opcode and padding ----
      {1, 0x00, "write32", 3, -1, opByte({pad("pad0", 0, 8, 24), hex("addr", 1), hex("value", 2)})},
      {1, 0x01, "blockwrite", 3, 2, opByte({pad("pad0", 0, 8, 24), hex("addr", 1), size(2)})},
      {1, 0x03, "maskwrite32", 4, -1, opByte({pad("pad0", 0, 8, 24), hex("addr", 1), hex("value", 2), hex("mask", 3)})},
      {1, 0x04, "maskpoll32", 4, -1, opByte({pad("pad0", 0, 8, 24), hex("addr", 1), hex("value", 2), hex("mask", 3)})},
      {1, 0x80, "sync", 4, 1,
       opByte({pad("pad0", 0, 8, 24), size(1), dec("dir", 2, 0, 8), dec("row", 2, 8, 8), dec("col", 2, 16, 8),
               pad("pad2", 2, 24, 8), pad("pad3", 3, 0, 8), dec("nrow", 3, 8, 8), dec("ncol", 3, 16, 8),
               dec("chan", 3, 24, 8)})},
      {1, 0x81, "address_patch", 6, 1,
       opByte({pad("pad0", 0, 8, 24), size(1), hex("addr", 2), dec("arg_idx", 3, 0, 8), pad("pad3", 3, 8, 24),
               hex("arg_plus", 4, 0, 64)})},
  };
  return kLayouts;
}

const TxnOpLayout* findLayout(int version, uint8_t opcode) {
  for (const TxnOpLayout& l : layouts())
    if (l.version == version && l.opcode == opcode) return &l;
  return nullptr;
}

const TxnOpLayout* findLayout(int version, const std::string& name) {
  for (const TxnOpLayout& l : layouts())
    if (l.version == version && name == l.name) return &l;
  return nullptr;
}

uint64_t mask(unsigned bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

uint64_t getField(const std::vector<uint32_t>& w, const TxnField& f) {
  if (f.bits == 64) return uint64_t(w[f.word]) | uint64_t(w[f.word + 1]) << 32;
  return (w[f.word] >> f.shift) & mask(f.bits);
}

void setField(std::vector<uint32_t>& w, const TxnField& f, uint64_t v) {
  if (f.bits == 64) {
    w[f.word] = uint32_t(v);
    w[f.word + 1] = uint32_t(v >> 32);
    return;
  }
  const uint32_t m = uint32_t(mask(f.bits)) << f.shift;
  w[f.word] = (w[f.word] & ~m) | (uint32_t(v << f.shift) & m);
}

std::string hexText(uint64_t v, bool wide) {
  char buf[24];
  std::snprintf(buf, sizeof buf, wide ? "0x%016llX" : "0x%08llX", static_cast<unsigned long long>(v));
  return buf;
}

int versionOf(uint8_t major, uint8_t minor) { return major == 0 && minor == 1 ? 0 : major == 1 && minor == 0 ? 1 : -1; }

}  // namespace

const char* txnOpName(const TxnOp& op) { return op.layout->name; }

std::vector<uint8_t> toBytes(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> out;
  out.reserve(words.size() * 4);
  for (uint32_t w : words)
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(w >> (8 * i)));
  return out;
}

std::optional<std::vector<uint32_t>> toWords(const std::vector<uint8_t>& bytes) {
  if (bytes.size() % 4 != 0) return std::nullopt;
  std::vector<uint32_t> out(bytes.size() / 4);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 | uint32_t(bytes[4 * i + 2]) << 16 |
             uint32_t(bytes[4 * i + 3]) << 24;
  return out;
}

bool looksLikeTxn(const std::vector<uint8_t>& bytes) {
  return bytes.size() >= 16 && versionOf(bytes[0], bytes[1]) >= 0;
}

std::optional<TxnStream> decodeTxn(const std::vector<uint32_t>& words, TxnError& error) {
  auto fail = [&](std::string m, size_t word) {
    error = {std::move(m), word * 4};
    return std::nullopt;
  };
  if (words.size() < 4) return fail("a TXN stream starts with a 16-byte header; this one has " +
                                        std::to_string(words.size() * 4) + " bytes", 0);
  TxnStream s;
  s.major = uint8_t(words[0]);
  s.minor = uint8_t(words[0] >> 8);
  s.devGen = uint8_t(words[0] >> 16);
  s.numRows = uint8_t(words[0] >> 24);
  s.numCols = uint8_t(words[1]);
  s.numMemTileRows = uint8_t(words[1] >> 8);
  s.headerPad = uint16_t(words[1] >> 16);
  const int version = versionOf(s.major, s.minor);
  if (version < 0)
    return fail("TXN version " + std::to_string(s.major) + "." + std::to_string(s.minor) +
                    " is not one tilec reads (0.1, or the legacy 1.0)", 0);
  if (uint64_t(words[3]) != uint64_t(words.size()) * 4)
    return fail("the header says the stream is " + std::to_string(words[3]) + " bytes, but it is " +
                    std::to_string(words.size() * 4), 3);
  size_t at = 4;
  while (at < words.size()) {
    const uint8_t opcode = uint8_t(words[at]);
    const TxnOpLayout* l = findLayout(version, opcode);
    if (!l) return fail("opcode " + hexText(opcode, false) + " is not a TXN op tilec knows", at);
    size_t length = l->headerWords;
    if (l->sizeWord >= 0) {
      if (at + size_t(l->sizeWord) >= words.size())
        return fail(std::string(l->name) + " is cut off before its size word", at);
      const uint32_t bytes = words[at + size_t(l->sizeWord)];
      if (bytes % 4 != 0 || bytes / 4 < l->headerWords)
        return fail(std::string(l->name) + " gives its size as " + std::to_string(bytes) +
                        " bytes; it must be a multiple of 4 and at least " + std::to_string(l->headerWords * 4),
                    at + size_t(l->sizeWord));
      length = bytes / 4;
    }
    if (length > words.size() - at)
      return fail(std::string(l->name) + " needs " + std::to_string(length * 4) + " bytes, but the stream ends after " +
                      std::to_string((words.size() - at) * 4), at);
    s.ops.push_back({l, std::vector<uint32_t>(words.begin() + long(at), words.begin() + long(at + length))});
    at += length;
  }
  if (words[2] != s.ops.size())
    return fail("the header counts " + std::to_string(words[2]) + " ops, but the stream holds " +
                    std::to_string(s.ops.size()), 2);
  return s;
}

std::vector<uint32_t> encodeTxn(const TxnStream& s) {
  std::vector<uint32_t> out = {
      uint32_t(s.numRows) << 24 | uint32_t(s.devGen) << 16 | uint32_t(s.minor) << 8 | s.major,
      uint32_t(s.headerPad) << 16 | uint32_t(s.numMemTileRows) << 8 | s.numCols, uint32_t(s.ops.size()), 0};
  for (const TxnOp& op : s.ops) out.insert(out.end(), op.words.begin(), op.words.end());
  out[3] = uint32_t(out.size() * 4);
  return out;
}

std::string printTxnListing(const TxnStream& s) {
  std::ostringstream os;
  os << "txn version=" << int(s.major) << "." << int(s.minor) << " devgen=" << int(s.devGen)
     << " rows=" << int(s.numRows) << " cols=" << int(s.numCols) << " memtile_rows=" << int(s.numMemTileRows);
  if (s.headerPad) os << " pad=" << hexText(s.headerPad, false);
  os << "\n";
  for (const TxnOp& op : s.ops) {
    os << op.layout->name;
    for (const TxnField& f : op.layout->fields) {
      if (f.kind == kOp || f.kind == kSize) continue;
      const uint64_t v = getField(op.words, f);
      if (f.kind == kPad && v == 0) continue;
      os << " " << f.name << "=" << (f.hex ? hexText(v, f.bits == 64 && v >> 32) : std::to_string(v));
    }
    for (size_t i = op.layout->headerWords; i < op.words.size(); ++i)
      os << (i == op.layout->headerWords ? " data=" : ",") << hexText(op.words[i], false);
    os << "\n";
  }
  return os.str();
}

namespace {

std::optional<uint64_t> parseNumber(const std::string& t) {
  if (t.empty() || t.size() > 20) return std::nullopt;
  const bool isHex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
  uint64_t v = 0;
  for (size_t i = isHex ? 2 : 0; i < t.size(); ++i) {
    const char c = t[i];
    unsigned d;
    if (c >= '0' && c <= '9') d = unsigned(c - '0');
    else if (isHex && c >= 'a' && c <= 'f') d = unsigned(c - 'a' + 10);
    else if (isHex && c >= 'A' && c <= 'F') d = unsigned(c - 'A' + 10);
    else return std::nullopt;
    const uint64_t base = isHex ? 16 : 10;
    if (v > (~uint64_t(0) - d) / base) return std::nullopt;
    v = v * base + d;
  }
  return v;
}

// `key=value` pairs after the first word of a listing line, in order.
std::optional<std::vector<std::pair<std::string, std::string>>> splitPairs(std::istringstream& in,
                                                                           std::string& bad) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string tok;
  while (in >> tok) {
    const size_t eq = tok.find('=');
    if (eq == std::string::npos || eq == 0) {
      bad = tok;
      return std::nullopt;
    }
    out.emplace_back(tok.substr(0, eq), tok.substr(eq + 1));
  }
  return out;
}

}  // namespace

std::optional<TxnStream> parseTxnListing(const std::string& text, TxnError& error) {
  std::istringstream lines(text);
  std::string line;
  size_t lineNo = 0;
  TxnStream s;
  int version = -1;
  auto fail = [&](std::string m) {
    error = {std::move(m), lineNo};
    return std::nullopt;
  };
  while (std::getline(lines, line)) {
    ++lineNo;
    std::istringstream in(line);
    std::string name;
    if (!(in >> name) || name[0] == '#') continue;
    std::string bad;
    auto pairs = splitPairs(in, bad);
    if (!pairs) return fail("'" + bad + "' is not a field=value pair");
    if (version < 0) {
      if (name != "txn") return fail("a TXN listing starts with its 'txn version=...' header line");
      std::map<std::string, std::string> h(pairs->begin(), pairs->end());
      const std::string v = h.count("version") ? h["version"] : "";
      if (v != "0.1" && v != "1.0") return fail("the listing's version must be 0.1 or 1.0");
      s.major = v == "0.1" ? 0 : 1;
      s.minor = v == "0.1" ? 1 : 0;
      version = versionOf(s.major, s.minor);
      for (const auto& [key, value] : *pairs) {
        if (key == "version") continue;
        std::optional<uint64_t> n = parseNumber(value);
        const uint64_t limit = key == "pad" ? 0xFFFF : 0xFF;
        uint8_t* byte = key == "devgen" ? &s.devGen : key == "rows" ? &s.numRows : key == "cols" ? &s.numCols
                        : key == "memtile_rows" ? &s.numMemTileRows : nullptr;
        if (!byte && key != "pad") return fail("the header has no field '" + key + "'");
        if (!n || *n > limit) return fail("header field " + key + "=" + value + " is not a number up to " + std::to_string(limit));
        if (byte) *byte = uint8_t(*n);
        else s.headerPad = uint16_t(*n);
      }
      continue;
    }
    const TxnOpLayout* l = findLayout(version, name);
    if (!l) return fail("'" + name + "' is not a TXN " + (version == 0 ? "0.1" : "1.0") + " op");
    TxnOp op{l, std::vector<uint32_t>(l->headerWords, 0u)};
    op.words[0] = l->opcode;
    std::vector<uint32_t> payload;
    std::map<std::string, bool> seen;
    for (const auto& [key, value] : *pairs) {
      if (seen[key]) return fail(name + " gives " + key + " twice");
      seen[key] = true;
      if (key == "data") {
        std::istringstream items(value);
        std::string item;
        while (std::getline(items, item, ',')) {
          std::optional<uint64_t> n = parseNumber(item);
          if (!n || *n > 0xFFFFFFFF) return fail("data word '" + item + "' is not a 32-bit number");
          payload.push_back(uint32_t(*n));
        }
        continue;
      }
      const TxnField* field = nullptr;
      for (const TxnField& f : l->fields)
        if (key == f.name && f.kind != kOp && f.kind != kSize) field = &f;
      if (!field) return fail(name + " has no field '" + key + "'");
      std::optional<uint64_t> n = parseNumber(value);
      if (!n || *n > mask(field->bits))
        return fail(name + " field " + key + "=" + value + " does not fit in " + std::to_string(field->bits) + " bits");
      setField(op.words, *field, *n);
    }
    if (!payload.empty() && l->sizeWord < 0) return fail(name + " carries no data");
    op.words.insert(op.words.end(), payload.begin(), payload.end());
    if (l->sizeWord >= 0) op.words[size_t(l->sizeWord)] = uint32_t(op.words.size() * 4);
    s.ops.push_back(std::move(op));
  }
  if (version < 0) return fail("the listing is empty; it starts with a 'txn version=...' header line");
  return s;
}

std::optional<std::vector<uint32_t>> parseTxnWords(const std::string& text, TxnError& error,
                                                   std::vector<size_t>* lines) {
  std::istringstream in(text);
  std::string line;
  std::vector<uint32_t> words;
  for (size_t lineNo = 1; std::getline(in, line); ++lineNo) {
    std::istringstream items(line);
    std::string item;
    while (items >> item) {
      const bool prefixed = item.size() > 2 && item[0] == '0' && (item[1] == 'x' || item[1] == 'X');
      const std::string digits = prefixed ? item.substr(2) : item;
      std::optional<uint64_t> n = parseNumber("0x" + digits);
      if (digits.empty() || digits.size() > 8 || !n) {
        error = {"'" + item + "' is not a 32-bit hexadecimal word (up to 8 hex digits, as --emit=txn-text writes)",
                 lineNo};
        return std::nullopt;
      }
      words.push_back(uint32_t(*n));
      if (lines) lines->push_back(lineNo);
    }
  }
  return words;
}

namespace {

std::string firstWord(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return {};
  return text.substr(begin, text.find_first_of(" \t\r\n", begin) - begin);
}

// Words that do not decode report the line of the word where decoding stopped.
std::optional<TxnStream> decodeWords(const std::string& text, TxnError& error) {
  std::vector<size_t> lines;
  std::optional<std::vector<uint32_t>> words = parseTxnWords(text, error, &lines);
  if (!words) return std::nullopt;
  std::optional<TxnStream> s = decodeTxn(*words, error);
  if (!s) error.position = lines.empty() ? 1 : lines[std::min(error.position / 4, lines.size() - 1)];
  return s;
}

// The text forms are ASCII: anything else is read as a binary, whose error names a byte
// offset rather than quoting a line of bytes.
bool isText(const std::vector<uint8_t>& bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return (b >= 0x20 && b < 0x7F) || (b >= 9 && b <= 13); });
}

}  // namespace

std::optional<TxnStream> readTxnAnyForm(const std::string& contents, TxnForm& form, TxnError& error) {
  const std::vector<uint8_t> bytes(contents.begin(), contents.end());
  if (looksLikeTxn(bytes) || !isText(bytes)) {
    form = TxnForm::Binary;
    std::optional<std::vector<uint32_t>> words = toWords(bytes);
    if (!words) {
      error = {"the stream is " + std::to_string(bytes.size()) + " bytes, not whole 4-byte words",
               bytes.size() / 4 * 4};
      return std::nullopt;
    }
    return decodeTxn(*words, error);
  }
  if (firstWord(contents) == "txn") {
    form = TxnForm::Listing;
    return parseTxnListing(contents, error);
  }
  form = TxnForm::Words;
  return decodeWords(contents, error);
}

}  // namespace tilec::aie
