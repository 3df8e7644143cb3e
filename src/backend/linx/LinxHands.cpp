// linx-hands: which hand (T, U, M, N) each tile is bound to. A binder names a source by
// its place among the tiles bound to the same hand since (T#1 is the latest, T#16 the
// oldest it can name), so every tile must be read before 16 more tiles join its hand.
// Tiles are taken in binding order; a tile whose reads end within 16 blocks tries T
// first, a longer-lived one the other hands first, and it takes the first hand where
// neither it nor any tile still read from that hand would be pushed out of reach. The
// hand is the result's `buffers` attribute, so --emit-ir shows it; a tile no hand can
// keep in reach is E1105. A rolled loop (a runtime trip count) lists its body once: tiles
// live when it starts keep their hands to themselves until it ends, so their places stay
// the same in every iteration, and the body binds its tiles to the other hands; so does
// the rolled MIDDLE of a peeled slot-writing loop, whose array (bound by INIT before the
// loop, its generation open until LAST after it) is live when it starts. A tile
// array's INIT opens a generation on its hand that its LAST write closes; until then no
// other tile may be bound to that hand (the hardware faults an ordinary destination, or a
// second INIT, on a hand with an open generation), so the tiles made between a slot write
// and the next go to the other hands; E1108 when none is left. The array is one queue
// entry from its INIT: later writes reuse it, naming it as their last source (revision B)
// or as a destination on its hand (A), and add no entry, so the plan is the same under
// both revisions. Linear in the blocks times the tiles live at once.
// A Shared tile array takes no hand but a Shared register of its own, S0..S255 in the order
// of their INITs (its `buffers`): pto-spec's Shared register keeps a persistent descriptor
// whose first write fixes its allocation, so a register is not handed to a second array;
// E1112 past 256 arrays.
// The pass also reports a block whose bindings no one PE mask serves (E1110, LinxBlocks.h).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "backend/linx/LinxBlocks.h"
#include "backend/linx/LinxTargets.h"
#include "ir/Describe.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::linx {
namespace {
using namespace ir;

struct Live {
  const Value* tile;
  size_t lastRead;   // block index of its last read
  int64_t joined = 0;  // tiles bound to its hand after it so far
};

class HandAssigner {
 public:
  HandAssigner(Function& f, const TargetModel&, DiagnosticEngine& diags) : f_(f), diags_(diags) {}

  void run() {
    const std::vector<PlannedBlock> blocks = planBlocks(f_);
    std::map<const Value*, size_t> lastRead, lastWrite;
    for (size_t i = 0; i < blocks.size(); ++i) {
      for (const PlannedSource& s : blocks[i].sources) lastRead[s.tile] = i;
      if (blocks[i].array) lastRead[blocks[i].array] = lastWrite[blocks[i].array] = i;
    }
    for (size_t i = 0; i < blocks.size(); ++i) {
      retire(i);
      if (blocks[i].entry == PlanEntry::LoopBegin) {
        frozen_.push_back(frozen_.back() | liveHands());
        continue;
      }
      if (blocks[i].entry == PlanEntry::LoopEnd) {
        frozen_.pop_back();
        continue;
      }
      if (!blocks[i].conflict.empty()) return reportMask(blocks[i]);
      const Value* tile = blocks[i].pushed;
      if (!tile) continue;
      const size_t last = lastRead.count(tile) ? lastRead[tile] : i;
      if (isSharedTile(tile)) {
        if (sharedArrays_ == kSharedRegisters) return reportShared(*blocks[i].op);
        handOwner(tile)->set(attr::buffers, std::vector<int64_t>{sharedArrays_++});
        continue;
      }
      const int hand = place(tile, i, last);
      if (hand < 0) return report(*blocks[i].op, tile);
      if (blocks[i].write) openUntil_[hand] = lastWrite[tile];
    }
  }

 private:
  // Tiles whose last read is before block i no longer constrain their hand.
  void retire(size_t i) {
    for (auto& hand : live_)
      hand.erase(std::remove_if(hand.begin(), hand.end(), [&](const Live& l) { return l.lastRead < i; }), hand.end());
  }

  // The hands holding a tile still to be read.
  unsigned liveHands() const {
    unsigned mask = 0;
    for (int h = 0; h < kHands; ++h)
      if (!live_[h].empty()) mask |= 1u << h;
    return mask;
  }

  // The hand `tile` is bound to at block `at`, or -1. A short-lived tile tries the first
  // hand (T) first, a longer-lived one the others first.
  int place(const Value* tile, size_t at, size_t last) {
    const bool shortLived = int64_t(last - at) <= kQueueReach;
    blockedByGeneration_ = false;
    for (int i = 0; i < kHands; ++i) {
      const int h = shortLived ? i : (i + 1) % kHands;
      if (frozen_.back() & (1u << h)) continue;
      if (openUntil_[h] > at) {
        blockedByGeneration_ = true;
        continue;
      }
      bool fits = true;
      for (const Live& l : live_[h]) fits = fits && l.joined + 1 < kQueueReach;
      if (!fits) continue;
      for (Live& l : live_[h]) ++l.joined;
      live_[h].push_back({tile, last});
      handOwner(tile)->set(attr::buffers, std::vector<int64_t>{h});
      return h;
    }
    return -1;
  }

  void reportShared(const Op& op) {
    diags_.report(Diag::LinxSharedRegs, op.loc(),
                  "this block starts a Shared tile array, but the kernel's earlier Shared arrays hold all " +
                      std::to_string(kSharedRegisters) + " Shared registers (S0 .. S" +
                      std::to_string(kSharedRegisters - 1) +
                      "), and a Shared register keeps the descriptor its first write gives it, so each array has its "
                      "own; keep some of the arrays Local, or build fewer, larger ones");
  }

  void reportMask(const PlannedBlock& b) {
    diags_.report(Diag::LinxPeMask, b.op->loc(),
                  "every binding of a linx block has the same PE mask (a mismatched one faults): " + b.conflict +
                      "; give the Shared arrays the same pes =, or make the Local tiles on every PE that reads them");
  }

  void report(const Op& op, const Value* tile) {
    const std::string name = describe(tile, diags_.sources());
    if (blockedByGeneration_) {
      diags_.report(Diag::LinxOpenGeneration, op.loc(),
                    "the tile " + name + " bound here needs a hand, but every hand (" + handList() +
                        ") that could keep it in reach holds a tile array whose assembly is still open, and a tile "
                        "bound to such a hand faults; finish one array's slot writes before starting the next, or "
                        "make fewer tiles between them");
      return;
    }
    static_assert(kHands == 4, "E1105 spells the number of hands");
    diags_.report(Diag::LinxQueueDepth, op.loc(),
                  "the tile " + name + " bound here cannot be kept within reach: each of the four hands (" +
                      handList() + ") already holds tiles that are read again after " +
                      std::to_string(kQueueReach - 1) + " more joined it, and a binder names only the latest " +
                      std::to_string(kQueueReach) +
                      " of a hand; read tiles sooner after they are made, or make them again closer to their use");
  }

  Function& f_;
  DiagnosticEngine& diags_;
  std::vector<Live> live_[kHands];
  // Per enclosing rolled loop, the hands its body must not bind to: those holding a tile
  // live when the loop starts, whose place would otherwise shift with every iteration.
  std::vector<unsigned> frozen_ = {0};
  // Per hand, the block of the LAST write of the tile-array generation open on it (0: none).
  size_t openUntil_[kHands] = {};
  bool blockedByGeneration_ = false;  // why the last place() failed
  int64_t sharedArrays_ = 0;  // Shared registers given so far

};

class LinxHands final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"linx-hands", "bind each tile to a hand of the relative tile queue", PropLinxLegal,
                                PropLinxHands, 0};
    return kInfo;
  }
  bool run(Module& m, PassContext& ctx) override { return passes::runOnFunctions<HandAssigner>(m, ctx.diags); }
};

}  // namespace

std::unique_ptr<Pass> createLinxHandsPass() { return std::make_unique<LinxHands>(); }

}  // namespace tilec::linx
