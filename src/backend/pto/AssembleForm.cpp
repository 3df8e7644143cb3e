#include "backend/pto/AssembleForm.h"

#include <algorithm>

#include "backend/pto/PtoOps.h"

namespace tilec::pto {
using namespace ir;

namespace {

bool columnMajorVec(const Type& t) {
  return t.space() == Space::Vec && t.layout().blayout == BLayout::ColMajor &&
         t.layout().slayout == SLayout::NoneBox;
}

// A column-major tile as the row-major tile of the same bytes: shape and valid extents
// swapped; `wholeValid` gives the view its full shape as valid (a target, written only
// in the window).
Type rowView(const Type& t, bool wholeValid) {
  std::vector<Expr> valid;
  if (!wholeValid) valid = {t.valid()[1], t.valid()[0]};
  return t.withShape({t.shape()[1], t.shape()[0]}, std::move(valid)).withLayout(transposedLayout(t.layout()));
}

}  // namespace

bool rowMajorVec(const Type& t) {
  return t.space() == Space::Vec && t.layout().blayout == BLayout::RowMajor &&
         t.layout().slayout == SLayout::NoneBox;
}

AssembleWrite assembleWrite(const Op& assemble, Arch arch) {
  AssembleWrite w;
  w.target = assemble.operand(0)->type();
  w.source = assemble.operand(1)->type();
  if (const auto* offsets = assemble.find(attr::offsets)) w.offsets = *offsets;
  const bool plane = w.target.rank() == 2 && w.source.rank() == 2 && w.offsets.size() == 2;
  if (!plane || windowKeepsStrides(w.target, w.source.shape())) {
    w.form = AssembleForm::Move;
    return w;
  }
  const WindowWrites& rules = windowWrites(arch);
  w.rowViews = columnMajorVec(w.target) && columnMajorVec(w.source);
  if (rules.moveIntoWidenedSubview && !w.rowViews) {
    w.form = AssembleForm::Move;
    return w;
  }
  if (w.rowViews) {
    w.target = rowView(w.target, /*wholeValid=*/true);
    w.source = rowView(w.source, /*wholeValid=*/false);
    w.offsets = {w.offsets[1], w.offsets[0]};
  }
  if (!rowMajorVec(w.target) || !rowMajorVec(w.source)) return w;
  const uint32_t d = dtypeBit(w.source.dtype());
  const Expr step = Expr::constant(insertColumnStep(arch, w.source.dtype()));
  const bool aligned = provablyEqual(Expr::mod(w.offsets[1], step), Expr::constant(0));
  // A subview of a treshape is not lowered by PTOAS: views take tinsert only.
  if ((rules.insertDTypes & d) && aligned) w.form = AssembleForm::Insert;
  else if (!w.rowViews && (rules.addZeroDTypes & d)) w.form = AssembleForm::AddZero;
  return w;
}

int64_t insertColumnStep(Arch arch, DType d) {
  return std::max<int64_t>(1, windowWrites(arch).insertAlignBytes / dtypeBytes(d));
}

}  // namespace tilec::pto
