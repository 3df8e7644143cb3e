// Every tile.load and tile.store of a kernel drawn on its tensor: the tensor's last two
// axes as a panel (small multiples for the leading axes), the window at its first position,
// the area a loop-dependent offset sweeps lightly behind it, and extents that are not known
// to be valid (a runtime valid shape) hatched. Symbolic sizes are drawn at their bound and
// labelled with their expression.
#include <algorithm>

#include "ir/NdShape.h"
#include "passes/PassUtils.h"
#include "report/Panels.h"
#include "report/Report.h"

namespace tilec::report {
namespace {

constexpr size_t kMaxFigures = 64;  // per kernel; the table lists every access

struct Bound {
  double lo, hi;  // elements, lo <= hi
};

class Access {
 public:
  Access(const KernelView& kernel, const ir::Op& op) : kernel_(kernel), op_(op) {}

  bool isStore() const { return op_.kind() == ir::OpKind::Store; }
  const ir::Value* tensor() const { return op_.operand(isStore() ? 1 : 0); }
  const ir::Value* tile() const { return isStore() ? op_.operand(0) : op_.result(); }
  const std::vector<ir::Expr>& offsets() const { return op_.get(ir::attr::offsets); }
  SourceRange source() const { return op_.loc(); }

  std::string summary() const {
    const ir::Type& t = tensor()->type();
    return std::string(isStore() ? "store " + kernel_.name(tile()) + " into " : "load " + kernel_.name(tile()) + " from ") +
           kernel_.name(tensor()) + " " + ir::dtypeName(t.dtype()) + kernel_.exprs(t.dims()) + " at " +
           kernel_.exprs(offsets()) + ", window " + kernel_.exprs(nd::accessWindow(op_));
  }

  Svg draw() const {
    const std::vector<ir::Expr>& dims = tensor()->type().dims();
    const std::vector<ir::Expr> window = nd::accessWindow(op_);
    std::vector<double> extent;
    std::vector<std::string> names;
    PanelBox first{{}, {}, {}, std::string("window ") + (isStore() ? "k1" : "k0"), summary(), kernel_.name(tile())};
    PanelBox sweep{{}, {}, {}, "sweep", "the positions the window takes over the loop", ""};
    bool moves = false, partial = false;
    for (size_t k = 0; k < dims.size(); ++k) {
      const Bound size = bound(window[k], 1);
      Bound off = bound(offsets()[k], -1);
      const Bound dim = bound(dims[k], off.hi < 0 ? 2 * size.hi : std::max(off.hi + size.hi, 2 * size.hi));
      if (off.hi < 0) off.hi = std::max(off.lo, dim.hi - size.hi);  // a loop without a known end
      extent.push_back(dim.hi);
      names.push_back(dims[k].isConst() ? num(dim.hi) : kernel_.expr(dims[k]) + " (drawn as " + num(dim.hi) + ")");
      first.offset.push_back(off.lo);
      first.size.push_back(size.lo);
      first.upTo.push_back(size.hi);
      partial |= size.lo < size.hi;
      sweep.offset.push_back(off.lo);
      sweep.size.push_back(std::min(dim.hi, off.hi + size.hi) - off.lo);
      moves |= off.lo < off.hi;
    }
    if (!partial) first.upTo.clear();
    Panels panels(extent, names);
    if (moves) panels.add("sweep-area", "", {sweep});
    panels.add("window-box", std::string("data-op=\"") + (isStore() ? "store" : "load") + "\" data-window=\"" +
                                 escape(kernel_.exprs(window)) + "\"",
               {first});
    return panels.draw(summary());
  }

 private:
  // The values `e` takes inside the loops around the op, clamped to >= 0; an unbounded
  // upper side is `fallback` (a negative fallback is returned as is, for the caller to fill).
  Bound bound(const ir::Expr& e, double fallback) const {
    const ir::Interval i = ir::bounds(e, ir::loopBounds);
    const double lo = i.lo ? std::max<double>(0, double(*i.lo)) : 0;
    if (!i.hi && fallback < 0) return {lo, fallback};
    const double hi = i.hi ? double(*i.hi) : fallback;
    return {lo, std::max(lo, std::min(hi, 1e9))};
  }

  const KernelView& kernel_;
  const ir::Op& op_;
};

void collect(const ir::Block& b, std::vector<const ir::Op*>& out) {
  for (const auto& op : b.ops()) {
    if (op->kind() == ir::OpKind::Load || op->kind() == ir::OpKind::Store) out.push_back(op.get());
    for (unsigned r = 0; r < op->numRegions(); ++r) collect(op->body(r), out);
  }
}

}  // namespace

bool writeAccessSection(const KernelView& kernel, Page& page) {
  std::vector<const ir::Op*> accesses;
  collect(kernel.function().body(), accesses);
  if (accesses.empty()) return false;
  page.section(kernel.anchor("accesses"), kernel.function().name() + ": loads and stores", "accesses");
  page.paragraph("Each load and store on its tensor: the last two axes are rows and columns, every index of the "
                 "leading axes a panel of its own (rows and columns may be scaled differently; the axes give the extents). The window is drawn at its first position; a light area behind "
                 "it is where a loop moves it; hatched extents are not known to be valid (a runtime valid shape). Tiles, tensors "
                 "and sizes are named as in the source; where the compiler made several tiles of one "
                 "name (a multi-buffered loop's copies, say), the words in brackets tell them apart.");
  page.legend({{"k0", "load window"}, {"k1", "store window"}, {"sweep-swatch", "swept by the loop"},
               {"hatched", "not known to be valid"}});
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < accesses.size(); ++i) {
    const Access a(kernel, *accesses[i]);
    if (i < kMaxFigures)
      page.figure(a.draw(), std::string("access ") + (a.isStore() ? "store" : "load"), "",
                  std::string(a.isStore() ? "The store" : "The load") + " at " + kernel.lineLink(a.source()) + ".");
    rows.push_back({std::to_string(i + 1), a.isStore() ? "store" : "load", "<code>" + escape(a.summary()) + "</code>",
                    kernel.lineLink(a.source())});
  }
  if (accesses.size() > kMaxFigures)
    page.paragraph("The first " + std::to_string(kMaxFigures) + " of " + std::to_string(accesses.size()) +
                   " loads and stores are drawn; the table lists them all.");
  page.table({"#", "op", "access", "source"}, rows, "access-table");
  return true;
}

}  // namespace tilec::report
