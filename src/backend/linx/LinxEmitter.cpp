// The linx outputs: every tile op is one block. Its binders (B.IOT) name the source tiles
// by their place in the relative tile queue (T#1 is the tile bound last) and give the
// result a destination of its SizeCode; a source that is a partition slot gets a
// B.SUBVIEW right after the binder that names it; a result written into a tile-array slot
// gets a B.ASSEMBLE after the binder that writes it. Revision B: the first write
// allocates the whole tile (->T<parent>) and later ones name it as their last source;
// revision A: every write's binder has a destination of the writer's size on the array's
// hand (->T<writer>), and INIT's B.ASSEMBLE carries the parent's size. A Shared tile array
// is bound by B.IOS words after the block's B.IOT binders: a source `B.IOS S2, mask=M`
// (then its B.SUBVIEW 0: a Shared group has no source 1), and a slot write's destination,
// whose size follows the same revision rule (`->S2<parent>` on INIT, then the register
// as its final binding with SizeCode 0 under B; `->S2<writer>` every time under A), then
// its B.ASSEMBLE. Every binding of a block has the block's PE mask (LinxBlocks.h). The
// listing and the binary come from one list of words. Linear in the kernel.
#include <algorithm>
#include <cstdio>
#include <set>
#include <ostream>

#include "backend/linx/LinxBlocks.h"
#include "backend/linx/LinxLayout.h"
#include "backend/linx/LinxOps.h"
#include "backend/linx/LinxTargets.h"
#include "backend/linx/LinxWords.h"
#include "ir/IRText.h"
#include "ir/ValueMap.h"

namespace tilec::linx {
namespace {
using namespace ir;

struct EmittedWord {
  HeaderWord word;
  uint32_t bits;
};

struct Block {
  std::string start;                  // "BSTART.SFU TEXP, FP32"
  std::vector<std::string> registers; // "a0 = 16 * k" lines the block's modifiers read
  std::vector<std::string> dims;      // pseudo-instructions before the binders (B.DIM)
  std::vector<EmittedWord> words;
  std::string ior;                    // the pseudo-instruction after them (B.IOR), if any
  std::string body;                   // the tile op, for the listing
};

const char* dtypeMnemonic(DType d) {
  switch (d) {
    case DType::F32: return "FP32";
    case DType::F16: return "FP16";
    case DType::BF16: return "BF16";
    case DType::I64: case DType::Index: return "S64";
    case DType::I32: return "S32";
    case DType::I16: return "S16";
    case DType::I8: return "S8";
    case DType::U32: return "U32";
    case DType::U16: return "U16";
    case DType::U8: case DType::Bool: return "U8";
  }
  return "?";
}

class BlockWriter {
 public:
  BlockWriter(const Function& f, AssembleRev rev, bool pseudo) : rev_(rev), pseudo_(pseudo), names_(f) {}

  // Hands each block to `take` as it is made: the listing of a 10^5-block kernel is never
  // held whole.
  template <class Take>
  void write(const std::vector<PlannedBlock>& plan, Take&& take) {
    for (const PlannedBlock& p : plan) take(p.entry == PlanEntry::Block ? block(p) : loopLine(p));
  }

 private:
  Block block(const PlannedBlock& p) {
    const Op& op = *p.op;
    // A copy into a slot is the block of a move.
    const LinxOpInfo& row = p.copy ? *findLinxOp(OpKind::Move) : linxOp(op);
    const Type& t = p.copy ? op.operand(1)->type() : op.numResults() ? op.result()->type() : op.operand(0)->type();
    Block b;
    b.start = "BSTART." + std::string(row.engine) + " " + row.opcode + ", " + dtypeMnemonic(t.dtype());
    b.body = std::string(row.opcode) + "  (" + describe(op) + ")";
    if (pseudo_) pseudoHeaders(op, t, b);
    const int peMode = peModeForMask(p.pes);
    std::vector<PlannedSource> sources, shared;
    for (const PlannedSource& s : p.sources) (isSharedTile(s.tile) ? shared : sources).push_back(s);
    const bool sharedWrite = p.write && isSharedTile(p.array);
    if (p.write && !sharedWrite && rev_ == AssembleRev::B && !opensGeneration(*p.write)) sources.push_back({p.array});
    std::vector<int> selectors;
    for (const PlannedSource& s : sources) selectors.push_back(selector(op, s.tile));
    // A Local destination needs a B.IOT; a block that binds only Shared tiles has none.
    const bool localDestination = !sharedWrite && (p.write || p.pushed);
    size_t binders = (sources.size() + 1) / 2;
    if (binders == 0 && (localDestination || (shared.empty() && !sharedWrite))) binders = 1;
    for (size_t k = 0; k < binders; ++k) {
      IotWord iot;
      iot.peMode = peMode;
      std::vector<HeaderWord> modifiers;
      for (size_t s = 0; s < 2 && 2 * k + s < sources.size(); ++s) {
        (s == 0 ? iot.src0 : iot.src1) = selectors[2 * k + s];
        if (const Op* part = sources[2 * k + s].part) modifiers.push_back(subview(*part, int(s), b));
      }
      if (k + 1 == binders) {
        iot.last = true;
        if (!sharedWrite) destination(p, iot);
        if (p.write && !sharedWrite) modifiers.push_back(assemble(*p.write, b));
      }
      add(b, iot, op);
      for (const HeaderWord& m : modifiers) add(b, m, op);
    }
    for (const PlannedSource& s : shared) {
      add(b, IosWord{sharedRegister(s.tile), 0, peMode}, op);
      if (s.part) add(b, subview(*s.part, 0, b), op);
    }
    if (sharedWrite) {
      add(b, IosWord{sharedRegister(p.array), assembleDestinationCode(*p.write, rev_), peMode}, op);
      add(b, assemble(*p.write, b), op);
    }
    if (p.pushed && !isSharedTile(p.pushed)) push(p.pushed);
    return b;
  }

  // The destination of a block's last binder. A slot write's is on its array's hand and
  // binds no new tile: revision A gives every write one of the writer's size, B only the
  // first, of the parent's size.
  void destination(const PlannedBlock& p, IotWord& iot) const {
    if (p.write) {
      iot.sizeCode = assembleDestinationCode(*p.write, rev_);
      if (iot.sizeCode) iot.dstHand = handOf(p.array);
    } else if (p.pushed) {
      iot.sizeCode = sizeCodeOf(p.pushed->type());
      iot.dstHand = handOf(p.pushed);
    }
  }

  // TileOP's block template: B.DIM lb0 (valid columns), lb1 (valid rows), lb2 (physical
  // columns) of the block's tile, each an immediate (a runtime extent is written as its
  // expression: the scalar code that computes it is not written); a TLOAD or TSTORE binds
  // its GM element and row stride with B.IOR.
  void pseudoHeaders(const Op& op, const Type& t, Block& b) const {
    auto text = [&](const Expr& e) { return e.str([&](const Value* v) { return names_(v); }); };
    const std::vector<Expr>& valid = t.valid();
    const std::string extents[] = {text(valid[1]), text(valid[0]), std::to_string(t.shape()[1])};
    for (int lb = 0; lb < 3; ++lb) b.dims.push_back("B.DIM zero, " + extents[lb] + ", ->lb" + std::to_string(lb));
    if (op.kind() != OpKind::Load && op.kind() != OpKind::Store) return;
    const Value* tensor = op.operand(op.kind() == OpKind::Load ? 0 : 1);
    std::string at;
    for (const Expr& e : op.get(attr::offsets)) at += (at.empty() ? "" : ", ") + text(e);
    b.ior = "B.IOR [%" + names_(tensor) + "[" + at + "], " + text(tensor->type().dims().back()) + "], []";
  }

  // A rolled loop's bounds, as a listing line: its body's blocks run once per iteration.
  Block loopLine(const PlannedBlock& p) const {
    Block b;
    auto text = [&](AttrKey<AttrKind::Expr> bound) {
      return p.op->get(bound).str([&](const Value* v) { return names_(v); });
    };
    const std::string var = names_(p.op->body().arg(0));
    b.body = p.entry == PlanEntry::LoopBegin
                 ? "loop " + var + " = " + text(attr::lb) + " .. " + text(attr::ub) + " step " + text(attr::step) +
                       " (the blocks up to its end run once per iteration)"
                 : "end loop " + var;
    return b;
  }

  HeaderWord subview(const Op& part, int select, Block& b) {
    SubviewWord w;
    w.srcSelect = select;
    w.regSrc = registerOf(part, b);
    w.uimm11 = int(part.get(attr::imm));
    w.sizeCode = sizeCodeOf(part.result()->type());
    return w;
  }

  HeaderWord assemble(const Op& insert, Block& b) {
    const RegionPhase phase = insert.get(attr::phase);
    AssembleWord w;
    w.init = phase == RegionPhase::Init || phase == RegionPhase::InitLast;
    w.last = phase == RegionPhase::Last || phase == RegionPhase::InitLast;
    w.regSrc = registerOf(insert, b);
    w.uimm11 = int(insert.get(attr::imm));
    w.field5 = assembleSizeField(insert, rev_);
    return w;
  }

  int registerOf(const Op& region, Block& b) {
    const int64_t* reg = region.find(attr::reg);
    if (!reg) return 0;
    const Expr inRegister = region.get(attr::offset) - Expr::constant(region.get(attr::imm));
    if (announced_.insert(int(*reg)).second)
      b.registers.push_back(std::string(gprName(int(*reg))) + " = " +
                            inRegister.str([&](const Value* v) { return names_(v); }) + " (CELLs)");
    return int(*reg);
  }

  void add(Block& b, const HeaderWord& w, const Op& op) {
    std::string error;
    std::optional<uint32_t> bits = encodeWord(w, rev_, error);
    if (!bits) throw std::logic_error("linx: " + std::string(op.name()) + " made a word that does not encode: " + error);
    b.words.push_back({w, *bits});
  }

  static int handOf(const Value* tile) {
    const auto* hands = handOwner(tile)->find(attr::buffers);
    if (!hands || hands->size() != 1)
      throw std::logic_error("linx: a bound tile has no hand or Shared register (run linx-hands)");
    return int(hands->front());
  }

  // The Shared register linx-hands gave a Shared tile array.
  static int sharedRegister(const Value* tile) { return handOf(tile); }

  // The relative selector of `tile`: its hand's base (T 0, U 16, M 32, N 48) plus how many
  // tiles joined that hand after it.
  int selector(const Op& op, const Value* tile) {
    const int64_t* position = position_.find(tile);
    if (!position) throw std::logic_error("linx: " + std::string(op.name()) + " reads a tile no block bound");
    const int hand = handOf(tile);
    const int64_t back = pushes_[hand] - *position;  // 1 for the latest
    if (back < 1 || back > kQueueReach) throw std::logic_error("linx: a source out of its hand's reach");
    return hand * kQueueReach + int(back) - 1;
  }

  void push(const Value* tile) { position_[tile] = pushes_[handOf(tile)]++; }

  std::string describe(const Op& op) const {
    std::string s;
    for (const Value* r : op.results()) s += (s.empty() ? "%" : ", %") + names_(r);
    s += (s.empty() ? "" : " = ") + std::string(op.name());
    for (size_t i = 0; i < op.numOperands(); ++i) s += (i ? ", %" : " %") + names_(op.operand(unsigned(i)));
    return s;
  }

  const AssembleRev rev_;
  const bool pseudo_;
  ValueNames names_;
  ValueMap<int64_t> position_;  // tile -> its push number in its hand
  int64_t pushes_[kHands] = {};
  std::set<int> announced_;
};

// Plans the module's one kernel, tells `start` how many blocks (loop lines aside) it has,
// then hands `take` each block as it is made: a 10^5-block listing is never held whole.
template <class Start, class Take>
void writeBlocks(const Module& m, const target::FlagValues& flags, Start&& start, Take&& take) {
  if (m.functions().size() != 1) throw std::logic_error("the linx writer needs one kernel");
  const AssembleRev rev = flags.at(kAssembleRevA) ? AssembleRev::A : AssembleRev::B;
  const Function& f = *m.functions().front();
  const std::vector<PlannedBlock> plan = planBlocks(f);
  start(std::count_if(plan.begin(), plan.end(), [](const PlannedBlock& p) { return p.entry == PlanEntry::Block; }));
  BlockWriter(f, rev, flags.at(kPseudoHeaders)).write(plan, take);
}

}  // namespace

bool emitListing(const Module& m, OutputBuffer& os, DiagnosticEngine& diags, const target::FlagValues& flags) {
  const bool revA = flags.at(kAssembleRevA);
  auto header = [&](std::ptrdiff_t count) {
    os << "linx assemble=" << (revA ? "A" : "B") << "\n";
    os << "; kernel " << m.functions().front()->name() << ": " << count << " blocks; B.ASSEMBLE field 5 is "
       << (revA ? "the parent's SizeCode on INIT, 0 after it (PTO 0.58.4)" : "the writer's SizeCode") << "\n";
  };
  char hex[16];
  writeBlocks(m, flags, header, [&](const Block& b) {
    if (b.start.empty()) {
      os << "; " << b.body << "\n";
      return;
    }
    for (const std::string& r : b.registers) os << "; " << r << "\n";
    os << b.start << "\n";
    auto pseudo = [&](const std::string& text) {
      os << "  " << text << std::string(text.size() < 44 ? 44 - text.size() : 1, ' ') << "# pseudo: no encoding\n";
    };
    for (const std::string& d : b.dims) pseudo(d);
    for (const EmittedWord& w : b.words) {
      std::string text = printWord(w.word);
      std::snprintf(hex, sizeof hex, "0x%08x", w.bits);
      os << "  " << text << std::string(text.size() < 44 ? 44 - text.size() : 1, ' ') << "# " << hex << "\n";
    }
    if (!b.ior.empty()) pseudo(b.ior);
    os << "  ; " << b.body << "\n";
    os << "BSTOP\n";
  });
  return true;
}

bool emitBinary(const Module& m, OutputBuffer& os, DiagnosticEngine& diags, const target::FlagValues& flags) {
  writeBlocks(m, flags, [](std::ptrdiff_t) {}, [&](const Block& b) {
    for (const EmittedWord& w : b.words)
      for (int i = 0; i < 4; ++i) os.put(char(uint8_t(w.bits >> (8 * i))));
  });
  return true;
}

}  // namespace tilec::linx
