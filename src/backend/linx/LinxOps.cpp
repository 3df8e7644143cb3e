#include "backend/linx/LinxOps.h"

#include <array>
#include <stdexcept>
#include <string>

namespace tilec::linx {

const LinxOpInfo* findLinxOp(ir::OpKind k) {
  static const std::array<const LinxOpInfo*, ir::kNumOpKinds> kRowOf = [] {
    std::array<const LinxOpInfo*, ir::kNumOpKinds> rows{};
    for (const LinxOpInfo& row : kLinxOps) rows[size_t(row.kind)] = &row;
    return rows;
  }();
  return kRowOf[size_t(k)];
}

const LinxOpInfo& linxOp(const ir::Op& op) {
  if (const LinxOpInfo* row = findLinxOp(op.kind())) return *row;
  throw std::logic_error(std::string(op.name()) + " reached the linx backend past linx-legality, which refuses it");
}

}  // namespace tilec::linx
