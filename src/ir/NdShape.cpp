#include "ir/NdShape.h"

#include "ir/Describe.h"
#include "ir/IR.h"

namespace tilec::nd {
using ir::Expr;

std::vector<int64_t> collapseShape(const std::vector<int64_t>& shape) {
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < shape.size(); ++i) rows *= shape[i];
  return {rows, shape.back()};
}

std::vector<Expr> collapseExprs(const std::vector<Expr>& dims) {
  std::vector<Expr> leading(dims.begin(), dims.end() - 1);
  return {ir::product(leading), dims.back()};
}

// The valid rows of the collapse: the product of the leading valid extents. Each is at most
// its axis's extent (a rule every tile type obeys), so the product is at most the collapsed
// rows; where the prover cannot see that (two symbolic factors), the bound is written out.
static std::vector<Expr> collapseValid(const std::vector<Expr>& valid, int64_t rows) {
  std::vector<Expr> flat = collapseExprs(valid);
  const Expr physical = Expr::constant(rows);
  if (ir::prove(ir::CmpKind::LE, flat[0], physical) != std::optional<bool>(true))
    flat[0] = Expr::min(physical, flat[0]);
  return flat;
}

ir::Type collapseTile(const ir::Type& t) {
  std::vector<int64_t> shape = collapseShape(t.shape());
  return t.reshapedTo(shape, collapseValid(t.valid(), shape[0]));
}

std::vector<Expr> foldOffsets(const std::vector<Expr>& offsets, const std::vector<Expr>& dims) {
  Expr row = Expr::constant(0);  // a 1-D offset is a column of the one row
  for (size_t i = 0; i + 1 < offsets.size(); ++i) row = row * dims[i] + offsets[i];
  return {row, offsets.back()};
}

bool collapsesContiguously(const std::vector<Expr>& part, const std::vector<Expr>& full) {
  if (part.size() != full.size()) return true;
  size_t i = 0;
  const size_t rowDims = part.size() - 1;
  while (i < rowDims && part[i].asConst() == std::optional<int64_t>(1)) ++i;
  if (i < rowDims) ++i;  // the one partial dim
  for (; i < rowDims; ++i)
    if (!ir::provablyEqual(part[i], full[i])) return false;
  return true;
}

namespace {

// True when `a > b` is certain (both constant); symbolic extents never "overflow".
bool certainlyExceeds(const Expr& a, const Expr& b) {
  return ir::prove(ir::CmpKind::GT, a, b) == std::optional<bool>(true);
}

}  // namespace

StoreWindow storeWindow(const std::vector<Expr>& valid, const std::vector<Expr>& dims,
                        const std::vector<Expr>& offsets) {
  using F = StoreWindow::Failure;
  StoreWindow out;
  const size_t rank = dims.size();
  out.window.assign(rank - valid.size(), Expr::constant(1));
  out.window.insert(out.window.end(), valid.begin(), valid.end());
  // Only a 2-D tile's rows may run on into the outer axes: an N-D tile's axes are the
  // tensor's trailing axes one for one, and the caller's bounds check holds them to it.
  bool rowsSpanAxes = valid.size() == 2 && rank > 2 && certainlyExceeds(valid[0], dims[rank - 2]);
  if (!rowsSpanAxes) return out;

  // The tile's rows run on into the outer axes: consume whole axes from the innermost out.
  const Expr& cols = valid.back();
  const int64_t rows = valid[0].constValue();
  if (certainlyExceeds(offsets.back() + cols, dims.back())) {
    out.failure = F::PastTensor;
    out.message = "store writes " + ir::exprText(cols) + " columns at offset " + ir::exprText(offsets.back()) +
                  " of an axis whose extent is " + ir::exprText(dims.back()) +
                  ", past the end of the tensor; store fewer columns or start further left";
    return out;
  }
  out.window.assign(rank, Expr::constant(1));
  out.window.back() = cols;
  int64_t remaining = rows;
  for (size_t a = rank - 1; a-- > 0;) {
    std::optional<int64_t> extent = dims[a].asConst();
    if (!extent || remaining <= *extent) {  // the rows that remain are a part of this axis
      out.window[a] = Expr::constant(remaining);
      if (certainlyExceeds(offsets[a] + out.window[a], dims[a])) {
        out.failure = F::PastTensor;
        out.message = "store writes " + std::to_string(remaining) + " rows at offset " +
                      ir::exprText(offsets[a]) + " of axis " + std::to_string(a) + ", whose extent is " +
                      ir::exprText(dims[a]) + ", past the end of the tensor; store fewer rows or start at a "
                      "lower offset";
      }
      return out;
    }
    if (*extent <= 0) {  // IR text can say so; the frontend rejects it
      out.failure = F::PastTensor;
      out.message = "axis " + std::to_string(a) + " of the tensor has extent " + std::to_string(*extent) +
                    ", so no row can be stored there; give the tensor positive dims";
      return out;
    }
    if (remaining % *extent != 0) {
      out.failure = F::FractionalAxis;
      out.message = "the tile's " + std::to_string(rows) +
                    " rows span several tensor axes, so they must fill axis " + std::to_string(a) +
                    " (extent " + std::to_string(*extent) + ") a whole number of times, but " +
                    std::to_string(remaining) +
                    " rows remain; store one whole axis at a time (loop over the outer axis) or "
                    "give the destination a shape whose rows are a single axis";
      return out;
    }
    if (offsets[a].asConst() != std::optional<int64_t>(0)) {
      out.failure = F::NonZeroOffset;
      out.message = "store fills axis " + std::to_string(a) + " (extent " + std::to_string(*extent) +
                    ") completely, so it must start at offset 0 there, not " + ir::exprText(offsets[a]) +
                    "; otherwise the written rows are not one contiguous box";
      return out;
    }
    out.window[a] = dims[a];
    remaining /= *extent;
  }
  if (remaining != 1) {
    out.failure = F::PastTensor;
    out.message = "store writes " + std::to_string(rows) +
                  " rows but the tensor's leading axes hold only " +
                  std::to_string(rows / remaining) + "; store fewer rows";
  }
  return out;
}

bool packedIsPhysical(const ir::Type& t) {
  return t.rank() <= 2 || collapsesContiguously(t.valid(), ir::constExprs(t.shape()));
}

Diag StoreWindow::diag() const {
  switch (failure) {
    case Failure::FractionalAxis:
      return Diag::StoreFractionalAxis;
    case Failure::NonZeroOffset:
      return Diag::StoreAxisOffset;
    default:
      return Diag::StorePastTensor;
  }
}

std::vector<Expr> accessWindow(const ir::Op& op) {
  if (const auto* w = op.find(ir::attr::window)) return *w;
  const bool store = op.kind() == ir::OpKind::Store;
  const ir::Type& tile = store ? op.operand(0)->type() : op.result()->type();
  const ir::Type& tensor = op.operand(store ? 1 : 0)->type();
  const auto* offsets = op.find(ir::attr::offsets);
  if (store && offsets) {
    StoreWindow w = storeWindow(tile.valid(), tensor.dims(), *offsets);
    if (w.failure == StoreWindow::Failure::None) return w.window;
  }
  return paddedWindow(tile, std::max(tensor.rank(), tile.rank()));
}

std::vector<Expr> paddedWindow(const ir::Type& tile, size_t rank) {
  std::vector<Expr> window(rank - tile.rank(), Expr::constant(1));
  window.insert(window.end(), tile.valid().begin(), tile.valid().end());
  return window;
}

}  // namespace tilec::nd
