// The linx backend's per-op table (LinxOps.def): which ops are blocks, on which engine,
// with which opcode, and how their tiles share row columns; read by linx-align-rows,
// linx-legality, the block plan and the emitter. Ops of the groups linx does not accept
// (runtime sequences) have no row: linx-legality refuses them.
#pragma once
#include "ir/IR.h"
#include "ir/OpTable.h"

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

// Every row of LinxOps.def.
const ir::OpTable<LinxOpInfo>& linxOps();

// The row of op kind `k`, or null: the op is of a group linx does not accept.
const LinxOpInfo* findLinxOp(ir::OpKind k);
// The row of an op that passed linx-legality, which refused every op without one; an
// internal error (std::logic_error) for an op without one.
const LinxOpInfo& linxOp(const ir::Op& op);

}  // namespace tilec::linx
