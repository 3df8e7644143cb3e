// The Linx header-word codec (src/backend/linx/LinxCodec.h), both ways. Bytes that decode
// must list, and the listing must parse and encode back to the same bytes; text that
// encodes as a listing must give bytes that decode to a listing encoding to them again.
// Each 4-byte word is also checked alone: what revision A accepts, B accepts with the
// same fields, and a word's printed text parses back to it under either revision.
#include <cstdint>
#include <string>
#include <vector>

#include "FuzzSupport.h"
#include "backend/linx/LinxCodec.h"
#include "backend/linx/LinxWords.h"

namespace {

using namespace tilec::linx;

void bytesRoundTrip(const std::vector<uint8_t>& bytes) {
  const tilec::target::BinaryCodec& codec = linxCodec();
  std::string listing, error;
  size_t where = 0;
  if (!codec.decode(bytes, listing, error, where)) return;
  std::vector<uint8_t> back;
  if (!codec.encode(listing, back, error, where))
    tilec::fuzz::bug("a decoded binary's listing does not encode (line " + std::to_string(where) + ": " + error +
                     "):\n" + listing);
  if (back != bytes) tilec::fuzz::bug("the listing encodes to other bytes:\n" + listing);
}

void listingRoundTrip(const std::string& text) {
  const tilec::target::BinaryCodec& codec = linxCodec();
  std::vector<uint8_t> bytes, again;
  std::string error, listing;
  size_t where = 0;
  if (!codec.encode(text, bytes, error, where)) return;
  if (!codec.decode(bytes, listing, error, where))
    tilec::fuzz::bug("an encoded listing does not decode (byte " + std::to_string(where) + ": " + error + "):\n" + text);
  if (!codec.encode(listing, again, error, where) || again != bytes)
    tilec::fuzz::bug("the listing of an encoded listing encodes differently:\n" + text + "\n---\n" + listing);
}

void wordChecks(uint32_t word) {
  std::string error;
  const std::optional<HeaderWord> a = decodeWord(word, AssembleRev::A, error);
  const std::optional<HeaderWord> b = decodeWord(word, AssembleRev::B, error);
  if (a && !(b && *a == *b)) tilec::fuzz::bug("revision B does not read a word revision A reads: " + printWord(*a));
  for (AssembleRev rev : {AssembleRev::A, AssembleRev::B}) {
    const std::optional<HeaderWord>& w = rev == AssembleRev::A ? a : b;
    if (!w) continue;
    HeaderWord back;
    if (!parseWord(printWord(*w), rev, back, error)) tilec::fuzz::bug("a decoded word's text does not parse: " + error);
    if (!(back == *w) || encodeWord(back, rev, error) != word)
      tilec::fuzz::bug("a decoded word's text encodes to another word: " + printWord(*w));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  bytesRoundTrip(bytes);
  listingRoundTrip(std::string(bytes.begin(), bytes.end()));
  for (size_t at = 0; at + 4 <= size; at += 4)
    wordChecks(uint32_t(data[at]) | uint32_t(data[at + 1]) << 8 | uint32_t(data[at + 2]) << 16 |
               uint32_t(data[at + 3]) << 24);
  return 0;
}
