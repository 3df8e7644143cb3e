// The linx target: LinxISA block headers for kernels with tile regions. Its passes and
// its two outputs, the listing and the binary of the header words.
#pragma once
#include <memory>

#include "backend/linx/LinxModel.h"
#include "passes/Pass.h"
#include "target/Target.h"

namespace tilec::linx {

// The linx-only passes (one file each in this directory).
std::unique_ptr<Pass> createLinxPeelPass();
std::unique_ptr<Pass> createLinxUnrollPass();
std::unique_ptr<Pass> createLinxAlignRowsPass();
std::unique_ptr<Pass> createLinxPackCellsPass();
std::unique_ptr<Pass> createLinxLegalityPass();
std::unique_ptr<Pass> createLinxOffsetsPass();
std::unique_ptr<Pass> createLinxHandsPass();

// The linx passes' IR properties (passes/Pass.h).
extern const PropSet PropLinxRowsAligned;  // row-major tiles have rows of whole alignment units (linx-align-rows)
extern const PropSet PropLinxLegal;        // slots are proven CELL ranges, every op has a block form
extern const PropSet PropLinxOffsets;      // every region slot has its offset, immediate and register (linx-offsets)
extern const PropSet PropLinxHands;        // every bound tile has its hand of the tile queue (linx-hands)

const target::TargetDesc& linxTarget();

// With this flag B.ASSEMBLE follows PTO 0.58.4: its fifth field is the parent's SizeCode
// on INIT and 0 after it, and the writer's size is its binder's destination, in every
// phase. By default the fifth field is the writer's SizeCode in every phase, INIT's binder
// allocates the parent and later binders name it as their last source (the later
// revision).
inline constexpr const char* kAssembleRevA = "assemble-rev-a";

// With this flag the listing also has each block's B.DIM lines (lb0 valid columns, lb1
// valid rows, lb2 physical columns) and a TLOAD/TSTORE's B.IOR, as pseudo-instructions:
// no public source gives their encodings, so the binary has no word for them and the
// codec refuses to encode a listing that has them (docs/linx.md).
inline constexpr const char* kPseudoHeaders = "pseudo-headers";

bool emitListing(const ir::Module& m, OutputBuffer& os, DiagnosticEngine& diags, const target::FlagValues& flags);
bool emitBinary(const ir::Module& m, OutputBuffer& os, DiagnosticEngine& diags, const target::FlagValues& flags);

}  // namespace tilec::linx
