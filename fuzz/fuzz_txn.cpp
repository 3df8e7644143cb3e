// The TXN codec (src/backend/aie/TxnFormat.h), both ways. Bytes that decode must print a
// listing that parses and encodes back to the same bytes; text that parses as a listing
// must encode to bytes that decode and print the same listing again.
#include <cstdint>
#include <string>
#include <vector>

#include "FuzzSupport.h"
#include "backend/aie/TxnFormat.h"

namespace {

using namespace tilec::aie;

void bytesRoundTrip(const std::vector<uint8_t>& bytes) {
  std::optional<std::vector<uint32_t>> words = toWords(bytes);
  if (!words) return;
  TxnError e;
  std::optional<TxnStream> s = decodeTxn(*words, e);
  if (!s) return;
  const std::string listing = printTxnListing(*s);
  std::optional<TxnStream> back = parseTxnListing(listing, e);
  if (!back) tilec::fuzz::bug("a decoded stream's listing does not parse (" + e.message + "):\n" + listing);
  if (encodeTxn(*back) != *words) tilec::fuzz::bug("the listing encodes to other bytes:\n" + listing);
}

void listingRoundTrip(const std::string& text) {
  TxnError e;
  std::optional<TxnStream> s = parseTxnListing(text, e);
  if (!s) return;
  const std::vector<uint32_t> words = encodeTxn(*s);
  std::optional<TxnStream> back = decodeTxn(words, e);
  if (!back) tilec::fuzz::bug("an encoded listing does not decode (" + e.message + "):\n" + text);
  if (printTxnListing(*back) != printTxnListing(*s)) tilec::fuzz::bug("the stream lists differently:\n" + text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  bytesRoundTrip(bytes);
  listingRoundTrip(std::string(bytes.begin(), bytes.end()));
  return 0;
}
