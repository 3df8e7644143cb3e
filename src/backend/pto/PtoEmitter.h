// Writes a module as PTO assembly (.pto): MLIR text in the `pto` dialect exactly as
// PTOAS parses and verifies it. Strictly 1:1: every decision (memory spaces, moves,
// buffers) was made by a pass and is visible in the IR; this only translates.
#pragma once
#include <iosfwd>

#include "ir/IR.h"
#include "support/Diagnostics.h"

namespace tilec::pto {

// Requires PropPtoLegal (the pto-legality pass ran). Returns false (after
// reporting) only for IR the legality pass should have rejected.
bool emitModule(const ir::Module& m, std::ostream& os, DiagnosticEngine& diags);

}  // namespace tilec::pto
