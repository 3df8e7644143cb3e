#include "backend/linx/LinxWords.h"

#include <cctype>
#include <cstdio>
#include <vector>

#include "backend/linx/LinxModel.h"
#include "support/Wording.h"

namespace tilec::linx {
namespace {

// ---- tables ----

constexpr const char* kGprNames[] = {"zero", "sp", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "ra", "s0",
                                     "s1",   "s2", "s3", "s4", "s5", "s6", "s7", "s8", "x0", "x1", "x2", "x3"};
constexpr int kGprCount = 24;  // RegSrc 24..31 name tile queues (t#1..u#4), never a GPR

// Indexed by PEMode; the leftmost digit is PE0. The other eight 4-bit masks have no encoding.
constexpr const char* kPeMasks[] = {"0000", "1000", "0100", "0010", "0001", "1100", "1110", "1111"};

// A selector is hand * kQueueReach + (k - 1) for source H#k: the hand is its top bits.
constexpr int kSelectors = kHands * kQueueReach;
constexpr int kSelectorBits = 6, kHandBits = 2;
static_assert(kSelectors == 1 << kSelectorBits && kHands == 1 << kHandBits, "the fields hold every hand and source");

// The five B.IOT forms: funct3 says how many sources there are, SizeCode (bits 18:15)
// whether there is a destination. Bits a form does not use are fixed by its mask.
struct IotForm {
  const char* name;
  int sources;
  bool destination;
  uint32_t match, mask;
};
constexpr IotForm kIotForms[] = {
    {"destination and one source", 1, true, 0x00005013, 0xfc00707f},
    {"two sources", 2, false, 0x00004013, 0x0007f07f},
    {"two sources and a destination", 2, true, 0x00004013, 0x0000707f},
    {"one source", 1, false, 0x00005013, 0xfc07f07f},
    {"destination only", 0, true, 0x00006013, 0xfff0707f},
};

constexpr uint32_t kIotOpcode = 0x13, kRangeOpcode = 0x53;
constexpr uint32_t kFunct3Mask = 0x0000707f;
constexpr uint32_t kSubviewMatch = 0x00000053, kSubviewMask = 0x0000787f;  // bits 14:11 = 0
constexpr uint32_t kAssembleMatch = 0x00001053;                            // funct3 1
// B.IOS shares B.IOT's opcode with funct3 1; bits 31:28, 19 and 8:7 are fixed at 0.
constexpr uint32_t kIosMatch = 0x00001013, kIosMask = 0xf00871ff;

// The header commands without a public encoding (LinxWords.h: pseudoCommand), with what
// each binds, for the codec's refusal.
struct PseudoCommand {
  const char* mnemonic;
  const char* binds;
};
constexpr PseudoCommand kPseudoCommands[] = {
    {"B.DIM", "a loop bound (lb0 ValidCol, lb1 ValidRow, lb2 physical columns)"},
    {"B.DATR", "the data attributes (layout, conversion)"},
    {"B.IOR", "the GPR operands (a GM base and stride, a scalar)"},
};

// Source H#k's name.
std::string sourceName(int hand, int k) { return std::string(1, kHandNames[hand]) + "#" + std::to_string(k); }

// A field's legal values; values its bits can hold outside them are reserved encodings,
// anything else does not fit at all. The note follows the range in messages.
struct FieldSpec {
  const char* name;
  int lo, hi, width;
  std::string note = "";
};
const FieldSpec kSrcSelect{"SrcSelect", 0, 1, 1};
const FieldSpec kRegSrc{"RegSrc", 0, kGprCount - 1, 5,
                        std::string(" (") + kGprNames[0] + " .. " + kGprNames[kGprCount - 1] + ")"};
const FieldSpec kUimm11{"uimm11", 0, kImmMax, kImmBits};
const FieldSpec kSubviewSize{"size code", 1, kMaxSharedSizeCode, 4,
                             " (" + sizeText(1) + " .. " + sizeText(kMaxSharedSizeCode) + ")"};
const FieldSpec kFlag{"", 0, 1, 1};  // INIT and LAST; named by the caller
const FieldSpec kSelector{"selector", 0, kSelectors - 1, kSelectorBits,
                          " (" + sourceName(0, 1) + " .. " + sourceName(kHands - 1, kQueueReach) + ")"};
const FieldSpec kPeMode{"PEMode", 0, 7, 3};
const FieldSpec kIotSize{"destination size code", 1, kMaxLocalSizeCode, 4,
                         " (" + sizeText(1) + " .. " + sizeText(kMaxLocalSizeCode) + " per PE)"};
const FieldSpec kShared{"Shared register", 0, kSharedRegisters - 1, 8, " (S0 .. S255)"};
const FieldSpec kIosSize{"destination size code", 1, kMaxSharedSizeCode, 4,
                         " (" + sizeText(1) + " .. " + sizeText(kMaxSharedSizeCode) + " per PE)"};
const FieldSpec kDstHand{"destination hand", 0, kHands - 1, kHandBits, " (" + handList() + ")"};

// ---- fields ----

uint32_t bits(uint32_t w, int hi, int lo) { return (w >> lo) & ((1u << (hi - lo + 1)) - 1); }

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

bool checkField(const char* insn, const FieldSpec& f, int64_t value, std::string& error, const char* name = nullptr) {
  if (value >= f.lo && value <= f.hi) return true;
  const bool fits = value >= 0 && value < (int64_t(1) << f.width);
  error = std::string(insn) + " " + (name ? name : f.name) + " " + std::to_string(value) +
          (fits ? " is reserved: " : " is out of range: ") + std::to_string(f.lo) + ".." + std::to_string(f.hi) +
          f.note;
  return false;
}

const char* phaseName(bool init, bool last) {
  return init ? (last ? "INIT_LAST" : "INIT") : (last ? "LAST" : "MIDDLE");
}

// ---- encoding ----

const IotForm* iotForm(int sources, bool destination) {
  for (const IotForm& f : kIotForms)
    if (f.sources == sources && f.destination == destination) return &f;
  return nullptr;
}

int sourceCount(const IotWord& w) { return (w.src0 >= 0) + (w.src1 >= 0); }

bool checkIot(const IotWord& w, std::string& error) {
  if ((w.src0 != -1 && !checkField("B.IOT", kSelector, w.src0, error, "source 0 selector")) ||
      (w.src1 != -1 && !checkField("B.IOT", kSelector, w.src1, error, "source 1 selector")))
    return false;
  if (w.src0 < 0 && w.src1 >= 0) {
    error = "B.IOT source 1 needs a source 0";
    return false;
  }
  if (!checkField("B.IOT", kPeMode, w.peMode, error)) return false;
  if (w.sizeCode != 0)
    return checkField("B.IOT", kIotSize, w.sizeCode, error) && checkField("B.IOT", kDstHand, w.dstHand, error);
  if (w.dstHand != 0) {
    error = "B.IOT destination hand " + std::to_string(w.dstHand) + " without a destination (size code 0): it must be 0";
    return false;
  }
  if (w.src0 < 0) {
    error = "a B.IOT with no sources and no destination is not encodable";
    return false;
  }
  return true;
}

std::optional<uint32_t> encodeIot(const IotWord& w, std::string& error) {
  if (!checkIot(w, error)) return std::nullopt;
  const IotForm* form = iotForm(sourceCount(w), w.sizeCode != 0);
  uint32_t word = form->match | uint32_t(w.last) << 19 | uint32_t(w.sizeCode) << 15 | uint32_t(w.peMode) << 9 |
                  uint32_t(w.dstHand) << 7;
  if (w.src0 >= 0) word |= uint32_t(w.src0) << 20;
  if (w.src1 >= 0) word |= uint32_t(w.src1) << 26;
  return word;
}

std::optional<uint32_t> encodeIos(const IosWord& w, std::string& error) {
  if (!checkField("B.IOS", kShared, w.shared, error) || !checkField("B.IOS", kPeMode, w.peMode, error) ||
      (w.sizeCode != 0 && !checkField("B.IOS", kIosSize, w.sizeCode, error)))
    return std::nullopt;
  return uint32_t(w.shared) << 20 | uint32_t(w.sizeCode) << 15 | uint32_t(w.peMode) << 9 | kIosMatch;
}

bool checkOffset(const char* insn, int regSrc, int uimm11, std::string& error) {
  return checkField(insn, kRegSrc, regSrc, error) && checkField(insn, kUimm11, uimm11, error);
}

std::optional<uint32_t> encodeSubview(const SubviewWord& w, std::string& error) {
  if (!checkField("B.SUBVIEW", kSrcSelect, w.srcSelect, error) || !checkOffset("B.SUBVIEW", w.regSrc, w.uimm11, error) ||
      !checkField("B.SUBVIEW", kSubviewSize, w.sizeCode, error))
    return std::nullopt;
  return uint32_t(w.srcSelect) << 31 | uint32_t(w.uimm11) << 20 | uint32_t(w.regSrc) << 15 |
         uint32_t(w.sizeCode) << 7 | kSubviewMatch;
}

// Revision A ties field 5 to the phase: only INIT carries the parent's size.
bool checkParentSize(const AssembleWord& w, std::string& error) {
  if (w.init == (w.field5 != 0)) return true;
  error = std::string("B.ASSEMBLE ParentSizeCode ") + std::to_string(w.field5) + " on " + phaseName(w.init, w.last) +
          " is illegal under assemble=A (0.58.4): " +
          (w.init ? "INIT carries the parent size, 1.." + std::to_string(kMaxSharedSizeCode)
                  : "only INIT carries a parent size; MIDDLE and LAST carry 0");
  return false;
}

const char* field5Name(AssembleRev rev) { return rev == AssembleRev::A ? "ParentSizeCode" : "WriterSizeCode"; }

std::optional<uint32_t> encodeAssemble(const AssembleWord& w, AssembleRev rev, std::string& error) {
  const FieldSpec field5{field5Name(rev), 0, kMaxSharedSizeCode, 4};
  if (!checkOffset("B.ASSEMBLE", w.regSrc, w.uimm11, error) || !checkField("B.ASSEMBLE", field5, w.field5, error))
    return std::nullopt;
  if (rev == AssembleRev::A && !checkParentSize(w, error)) return std::nullopt;
  return uint32_t(w.init) << 31 | uint32_t(w.uimm11) << 20 | uint32_t(w.regSrc) << 15 | uint32_t(w.last) << 11 |
         uint32_t(w.field5) << 7 | kAssembleMatch;
}

// ---- decoding ----

std::optional<HeaderWord> decodeIot(uint32_t word, std::string& error) {
  const uint32_t funct3 = bits(word, 14, 12), size = bits(word, 18, 15);
  const IotForm* form = nullptr;
  for (const IotForm& f : kIotForms)
    if ((f.match & kFunct3Mask) == (word & kFunct3Mask) && f.destination == (size != 0)) form = &f;
  if (!form) {
    error = funct3 == 6 ? "B.IOT destination-only form (funct3 6) with size code 0 binds nothing"
                        : "opcode 0x13 with funct3 " + std::to_string(funct3) +
                              " is no B.IOT form (4: two sources, 5: one source, 6: destination only; 1 is B.IOS)";
    return std::nullopt;
  }
  if (uint32_t stray = (word ^ form->match) & form->mask) {
    error = std::string("B.IOT form '") + form->name + "' has reserved bits set: " + hex(stray);
    return std::nullopt;
  }
  IotWord w;
  w.src0 = form->sources >= 1 ? int(bits(word, 25, 20)) : -1;
  w.src1 = form->sources == 2 ? int(bits(word, 31, 26)) : -1;
  w.last = bits(word, 19, 19);
  w.sizeCode = int(size);
  w.peMode = int(bits(word, 11, 9));
  w.dstHand = int(bits(word, 8, 7));
  if (!checkIot(w, error)) return std::nullopt;
  return w;
}

std::optional<HeaderWord> decodeIos(uint32_t word, std::string& error) {
  if (uint32_t stray = (word ^ kIosMatch) & kIosMask) {
    error = "B.IOS has reserved bits set: " + hex(stray);
    return std::nullopt;
  }
  const IosWord w{int(bits(word, 27, 20)), int(bits(word, 18, 15)), int(bits(word, 11, 9))};
  if (!encodeIos(w, error)) return std::nullopt;
  return w;
}

std::optional<HeaderWord> decodeRange(uint32_t word, AssembleRev rev, std::string& error) {
  const int regSrc = int(bits(word, 19, 15)), uimm11 = int(bits(word, 30, 20)), size = int(bits(word, 10, 7));
  const bool top = bits(word, 31, 31);
  if ((word & kSubviewMask) == kSubviewMatch) {
    const SubviewWord w{top, regSrc, uimm11, size};
    if (!encodeSubview(w, error)) return std::nullopt;
    return w;
  }
  if ((word & kFunct3Mask) == kAssembleMatch) {
    const AssembleWord w{top, bool(bits(word, 11, 11)), regSrc, uimm11, size};
    if (!encodeAssemble(w, rev, error)) return std::nullopt;
    return w;
  }
  error = "opcode 0x53 with funct3 " + std::to_string(bits(word, 14, 12)) + " and bit 11 = " +
          std::to_string(bits(word, 11, 11)) + " is neither B.SUBVIEW (funct3 0, bit 11 0) nor B.ASSEMBLE (funct3 1)";
  return std::nullopt;
}

// ---- printing ----

std::string selectorName(int sel) {
  if (sel < 0 || sel >= kSelectors) return "?#" + std::to_string(sel);
  return sourceName(sel / kQueueReach, sel % kQueueReach + 1);
}

std::string regName(int reg) {
  const char* name = gprName(reg);
  return name ? name : "r" + std::to_string(reg);
}

std::string printIot(const IotWord& w) {
  std::vector<std::string> parts;
  for (int s : {w.src0, w.src1})
    if (s != -1) parts.push_back(selectorName(s));
  const char* mask = peMask(w.peMode);
  parts.push_back(std::string("mask=") + (mask ? mask : std::to_string(w.peMode)));
  if (w.last) parts.push_back("last");
  if (w.sizeCode != 0) {
    const std::string size = sizeName(w.sizeCode);
    const char hand = w.dstHand >= 0 && w.dstHand < kHands ? kHandNames[w.dstHand] : '?';
    parts.push_back(std::string("->") + hand + "<" + (size.empty() ? std::to_string(w.sizeCode) : size) + ">");
  }
  std::string out = "B.IOT";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : " ") + parts[i];
  return out;
}

std::string sharedName(int shared) { return "S" + std::to_string(shared); }

std::string printIos(const IosWord& w) {
  const char* mask = peMask(w.peMode);
  const std::string maskText = std::string("mask=") + (mask ? mask : std::to_string(w.peMode));
  if (w.sizeCode == 0) return "B.IOS " + sharedName(w.shared) + ", " + maskText;
  const std::string size = sizeName(w.sizeCode);
  return "B.IOS " + maskText + ", ->" + sharedName(w.shared) + "<" + (size.empty() ? std::to_string(w.sizeCode) : size) +
         ">";
}

std::string printSubview(const SubviewWord& w) {
  return "B.SUBVIEW " + std::to_string(w.srcSelect) + ", " + regName(w.regSrc) + ", " + std::to_string(w.uimm11) +
         ", " + std::to_string(w.sizeCode);
}

std::string printAssemble(const AssembleWord& w) {
  return "B.ASSEMBLE " + std::to_string(int(w.init)) + ", " + std::to_string(int(w.last)) + ", " + regName(w.regSrc) +
         ", " + std::to_string(w.uimm11) + ", " + std::to_string(w.field5);
}

// ---- parsing ----

using Operands = std::vector<std::string_view>;

char lower(char c) { return char(std::tolower(static_cast<unsigned char>(c))); }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

bool istartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

std::string_view trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// Decimal or 0x hex, with an optional minus so that out-of-range values get range
// errors rather than "not a number"; at most 15 digits, so nothing overflows.
std::optional<int64_t> parseNumber(std::string_view s) {
  const bool negative = !s.empty() && s[0] == '-';
  if (negative) s.remove_prefix(1);
  const bool isHex = s.size() > 2 && s[0] == '0' && lower(s[1]) == 'x';
  if (isHex) s.remove_prefix(2);
  if (s.empty() || s.size() > 15) return std::nullopt;
  int64_t v = 0;
  for (char c : s) {
    const int digit = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                      : isHex && std::isxdigit(static_cast<unsigned char>(c)) ? lower(c) - 'a' + 10
                                                                               : -1;
    if (digit < 0) return std::nullopt;
    v = v * (isHex ? 16 : 10) + digit;
  }
  return negative ? -v : v;
}

// A number operand checked against its field, so that it fits the int that holds it.
bool parseField(const char* insn, const FieldSpec& f, std::string_view text, int& out, std::string& error,
                const char* name = nullptr) {
  const std::optional<int64_t> v = parseNumber(text);
  if (!v) {
    error = std::string(insn) + " " + (name ? name : f.name) + " '" + std::string(text) + "' is not a number";
    return false;
  }
  // Reserved values fit the field's bits and reach the encoder, which names them so.
  if (*v < 0 || *v >= (int64_t(1) << f.width)) return checkField(insn, f, *v, error, name);
  out = int(*v);
  return true;
}

bool allDigits(std::string_view s) {
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return !s.empty();
}

// The register number of an alias or of rN (N up to 31: r24..r31 reach the encoder,
// which calls them reserved), or -1.
int gprNumber(std::string_view text) {
  for (int r = 0; r < kGprCount; ++r)
    if (iequals(text, kGprNames[r])) return r;
  if (iequals(text, "fp")) return 11;
  if (text.size() < 2 || text.size() > 3 || lower(text[0]) != 'r' || !allDigits(text.substr(1))) return -1;
  const int n = int(*parseNumber(text.substr(1)));
  return n <= 31 ? n : -1;
}

bool parseGpr(const char* insn, std::string_view text, int& reg, std::string& error) {
  reg = gprNumber(text);
  if (reg >= 0) return true;
  error = std::string(insn) + " RegSrc '" + std::string(text) +
          "' is not a GPR: zero, sp, a0..a7, ra, s0 (fp), s1..s8, x0..x3 or r0..r23";
  return false;
}

bool parseSubview(const Operands& ops, SubviewWord& w, std::string& error) {
  if (ops.size() != 4) {
    error = "B.SUBVIEW takes 4 operands (SrcSelect, RegSrc, uimm11, SubviewSizeCode), not " + std::to_string(ops.size());
    return false;
  }
  return parseField("B.SUBVIEW", kSrcSelect, ops[0], w.srcSelect, error) &&
         parseGpr("B.SUBVIEW", ops[1], w.regSrc, error) && parseField("B.SUBVIEW", kUimm11, ops[2], w.uimm11, error) &&
         parseField("B.SUBVIEW", kSubviewSize, ops[3], w.sizeCode, error);
}

bool parseAssemble(const Operands& ops, AssembleRev rev, AssembleWord& w, std::string& error) {
  const FieldSpec field5{field5Name(rev), 0, kMaxSharedSizeCode, 4};
  if (ops.size() != 5) {
    error = std::string("B.ASSEMBLE takes 5 operands (INIT, LAST, RegSrc, uimm11, ") + field5.name + "), not " +
            std::to_string(ops.size());
    return false;
  }
  int init = 0, last = 0;
  if (!parseField("B.ASSEMBLE", kFlag, ops[0], init, error, "INIT") ||
      !parseField("B.ASSEMBLE", kFlag, ops[1], last, error, "LAST") || !parseGpr("B.ASSEMBLE", ops[2], w.regSrc, error) ||
      !parseField("B.ASSEMBLE", kUimm11, ops[3], w.uimm11, error) ||
      !parseField("B.ASSEMBLE", field5, ops[4], w.field5, error))
    return false;
  w.init = init;
  w.last = last;
  return true;
}

int handIndex(char c) {
  for (int h = 0; h < kHands; ++h)
    if (lower(c) == lower(kHandNames[h])) return h;
  return -1;
}

bool parseSelector(std::string_view text, int& sel, std::string& error) {
  const bool wellFormed = text.size() >= 3 && text.size() <= 4 && text[1] == '#' && allDigits(text.substr(2));
  const int hand = wellFormed ? handIndex(text[0]) : -1;
  const int64_t k = hand < 0 ? 0 : *parseNumber(text.substr(2));
  if (k < 1 || k > kQueueReach) {
    std::vector<std::string> forms;
    for (int h = 0; h < kHands; ++h) forms.push_back(std::string(1, kHandNames[h]) + "#k");
    error = "B.IOT source '" + std::string(text) + "' is not a tile: " + listText(forms, "or") + " with k 1.." +
            std::to_string(kQueueReach);
    return false;
  }
  sel = hand * kQueueReach + int(k) - 1;
  return true;
}

bool parseMask(const char* insn, std::string_view text, int& peMode, std::string& error) {
  if (!istartsWith(text, "mask")) {
    error = std::string(insn) + " needs mask=PE_MASK after its sources, not '" + std::string(text) + "'";
    return false;
  }
  std::string_view rest = trim(text.substr(4));
  if (rest.empty() || rest[0] != '=') {
    error = std::string(insn) + " mask is written mask=PE_MASK, not '" + std::string(text) + "'";
    return false;
  }
  rest = trim(rest.substr(1));
  peMode = peModeForMask(rest);
  if (peMode >= 0) return true;
  error = std::string(insn) + " mask=" + std::string(rest) +
          " has no PEMode encoding: the masks are 0000, 1000, 0100, 0010, 0001, 1100, 1110 and 1111 (leftmost is PE0)";
  return false;
}

// A size name, or a size code as pto-spec's examples write it (`->T<1>`).
bool parseSize(const char* insn, const FieldSpec& field, std::string_view text, int& code, std::string& error) {
  for (int c = 1; c <= kMaxSharedSizeCode; ++c)
    if (iequals(text, sizeName(c))) {
      code = c;
      return true;
    }
  if (parseNumber(text)) {
    if (!parseField(insn, field, text, code, error)) return false;
    return code != 0 || checkField(insn, field, 0, error);  // 0 would mean no destination
  }
  std::string sizes;
  for (int c = field.lo; c <= field.hi; ++c) sizes += sizeName(c) + ", ";
  sizes.resize(sizes.size() - 2);
  error = std::string(insn) + " destination size '" + std::string(text) + "' is not a size: " + sizes +
          " or a size code " + std::to_string(field.lo) + ".." + std::to_string(field.hi);
  return false;
}

bool parseDestination(std::string_view text, IotWord& w, std::string& error) {
  const std::string_view body = trim(text.substr(2));  // after "->"
  const int hand = body.size() >= 4 && body[1] == '<' && body.back() == '>' ? handIndex(body[0]) : -1;
  if (hand < 0) {
    error = "B.IOT destination '" + std::string(text) + "' is not ->H<size> with H one of " + handList();
    return false;
  }
  w.dstHand = hand;
  return parseSize("B.IOT", kIotSize, body.substr(2, body.size() - 3), w.sizeCode, error);
}

// Sources, mask=, optional last, optional destination: in that order, as LLVM prints them.
bool parseIot(const Operands& ops, IotWord& w, std::string& error) {
  size_t i = 0;
  for (; i < ops.size() && ops[i].find('#') != std::string_view::npos; ++i) {
    if (i == 2) {
      error = "B.IOT takes at most two sources";
      return false;
    }
    if (!parseSelector(ops[i], i == 0 ? w.src0 : w.src1, error)) return false;
  }
  if (i == ops.size()) {
    error = "B.IOT needs mask=PE_MASK after its sources";
    return false;
  }
  if (!parseMask("B.IOT", ops[i++], w.peMode, error)) return false;
  if (i < ops.size() && iequals(ops[i], "last")) {
    w.last = true;
    ++i;
  }
  if (i < ops.size() && ops[i].substr(0, 2) == "->" && !parseDestination(ops[i++], w, error)) return false;
  if (i == ops.size()) return true;
  error = "unexpected '" + std::string(ops[i]) + "' in B.IOT: its operands are sources, mask=, last, ->dst, in that order";
  return false;
}

// S0..S255, as a source (`S3`) or a destination's name (`S3` of `->S3<2KB>`).
bool parseShared(std::string_view text, int& shared, std::string& error) {
  if (text.size() >= 2 && lower(text[0]) == 's' && allDigits(text.substr(1)))
    return parseField("B.IOS", kShared, text.substr(1), shared, error);
  error = "B.IOS register '" + std::string(text) + "' is not a Shared register: S0 .. S255";
  return false;
}

// `S<n>, mask=M` (a source) or `mask=M, ->S<n><size>` (a destination), as pto-spec writes them.
bool parseIos(const Operands& ops, IosWord& w, std::string& error) {
  if (ops.size() != 2) {
    error = "B.IOS takes 2 operands (S<n>, mask=PE_MASK or mask=PE_MASK, ->S<n><size>), not " +
            std::to_string(ops.size());
    return false;
  }
  if (ops[1].substr(0, 2) != "->") return parseShared(ops[0], w.shared, error) && parseMask("B.IOS", ops[1], w.peMode, error);
  if (!parseMask("B.IOS", ops[0], w.peMode, error)) return false;
  const std::string_view body = trim(ops[1].substr(2));
  const size_t open = body.find('<');
  if (open == std::string_view::npos || body.back() != '>') {
    error = "B.IOS destination '" + std::string(ops[1]) + "' is not ->S<n><size>";
    return false;
  }
  return parseShared(body.substr(0, open), w.shared, error) &&
         parseSize("B.IOS", kIosSize, body.substr(open + 1, body.size() - open - 2), w.sizeCode, error);
}

bool splitOperands(std::string_view rest, Operands& ops, std::string& error) {
  if (rest.empty()) return true;
  for (size_t start = 0;;) {
    const size_t comma = rest.find(',', start);
    const std::string_view op = trim(rest.substr(start, comma == std::string_view::npos ? rest.npos : comma - start));
    if (op.empty()) {
      error = "operand " + std::to_string(ops.size() + 1) + " is empty";
      return false;
    }
    ops.push_back(op);
    if (comma == std::string_view::npos) return true;
    start = comma + 1;
  }
}

}  // namespace

bool operator==(const IotWord& a, const IotWord& b) {
  return a.src0 == b.src0 && a.src1 == b.src1 && a.last == b.last && a.sizeCode == b.sizeCode &&
         a.peMode == b.peMode && a.dstHand == b.dstHand;
}
bool operator==(const IosWord& a, const IosWord& b) {
  return a.shared == b.shared && a.sizeCode == b.sizeCode && a.peMode == b.peMode;
}
bool operator==(const SubviewWord& a, const SubviewWord& b) {
  return a.srcSelect == b.srcSelect && a.regSrc == b.regSrc && a.uimm11 == b.uimm11 && a.sizeCode == b.sizeCode;
}
bool operator==(const AssembleWord& a, const AssembleWord& b) {
  return a.init == b.init && a.last == b.last && a.regSrc == b.regSrc && a.uimm11 == b.uimm11 && a.field5 == b.field5;
}

std::optional<uint32_t> encodeWord(const HeaderWord& w, AssembleRev rev, std::string& error) {
  if (const auto* iot = std::get_if<IotWord>(&w)) return encodeIot(*iot, error);
  if (const auto* ios = std::get_if<IosWord>(&w)) return encodeIos(*ios, error);
  if (const auto* sub = std::get_if<SubviewWord>(&w)) return encodeSubview(*sub, error);
  return encodeAssemble(std::get<AssembleWord>(w), rev, error);
}

bool hasHeaderOpcode(uint32_t word) {
  const uint32_t opcode = bits(word, 6, 0);
  return opcode == kIotOpcode || opcode == kRangeOpcode;
}

std::optional<HeaderWord> decodeWord(uint32_t word, AssembleRev rev, std::string& error) {
  const uint32_t opcode = bits(word, 6, 0);
  if (opcode == kIotOpcode) return (word & kFunct3Mask) == kIosMatch ? decodeIos(word, error) : decodeIot(word, error);
  if (opcode == kRangeOpcode) return decodeRange(word, rev, error);
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", unsigned(opcode));
  error = std::string("opcode ") + buf + " is no block-header word: B.IOT and B.IOS are 0x13, B.SUBVIEW and B.ASSEMBLE 0x53";
  return std::nullopt;
}

std::string printWord(const HeaderWord& w) {
  if (const auto* iot = std::get_if<IotWord>(&w)) return printIot(*iot);
  if (const auto* ios = std::get_if<IosWord>(&w)) return printIos(*ios);
  if (const auto* sub = std::get_if<SubviewWord>(&w)) return printSubview(*sub);
  return printAssemble(std::get<AssembleWord>(w));
}

bool parseWord(std::string_view text, AssembleRev rev, HeaderWord& out, std::string& error) {
  text = trim(text);
  const size_t space = text.find_first_of(" \t");
  const std::string_view mnemonic = text.substr(0, space);
  Operands ops;
  if (!splitOperands(space == text.npos ? std::string_view() : trim(text.substr(space)), ops, error)) {
    error = std::string(mnemonic) + ": " + error;
    return false;
  }
  HeaderWord word;
  bool parsed = false;
  if (iequals(mnemonic, "B.IOT"))
    parsed = parseIot(ops, word.emplace<IotWord>(), error);
  else if (iequals(mnemonic, "B.IOS"))
    parsed = parseIos(ops, word.emplace<IosWord>(), error);
  else if (iequals(mnemonic, "B.SUBVIEW"))
    parsed = parseSubview(ops, word.emplace<SubviewWord>(), error);
  else if (iequals(mnemonic, "B.ASSEMBLE"))
    parsed = parseAssemble(ops, rev, word.emplace<AssembleWord>(), error);
  else if (const char* binds = pseudoCommand(mnemonic))
    error = std::string(mnemonic) + " (it binds " + binds +
            ") is a pseudo-instruction of tilec's listing: no public source gives its encoding, so it has no word "
            "in a binary; remove it (a listing written without --target-flag pseudo-headers has none) to encode the "
            "header words";
  else
    error = "'" + std::string(mnemonic) + "' is not a header word this format holds (B.IOT, B.IOS, B.SUBVIEW, B.ASSEMBLE)";
  if (!parsed || !encodeWord(word, rev, error)) return false;
  out = word;
  return true;
}

const char* pseudoCommand(std::string_view mnemonic) {
  for (const PseudoCommand& c : kPseudoCommands)
    if (iequals(mnemonic, c.mnemonic)) return c.binds;
  return nullptr;
}

int sizeCodeForBytes(int64_t bytes) {
  for (int code = 1; code <= kMaxSharedSizeCode; ++code)
    if (bytesForSizeCode(code) == bytes) return code;
  return 0;
}

int64_t bytesForSizeCode(int code) {
  return code >= 1 && code <= kMaxSharedSizeCode ? kCellBytes << (code - 1) : 0;
}

std::string sizeName(int code) {
  const int64_t bytes = bytesForSizeCode(code);
  if (bytes == 0) return "";
  return bytes < 1024 ? std::to_string(bytes) + "B" : std::to_string(bytes / 1024) + "KB";
}

std::string sizeText(int code) {
  const int64_t bytes = bytesForSizeCode(code);
  if (bytes == 0) return "";
  return bytes < 1024 ? std::to_string(bytes) + " B" : std::to_string(bytes / 1024) + " KiB";
}

const char* gprName(int reg) { return reg >= 0 && reg < kGprCount ? kGprNames[reg] : nullptr; }

const char* peMask(int peMode) { return peMode >= 0 && peMode < 8 ? kPeMasks[peMode] : nullptr; }

int peModeForMask(std::string_view mask) {
  for (int mode = 0; mode < 8; ++mode)
    if (mask == kPeMasks[mode]) return mode;
  return -1;
}

}  // namespace tilec::linx
