// The blocks of a linx kernel, in order: which op each computes, which tiles it binds as
// sources (by identity: a tile array is one tile from its first write to its assembly),
// which tile its destination binds, and which tile-array slot it writes. linx-hands plans
// the tile queue from this list and the emitter writes it, so the two cannot disagree.
// A value written into a slot by the block right before the write is fused into it (its
// binder gets the B.ASSEMBLE); any other slot write is a TMOV block of its own.
// A tile array is one queue entry, made by its first write (INIT); later writes refer to
// it without adding an entry, and how they refer to it depends on the B.ASSEMBLE
// revision, so the plan names the array apart from the sources and the emitter spells it:
// the binder's last source (revision B) or its destination on the array's hand (A).
// A Shared tile array (scope = shared) is no queue entry: it is an absolute Shared register
// that every block writing or reading it binds by B.IOS. Every binding of a block has one
// PE mask (pto-spec: a mismatched effective mask faults), the block's: its Shared array's
// writers' when it writes one, its Shared source's readers' when it reads one, else the
// PEs that hold all its Local sources (every PE when it has none). A Local tile is on the
// PEs of the block that made it.
#pragma once
#include <string>
#include <vector>

#include "backend/linx/LinxModel.h"
#include "ir/IR.h"

namespace tilec::linx {

struct PlannedSource {
  const ir::Value* tile;          // the tile in the queue
  const ir::Op* part = nullptr;   // the region.part that narrows it (B.SUBVIEW), if any
};

// A loop that stays rolled (a runtime trip count) is bracketed by a LoopBegin and a
// LoopEnd entry (`op` is the scf.for); its body's blocks are listed once.
enum class PlanEntry { Block, LoopBegin, LoopEnd };

struct PlannedBlock {
  PlanEntry entry = PlanEntry::Block;
  const ir::Op* op = nullptr;          // the tile op, or the region.insert a TMOV copy performs
  bool copy = false;                   // a TMOV into a slot
  std::vector<PlannedSource> sources;  // the data the op reads
  const ir::Value* pushed = nullptr;   // the tile the destination binds (an array on its first write)
  const ir::Op* write = nullptr;       // the slot write (region.insert) it performs
  const ir::Value* array = nullptr;    // the tile array that write builds
  std::string pes = "1111";            // the PEs the block runs on, PE0 leftmost
  std::string conflict;                // why no one mask serves all its bindings ("" when one does)
};

// Whether a planned tile is a Shared tile array, bound by B.IOS rather than a hand. A
// block's result is Local even when typing gives it the Shared space of a tile it reads
// (an assembled Shared array, or a slot of one): only slot writes bind a Shared destination.
bool isSharedTile(const ir::Value* tile);

// Requires every op of a block form and loops that carry no tile but a rolled loop's tile
// array (linx-legality).
std::vector<PlannedBlock> planBlocks(const ir::Function& f);

// The op whose `buffers` attribute holds the hand of a pushed tile (its index in kHandNames),
// or, for a Shared tile array, its Shared register (S0..S255).
ir::Op* handOwner(const ir::Value* pushed);

// A Shared tile array's PE masks ("1100", PE0 leftmost): its writers' (the region.array's
// `pes`) and its readers' (its region.assembly's, by default the writers'); every PE
// when the IR names none.
std::string writerPes(const ir::Op& array);
std::string readerPes(const ir::Op& assembly, const ir::Op& array);

}  // namespace tilec::linx
