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
#pragma once
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
};

// Requires every op of a block form and loops that carry no tile but a rolled loop's tile
// array (linx-legality).
std::vector<PlannedBlock> planBlocks(const ir::Function& f);

// The op whose `buffers` attribute holds the hand of a pushed tile (its index in kHandNames).
ir::Op* handOwner(const ir::Value* pushed);

}  // namespace tilec::linx
