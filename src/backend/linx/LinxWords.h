// LinxISA block-header words that bind and narrow tiles: B.IOT (the Local tile binder,
// PTO 0.58.3 layout), B.IOS (the Shared tile binder), B.SUBVIEW and B.ASSEMBLE (the range
// modifiers). Each word is one 32-bit instruction; this file encodes, decodes, prints and
// parses one at a time, in the assembly spelling LinxISA's LLVM prints (`B.IOT T#1,
// mask=1111, last, ->T<2KB>`). Sources: pto-spec's B.IOT / B.IOS / B.SUBVIEW / B.ASSEMBLE
// pages and LinxISA LLVM's MC tests.
// Other B.IOT layouts of the record (v0.57, the 4-bit-mask v0.58 one) are not read.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace tilec::linx {

// The fifth B.ASSEMBLE field changed meaning between two published revisions.
// A (0.58.4): ParentSizeCode, 1..12 on INIT and 0 on MIDDLE/LAST.
// B (later):  WriterSizeCode, 0..12 in every phase; it accepts every word A accepts.
enum class AssembleRev { A, B };

// B.IOT. Sources are 6-bit relative selectors: T#1..T#16 = 0..15, U# = 16..31,
// M# = 32..47, N# = 48..63; -1 = absent (src1 needs src0). sizeCode 0 = no destination,
// 1..10 = a destination of 128 B .. 64 KiB per PE in hand dstHand (0..3 = T, U, M, N).
// peMode is the 3-bit PEMode (7 = all four PEs; see peMask()).
struct IotWord {
  int src0 = -1;
  int src1 = -1;
  bool last = false;
  int sizeCode = 0;
  int peMode = 7;
  int dstHand = 0;
};

// B.IOS: one absolute Shared register S0..S255 (`shared`), a source when sizeCode is 0
// (`B.IOS S3, mask=1111`), else a destination of 128 B .. 256 KiB per participating PE
// (`B.IOS mask=1111, ->S3<256KB>`). The word has no L bit: L ends the Local bindings.
struct IosWord {
  int shared = 0;
  int sizeCode = 0;
  int peMode = 7;
};

// B.SUBVIEW SrcSelect, RegSrc, uimm11, SubviewSizeCode.
struct SubviewWord {
  int srcSelect = 0;
  int regSrc = 0;
  int uimm11 = 0;
  int sizeCode = 0;
};

// B.ASSEMBLE INIT, LAST, RegSrc, uimm11, field5 (ParentSizeCode or WriterSizeCode).
struct AssembleWord {
  bool init = false;
  bool last = false;
  int regSrc = 0;
  int uimm11 = 0;
  int field5 = 0;
};

using HeaderWord = std::variant<IotWord, IosWord, SubviewWord, AssembleWord>;

bool operator==(const IotWord& a, const IotWord& b);
bool operator==(const IosWord& a, const IosWord& b);
bool operator==(const SubviewWord& a, const SubviewWord& b);
bool operator==(const AssembleWord& a, const AssembleWord& b);

// Whether the word's opcode is the binders' or the range modifiers' (its other fields unchecked).
bool hasHeaderOpcode(uint32_t word);
// The word, or nullopt with an error naming the field, its value and the allowed range.
std::optional<uint32_t> encodeWord(const HeaderWord& w, AssembleRev rev, std::string& error);
// The fields, or nullopt with the reason: an unknown opcode or form, a reserved bit or
// value, or (under A) a field 5 that revision forbids. Every word it accepts encodes back
// to itself.
std::optional<HeaderWord> decodeWord(uint32_t word, AssembleRev rev, std::string& error);
// LLVM's spelling: upper-case hands, the first GPR alias, sizes as "2KB". Total: fields
// out of range print as raw numbers rather than failing.
std::string printWord(const HeaderWord& w);
// The inverse of printWord, then validated by encodeWord. Hands, registers, keywords and
// mnemonics are case-insensitive; rN and fp are accepted; `->T<5>` names a size by code.
bool parseWord(std::string_view text, AssembleRev rev, HeaderWord& out, std::string& error);

// The header commands a listing names whose encodings no public source gives (B.DIM,
// B.DATR, B.IOR): tilec lists them as pseudo-instructions and no codec encodes them.
// The mnemonic's entry, or nullptr when the mnemonic is none of them.
const char* pseudoCommand(std::string_view mnemonic);

// SizeCode (PTO 0.58): bytes = 128 << (code - 1), code 1..12 (128 B .. 256 KiB).
int sizeCodeForBytes(int64_t bytes);  // 0 unless a power of two in 128 B .. 256 KiB
int64_t bytesForSizeCode(int code);   // 0 outside 1..12
std::string sizeName(int code);       // "128B" .. "64KB" .. "256KB"; "" outside 1..12
std::string sizeText(int code);       // the same for messages: "128 B" .. "64 KiB" .. "256 KiB"
// r0..r23 by their first alias (zero, sp, a0..a7, ra, s0, s1..s8, x0..x3); nullptr outside.
const char* gprName(int reg);
// The 4-character assembly mask of a PEMode (leftmost digit PE0: 1 -> "1000"); nullptr
// outside 0..7. peModeForMask is the inverse, -1 for a mask with no PEMode ("0011").
const char* peMask(int peMode);
int peModeForMask(std::string_view mask);

}  // namespace tilec::linx
