// Loads that convert to NZ: a load into a matmul stage (mat) in its default layout turns
// ND rows into 16x16-box fractals, and that conversion is 2-D. flatten-nd-to-2d rewrites
// the N-D loads declared in mat, infer-memory-space the ones that land in mat only there.
#pragma once
#include <vector>

#include "ir/IR.h"
#include "support/Diagnostics.h"

namespace tilec::pto {

// Whether a load producing `tile` converts it to NZ.
bool convertsToNz(const ir::Type& tile);

// Makes `load` read `window` of its tensor through a 2-D view of the tensor (rows: every
// axis but the last): the load's operand becomes that view and its offsets fold into it.
// The window must be one contiguous run of rows; otherwise E0607 and false.
bool loadThroughRowView(ir::Op& load, const std::vector<ir::Expr>& window, DiagnosticEngine& diags);

}  // namespace tilec::pto
