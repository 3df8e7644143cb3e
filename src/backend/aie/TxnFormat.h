// Reading and writing AIE transaction (TXN) streams as data: a binary decodes into ops
// whose header words are split into named fields by one layout table (every bit of every
// header word belongs to a field, so nothing is lost), prints as a listing, and a listing
// parses back into the same bytes. The 0.1 format that mlir-aie emits and the legacy 1.0
// ("opt") format are both read. Linear in the stream's size.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec::aie {

struct TxnOpLayout;

struct TxnOp {
  const TxnOpLayout* layout;
  std::vector<uint32_t> words;  // header words, then payload words
};

struct TxnStream {
  uint8_t major = 0, minor = 1, devGen = 3, numRows = 6, numCols = 4, numMemTileRows = 1;
  uint16_t headerPad = 0;
  std::vector<TxnOp> ops;
};

struct TxnError {
  std::string message;
  size_t position;  // byte offset into a binary, or line number of a listing
};

const char* txnOpName(const TxnOp& op);  // "write32", ...

// A little-endian stream of 32-bit words as bytes, and back (nullopt unless whole words).
std::vector<uint8_t> toBytes(const std::vector<uint32_t>& words);
std::optional<std::vector<uint32_t>> toWords(const std::vector<uint8_t>& bytes);

// Decodes a stream: its header must count its ops and bytes exactly.
std::optional<TxnStream> decodeTxn(const std::vector<uint32_t>& words, TxnError& error);
std::vector<uint32_t> encodeTxn(const TxnStream& s);

// One line per op: `name field=value ...`, padding fields only when they are not zero,
// the payload as `data=0x...,0x...`; the first line is the header.
std::string printTxnListing(const TxnStream& s);
std::optional<TxnStream> parseTxnListing(const std::string& text, TxnError& error);

// Whether the bytes start like a TXN stream (a version this file reads).
bool looksLikeTxn(const std::vector<uint8_t>& bytes);

// The forms a stream is kept in: the binary (insts.bin), hexadecimal words as
// --emit=txn-text and a --emit=txn-cpp builder's driver print them (insts.txt), and the
// listing above.
enum class TxnForm { Binary, Words, Listing };

// Hexadecimal 32-bit words (`0x` optional) separated by white space; `lines`, when given,
// gets each word's line. Errors are at a line.
std::optional<std::vector<uint32_t>> parseTxnWords(const std::string& text, TxnError& error,
                                                   std::vector<size_t>* lines = nullptr);

// A stream in any form, told apart by how it starts: a TXN header is the binary, a first
// word 'txn' the listing, anything else words. An error is at a byte offset of the binary,
// or at a line of the text forms (a words stream that does not decode: the line of the
// word where decoding stopped).
std::optional<TxnStream> readTxnAnyForm(const std::string& contents, TxnForm& form, TxnError& error);

}  // namespace tilec::aie
