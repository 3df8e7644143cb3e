#include "backend/linx/LinxOps.h"

#include <stdexcept>
#include <string>

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

const LinxOpInfo& linxOp(const ir::Op& op) {
  if (const LinxOpInfo* row = findLinxOp(op.kind())) return *row;
  throw std::logic_error(std::string(op.name()) + " reached the linx backend past linx-legality, which refuses it");
}

}  // namespace tilec::linx
