#include "backend/linx/LinxCodec.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

#include "backend/linx/LinxWords.h"

namespace tilec::linx {
namespace {

constexpr const char* kListingName = "linx";
constexpr const char* kListingForm = "'linx assemble=A' or 'linx assemble=B'";

std::string hexWord(uint32_t w) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", w);
  return buf;
}

uint32_t wordAt(const std::vector<uint8_t>& bytes, size_t at) {
  return uint32_t(bytes[at]) | uint32_t(bytes[at + 1]) << 8 | uint32_t(bytes[at + 2]) << 16 |
         uint32_t(bytes[at + 3]) << 24;
}

void appendWord(std::vector<uint8_t>& bytes, uint32_t w) {
  for (int shift = 0; shift < 32; shift += 8) bytes.push_back(uint8_t(w >> shift));
}

// Only the opcode is looked at: it is enough to tell these words from a TXN stream, whose
// first byte is a version (0 or 1), and decoding says what else is wrong.
bool recognizes(const std::vector<uint8_t>& bytes) {
  if (bytes.empty() || bytes.size() % 4 != 0) return false;
  for (size_t at = 0; at < bytes.size(); at += 4)
    if (!hasHeaderOpcode(wordAt(bytes, at))) return false;
  return true;
}

// The revision a stream of words follows. A word alone does not say it, but a stream
// can: revision A's MIDDLE and LAST words carry field 5 = 0, which B gives no writer (B
// accepts it only from such old producers). So a stream is A when one of its B.ASSEMBLE
// words carries 0 and all of them keep A's rule (the parent's size on INIT, 0 after);
// otherwise B, which accepts every word A does (INIT_LAST words alone read the same).
AssembleRev revisionOf(const std::vector<uint32_t>& words) {
  bool zero = false;
  for (uint32_t w : words) {
    std::string why;
    std::optional<HeaderWord> word = decodeWord(w, AssembleRev::B, why);
    const auto* assemble = word ? std::get_if<AssembleWord>(&*word) : nullptr;
    if (!assemble) continue;
    if (!decodeWord(w, AssembleRev::A, why)) return AssembleRev::B;
    zero = zero || assemble->field5 == 0;
  }
  return zero ? AssembleRev::A : AssembleRev::B;
}

bool decode(const std::vector<uint8_t>& bytes, std::string& listing, std::string& error, size_t& offset) {
  if (bytes.size() % 4 != 0) {
    error = "LinxISA header words are whole 32-bit words, but this file has " + std::to_string(bytes.size()) + " bytes";
    offset = bytes.size() / 4 * 4;
    return false;
  }
  std::vector<uint32_t> words;
  for (size_t at = 0; at < bytes.size(); at += 4) words.push_back(wordAt(bytes, at));
  const AssembleRev rev = revisionOf(words);
  std::string out = std::string(kListingName) + (rev == AssembleRev::A ? " assemble=A\n" : " assemble=B\n");
  for (size_t k = 0; k < words.size(); ++k) {
    std::string why;
    std::optional<HeaderWord> word = decodeWord(words[k], rev, why);
    if (!word) {
      error = "word " + hexWord(words[k]) + ": " + why;
      offset = 4 * k;
      return false;
    }
    out += printWord(*word) + "  # " + hexWord(words[k]) + "\n";
  }
  listing = std::move(out);
  return true;
}

// `;` always starts a comment; `#` only at the start of a line or after a blank, because
// tile selectors (T#1) contain one.
std::string_view stripComment(std::string_view line) {
  for (size_t i = 0; i < line.size(); ++i)
    if (line[i] == ';' || (line[i] == '#' && (i == 0 || std::isspace(static_cast<unsigned char>(line[i - 1])))))
      return line.substr(0, i);
  return line;
}

std::string_view trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::string_view firstToken(std::string_view line) { return line.substr(0, line.find_first_of(" \t")); }

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// Block delimiters of a full assembly listing carry no header word in this binary.
bool isDelimiter(std::string_view line) {
  const std::string first = upper(firstToken(line));
  return first.rfind("BSTART", 0) == 0 || first == "BSTOP";
}

bool parseListingHeader(std::string_view line, AssembleRev& rev, std::string& error) {
  const std::string_view name = firstToken(line);
  const std::string_view option = trim(line.substr(name.size()));
  if (name == kListingName && (option == "assemble=A" || option == "assemble=B")) {
    rev = option.back() == 'A' ? AssembleRev::A : AssembleRev::B;
    return true;
  }
  error = name == kListingName ? std::string("the listing header names the B.ASSEMBLE revision: ") + kListingForm
                               : std::string("a Linx header-word listing starts with ") + kListingForm;
  return false;
}

bool encode(const std::string& listing, std::vector<uint8_t>& bytes, std::string& error, size_t& line) {
  std::optional<AssembleRev> rev;
  std::vector<uint8_t> out;
  size_t number = 0;
  for (size_t start = 0; start <= listing.size(); ++number) {
    const size_t end = std::min(listing.find('\n', start), listing.size());
    const std::string_view text = trim(stripComment(std::string_view(listing).substr(start, end - start)));
    start = end + 1;
    if (text.empty() || (rev && isDelimiter(text))) continue;
    line = number + 1;
    if (!rev) {
      AssembleRev r = AssembleRev::B;
      if (!parseListingHeader(text, r, error)) return false;
      rev = r;
      continue;
    }
    HeaderWord word;
    if (!parseWord(text, *rev, word, error)) return false;
    appendWord(out, *encodeWord(word, *rev, error));  // parseWord has validated it
  }
  if (!rev) {
    error = std::string("the listing is empty; it starts with ") + kListingForm;
    line = 1;
    return false;
  }
  bytes = std::move(out);
  return true;
}

}  // namespace

const target::BinaryCodec& linxCodec() {
  static const target::BinaryCodec kCodec{"linx", "LinxISA block-header words (B.IOT, B.IOS, B.SUBVIEW, B.ASSEMBLE)",
                                          &recognizes, &decode, &encode};
  return kCodec;
}

}  // namespace tilec::linx
