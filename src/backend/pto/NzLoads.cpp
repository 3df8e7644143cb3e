#include "backend/pto/NzLoads.h"

#include "ir/Builder.h"
#include "ir/Describe.h"
#include "ir/NdShape.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
using namespace ir;

bool convertsToNz(const Type& tile) {
  return tile.model() && tile.model()->hasRole(tile.space(), kMatmulStage) && tile.hasDefaultLayout();
}

bool loadThroughRowView(Op& load, const std::vector<Expr>& window, DiagnosticEngine& diags) {
  const Type& tensor = load.operand(0)->type();
  if (!nd::collapsesContiguously(window, tensor.dims())) {
    diags.report(Diag::NdLoadNotContiguous, load.loc(),
                 "load into mat reads the window " + ir::shapeText(window) + " of a " + ir::shapeText(tensor.dims()) +
                     " tensor, which is not one contiguous run of rows; the 2-D NZ conversion needs that, so load "
                     "one page per iteration of a loop over the outer axis");
    return false;
  }
  Value* view = OpBuilder::before(load).createValue(
      OpKind::TensorView, {load.operand(0)}, {}, Type::tensor(tensor.dtype(), nd::collapseExprs(tensor.dims())),
      load.operand(0)->name() + "_2d");
  load.setOperand(0, passes::madeFrom(view, load.operand(0)));
  load.set(attr::offsets, nd::foldOffsets(load.get(attr::offsets), tensor.dims()));
  load.remove(attr::window);
  return true;
}

}  // namespace tilec::pto
