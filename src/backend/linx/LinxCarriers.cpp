#include "backend/linx/LinxCarriers.h"

#include "ir/Builder.h"
#include "passes/PassUtils.h"

namespace tilec::linx {
using namespace ir;

Op* packRun(const std::vector<Op*>& run, const std::vector<int64_t>& coarse, const std::vector<Expr>& index,
            bool rows) {
  const Type& slot = run.front()->operand(1)->type();
  const int64_t n = int64_t(run.size());
  // The n fragments side by side; across them the carrier keeps the fragments' valid
  // extent (a padded column's one valid column).
  const Type carrierType =
      rows ? slot.withShape({slot.shape()[0] * n, slot.shape()[1]}, {Expr::constant(slot.shape()[0] * n), slot.valid()[1]})
           : slot.withShape({slot.shape()[0], slot.shape()[1] * n}, {slot.valid()[0], Expr::constant(slot.shape()[1] * n)});
  Value* carrier = OpBuilder::before(*run.front()).createValue(OpKind::Create, {}, {}, carrierType, "carrier");
  for (int64_t k = 0; k < n; ++k) {
    Op& write = *run[size_t(k)];
    const std::vector<Expr> at = rows ? std::vector<Expr>{Expr::constant(k * slot.shape()[0]), Expr::constant(0)}
                                      : std::vector<Expr>{Expr::constant(0), Expr::constant(k * slot.shape()[1])};
    carrier = OpBuilder::before(write).createValue(OpKind::Assemble, {carrier, write.operand(1)}, {attr::offsets(at)},
                                                   {}, "carrier");
    if (k + 1 < n) {
      write.result()->replaceAllUsesWith(write.operand(0));
      write.parentBlock()->erase(&write);
    }
  }
  Op& slotWrite = *run.back();
  Op* packed = OpBuilder::before(slotWrite).create(OpKind::RegionInsert, {slotWrite.operand(0), carrier},
                                                   {attr::grid(coarse), attr::index(index)}, {},
                                                   slotWrite.result()->name());
  passes::madeFrom(packed->result(), slotWrite.result());
  slotWrite.result()->replaceAllUsesWith(packed->result());
  slotWrite.parentBlock()->erase(&slotWrite);
  return packed;
}

}  // namespace tilec::linx
