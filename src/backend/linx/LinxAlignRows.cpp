// linx-align-rows: row-major tiles padded to the linx row alignment. A RowMajor Local tile
// is stored in whole rows of rowAlignBytes() (32 bytes: PTO's Cols * bits % 256 == 0), so a
// [32, 1] f32 row statistic is physically 32 x 8 (1 KiB) with a valid extent of 32 x 1,
// the seed's RowState. This pass makes that decision in the IR, where --emit-ir shows it and
// every later pass sizes the tile by it: a tile stored row-major (row_major, a one-column
// col_major tile, which is the same bytes, or a row statistic, which the SFU writes
// row-major whatever its source's layout) whose rows are not whole 32-byte units becomes
// row_major with its physical columns padded up to them, its valid extents unchanged.
//
// Tiles whose columns must stay equal (LinxOps.def, "Rows": an elementwise op's operands
// and result, a cast's source and result, a tile array and the slots of its row bands) form
// one group, padded together to the widest unit its dtypes need (8 columns of f32, 16 of
// bf16). A group is left as it is when one of its tiles has columns tied to another extent
// (a matmul operand, a column-split slot, a tile a loop carries), is not 2-D, or is made in
// a layout that is not stored row-major (a cube tile): linx-legality reports a row-major
// tile left unaligned (E1109). Near-linear: a union-find over the tiles.
#include <algorithm>
#include <unordered_map>
#include <vector>

#include "backend/linx/LinxLayout.h"
#include "backend/linx/LinxModel.h"
#include "backend/linx/LinxOps.h"
#include "backend/linx/LinxTargets.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::linx {
namespace {
using namespace ir;

class RowAligner {
 public:
  RowAligner(Function& f, const TargetModel&, DiagnosticEngine&) : f_(f) {}

  void run() {
    f_.walk([&](Op& op) { link(op); });
    std::vector<int64_t> unit(values_.size(), 1);  // per group root: the columns a row is whole in
    for (size_t i = 0; i < values_.size(); ++i) {
      const size_t root = find(i);
      unit[root] = std::max(unit[root], rowAlignBytes() / int64_t(dtypeBytes(values_[i]->type().dtype())));
      tied_[root] = tied_[root] || tied_[i];
    }
    for (size_t i = 0; i < values_.size(); ++i)
      if (!tied_[find(i)]) pad(*values_[i], unit[find(i)]);
  }

 private:
  void link(Op& op) {
    for (unsigned r = 0; r < op.numRegions(); ++r)
      for (const auto& arg : op.body(r).args()) tieTile(arg.get());  // carried from one iteration to the next
    std::vector<Value*> tiles;
    for (Value* v : op.operands())
      if (v->type().isTile()) tiles.push_back(v);
    for (Value* v : op.results())
      if (v->type().isTile()) tiles.push_back(v);
    const LinxOpInfo* row = findLinxOp(op.kind());
    if (tiles.empty() || !row) return;  // linx-legality refuses an op without a row
    switch (row->rows) {
      case LinxRows::Own:
        return made(op.result(), storedInRows(op.result()->type()));
      case LinxRows::Statistic:
        return made(op.result(), op.result()->type().rank() == 2);
      case LinxRows::Shared:
        return share(op, tiles);
      case LinxRows::FirstShared:
        return share(op, {op.operand(0), op.result()});
      case LinxRows::Sliced:
        if ((op.get(attr::grid))[1] == 1) return share(op, tiles);
        [[fallthrough]];  // a column split cuts the parent's rows into slots' rows
      case LinxRows::Tied:
        for (Value* v : tiles) tieTile(v);
        return;
      case LinxRows::Reads:
        return;
    }
  }

  // A tile whose shape the op chose: a group of its own until its users join it.
  void made(Value* v, bool storable) {
    const size_t i = id(v);
    tied_[i] = tied_[i] || !storable;
  }

  // Tiles with the same columns. A result in another layout than operand 0's (a move) is
  // laid out anew, so it must itself be stored row-major.
  void share(const Op& op, const std::vector<Value*>& tiles) {
    for (Value* v : tiles) {
      join(tiles.front(), v);
      if (v->type().rank() != 2) tieTile(v);
    }
    for (Value* r : op.results())
      if (r->type().isTile() && !(r->type().layout() == op.operand(0)->type().layout()))
        made(r, storedInRows(r->type()));
  }

  void pad(Value& v, int64_t unit) {
    const Type& t = v.type();
    const int64_t columns = t.shape()[1];
    if (columns % unit == 0) return;
    const int64_t padded = (columns + unit - 1) / unit * unit;
    v.setType(t.withShape({t.shape()[0], padded}, t.valid()).withLayout(*namedLayout("row_major")));
  }

  void tieTile(Value* v) {
    if (v->type().isTile()) tied_[id(v)] = true;
  }

  size_t id(Value* v) {
    auto [it, fresh] = index_.try_emplace(v, values_.size());
    if (fresh) {
      values_.push_back(v);
      parent_.push_back(it->second);
      tied_.push_back(false);
    }
    return it->second;
  }

  size_t find(size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }

  void join(Value* a, Value* b) { parent_[find(id(a))] = find(id(b)); }

  Function& f_;
  std::vector<Value*> values_;  // in the order first seen
  std::vector<size_t> parent_;
  std::vector<bool> tied_;      // per value; per group after run() folds them into the root
  std::unordered_map<const Value*, size_t> index_;  // lookups only, never iterated
};

class LinxAlignRows final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"linx-align-rows", "pad row-major tiles' rows to the linx row alignment",
                                PropRegionsDerived, PropLinxRowsAligned, 0};
    return kInfo;
  }
  bool run(Module& m, PassContext& ctx) override { return passes::runOnFunctions<RowAligner>(m, ctx.diags); }
};

}  // namespace

std::unique_ptr<Pass> createLinxAlignRowsPass() { return std::make_unique<LinxAlignRows>(); }

}  // namespace tilec::linx
