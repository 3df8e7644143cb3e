#include "backend/linx/LinxOps.h"

namespace tilec::linx {

const ir::OpTable<LinxOpInfo>& linxOps() {
  static const LinxOpInfo kRows[] = {
#define TILEC_LINX_OP(E, FORM, ROWS, ENGINE, OPCODE, WHY) \
  {ir::OpKind::E, LinxForm::FORM, LinxRows::ROWS, ENGINE, OPCODE, WHY},
#include "backend/linx/LinxOps.def"
#undef TILEC_LINX_OP
  };
  static const ir::OpTable<LinxOpInfo> kTable(kRows);
  return kTable;
}

const LinxOpInfo* findLinxOp(ir::OpKind k) { return linxOps().find(k); }

const LinxOpInfo& linxOp(const ir::Op& op) { return linxOps().rowOf(op, "linx-legality"); }

}  // namespace tilec::linx
