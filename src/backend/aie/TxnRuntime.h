// The AIE transaction-stream encoder, written once. tilec compiles this header into its
// static TXN writer, and copies it verbatim into every generated builder (--emit=txn-cpp),
// where the same functions run at dispatch time on runtime sizes: the two cannot drift.
// It depends on the C++17 standard library only. Layouts follow the TXN 0.1 format that
// mlir-aie emits (docs/aie.md has the words and their sources).
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace tilec_txn {

enum Opcode : uint32_t {
  kWrite = 0x00, kBlockWrite = 0x01, kBlockSet = 0x02, kMaskWrite = 0x03, kMaskPoll = 0x04,
  kNoop = 0x05, kPreempt = 0x06, kMaskPollBusy = 0x07, kLoadPdi = 0x08, kLoadPmStart = 0x09,
  kCreateScratchpad = 0x0A, kUpdateStateTable = 0x0B, kUpdateReg = 0x0C, kUpdateScratch = 0x0D,
  kConfigShimDmaBd = 0x0E, kConfigShimDmaDmabufBd = 0x0F,
  kTct = 0x80, kDdrPatch = 0x81, kReadRegs = 0x82, kRecordTimer = 0x83, kMergeSync = 0x84, kNext = 0x85,
};

// What the stream header says about the device: generation 3 is npu1 (AIE2), 4 is npu2 (AIE2P).
struct Device {
  uint8_t devGen, numRows, numCols, numMemTileRows;
};

// A stream under construction: four header words, then the ops.
struct Stream {
  std::vector<uint32_t> words = std::vector<uint32_t>(4, 0u);
  uint32_t ops = 0;
};

// Fills the header: version 0.1, the device, the op count and the size in bytes.
inline void finish(Stream& s, const Device& d) {
  s.words[0] = uint32_t(d.numRows) << 24 | uint32_t(d.devGen) << 16 | 1u << 8;
  s.words[1] = uint32_t(d.numMemTileRows) << 8 | d.numCols;
  s.words[2] = s.ops;
  s.words[3] = uint32_t(s.words.size() * 4);
}

// The absolute address of a tile register (AIE2 and AIE2P: column at bit 25, row at 20).
inline uint32_t tileAddress(uint32_t col, uint32_t row, uint32_t offset) {
  return (col & 0xFF) << 25 | (row & 0xFF) << 20 | (offset & 0xFFFFF);
}

inline void append(Stream& s, std::initializer_list<uint32_t> words) {
  s.words.insert(s.words.end(), words);
  ++s.ops;
}

inline void write32(Stream& s, uint32_t addr, uint32_t value) { append(s, {kWrite, 0, addr, 0, value, 24}); }

inline void maskWrite32(Stream& s, uint32_t addr, uint32_t value, uint32_t mask) {
  append(s, {kMaskWrite, 0, addr, 0, value, mask, 28});
}

// Waits until (register & mask) == value.
inline void maskPoll32(Stream& s, uint32_t addr, uint32_t value, uint32_t mask) {
  append(s, {kMaskPoll, 0, addr, 0, value, mask, 28});
}

// `colRow` is col | row << 8 when the source named the tile, else 0.
inline void blockWrite(Stream& s, uint32_t addr, const uint32_t* data, size_t n, uint32_t colRow) {
  append(s, {kBlockWrite, colRow, addr, uint32_t((4 + n) * 4)});
  s.words.insert(s.words.end(), data, data + n);
}

// Waits for the task-completion token of a channel; direction 0 is S2MM, 1 is MM2S.
inline void sync(Stream& s, uint32_t col, uint32_t row, uint32_t dir, uint32_t chan, uint32_t ncol,
                 uint32_t nrow) {
  append(s, {kTct, 16, (dir & 0xFF) | (row & 0xFF) << 8 | (col & 0xFF) << 16,
             (nrow & 0xFF) << 8 | (ncol & 0xFF) << 16 | (chan & 0xFF) << 24});
}

// The firmware adds host buffer `argIdx`'s device address to `argPlus` and writes it to
// `addr`. It translates host addresses only for arguments 0..4; with `fold`, a larger index
// gets the DDR aperture offset 0x80000000 added, as the xclbin runtime expects.
inline void addressPatch(Stream& s, uint32_t addr, uint32_t argIdx, uint64_t argPlus, bool fold) {
  if (fold && argIdx >= 5) argPlus += 0x80000000u;
  append(s, {kDdrPatch, 48, 0, 0, 0, 0, addr, 0, argIdx, 0, uint32_t(argPlus), uint32_t(argPlus >> 32)});
}

inline void loadPdi(Stream& s, uint32_t id, uint32_t size, uint64_t address) {
  append(s, {kLoadPdi | (id & 0xFFFF) << 16, size, uint32_t(address), uint32_t(address >> 32)});
}

inline void preempt(Stream& s, uint32_t level) { append(s, {kPreempt | (level & 0xFF) << 8}); }

// ---- shim DMA (the NOC tile in row 0 of every column) ----

enum Direction : uint32_t { kS2MM = 0, kMM2S = 1 };

constexpr uint32_t kShimBdBase = 0x1D000, kShimBdStride = 0x20, kShimBds = 16;
constexpr uint32_t kShimChannelCtrl = 0x1D200;
constexpr int64_t kWrapMax = 1023, kStepMax = 1 << 20, kIterMax = 64, kRepeatMax = 255;

inline uint32_t shimBdAddress(uint32_t col, uint32_t bd) {
  return tileAddress(col, 0, kShimBdBase + bd * kShimBdStride);
}

// The channel's task queue: a write pushes a task (start BD, repeat count, token request).
inline uint32_t shimQueueAddress(uint32_t col, uint32_t dir, uint32_t chan) {
  return tileAddress(col, 0, kShimChannelCtrl + 8 * chan + (dir == kMM2S ? 0x10 : 0) + 4);
}

inline uint32_t queueWord(uint32_t bd, uint32_t repeat, bool token) {
  return (bd & 0xF) | (repeat & 0xFF) << 16 | (token ? 0x80000000u : 0);
}

// One descriptor's walk over a host buffer, in elements, dimension 0 fastest: element
// offset + i0*strides[0] + i1*strides[1] + i2*strides[2], repeated sizes[3] times with
// strides[3] between repeats (0: the same data again).
struct Transfer {
  int64_t offset = 0;
  int64_t sizes[4] = {1, 1, 1, 1};
  int64_t strides[4] = {1, 0, 0, 0};
  int64_t elemBits = 32;
};

// What the hardware fields hold: wraps in 32-bit words, steps minus one, and the
// iteration wrap minus one, or (linear) one run of bufferLength words.
struct ShimBdFields {
  bool linear = false;
  int64_t bufferLength = 0, d0Wrap = 0, d0Step = 0, d1Wrap = 0, d1Step = 0, d2Step = 0;
  int64_t iterWrap = 0, iterStep = 0, repeat = 0, byteOffset = 0;
};

inline std::string num(int64_t v) { return std::to_string(v); }

// Why a transfer of elements narrower than a word cannot step `stride` elements innermost:
// the DMA steps whole 4-byte words, so a d0 step of 2 bf16 elements would still move every
// element (0, 1, 2, 3, ... instead of 0, 2, 4, ...), and a step of 3 is no word at all.
inline std::string subWordStrideRule(int64_t elemBits, const std::string& stride) {
  return "the innermost stride is " + stride + " elements of " + num(elemBits) +
         " bits, but the DMA steps whole 4-byte words, so elements narrower than a word must be contiguous "
         "innermost (stride 1); move contiguous whole-word blocks and rearrange the elements in the core";
}

// The fields of `t`, or the rule it breaks (message set, fields unspecified). Elements
// must be at most 32 bits, and contiguous innermost when narrower; every extent and outer
// step a whole number of 4-byte words.
inline ShimBdFields shimBdFields(const Transfer& t, std::string& error) {
  ShimBdFields f;
  const int64_t w = t.elemBits;
  const int64_t* s = t.sizes;
  const int64_t* st = t.strides;
  auto fail = [&](std::string m) {
    if (error.empty()) error = std::move(m);
    return f;
  };
  if (w > 32) return fail("elements of " + num(w) + " bits are wider than the 32 bits a DMA word holds");
  // Far above every field, and small enough that the products below cannot overflow.
  constexpr int64_t kHuge = int64_t(1) << 40;
  for (int i = 0; i < 4; ++i)
    if (s[i] > kHuge || st[i] > kHuge || st[i] < -kHuge)
      return fail("d" + num(i) + " (size " + num(s[i]) + ", stride " + num(st[i]) + ") is beyond any descriptor");
  if (t.offset > kHuge * 64 || t.offset < -kHuge) return fail("offset " + num(t.offset) + " is beyond any host buffer");
  for (int i = 0; i < 4; ++i)
    if (s[i] < 1) return fail("size " + num(s[i]) + " of d" + num(i) + " is not positive (d0 is the fastest)");
  if (s[0] * w % 32 != 0)
    return fail("the innermost run of " + num(s[0]) + " elements is " + num(s[0] * w / 8) +
                " bytes, not a whole number of 4-byte words");
  for (int i = 0; i < 4; ++i)
    if (st[i] < 0 || (i < 3 && s[i] > 1 && st[i] < 1))
      return fail("stride " + num(st[i]) + " of d" + num(i) + " is not positive (d0 is the fastest)");
  if (w < 32 && st[0] != 1) return fail(subWordStrideRule(w, num(st[0])));
  for (int i = 1; i < 4; ++i)
    if (st[i] * w % 32 != 0)
      return fail("stride " + num(st[i]) + " of d" + num(i) + " is " + num(st[i] * w / 8) +
                  " bytes, not a whole number of 4-byte words (d0 is the fastest)");
  if (t.offset < 0 || t.offset * w % 32 != 0)
    return fail("offset " + num(t.offset) + " elements is not a non-negative whole number of 4-byte words");
  auto words = [&](int64_t elems) { return elems * w / 32; };
  const bool contiguous = st[0] == 1 && (s[1] <= 1 || st[1] == s[0]) && (s[2] <= 1 || st[2] == s[0] * s[1]);
  f.linear = contiguous;
  f.bufferLength = words(s[0]) * s[1] * s[2];
  f.byteOffset = t.offset * w / 8;
  if (!f.linear) {
    f.d0Wrap = words(s[0]);
    f.d0Step = w < 32 ? 0 : st[0] - 1;  // sub-word elements run contiguously: one word a step
    f.d1Wrap = s[1];
    f.d1Step = s[1] > 1 ? words(st[1]) - 1 : 0;
    f.d2Step = s[2] > 1 ? words(st[2]) - 1 : 0;
    if (f.d0Wrap > kWrapMax)
      return fail("the innermost run is " + num(f.d0Wrap) + " words; a strided descriptor holds at most " +
                  num(kWrapMax));
    if (f.d1Wrap > kWrapMax)
      return fail("d1 (the second fastest) has " + num(f.d1Wrap) + " steps; a descriptor holds at most " + num(kWrapMax));
    const int64_t steps[3] = {f.d0Step, f.d1Step, f.d2Step};
    for (int i = 0; i < 3; ++i)
      if (steps[i] + 1 > kStepMax)
        return fail("the stride of d" + num(i) + " is " + num(steps[i] + 1) +
                    " words; a descriptor steps at most " + num(kStepMax) + " (d0 is the fastest)");
  }
  if (s[3] > kIterMax)
    return fail("d3 (the outermost, the iteration) runs " + num(s[3]) + " times; a descriptor iterates at most " + num(kIterMax));
  if (s[3] > 1 && st[3] > 0) {
    f.iterWrap = s[3] - 1;
    f.iterStep = words(st[3]) - 1;
    if (f.iterStep + 1 > kStepMax)
      return fail("the stride of d3 (the iteration) is " + num(f.iterStep + 1) + " words; a descriptor steps at most " +
                  num(kStepMax));
  }
  f.repeat = s[3] - 1;
  if (f.bufferLength > int64_t(0xFFFFFFFF))
    return fail("the transfer moves " + num(f.bufferLength) + " words; a descriptor moves at most 4294967295");
  return f;
}

// Empty when the walk of `t` stays inside a host buffer of `elements` elements, else why not.
inline std::string outsideBuffer(const Transfer& t, int64_t elements) {
  int64_t last = t.offset;
  for (int i = 0; i < 4; ++i) {
    const int64_t span = (t.sizes[i] - 1) * t.strides[i];  // fields were checked: no overflow
    last = span > INT64_MAX - last ? INT64_MAX : last + span;
  }
  if (t.offset >= 0 && last < elements) return {};
  return "the walk reaches elements " + num(t.offset) + " to " + num(last) + " of a buffer of " + num(elements);
}

// Shim burst-length encoding: 0 asks for the largest the device has.
inline uint32_t burstCode(const Device& d, int64_t bytes) {
  if (bytes == 0) return d.devGen >= 4 ? 3 : 2;
  return bytes == 64 ? 0 : bytes == 128 ? 1 : bytes == 256 ? 2 : 3;
}

struct Packet {
  bool enable = false;
  uint32_t id = 0, type = 0;
};

inline void shimBdWords(const ShimBdFields& f, uint32_t burst, const Packet& p, uint32_t out[8]) {
  out[0] = uint32_t(f.bufferLength);
  out[1] = 0;  // the base address comes from the address patch
  out[2] = (p.enable ? 1u : 0u) << 30 | (p.id & 0x1F) << 19 | (p.type & 0x7) << 16;
  out[3] = uint32_t(f.d0Wrap & 0x3FF) << 20 | uint32_t(f.d0Step & 0xFFFFF);
  out[4] = (burst & 0x3) << 30 | uint32_t(f.d1Wrap & 0x3FF) << 20 | uint32_t(f.d1Step & 0xFFFFF);
  out[5] = 2u << 24 | uint32_t(f.d2Step & 0xFFFFF);  // AxCACHE 2: lets the NoC upsize
  out[6] = uint32_t(f.iterWrap & 0x3F) << 20 | uint32_t(f.iterStep & 0xFFFFF);
  out[7] = 1u << 25;  // valid
}

// Where a shim transfer runs: the column's channel, the descriptor it uses, the host buffer.
struct ShimTask {
  uint32_t col = 0, dir = kMM2S, chan = 0, bd = 0, argIdx = 0;
  int64_t burstBytes = 0;
  Packet packet;
  bool token = false;  // S2MM always asks for one
};

// Descriptor, address patch and queue push: three ops, 30 words.
inline void shimTransfer(Stream& s, const Device& d, const ShimTask& task, const ShimBdFields& f, bool fold) {
  uint32_t bd[8];
  shimBdWords(f, burstCode(d, task.burstBytes), task.packet, bd);
  const uint32_t base = shimBdAddress(task.col, task.bd);
  blockWrite(s, base, bd, 8, 0);
  addressPatch(s, base + 4, task.argIdx, uint64_t(f.byteOffset), fold);
  write32(s, shimQueueAddress(task.col, task.dir, task.chan),
          queueWord(task.bd, uint32_t(f.repeat), task.token || task.dir == kS2MM));
}

// ---- register-level operations, as a sequence names them (seq.raw) ----

// Appends the op `name` with its arguments (in the order of the AIE model's table:
// docs/aie.md) and data words; the reason when the arguments do not fit, and then nothing
// is appended. Addresses with a column and row are tile-relative.
inline std::string appendRaw(Stream& s, const std::string& name, const std::vector<int64_t>& a,
                             const std::vector<uint32_t>& data, bool fold) {
  for (size_t i = 0; i < a.size(); ++i) {
    const bool wide = (name == "load_pdi" && i == 2) || (name == "address_patch" && i == 2);
    if (a[i] < 0 || (!wide && a[i] > int64_t(0xFFFFFFFF)))
      return name + ": argument " + num(int64_t(i) + 1) + " is " + num(a[i]) + ", not a " +
             (wide ? "non-negative 64-bit" : "32-bit unsigned") + " value";
  }
  auto u = [&](size_t i) { return uint32_t(a[i]); };
  // The address, made absolute when a column and a row follow it at `at`.
  auto address = [&](size_t at) { return a.size() > at ? tileAddress(u(at), u(at + 1), u(0)) : u(0); };
  auto tilePair = [&](size_t at) { return a.size() == at || a.size() == at + 2; };
  if (name == "write32" || name == "maskwrite32") {
    const size_t at = name == "write32" ? 2 : 3;
    if (!tilePair(at)) return name + " takes a column and a row together, or neither";
    if (name == "write32") write32(s, address(at), u(1));
    else maskWrite32(s, address(at), u(1), u(2));
  } else if (name == "maskpoll32") {
    maskPoll32(s, u(0), u(1), u(2));
  } else if (name == "blockwrite") {
    if (!tilePair(1)) return "blockwrite takes a column and a row together, or neither";
    if (data.empty()) return "blockwrite writes at least one word";
    blockWrite(s, address(1), data.data(), data.size(), a.size() > 1 ? (u(1) & 0xFF) | (u(2) & 0xFF) << 8 : 0);
  } else if (name == "sync") {
    if (a[2] > 1) return "sync: direction " + num(a[2]) + " is neither 0 (S2MM) nor 1 (MM2S)";
    sync(s, u(0), u(1), u(2), u(3), u(4), u(5));
  } else if (name == "address_patch") {
    addressPatch(s, u(0), u(1), uint64_t(a[2]), fold);
  } else if (name == "load_pdi") {
    if (a[0] > 0xFFFF) return "load_pdi: id " + num(a[0]) + " does not fit in 16 bits";
    loadPdi(s, u(0), u(1), uint64_t(a[2]));
  } else if (name == "preempt") {
    if (a[0] > 3) return "preempt: level " + num(a[0]) + " is not 0 to 3 (noop, mem tile, AIE tile, AIE registers)";
    preempt(s, u(0));
  } else {
    return "'" + name + "' is no register operation of this target";
  }
  return {};
}

// ---- arithmetic of runtime sizes, for the generated builders ----

// Integer arithmetic that notices overflow and division by zero (then `failed` is set and
// the result is 0), with the compiler's rounding: division and modulus round toward
// minus infinity, as in the IR.
struct Arith {
  bool failed = false;

  int64_t fail() {
    failed = true;
    return 0;
  }
  int64_t add(int64_t a, int64_t b) {
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return fail();
    return a + b;
  }
  int64_t mul(int64_t a, int64_t b) {
    if (a == 0 || b == 0) return 0;
    if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN)) return fail();
    const int64_t r = int64_t(uint64_t(a) * uint64_t(b));
    if (r / b != a) return fail();
    return r;
  }
  int64_t floorDiv(int64_t a, int64_t b) {
    if (b == 0 || (a == INT64_MIN && b == -1)) return fail();
    const int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  }
  int64_t floorMod(int64_t a, int64_t b) {
    if (b == 0) return fail();
    if (b == -1) return 0;
    const int64_t r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
  }
  int64_t ceilDiv(int64_t a, int64_t b) {
    const int64_t q = floorDiv(a, b);
    return failed || q * b == a ? q : q + 1;
  }
  static int64_t min(int64_t a, int64_t b) { return a < b ? a : b; }
  static int64_t max(int64_t a, int64_t b) { return a > b ? a : b; }
};

}  // namespace tilec_txn
