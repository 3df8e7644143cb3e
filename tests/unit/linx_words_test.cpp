// LinxISA block-header words (src/backend/linx/LinxWords.h) against every public vector
// of the pto058 B.IOT layout in Inputs/linx/linx-vectors.json and the worked examples of
// the reference notes, their error messages, and the header-word codec (LinxCodec.h).
#include <doctest/doctest.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "backend/linx/LinxCodec.h"
#include "backend/linx/LinxWords.h"
#include "target/Registry.h"

using namespace tilec::linx;
using nlohmann::json;

namespace {

constexpr AssembleRev A = AssembleRev::A, B = AssembleRev::B;

const char* revName(AssembleRev rev) { return rev == A ? "assemble=A" : "assemble=B"; }

uint32_t hexWord(const std::string& s) { return uint32_t(std::stoul(s, nullptr, 16)); }

std::string hexText(uint32_t w) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", w);
  return buf;
}

std::string fileText(const std::string& relative) {
  std::ifstream in(std::string(TILEC_SOURCE_DIR) + "/tests/unit/Inputs/linx/" + relative, std::ios::binary);
  REQUIRE_MESSAGE(in, relative);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const json& vectors() {
  static const json v = json::parse(fileText("linx-vectors.json")).at("vectors");
  return v;
}

// Vectors of other B.IOT layouts (v0.57, the 4-bit-mask v0.58) are not this format's words.
bool ours(const json& v) { return !v.contains("iot_layout") || v["iot_layout"] == "pto058"; }

// A vector's revision, or both when B.ASSEMBLE's field 5 does not matter to it.
std::vector<AssembleRev> revsOf(const json& v) {
  if (!v.contains("assemble_rev")) return {A, B};
  return {v["assemble_rev"] == "A" ? A : B};
}

// LLVM prints hands in upper case: t#1 -> T#1, ->t<1KB> -> ->T<1KB>.
std::string upperHands(std::string s) {
  for (size_t i = 0; i < s.size(); ++i)
    if ((i + 1 < s.size() && s[i + 1] == '#') || (i >= 2 && s[i - 2] == '-' && s[i - 1] == '>'))
      s[i] = char(std::toupper(static_cast<unsigned char>(s[i])));
  return s;
}

std::string printedOf(const json& v) { return upperHands(v.value("printed", v["text"].get<std::string>())); }

uint32_t encodeText(const std::string& text, AssembleRev rev) {
  HeaderWord w;
  std::string error;
  INFO(text << " under " << revName(rev));
  REQUIRE_MESSAGE(parseWord(text, rev, w, error), error);
  std::optional<uint32_t> word = encodeWord(w, rev, error);
  REQUIRE_MESSAGE(word, error);
  return *word;
}

// The word's text; the fields it decodes to encode back to the word.
std::string decodeText(uint32_t word, AssembleRev rev) {
  std::string error;
  INFO(hexText(word) << " under " << revName(rev));
  std::optional<HeaderWord> w = decodeWord(word, rev, error);
  REQUIRE_MESSAGE(w, error);
  CHECK(encodeWord(*w, rev, error) == word);
  return printWord(*w);
}

// The text encodes to the word, which prints as `printed` (the text itself by default).
void bothWays(const std::string& text, uint32_t word, AssembleRev rev, const std::string& printed = "") {
  CHECK(encodeText(text, rev) == word);
  CHECK(decodeText(word, rev) == (printed.empty() ? text : printed));
}

std::string decodeError(uint32_t word, AssembleRev rev) {
  std::string error;
  std::optional<HeaderWord> w = decodeWord(word, rev, error);
  CHECK_MESSAGE(!w, printWord(*w));
  CHECK(!error.empty());
  return error;
}

std::string parseError(const std::string& text, AssembleRev rev = B) {
  HeaderWord w;
  std::string error;
  CHECK_MESSAGE(!parseWord(text, rev, w, error), printWord(w));
  CHECK(!error.empty());
  return error;
}

std::string encodeError(const HeaderWord& w, AssembleRev rev = B) {
  std::string error;
  CHECK(!encodeWord(w, rev, error));
  return error;
}

std::map<std::string, int> countOurs(const std::string& kind) {
  std::map<std::string, int> n;
  for (const json& v : vectors())
    if (v["kind"] == kind) ++n[ours(v) ? "ours" : "other"];
  return n;
}

}  // namespace

TEST_CASE("linx: the vector file holds 56 facts, 50 of them in the pto058 layout") {
  CHECK(vectors().size() == 56);
  CHECK(countOurs("encode") == std::map<std::string, int>{{"ours", 4}, {"other", 4}});
  CHECK(countOurs("reject") == std::map<std::string, int>{{"ours", 7}});
  CHECK(countOurs("accept") == std::map<std::string, int>{{"ours", 30}, {"other", 1}});
  CHECK(countOurs("pemode") == std::map<std::string, int>{{"ours", 8}});
  CHECK(countOurs("sizemap") == std::map<std::string, int>{{"ours", 1}, {"other", 1}});
}

TEST_CASE("linx: kind=encode vectors encode and decode exactly") {
  for (const json& v : vectors()) {
    if (v["kind"] != "encode" || !ours(v)) continue;
    INFO(v["id"].get<std::string>());
    for (AssembleRev rev : revsOf(v)) bothWays(v["text"], hexWord(v["word"]), rev, printedOf(v));
  }
}

TEST_CASE("linx: kind=reject words do not decode under A, and under B as the vector says") {
  for (const json& v : vectors()) {
    if (v["kind"] != "reject") continue;
    INFO(v["id"].get<std::string>());
    REQUIRE(revsOf(v) == std::vector<AssembleRev>{A});
    const uint32_t word = hexWord(v["word"]);
    decodeError(word, A);
    const std::string underB = v["other_revs"]["B"];
    if (underB == "<unknown>")
      decodeError(word, B);
    else
      bothWays(underB, word, B);
  }
}

TEST_CASE("linx: kind=accept texts encode, decode and print back") {
  for (const json& v : vectors()) {
    if (v["kind"] != "accept" || !ours(v)) continue;
    INFO(v["id"].get<std::string>());
    for (AssembleRev rev : revsOf(v)) {
      const uint32_t word = encodeText(v["text"], rev);
      const std::string printed = decodeText(word, rev);
      CHECK(printed == printedOf(v));
      CHECK(encodeText(printed, rev) == word);
    }
  }
}

TEST_CASE("linx: the PEMode and size tables match the vectors") {
  for (const json& v : vectors()) {
    INFO(v["id"].get<std::string>());
    if (v["kind"] == "pemode") {
      const std::string mask = v["mask"];
      const int mode = std::stoi(v["pemode"].get<std::string>(), nullptr, 2);
      CHECK(peModeForMask(mask) == mode);
      CHECK(peMask(mode) == mask);
      CHECK((encodeText("B.IOT mask=" + mask + ", ->T<128B>", B) >> 9 & 7) == uint32_t(mode));
    } else if (v["kind"] == "sizemap" && ours(v)) {
      for (const auto& entry : v["map"].items()) {
        const int code = std::stoi(entry.key());
        const std::string name = entry.value();
        CHECK(sizeName(code) == name);
        CHECK(sizeCodeForBytes(bytesForSizeCode(code)) == code);
        CHECK((encodeText("B.IOT mask=1111, ->T<" + name + ">", B) >> 15 & 15) == uint32_t(code));
      }
    }
  }
}

TEST_CASE("linx: words of the other B.IOT layouts are not read as their texts") {
  for (const json& v : vectors()) {
    if (ours(v) || !v.contains("text")) continue;
    INFO(v["id"].get<std::string>());
    HeaderWord w;
    std::string error;
    if (v.contains("word")) {
      std::optional<HeaderWord> d = decodeWord(hexWord(v["word"]), B, error);
      if (d) CHECK(printWord(*d) != printedOf(v));
    } else {
      CHECK(!parseWord(v["text"].get<std::string>(), B, w, error));
    }
  }
  // The vector's note: in this layout the v5mask word is two sources and a 512 B destination.
  CHECK(decodeText(0x4401c013, B) == "B.IOT T#1, U#2, mask=0000, ->T<512B>");
}

TEST_CASE("linx: the verified examples of linx-regions.md 1.3, 1.5 and 1.6") {
  for (AssembleRev rev : {A, B}) {
    bothWays("B.IOT T#1, mask=1111, last, ->T<1KB>", 0x000A5E13, rev);
    bothWays("B.SUBVIEW 0, zero, 0, 1", 0x000000d3, rev);
    bothWays("B.SUBVIEW 1, a0, 2047, 12", 0xfff10653, rev);
    bothWays("B.SUBVIEW 0, r23, 100, 5", 0x064b82d3, rev, "B.SUBVIEW 0, x3, 100, 5");
    bothWays("B.SUBVIEW 0, a0, 2, 2", 0x00210153, rev);
    bothWays("B.ASSEMBLE 1, 0, zero, 0, 1", 0x800010d3, rev);
    bothWays("B.ASSEMBLE 1, 1, a0, 2047, 12", 0xfff11e53, rev);
    bothWays("B.ASSEMBLE 0, 0, r23, 1, 0", 0x001b9053, rev, "B.ASSEMBLE 0, 0, x3, 1, 0");
    bothWays("B.ASSEMBLE 1, 0, zero, 0, 5", 0x800012d3, rev);
  }
  // The spec's revision-B worked example: a LAST writer carrying its own size.
  bothWays("B.ASSEMBLE 0, 1, zero, 16, 5", 0x01001ad3, B);
  decodeError(0x01001ad3, A);
  // The spec's B.SUBVIEW example follows a 2 KiB binder.
  bothWays("B.IOT T#1, mask=1111, last, ->T<2KB>", 0x000ade13, B);
}

TEST_CASE("linx: the hex values of linx-regions.md 4.4, per revision") {
  bothWays("B.SUBVIEW 0, zero, 8, 4", 0x00800253, A);
  const std::pair<const char*, uint32_t> revA[] = {{"B.ASSEMBLE 1, 0, zero, 0, 3", 0x800011d3},
                                                   {"B.ASSEMBLE 0, 0, zero, 1, 0", 0x00101053},
                                                   {"B.ASSEMBLE 0, 0, zero, 2, 0", 0x00201053},
                                                   {"B.ASSEMBLE 0, 1, zero, 3, 0", 0x00301853}};
  const std::pair<const char*, uint32_t> revB[] = {{"B.ASSEMBLE 1, 0, zero, 0, 1", 0x800010d3},
                                                   {"B.ASSEMBLE 0, 0, zero, 1, 1", 0x001010d3},
                                                   {"B.ASSEMBLE 0, 0, zero, 2, 1", 0x002010d3},
                                                   {"B.ASSEMBLE 0, 1, zero, 3, 1", 0x003018d3}};
  for (const auto& [text, word] : revA) {
    bothWays(text, word, A);
    bothWays(text, word, B);  // B accepts every word A accepts
  }
  for (const auto& [text, word] : revB) {
    bothWays(text, word, B);
    if (word != 0x800010d3) decodeError(word, A);  // INIT=1 with code 1 is also a rev-A word
  }
}

TEST_CASE("linx: the LLVM listing of linx-regions.md 4.3 assembles under revision B") {
  for (const char* text : {"B.IOT T#1, T#2, mask=1111, last, ->T<2KB>", "B.ASSEMBLE 1, 0, a0, 0, 5",
                           "B.IOT T#1, T#2, mask=1111, last", "B.ASSEMBLE 0, 1, a0, 4, 5",
                           "B.IOT T#1, mask=1111, last, ->T<128B>", "B.ASSEMBLE 0, 0, a0, 4, 3"})
    CHECK(decodeText(encodeText(text, B), B) == text);
  CHECK(parseError("B.ASSEMBLE 0, 0, a0, 4, 3", A) ==
        "B.ASSEMBLE ParentSizeCode 3 on MIDDLE is illegal under assemble=A (0.58.4): only INIT carries a parent size; "
        "MIDDLE and LAST carry 0");
}

TEST_CASE("linx: sizes, GPR names and masks") {
  CHECK(sizeCodeForBytes(128) == 1);
  CHECK(sizeCodeForBytes(2048) == 5);
  CHECK(sizeCodeForBytes(65536) == 10);
  CHECK(sizeCodeForBytes(262144) == 12);
  for (int64_t bytes : {0, -128, 64, 192, 1000, 524288}) CHECK(sizeCodeForBytes(bytes) == 0);
  CHECK(bytesForSizeCode(1) == 128);
  CHECK(bytesForSizeCode(12) == 262144);
  CHECK(bytesForSizeCode(0) == 0);
  CHECK(bytesForSizeCode(13) == 0);
  CHECK(sizeName(4) == "1KB");
  CHECK(sizeName(13).empty());
  CHECK(std::string(gprName(0)) == "zero");
  CHECK(std::string(gprName(11)) == "s0");
  CHECK(std::string(gprName(23)) == "x3");
  CHECK(gprName(24) == nullptr);
  CHECK(gprName(-1) == nullptr);
  for (const char* reg : {"s0", "S0", "fp", "FP", "r11", "R11"})
    CHECK(encodeText(std::string("B.SUBVIEW 0, ") + reg + ", 0, 1", B) == 0x000580d3);
  CHECK(peModeForMask("0011") == -1);
  CHECK(peModeForMask("11111") == -1);
  CHECK(peMask(8) == nullptr);
}

TEST_CASE("linx: spelling accepted by the parser") {
  CHECK(encodeText("b.iot t#1,t#2,mask=1111,last,->t<2kb>", B) == 0x040ace13);
  CHECK(encodeText("  B.IOT T#1 , T#2 , mask = 1111 , LAST , ->T<5>  ", B) == 0x040ace13);
  CHECK(encodeText("B.SUBVIEW 0x1, A0, 0x7ff, 12", B) == 0xfff10653);
  CHECK(encodeText("B.IOT n#16, mask=0100", B) == 0x03f05413);
  CHECK(decodeText(0x03f05413, B) == "B.IOT N#16, mask=0100");
}

TEST_CASE("linx: encoding errors name the field, the value and the range") {
  CHECK(encodeError(SubviewWord{0, 0, 0, 0}) == "B.SUBVIEW size code 0 is reserved: 1..12 (128 B .. 256 KiB)");
  CHECK(encodeError(SubviewWord{0, 0, 0, 13}) == "B.SUBVIEW size code 13 is reserved: 1..12 (128 B .. 256 KiB)");
  CHECK(encodeError(SubviewWord{0, 0, 0, 16}) == "B.SUBVIEW size code 16 is out of range: 1..12 (128 B .. 256 KiB)");
  CHECK(encodeError(SubviewWord{0, 24, 0, 1}) == "B.SUBVIEW RegSrc 24 is reserved: 0..23 (zero .. x3)");
  CHECK(encodeError(SubviewWord{0, 0, 2048, 1}) == "B.SUBVIEW uimm11 2048 is out of range: 0..2047");
  CHECK(encodeError(SubviewWord{2, 0, 0, 1}) == "B.SUBVIEW SrcSelect 2 is out of range: 0..1");
  CHECK(encodeError(AssembleWord{true, false, 0, 0, 0}, A) ==
        "B.ASSEMBLE ParentSizeCode 0 on INIT is illegal under assemble=A (0.58.4): INIT carries the parent size, 1..12");
  CHECK(encodeError(AssembleWord{true, false, 0, 0, 13}, B) == "B.ASSEMBLE WriterSizeCode 13 is reserved: 0..12");
  CHECK(encodeError(AssembleWord{false, true, 31, 0, 1}, B) == "B.ASSEMBLE RegSrc 31 is reserved: 0..23 (zero .. x3)");
  IotWord big;
  big.src0 = 0;
  big.sizeCode = 11;
  CHECK(encodeError(big) == "B.IOT destination size code 11 is reserved: 1..10 (128 B .. 64 KiB per PE)");
  CHECK(encodeError(IotWord{}) == "a B.IOT with no sources and no destination is not encodable");
  CHECK(encodeError(IotWord{-1, 3}) == "B.IOT source 1 needs a source 0");
  CHECK(encodeError(IotWord{64}) == "B.IOT source 0 selector 64 is out of range: 0..63 (T#1 .. N#16)");
  CHECK(encodeError(IotWord{0, -1, false, 0, 8}) == "B.IOT PEMode 8 is out of range: 0..7");
  CHECK(encodeError(IotWord{0, -1, false, 0, 7, 2}) ==
        "B.IOT destination hand 2 without a destination (size code 0): it must be 0");
}

TEST_CASE("linx: parse errors") {
  CHECK(parseError("B.IOT T#1, mask=0011") ==
        "B.IOT mask=0011 has no PEMode encoding: the masks are 0000, 1000, 0100, 0010, 0001, 1100, 1110 and 1111 "
        "(leftmost is PE0)");
  CHECK(parseError("B.IOT T#1, mask=1111, ->T<128KB>") ==
        "B.IOT destination size code 11 is reserved: 1..10 (128 B .. 64 KiB per PE)");
  CHECK(parseError("B.IOT T#1, mask=1111, ->T<0>") ==
        "B.IOT destination size code 0 is reserved: 1..10 (128 B .. 64 KiB per PE)");
  CHECK(parseError("B.IOT T#1, mask=1111, ->T<3KB>") ==
        "B.IOT destination size '3KB' is not a size: 128B, 256B, 512B, 1KB, 2KB, 4KB, 8KB, 16KB, 32KB, 64KB or a size "
        "code 1..10");
  CHECK(parseError("B.IOT mask=1111, last") == "a B.IOT with no sources and no destination is not encodable");
  CHECK(parseError("B.ASSEMBLE 1, 0, zero, 0, 0", A) ==
        "B.ASSEMBLE ParentSizeCode 0 on INIT is illegal under assemble=A (0.58.4): INIT carries the parent size, 1..12");
  CHECK(parseError("B.SUBVIEW 0, r24, 0, 1") == "B.SUBVIEW RegSrc 24 is reserved: 0..23 (zero .. x3)");
  CHECK(parseError("B.SUBVIEW 0, a0, 2048, 1") == "B.SUBVIEW uimm11 2048 is out of range: 0..2047");
  CHECK(parseError("B.SUBVIEW 0, a0, 9999999999, 1") == "B.SUBVIEW uimm11 9999999999 is out of range: 0..2047");
  CHECK(parseError("B.SUBVIEW 0, a0, 99999999999999999999, 1") == "B.SUBVIEW uimm11 '99999999999999999999' is not a number");
  CHECK(parseError("B.SUBVIEW 0, a0, 0, 13") == "B.SUBVIEW size code 13 is reserved: 1..12 (128 B .. 256 KiB)");
  CHECK(parseError("B.SUBVIEW 0, q9, 0, 1") ==
        "B.SUBVIEW RegSrc 'q9' is not a GPR: zero, sp, a0..a7, ra, s0 (fp), s1..s8, x0..x3 or r0..r23");
  CHECK(parseError("B.SUBVIEW 0, a0, 2") ==
        "B.SUBVIEW takes 4 operands (SrcSelect, RegSrc, uimm11, SubviewSizeCode), not 3");
  CHECK(parseError("B.ASSEMBLE 2, 0, a0, 0, 1") == "B.ASSEMBLE INIT 2 is out of range: 0..1");
  CHECK(parseError("B.ASSEMBLE 1, 0, a0, 0") ==
        "B.ASSEMBLE takes 5 operands (INIT, LAST, RegSrc, uimm11, WriterSizeCode), not 4");
  CHECK(parseError("B.IOT T#17, mask=1111") == "B.IOT source 'T#17' is not a tile: T#k, U#k, M#k or N#k with k 1..16");
  CHECK(parseError("B.IOT T#1, T#2, T#3, mask=1111") == "B.IOT takes at most two sources");
  CHECK(parseError("B.IOT T#1, last, mask=1111") == "B.IOT needs mask=PE_MASK after its sources, not 'last'");
  CHECK(parseError("B.IOT T#1") == "B.IOT needs mask=PE_MASK after its sources");
  CHECK(parseError("B.IOT T#1, mask=1111, ->X<1KB>") == "B.IOT destination '->X<1KB>' is not ->H<size> with H one of T, U, M, N");
  CHECK(parseError("B.IOT T#1, mask=1111, ->T<1KB>, last") ==
        "unexpected 'last' in B.IOT: its operands are sources, mask=, last, ->dst, in that order");
  CHECK(parseError("B.SUBVIEW 0,, a0, 2") == "B.SUBVIEW: operand 2 is empty");
  CHECK(parseError("B.DIM zero, 32, ->lb0") ==
        "B.DIM (it binds a loop bound (lb0 ValidCol, lb1 ValidRow, lb2 physical columns)) is a pseudo-instruction of "
        "tilec's listing: no public source gives its encoding, so it has no word in a binary; remove it (a listing "
        "written without --target-flag pseudo-headers has none) to encode the header words");
  CHECK(parseError("B.IOR [a0, a1], []").rfind("B.IOR (it binds the GPR operands", 0) == 0);
  CHECK(parseError("b.datr e2m1x2, byte0, Null, RNONE, nosat").rfind("b.datr (it binds the data attributes", 0) == 0);
  // Nothing crashes or throws, whatever the text.
  for (const std::string& text : std::vector<std::string>{"", " ", "B.IOT", "B.IOT ,", "B.IOT #", "B.IOT T#", "B.IOT ->", "B.IOT mask=", "B.IOT T#1, mask",
                           "B.IOT T#1, mask=1111, ->", "B.IOT T#1, mask=1111, ->T<>", "B.IOT T#1, mask=1111, ->T<",
                           "B.IOT T#1, mask=1111, ->T<-1>", "B.SUBVIEW -, -, -, -", "B.SUBVIEW 0x, r, 0x-1, 1",
                           "B.ASSEMBLE ,,,,", std::string("B.IOT \0\xff#1", 10), "B.SUBVIEW 0, r99, 0, 1"})
    parseError(text);
}

TEST_CASE("linx: decoding errors say why") {
  CHECK(decodeError(0x00000033, B) ==
        "opcode 0x33 is no block-header word: B.IOT and B.IOS are 0x13, B.SUBVIEW and B.ASSEMBLE 0x53");
  CHECK(decodeError(0x000006d3, A) == "B.SUBVIEW size code 13 is reserved: 1..12 (128 B .. 256 KiB)");
  CHECK(decodeError(0x000c00d3, B) == "B.SUBVIEW RegSrc 24 is reserved: 0..23 (zero .. x3)");
  CHECK(decodeError(0x00000853, B) ==
        "opcode 0x53 with funct3 0 and bit 11 = 1 is neither B.SUBVIEW (funct3 0, bit 11 0) nor B.ASSEMBLE (funct3 1)");
  CHECK(decodeError(0x00007013, B) ==
        "opcode 0x13 with funct3 7 is no B.IOT form (4: two sources, 5: one source, 6: destination only; 1 is B.IOS)");
  CHECK(decodeError(0x00006e13, B) == "B.IOT destination-only form (funct3 6) with size code 0 binds nothing");
  CHECK(decodeError(0x040a5e13, B) == "B.IOT form 'destination and one source' has reserved bits set: 0x04000000");
  CHECK(decodeError(0x00105e93, B) == "B.IOT destination hand 1 without a destination (size code 0): it must be 0");
  CHECK(decodeError(0x000fde13, B) ==
        "B.IOT destination size code 15 is reserved: 1..10 (128 B .. 64 KiB per PE)");
}

TEST_CASE("linx: the codec lists, encodes and recognizes header words") {
  const tilec::target::BinaryCodec& codec = linxCodec();
  CHECK(tilec::target::findCodec("linx") == &codec);
  std::vector<uint8_t> bytes;
  std::string error, listing;
  size_t where = 0;
  REQUIRE_MESSAGE(codec.encode(fileText("sample.linxl"), bytes, error, where), where << ": " << error);
  CHECK(bytes.size() == 12 * 4);
  CHECK(codec.recognizes(bytes));
  REQUIRE_MESSAGE(codec.decode(bytes, listing, error, where), where << ": " << error);
  CHECK(listing ==
        "linx assemble=B\n"
        "B.IOT T#1, mask=1111, last, ->T<128B>  # 0x0008de13\n"
        "B.SUBVIEW 0, zero, 8, 4  # 0x00800253\n"
        "B.IOT T#1, T#2, mask=1111, last, ->T<2KB>  # 0x040ace13\n"
        "B.ASSEMBLE 1, 0, a0, 0, 5  # 0x800112d3\n"
        "B.IOT T#1, T#2, mask=1111, last  # 0x04084e13\n"
        "B.ASSEMBLE 0, 1, a0, 4, 5  # 0x00411ad3\n"
        "B.IOT U#3, mask=1000, ->M<64KB>  # 0x01255313\n"
        "B.IOT mask=0001, last, ->N<512B>  # 0x0009e993\n"
        "B.IOT T#4, N#5, mask=1100, ->U<1KB>  # 0xd0324a93\n"
        "B.IOT M#16, mask=0000  # 0x02f05013\n"
        "B.SUBVIEW 1, x3, 2047, 12  # 0xfffb8653\n"
        "B.ASSEMBLE 1, 1, s0, 16, 12  # 0x81059e53\n");
  std::vector<uint8_t> again;
  REQUIRE(codec.encode(listing, again, error, where));
  CHECK(again == bytes);
  CHECK(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 4) == std::vector<uint8_t>{0x13, 0xde, 0x08, 0x00});
}

// A stream says which revision wrote it when one of its B.ASSEMBLE words carries field
// 5 = 0, which only revision A's MIDDLE and LAST words do.
TEST_CASE("linx: the codec lists a stream of revision A's words as revision A") {
  const tilec::target::BinaryCodec& codec = linxCodec();
  std::string error, listing;
  size_t where = 0;
  auto bytesOf = [](const std::vector<uint32_t>& words) {
    std::vector<uint8_t> bytes;
    for (uint32_t w : words)
      for (int shift = 0; shift < 32; shift += 8) bytes.push_back(uint8_t(w >> shift));
    return bytes;
  };
  // INIT with the parent's 4 KiB (6), then LAST with 0, each on a 1 KiB writer's binder.
  const std::vector<uint32_t> revA = {0x000a5e13, 0x80001353, 0x010a5e13, 0x01801853};
  REQUIRE(codec.decode(bytesOf(revA), listing, error, where));
  CHECK(listing ==
        "linx assemble=A\n"
        "B.IOT T#1, mask=1111, last, ->T<1KB>  # 0x000a5e13\n"
        "B.ASSEMBLE 1, 0, zero, 0, 6  # 0x80001353\n"
        "B.IOT U#1, mask=1111, last, ->T<1KB>  # 0x010a5e13\n"
        "B.ASSEMBLE 0, 1, zero, 24, 0  # 0x01801853\n");
  std::vector<uint8_t> again;
  REQUIRE(codec.encode(listing, again, error, where));
  CHECK(again == bytesOf(revA));
  // Revision B's words: a nonzero field 5 after INIT.
  REQUIRE(codec.decode(bytesOf({0x80001253, 0x01801a53}), listing, error, where));
  CHECK(listing.rfind("linx assemble=B\n", 0) == 0);
  // A 0 that breaks revision A's rule (on INIT) does not make the stream revision A.
  REQUIRE(codec.decode(bytesOf({0x80001053, 0x01801853}), listing, error, where));
  CHECK(listing.rfind("linx assemble=B\n", 0) == 0);
}

TEST_CASE("linx: codec errors") {
  const tilec::target::BinaryCodec& codec = linxCodec();
  std::vector<uint8_t> bytes;
  std::string error, listing;
  size_t where = 0;
  auto encodeFails = [&](const std::string& text) {
    error.clear();
    where = 0;
    CHECK_FALSE(codec.encode(text, bytes, error, where));
  };
  encodeFails("B.IOT T#1, mask=1111, last, ->T<1KB>\n");
  CHECK(where == 1);
  CHECK(error == "a Linx header-word listing starts with 'linx assemble=A' or 'linx assemble=B'");
  encodeFails("\n  linx\nB.SUBVIEW 0, a0, 2, 2\n");
  CHECK(where == 2);
  CHECK(error == "the listing header names the B.ASSEMBLE revision: 'linx assemble=A' or 'linx assemble=B'");
  encodeFails("");
  CHECK(where == 1);
  encodeFails("linx assemble=A\n\nB.SUBVIEW 0, a0, 2, 2  ; fine\nhello world\n");
  CHECK(where == 4);
  CHECK(error == "'hello' is not a header word this format holds (B.IOT, B.IOS, B.SUBVIEW, B.ASSEMBLE)");
  encodeFails("linx assemble=A\nB.ASSEMBLE 1, 0, zero, 0, 0\n");
  CHECK(where == 2);
  // A header-only listing is an empty binary, and BSTART/BSTOP lines carry nothing.
  CHECK(codec.encode("linx assemble=B\nBSTART.VEC TADD, FP32\nbstop\n", bytes, error, where));
  CHECK(bytes.empty());

  const std::vector<uint8_t> six = {0x13, 0x5e, 0x0a, 0x00, 0x13, 0x5e};
  CHECK_FALSE(codec.recognizes(six));
  CHECK_FALSE(codec.decode(six, listing, error, where));
  CHECK(where == 4);
  CHECK(error == "LinxISA header words are whole 32-bit words, but this file has 6 bytes");

  const std::vector<uint8_t> opcode33 = {0x13, 0x5e, 0x0a, 0x00, 0x33, 0x00, 0x00, 0x00};
  CHECK_FALSE(codec.recognizes(opcode33));
  CHECK_FALSE(codec.decode(opcode33, listing, error, where));
  CHECK(where == 4);
  CHECK(error == "word 0x00000033: opcode 0x33 is no block-header word: B.IOT and B.IOS are 0x13, B.SUBVIEW and B.ASSEMBLE 0x53");

  CHECK_FALSE(codec.recognizes({}));
  CHECK_FALSE(codec.recognizes({0x00, 0x01, 0x03, 0x06}));  // a TXN 0.1 stream's first word
  const std::vector<uint8_t> revAOnly = {0x53, 0x10, 0x00, 0x80};  // INIT with code 0: revision B only
  REQUIRE(codec.decode(revAOnly, listing, error, where));
  CHECK(listing == "linx assemble=B\nB.ASSEMBLE 1, 0, zero, 0, 0  # 0x80001053\n");
}

// pto-spec's B.IOS page: SharedTID bits 27:20, SizeCode 18:15, PEMode 11:9, match
// 0x00001013 under mask 0xf00871ff. The words below are computed from that table.
TEST_CASE("linx: B.IOS binds Shared registers S0..S255 as sources and destinations") {
  for (AssembleRev rev : {A, B}) {
    bothWays("B.IOS mask=1111, ->S255<128B>", 0x0ff09e13, rev);
    bothWays("B.IOS S1, mask=1111", 0x00101e13, rev);
    bothWays("B.IOS mask=1100, ->S3<256KB>", 0x00361a13, rev);
    bothWays("B.IOS S0, mask=0000", 0x00001013, rev);
  }
  // pto-spec's example names the size by its code.
  CHECK(encodeText("B.IOS mask=1111, ->S255<0001>", B) == 0x0ff09e13);
  CHECK(encodeText("b.ios s7 , MASK = 1110", B) == 0x00701c13);
  CHECK(decodeText(0x00701c13, B) == "B.IOS S7, mask=1110");
}

TEST_CASE("linx: B.IOS errors") {
  CHECK(decodeError(0x10001013, B) == "B.IOS has reserved bits set: 0x10000000");
  CHECK(decodeError(0x00081013, B) == "B.IOS has reserved bits set: 0x00080000");
  CHECK(decodeError(0x00069013, B) == "B.IOS destination size code 13 is reserved: 1..12 (128 B .. 256 KiB per PE)");
  CHECK(parseError("B.IOS S256, mask=1111") == "B.IOS Shared register 256 is out of range: 0..255 (S0 .. S255)");
  CHECK(parseError("B.IOS mask=1111, ->S1<512KB>") ==
        "B.IOS destination size '512KB' is not a size: 128B, 256B, 512B, 1KB, 2KB, 4KB, 8KB, 16KB, 32KB, 64KB, 128KB, "
        "256KB or a size code 1..12");
  CHECK(parseError("B.IOS mask=1111, ->S1<0>") ==
        "B.IOS destination size code 0 is reserved: 1..12 (128 B .. 256 KiB per PE)");
  CHECK(parseError("B.IOS S1, mask=0011") ==
        "B.IOS mask=0011 has no PEMode encoding: the masks are 0000, 1000, 0100, 0010, 0001, 1100, 1110 and 1111 "
        "(leftmost is PE0)");
  CHECK(parseError("B.IOS T#1, mask=1111") == "B.IOS register 'T#1' is not a Shared register: S0 .. S255");
  CHECK(parseError("B.IOS mask=1111, ->S1") == "B.IOS destination '->S1' is not ->S<n><size>");
  CHECK(parseError("B.IOS S1") ==
        "B.IOS takes 2 operands (S<n>, mask=PE_MASK or mask=PE_MASK, ->S<n><size>), not 1");
  CHECK(encodeError(IosWord{0, 0, 8}) == "B.IOS PEMode 8 is out of range: 0..7");
  for (const char* text : {"B.IOS ,", "B.IOS S, mask=1111", "B.IOS mask=1111, -><>", "B.IOS mask=1111, ->S<1KB>",
                           "B.IOS mask=1111, ->S-1<1KB>", "B.IOS mask=1111, -><", "B.IOS S99999999999999999, mask=1111"})
    parseError(text);
}

TEST_CASE("linx: the codec carries B.IOS words both ways and refuses pseudo-instructions") {
  const tilec::target::BinaryCodec& codec = linxCodec();
  std::vector<uint8_t> bytes, again;
  std::string error, listing;
  size_t where = 0;
  const std::string text =
      "linx assemble=B\n"
      "BSTART.VEC TADD, FP32\n"
      "B.IOT T#1, T#2, mask=1111, last\n"
      "B.IOS mask=1111, ->S3<256KB>\n"
      "B.ASSEMBLE 1, 0, zero, 0, 5\n"
      "BSTOP\n";
  REQUIRE_MESSAGE(codec.encode(text, bytes, error, where), where << ": " << error);
  REQUIRE(bytes.size() == 12);
  CHECK(codec.recognizes(bytes));
  REQUIRE(codec.decode(bytes, listing, error, where));
  CHECK(listing ==
        "linx assemble=B\n"
        "B.IOT T#1, T#2, mask=1111, last  # 0x04084e13\n"
        "B.IOS mask=1111, ->S3<256KB>  # 0x00361e13\n"
        "B.ASSEMBLE 1, 0, zero, 0, 5  # 0x800012d3\n");
  REQUIRE(codec.encode(listing, again, error, where));
  CHECK(again == bytes);
  CHECK_FALSE(codec.encode("linx assemble=B\nB.DIM zero, 32, ->lb0\n", bytes, error, where));
  CHECK(where == 2);
  CHECK(error.rfind("B.DIM (it binds a loop bound", 0) == 0);
}
