#include "backend/aie/AieCodec.h"

#include "backend/aie/TxnFormat.h"

namespace tilec::aie {
namespace {

bool decode(const std::vector<uint8_t>& bytes, std::string& listing, std::string& error, size_t& offset) {
  std::optional<std::vector<uint32_t>> words = toWords(bytes);
  if (!words) {
    error = "a TXN stream is whole 32-bit words, but this file has " + std::to_string(bytes.size()) + " bytes";
    offset = bytes.size() / 4 * 4;
    return false;
  }
  TxnError e;
  std::optional<TxnStream> s = decodeTxn(*words, e);
  if (!s) {
    error = e.message;
    offset = e.position;
    return false;
  }
  listing = printTxnListing(*s);
  return true;
}

bool encode(const std::string& listing, std::vector<uint8_t>& bytes, std::string& error, size_t& line) {
  TxnError e;
  std::optional<TxnStream> s = parseTxnListing(listing, e);
  if (!s) {
    error = e.message;
    line = e.position;
    return false;
  }
  bytes = toBytes(encodeTxn(*s));
  return true;
}

}  // namespace

const target::BinaryCodec& txnCodec() {
  static const target::BinaryCodec kCodec{"txn", "AIE transaction stream (Ryzen AI NPU, TXN 0.1 or legacy 1.0)",
                                          &looksLikeTxn, &decode, &encode};
  return kCodec;
}

}  // namespace tilec::aie
