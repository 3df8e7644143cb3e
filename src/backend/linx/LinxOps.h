// The linx backend's per-op table (LinxOps.def): which ops are blocks, on which engine,
// with which opcode, and how their tiles share row columns; header-only data read by
// linx-align-rows, linx-legality and the emitter.
#pragma once
#include <iterator>

#include "ir/IR.h"

namespace tilec::linx {

enum class LinxForm { Block, Fused, View, Marker, Fresh, Scalar, Control, None };
// How an op's tiles share their rows' physical columns (LinxOps.def, "Rows").
enum class LinxRows { Own, Statistic, Shared, FirstShared, Sliced, Reads, Tied };

struct LinxOpInfo {
  ir::OpKind kind;
  LinxForm form;
  LinxRows rows;
  const char* engine;  // BSTART.<engine>
  const char* opcode;
  const char* noForm;  // why an op of form None has none
};

inline constexpr LinxOpInfo kLinxOps[] = {
#define TILEC_LINX_OP(E, FORM, ROWS, ENGINE, OPCODE, WHY) \
  {ir::OpKind::E, LinxForm::FORM, LinxRows::ROWS, ENGINE, OPCODE, WHY},
#include "backend/linx/LinxOps.def"
#undef TILEC_LINX_OP
};
inline constexpr size_t kNumLinxOps = std::size(kLinxOps);

// The row of op kind `k` (rows are in OpKind order; tests/unit/opdefs_test.cpp checks it).
inline const LinxOpInfo& linxOp(ir::OpKind k) { return kLinxOps[size_t(k)]; }

}  // namespace tilec::linx
