// The second half of pack-accumulators: logical row windows of a 2-D accumulator.
#pragma once
#include "ir/IR.h"
#include "support/Diagnostics.h"

namespace tilec::pto {

// Packs the row windows of each 2-D accumulator updated in place through
//   w = slice(acc, [t*R, 0]); w = matmul_acc(w, ...); acc = assemble(acc, w, [t*R, 0])
// whose windows the matrix unit cannot address (wider than one 16-column block): the
// [T*R, N] tile becomes [R, T*N] and window t the column band at [0, t*N]; a store of the
// whole accumulator becomes one store per window at its logical rows. Reports why a chain
// cannot be packed; returns false after reporting. Near-linear (a union-find).
bool packRowWindows(ir::Function& f, DiagnosticEngine& diags);

}  // namespace tilec::pto
