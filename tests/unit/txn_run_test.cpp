// What tilec txn-run stands on: a stream read in each of its forms (binary, txn-text words,
// listing) is the same stream; the executor's refusals of streams no compiler wrote (a
// legacy stream, a patch far past a buffer, more bytes than a host run moves) are messages,
// never a crash; tensors turn into device bytes and back unchanged.
#include <doctest/doctest.h>

#include <cstdio>

#include "backend/aie/TxnExecutor.h"
#include "backend/aie/TxnFormat.h"
#include "interp/Npy.h"
#include "interp/Numeric.h"

using namespace tilec;

namespace {

// tilec's passthrough for N = 16: a linear 16-word fill of argument 0 on column 0's MM2S
// channel 0, the same drain into argument 1 on S2MM channel 0, and its wait.
std::string passthroughListing(const std::string& argPlus = "0x00000000") {
  const std::string bd = "data=0x00000010,0x00000000,0x00000000,0x00000000,0x80000000,0x02000000,0x00000000,0x02000000";
  return "txn version=0.1 devgen=3 rows=6 cols=4 memtile_rows=1\n"
         "blockwrite col=0 row=0 addr=0x0001D000 " + bd + "\n"
         "address_patch action=0 addr=0x0001D004 arg_idx=0 arg_plus=" + argPlus + "\n"
         "write32 addr=0x0001D214 value=0x00000000\n"
         "blockwrite col=0 row=0 addr=0x0001D020 " + bd + "\n"
         "address_patch action=0 addr=0x0001D024 arg_idx=1 arg_plus=0x00000000\n"
         "write32 addr=0x0001D204 value=0x80000001\n"
         "sync dir=0 row=0 col=0 nrow=1 ncol=1 chan=0\n";
}

aie::TxnStream parsed(const std::string& listing) {
  aie::TxnError e;
  std::optional<aie::TxnStream> s = aie::parseTxnListing(listing, e);
  INFO(e.message);
  REQUIRE(s);
  return *s;
}

std::string wordsText(const aie::TxnStream& s) {
  std::string text;
  char word[16];
  for (uint32_t w : aie::encodeTxn(s)) {
    std::snprintf(word, sizeof word, "%08X\n", w);
    text += word;
  }
  return text;
}

std::vector<std::vector<uint8_t>> passthroughBuffers() {
  std::vector<std::vector<uint8_t>> buffers(2, std::vector<uint8_t>(64, 0));
  for (size_t i = 0; i < 64; ++i) buffers[0][i] = uint8_t(3 * i + 1);
  return buffers;
}

}  // namespace

TEST_CASE("txn-run: a stream reads the same as a binary, as words and as a listing") {
  const aie::TxnStream s = parsed(passthroughListing());
  const std::vector<uint8_t> bytes = aie::toBytes(aie::encodeTxn(s));
  const std::string texts[] = {std::string(bytes.begin(), bytes.end()), wordsText(s), aie::printTxnListing(s)};
  const aie::TxnForm forms[] = {aie::TxnForm::Binary, aie::TxnForm::Words, aie::TxnForm::Listing};
  for (size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    aie::TxnForm form;
    aie::TxnError e;
    std::optional<aie::TxnStream> read = aie::readTxnAnyForm(texts[i], form, e);
    INFO(e.message);
    REQUIRE(read);
    CHECK(form == forms[i]);
    CHECK(aie::encodeTxn(*read) == aie::encodeTxn(s));
  }
}

TEST_CASE("txn-run: words take an optional 0x and any white space, and errors name their line") {
  aie::TxnError e;
  std::vector<size_t> lines;
  std::optional<std::vector<uint32_t>> words = aie::parseTxnWords("0x1 ABCDEF01\n\n  12345678\n", e, &lines);
  REQUIRE(words);
  CHECK(*words == std::vector<uint32_t>{1, 0xABCDEF01, 0x12345678});
  CHECK(lines == std::vector<size_t>{1, 1, 3});
  CHECK_FALSE(aie::parseTxnWords("00000001\n123456789\n", e));
  CHECK(e.position == 2);
  CHECK(e.message.find("'123456789' is not a 32-bit hexadecimal word") == 0);
  CHECK_FALSE(aie::parseTxnWords("0x\n", e));
  CHECK(e.position == 1);

  // Words that do not decode: the line of the word where decoding stopped.
  aie::TxnForm form;
  const std::string words16 = wordsText(parsed(passthroughListing()));
  CHECK_FALSE(aie::readTxnAnyForm(words16.substr(0, 9 * 9), form, e));
  CHECK(form == aie::TxnForm::Words);
  CHECK(e.position == 4);
  // Bytes that are neither a TXN header nor text are a binary, refused at byte 0.
  CHECK_FALSE(aie::readTxnAnyForm(std::string("\x93NUMPY\x01\x00", 8), form, e));
  CHECK(form == aie::TxnForm::Binary);
  CHECK(e.position == 0);
}

TEST_CASE("txn-run: the executor moves the passthrough's bytes and refuses what it cannot run") {
  std::vector<std::vector<uint8_t>> buffers = passthroughBuffers();
  CHECK(aie::executeTxn(parsed(passthroughListing()), buffers) == "");
  CHECK(buffers[1] == buffers[0]);

  // A byte budget: 64 bytes read, then the drain stops after 36 of its own.
  buffers = passthroughBuffers();
  size_t failed = 0;
  CHECK(aie::executeTxn(parsed(passthroughListing()), buffers, 100, &failed) ==
        "the stream moves more than 100 bytes, the most a host run moves");
  CHECK(failed == 5);

  // An offset near 2^64 is past the buffer, not wrapped around into it.
  buffers = passthroughBuffers();
  CHECK(aie::executeTxn(parsed(passthroughListing("0xFFFFFFFFFFFFFFF0")), buffers, aie::kMaxTxnBytesMoved, &failed) ==
        "a descriptor reaches byte 18446744073709551600 of argument 0, which has 64");
  CHECK(failed == 2);

  // The legacy format's ops have other layouts: refused before any op runs.
  aie::TxnStream legacy = parsed("txn version=1.0 devgen=3 rows=6 cols=4 memtile_rows=1\nwrite32 addr=0x1D214 value=0\n");
  CHECK(aie::executeTxn(legacy, buffers, aie::kMaxTxnBytesMoved, &failed) ==
        "the executor runs TXN 0.1 streams (what tilec and mlir-aie write); this one is 1.0");
  CHECK(failed == 0);
}

TEST_CASE("txn-run: tensors become device bytes and back, bf16 as its 16 bits") {
  interp::Tensor t{std::make_shared<interp::TensorData>(), {3}};
  t.data->dtype = ir::DType::BF16;
  for (double v : {1.0, -2.5, 0.15625}) {
    interp::Num n;
    n.f = v;
    t.data->elems.push_back(n);
  }
  const std::vector<uint8_t> bytes = interp::tensorBytes(t);
  CHECK(bytes == std::vector<uint8_t>{0x80, 0x3F, 0x20, 0xC0, 0x20, 0x3E});
  interp::Tensor back{std::make_shared<interp::TensorData>(*t.data), t.dims};
  for (interp::Num& n : back.data->elems) n.f = 0;
  interp::setTensorBytes(back, bytes);
  for (size_t i = 0; i < 3; ++i) CHECK(back.data->elems[i].f == t.data->elems[i].f);

  interp::Tensor s{std::make_shared<interp::TensorData>(), {2}};
  s.data->dtype = ir::DType::I16;
  for (int64_t v : {-2, 300}) {
    interp::Num n;
    n.i = v;
    s.data->elems.push_back(n);
  }
  CHECK(interp::tensorBytes(s) == std::vector<uint8_t>{0xFE, 0xFF, 0x2C, 0x01});
  interp::setTensorBytes(s, {0x00, 0x80, 0x01, 0x00});
  CHECK(s.data->elems[0].i == -32768);
  CHECK(s.data->elems[1].i == 1);
}
