// The AIE transaction-stream encoder (TxnRuntime.h) against mlir-aie's golden words, and
// the TXN codec (TxnFormat.h): every public stream in Inputs/txn decodes, prints as a
// listing, and the listing encodes back to the same bytes.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "backend/aie/TxnFormat.h"
#include "backend/aie/TxnRuntime.h"

using namespace tilec::aie;
namespace txn = tilec_txn;

namespace {

const txn::Device kNpu1{3, 6, 4, 1}, kNpu1OneCol{3, 6, 1, 1}, kNpu2{4, 6, 8, 1};

std::vector<uint32_t> words(const std::string& text) {
  std::vector<uint32_t> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ws(line);
    std::string w;
    while (ws >> w) out.push_back(uint32_t(std::stoul(w, nullptr, 16)));
  }
  return out;
}

std::vector<uint32_t> finished(txn::Stream s, const txn::Device& d) {
  txn::finish(s, d);
  return s.words;
}

// test/Targets/NPU/npu_instgen.mlir's body, up to its last op.
txn::Stream instgenBody() {
  txn::Stream s;
  const uint32_t data[8] = {100, 101, 102, 103, 104, 105, 106, 107};
  txn::write32(s, txn::tileAddress(3, 4, 0xabc00def), 0x42);
  txn::write32(s, 0xabc00def, 0x314);
  txn::blockWrite(s, 0x12345679, data, 8, 0);
  txn::blockWrite(s, txn::tileAddress(1, 1, 100), data, 8, 1 | 1 << 8);
  txn::maskWrite32(s, txn::tileAddress(2, 3, 0x567A), 0x1001, 0xf00ff00f);
  txn::sync(s, 3, 4, 1, 5, 1, 2);
  return s;
}

const char* kInstgenOps = R"(
00000000 00000000 06400DEF 00000000 00000042 00000018
00000000 00000000 ABC00DEF 00000000 00000314 00000018
00000001 00000000 12345679 00000030 00000064 00000065 00000066 00000067 00000068 00000069 0000006A 0000006B
00000001 00000101 02100064 00000030 00000064 00000065 00000066 00000067 00000068 00000069 0000006A 0000006B
00000003 00000000 0430567A 00000000 00001001 F00FF00F 0000001C
00000080 00000010 00030401 05010200
)";

void roundTrips(const std::vector<uint32_t>& w) {
  TxnError e;
  std::optional<TxnStream> s = decodeTxn(w, e);
  INFO(e.message << " at byte " << e.position);
  REQUIRE(s);
  const std::string listing = printTxnListing(*s);
  INFO(listing);
  std::optional<TxnStream> back = parseTxnListing(listing, e);
  INFO(e.message << " at line " << e.position);
  REQUIRE(back);
  CHECK(encodeTxn(*back) == w);
  CHECK(printTxnListing(*back) == listing);
}

}  // namespace

TEST_CASE("txn: npu_instgen on npu1 is mlir-aie's 55 words") {
  txn::Stream s = instgenBody();
  txn::loadPdi(s, 2, 1024, 0xabc12345678ull);
  const std::vector<uint32_t> w = finished(s, kNpu1);
  CHECK(w == words(std::string("06030100 00000104 00000007 000000DC\n") + kInstgenOps +
                   "00020008 00000400 12345678 00000ABC\n"));
  CHECK(w.size() == 55);
  roundTrips(w);
}

TEST_CASE("txn: npu2_instgen ends with a preempt") {
  txn::Stream s = instgenBody();
  txn::preempt(s, 3);
  const std::vector<uint32_t> w = finished(s, kNpu2);
  CHECK(w == words(std::string("06040100 00000108 00000007 000000D0\n") + kInstgenOps + "00000306\n"));
  roundTrips(w);
}

TEST_CASE("txn: an empty sequence on npu2_1col is a bare header") {
  CHECK(finished(txn::Stream{}, {4, 6, 1, 1}) == words("06040100 00000101 00000000 00000010"));
}

TEST_CASE("txn: maskpoll and a tile-addressed write32 on npu2") {
  txn::Stream s;
  txn::maskPoll32(s, 0x21D000, 1, 0xFFFFFFFF);
  CHECK(finished(s, kNpu2) ==
        words("06040100 00000108 00000001 0000002C 00000004 00000000 0021D000 00000000 00000001 FFFFFFFF 0000001C"));
  txn::Stream t;
  txn::write32(t, txn::tileAddress(2, 2, 0x04040404), 0x04040404);
  CHECK(finished(t, kNpu2) ==
        words("06040100 00000108 00000001 00000028 00000000 00000000 04240404 00000000 04040404 00000018"));
}

TEST_CASE("txn: the DDR aperture fold applies from argument 5, and only when asked") {
  auto argPlusWord = [](uint32_t arg, bool fold) {
    txn::Stream s;
    txn::addressPatch(s, 74560, arg, 256, fold);
    return s.words[4 + 10];
  };
  CHECK(argPlusWord(4, true) == 0x100);
  CHECK(argPlusWord(5, true) == 0x80000100);
  CHECK(argPlusWord(5, false) == 0x100);
}

TEST_CASE("txn: dma_memcpy_nd of a 2x64x64 i32 tensor (npu_dma_memcpy.mlir)") {
  txn::Transfer t;
  t.offset = 4096;  // offsets [1, 0, 0, 0] with strides [4096, 2048, 64, 1]
  const int64_t sizes[4] = {32, 32, 2, 1}, strides[4] = {1, 64, 2048, 4096};
  std::copy(sizes, sizes + 4, t.sizes);
  std::copy(strides, strides + 4, t.strides);
  std::string error;
  const txn::ShimBdFields f = txn::shimBdFields(t, error);
  REQUIRE(error.empty());
  txn::Stream s;
  txn::shimTransfer(s, kNpu1OneCol, txn::ShimTask{}, f, true);
  CHECK(finished(s, kNpu1OneCol) == words(R"(
06030100 00000101 00000003 00000088
00000001 00000000 0001D000 00000030 00000800 00000000 00000000 02000000 8200003F 020007FF 00000000 02000000
00000081 00000030 00000000 00000000 00000000 00000000 0001D004 00000000 00000000 00000000 00004000 00000000
00000000 00000000 0001D214 00000000 00000000 00000018)"));
}

TEST_CASE("txn: a linear S2MM on npu2 asks for a token and the default 512-byte burst") {
  txn::Transfer t;
  t.sizes[0] = 4096;
  std::string error;
  const txn::ShimBdFields f = txn::shimBdFields(t, error);
  REQUIRE(error.empty());
  CHECK(f.linear);
  txn::ShimTask task;
  task.col = 1;
  task.dir = txn::kS2MM;
  task.chan = 1;
  task.bd = 2;
  task.argIdx = 1;
  txn::Stream s;
  txn::shimTransfer(s, kNpu2, task, f, true);
  txn::sync(s, 1, 0, txn::kS2MM, 1, 1, 1);
  CHECK(finished(s, kNpu2) == words(R"(
06040100 00000108 00000004 00000098
00000001 00000000 0201D040 00000030 00001000 00000000 00000000 00000000 C0000000 02000000 00000000 02000000
00000081 00000030 00000000 00000000 00000000 00000000 0201D044 00000000 00000001 00000000 00000000 00000000
00000000 00000000 0201D20C 00000000 80000002 00000018
00000080 00000010 00010000 01010100)"));
}

TEST_CASE("txn: the group tiler's second tap feeds shim (0,0) MM2S from bd 1") {
  // group_tiler((45, 28), (3, 2), (5, 7)) tap 1: offset 14, sizes [5,7,3,2], strides [84,2,28,1].
  txn::Transfer t;
  t.offset = 14;
  const int64_t sizes[4] = {2, 3, 7, 5}, strides[4] = {1, 28, 2, 84};
  std::copy(sizes, sizes + 4, t.sizes);
  std::copy(strides, strides + 4, t.strides);
  std::string error;
  const txn::ShimBdFields f = txn::shimBdFields(t, error);
  REQUIRE(error.empty());
  txn::ShimTask task;
  task.bd = 1;
  txn::Stream s;
  txn::shimTransfer(s, kNpu1, task, f, true);
  CHECK(finished(s, kNpu1) == words(R"(
06030100 00000104 00000003 00000088
00000001 00000000 0001D020 00000030 0000002A 00000000 00000000 00200000 8030001B 02000001 00400053 02000000
00000081 00000030 00000000 00000000 00000000 00000000 0001D024 00000000 00000000 00000000 00000038 00000000
00000000 00000000 0001D214 00000000 00040001 00000018)"));
}

TEST_CASE("txn: descriptor limits name the rule and the numbers") {
  auto errorOf = [](std::initializer_list<int64_t> sizes, std::initializer_list<int64_t> strides, int64_t bits = 32,
                    int64_t offset = 0) {
    txn::Transfer t;
    std::copy(sizes.begin(), sizes.end(), t.sizes);
    std::copy(strides.begin(), strides.end(), t.strides);
    t.elemBits = bits;
    t.offset = offset;
    std::string error;
    txn::shimBdFields(t, error);
    return error;
  };
  CHECK(errorOf({1024, 2, 1, 1}, {1, 2048, 0, 0}) ==
        "the innermost run is 1024 words; a strided descriptor holds at most 1023");
  CHECK(errorOf({1024, 2, 1, 1}, {1, 1024, 0, 0}).empty());  // contiguous: linear mode
  CHECK(errorOf({4, 1024, 1, 1}, {1, 8, 0, 0}) == "d1 (the second fastest) has 1024 steps; a descriptor holds at most 1023");
  CHECK(errorOf({4, 2, 1, 1}, {1, (1 << 20) + 1, 0, 0}) ==
        "the stride of d1 is 1048577 words; a descriptor steps at most 1048576 (d0 is the fastest)");
  CHECK(errorOf({4, 2, 1, 1}, {1, 1 << 20, 0, 0}).empty());
  CHECK(errorOf({4, 1, 1, 65}, {1, 0, 0, 4}) == "d3 (the outermost, the iteration) runs 65 times; a descriptor iterates at most 64");
  CHECK(errorOf({3, 1, 1, 1}, {1, 0, 0, 0}, 8) ==
        "the innermost run of 3 elements is 3 bytes, not a whole number of 4-byte words");
  CHECK(errorOf({4, 2, 1, 1}, {1, 6, 0, 0}, 8) ==
        "stride 6 of d1 is 6 bytes, not a whole number of 4-byte words (d0 is the fastest)");
  CHECK(errorOf({8, 2, 1, 1}, {2, 256, 0, 0}, 16) ==
        "the innermost stride is 2 elements of 16 bits, but the DMA steps whole 4-byte words, so elements narrower "
        "than a word must be contiguous innermost (stride 1); move contiguous whole-word blocks and rearrange the "
        "elements in the core");
  CHECK(errorOf({8, 2, 1, 1}, {4, 256, 0, 0}, 8).find("the innermost stride is 4 elements of 8 bits,") == 0);
  CHECK(errorOf({8, 2, 1, 1}, {1, 256, 0, 0}, 16).empty());
  CHECK(errorOf({4, 1, 1, 1}, {1, 0, 0, 0}, 64) == "elements of 64 bits are wider than the 32 bits a DMA word holds");
  CHECK(errorOf({4, 1, 1, 1}, {1, 0, 0, 0}, 16, 3) ==
        "offset 3 elements is not a non-negative whole number of 4-byte words");
}

TEST_CASE("txn: sub-word elements step one word innermost and whole words outside") {
  txn::Transfer t;  // 8 rows of 8 bf16 elements, 130 elements apart
  t.elemBits = 16;
  t.sizes[0] = 8;
  t.sizes[1] = 8;
  t.strides[1] = 130;
  std::string error;
  const txn::ShimBdFields f = txn::shimBdFields(t, error);
  REQUIRE(error.empty());
  CHECK_FALSE(f.linear);
  CHECK(f.d0Wrap == 4);
  CHECK(f.d0Step == 0);
  CHECK(f.d1Wrap == 8);
  CHECK(f.d1Step == 64);
  CHECK(f.bufferLength == 32);
}

TEST_CASE("txn: every public stream decodes and its listing encodes to the same bytes") {
  const std::filesystem::path dir = std::filesystem::path(TILEC_SOURCE_DIR) / "tests/unit/Inputs/txn";
  int streams = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    CAPTURE(entry.path().filename().string());
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    roundTrips(words(text.str()));
    ++streams;
  }
  CHECK(streams == 21);
}

TEST_CASE("txn: the legacy 1.0 stream lists its ops") {
  const std::filesystem::path file =
      std::filesystem::path(TILEC_SOURCE_DIR) / "tests/unit/Inputs/txn/mlir-aie_legacy_1.0_blockwrite_instgen.txt";
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  TxnError e;
  std::optional<TxnStream> s = decodeTxn(words(text.str()), e);
  REQUIRE(s);
  CHECK(printTxnListing(*s) ==
        "txn version=1.0 devgen=3 rows=6 cols=4 memtile_rows=1\n"
        "blockwrite addr=0x061A00C0 data=0x00000001,0x00580002,0x000C0005,0x00100007,0x00000009,0x00000000,"
        "0x059A000C,0x84038201\n"
        "write32 addr=0x06400DEF value=0x00000042\n"
        "sync dir=1 row=4 col=3 nrow=2 ncol=1 chan=5\n");
}

TEST_CASE("txn: damaged streams are errors at the byte that is wrong") {
  const std::vector<uint32_t> good = words("06030100 00000104 00000001 0000002C 00000004 00000000 0021D000 00000000 "
                                           "00000001 FFFFFFFF 0000001C");
  auto errorOf = [](std::vector<uint32_t> w) {
    TxnError e;
    CHECK_FALSE(decodeTxn(w, e));
    return e.message + " @" + std::to_string(e.position);
  };
  CHECK(errorOf({1, 2}) == "a TXN stream starts with a 16-byte header; this one has 8 bytes @0");
  std::vector<uint32_t> w = good;
  w[0] = 0x06030302;
  CHECK(errorOf(w) == "TXN version 2.3 is not one tilec reads (0.1, or the legacy 1.0) @0");
  w = good;
  w[3] = 48;
  CHECK(errorOf(w) == "the header says the stream is 48 bytes, but it is 44 @12");
  w = good;
  w[2] = 2;
  CHECK(errorOf(w) == "the header counts 2 ops, but the stream holds 1 @8");
  w = good;
  w[4] = 0x77;
  CHECK(errorOf(w) == "opcode 0x00000077 is not a TXN op tilec knows @16");
  w = good;
  w[10] = 6;
  CHECK(errorOf(w) == "maskpoll32 gives its size as 6 bytes; it must be a multiple of 4 and at least 28 @40");
  w = good;
  w[10] = 32;
  CHECK(errorOf(w) == "maskpoll32 needs 32 bytes, but the stream ends after 28 @16");
}

TEST_CASE("txn: listing errors name the line") {
  auto errorOf = [](const std::string& text) {
    TxnError e;
    CHECK_FALSE(parseTxnListing(text, e));
    return e.message + " @" + std::to_string(e.position);
  };
  CHECK(errorOf("") == "the listing is empty; it starts with a 'txn version=...' header line @0");
  CHECK(errorOf("write32 addr=1\n") == "a TXN listing starts with its 'txn version=...' header line @1");
  CHECK(errorOf("txn version=0.2\n") == "the listing's version must be 0.1 or 1.0 @1");
  const std::string h = "txn version=0.1 devgen=3 rows=6 cols=4 memtile_rows=1\n";
  CHECK(errorOf(h + "jump addr=1\n") == "'jump' is not a TXN 0.1 op @2");
  CHECK(errorOf(h + "write32 adr=1\n") == "write32 has no field 'adr' @2");
  CHECK(errorOf(h + "sync col=256\n") == "sync field col=256 does not fit in 8 bits @2");
  CHECK(errorOf(h + "sync col=1 col=2\n") == "sync gives col twice @2");
  CHECK(errorOf(h + "noop data=0x1\n") == "noop carries no data @2");
  CHECK(errorOf(h + "write32 value\n") == "'value' is not a field=value pair @2");
}
