// columns-as-rows: PTO's vector instructions take row-major tiles (pto-isa's tadd, texp,
// tadds, ... assert it), but a row reduction gives a [R, 1] column vector, stored as R
// consecutive elements like the [1, R] row. So an elementwise, tile-scalar or unary op
// (or a `full`) on column vectors runs on their row views: each column operand is
// reshaped to [1, R] (treshape, no copy), the op makes a [1, R] row, and a reshape back to
// [R, 1] gives its users the column they expect. A column operand that is such a reshape
// back is read as its row directly, so a chain of column arithmetic (online softmax's
// running max and sum) stays in row form and reshapes only where a column is consumed
// (row_expand_*). Linear in the number of ops.
#include "backend/pto/PtoTargets.h"
#include "ir/Builder.h"
#include "ir/OpDefs.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
namespace {
using namespace ir;

bool isColumn(const Value* v) {
  if (!passes::isTile(v)) return false;
  const Type& t = v->type();
  return t.rank() == 2 && t.space() == Space::Vec && t.shape()[1] == 1 &&
         t.layout().blayout == BLayout::ColMajor;
}

// The [1, R] row a [R, 1] column's elements make.
Type rowOf(const Type& column) {
  return column.reshapedTo({1, column.shape()[0]}, {Expr::constant(1), column.valid()[0]});
}

bool pointwise(const Op& op) {
  return op.kind() == OpKind::Full || opInfo(op.kind()).has(OpTrait(Elementwise | TileScalar | Unary));
}

bool onColumns(const Op& op) {
  if (!pointwise(op)) return false;
  for (const Value* v : op.operands())
    if (isColumn(v)) return true;
  return op.numResults() == 1 && isColumn(op.result());
}

class ColumnsAsRows final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"columns-as-rows",
                                "run elementwise work on [R, 1] column vectors on their [1, R] row views",
                                PropSSA | PropMemSpacesInferred, 0, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext&) override {
    for (auto& f : m.functions()) {
      std::vector<Op*> backs;
      for (Op* op : passes::preorder(*f))
        if (onColumns(*op)) backs.push_back(rewrite(*op));
      for (Op* back : backs)
        if (!back->result()->hasUses()) back->parentBlock()->erase(back);
    }
    return true;
  }

 private:
  // Rewrites `op` to work on rows; returns the reshape that gives its result back as a column.
  Op* rewrite(Op& op) {
    for (unsigned i = 0; i < op.numOperands(); ++i)
      if (isColumn(op.operand(i))) op.setOperand(i, rowView(op.operand(i), op));
    Value* result = op.result();
    const Type column = result->type();
    const std::vector<Use> uses = result->uses();
    result->setType(rowOf(column));
    OpBuilder after(*op.parentBlock(), op.nextOp());
    after.setLoc(op.loc());
    Op* back = after.create(OpKind::Reshape, {result}, {}, column, result->name());
    passes::madeFrom(back->result(), result);
    result->setName(result->name().empty() ? "row" : result->name() + "_row");
    for (const Use& u : uses) u.user->setOperand(u.index, back->result());
    return back;
  }

  // `column` as a row: the row a reshape back was made from, else a new reshape before `user`.
  static Value* rowView(Value* column, Op& user) {
    const Op* def = column->definingOp();
    if (def && def->kind() == OpKind::Reshape && def->operand(0)->type() == rowOf(column->type()))
      return def->operand(0);
    OpBuilder before = OpBuilder::before(user);
    Value* row = before.createValue(OpKind::Reshape, {column}, {}, rowOf(column->type()),
                                    column->name().empty() ? "row" : column->name() + "_row");
    return passes::madeFrom(row, column);
  }
};

}  // namespace

std::unique_ptr<Pass> createColumnsAsRowsPass() { return std::make_unique<ColumnsAsRows>(); }

}  // namespace tilec::pto
