// Writes a module as PTO assembly (.pto): MLIR text in the `pto` dialect exactly as
// PTOAS parses and verifies it. Strictly 1:1: every decision (memory spaces, moves,
// buffers) was made by a pass and is visible in the IR; this only translates.
#pragma once
#include <iosfwd>

#include "ir/IR.h"
#include "support/Diagnostics.h"
#include "support/OutputBuffer.h"

namespace tilec::pto {

// Requires PropPtoLegal (the pto-legality pass ran). Returns false (after
// reporting) only for IR the legality pass should have rejected; the caller then
// discards what was written.
// With `fixedAddresses`, when plan-addresses gave every tile an address, each
// pto.alloc_tile carries it and the file is for PTOAS's --pto-level=level3 (its first
// line says so); otherwise PTOAS's PlanMemory places the tiles (level2).
bool emitModule(const ir::Module& m, OutputBuffer& os, DiagnosticEngine& diags, bool fixedAddresses);

}  // namespace tilec::pto
