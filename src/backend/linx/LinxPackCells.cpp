// linx-pack-cells: sub-CELL slot writers packed into real 128-byte carriers. A tile-array
// slot smaller than a CELL cannot be a B.ASSEMBLE writer (the smallest range is one CELL).
// When the slots are proven ranges at their ordinal places, n = 128 / slot bytes of them
// in a row of the grid fill exactly one CELL; if the writes come in ordinal order, each run
// of n writes becomes a carrier: a created [n x slot] tile the fragments are inserted into
// (TINSERT, tile.assemble), written into the array as one slot of a grid n times coarser.
// The values are the same (the interpreter checks it); no writer is widened. Anything else
// is left as it is, for linx-legality to reject with the reason (E1103). Linear.
#include <string>
#include <vector>

#include "backend/linx/LinxCarriers.h"
#include "backend/linx/LinxLayout.h"
#include "backend/linx/LinxTargets.h"
#include "ir/Builder.h"
#include "ir/Regions.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::linx {
namespace {
using namespace ir;

class CellPacker {
 public:
  CellPacker(Function& f, const TargetModel&, DiagnosticEngine&) : f_(f) {}

  void run() {
    std::vector<Op*> arrays;
    f_.walk([&](Op& op) {
      if (op.kind() == OpKind::RegionArray) arrays.push_back(&op);
    });
    for (Op* a : arrays) pack(*a);
  }

 private:
  void pack(Op& array) {
    const Type& parent = array.result()->type();
    const auto grid = array.get(attr::grid);
    std::string why;
    std::optional<SlotRanges> slots = proveSlots(parent, grid, why);
    if (!slots || slots->slotBytes >= kCellBytes || kCellBytes % slots->slotBytes != 0) return;
    const int64_t n = kCellBytes / slots->slotBytes;
    const bool rows = grid[1] == 1;  // a column of slots packs down the rows, else along a row
    if ((rows ? grid[0] : grid[1]) % n != 0) return;
    const ArrayChain chain = arrayChain(array);
    if (!chain.assembly || int64_t(chain.writes.size()) != grid[0] * grid[1]) return;
    const std::vector<Op*>& writes = chain.writes;
    for (size_t k = 0; k < writes.size(); ++k)
      if (slotOrdinal(*writes[k]) != std::optional<int64_t>(int64_t(k))) return;
    const std::vector<int64_t> coarse = rows ? std::vector<int64_t>{grid[0] / n, 1} : std::vector<int64_t>{grid[0], grid[1] / n};
    if (!proveSlots(parent, coarse, why)) return;

    array.set(attr::grid, coarse);
    chain.assembly->set(attr::grid, coarse);
    for (size_t start = 0; start < writes.size(); start += size_t(n))
      packCarrier(std::vector<Op*>(writes.begin() + long(start), writes.begin() + long(start) + n), coarse, rows,
                  start == 0, start + size_t(n) == writes.size());
  }

  // The n writes of one carrier: inserts into a created carrier, then one slot write.
  static void packCarrier(const std::vector<Op*>& run, const std::vector<int64_t>& coarse, bool rows, bool first, bool last) {
    const int64_t n = int64_t(run.size());
    const auto& fine = run.front()->get(attr::index);
    const int64_t fineRow = fine[0].constValue(), fineCol = fine[1].constValue();
    const std::vector<Expr> index = rows ? std::vector<Expr>{Expr::constant(fineRow / n), Expr::constant(0)}
                                         : std::vector<Expr>{Expr::constant(fineRow), Expr::constant(fineCol / n)};
    packRun(run, coarse, index, rows)
        ->set(attr::phase, first && last ? RegionPhase::InitLast
                           : first       ? RegionPhase::Init
                           : last        ? RegionPhase::Last
                                         : RegionPhase::Middle);
  }

  Function& f_;
};

class LinxPackCells final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"linx-pack-cells", "pack sub-CELL tile-array writers into 128-byte carriers",
                                PropRegionsDerived | PropLinxRowsAligned, 0, 0};
    return kInfo;
  }
  bool run(Module& m, PassContext& ctx) override { return passes::runOnFunctions<CellPacker>(m, ctx.diags); }
};

}  // namespace

std::unique_ptr<Pass> createLinxPackCellsPass() { return std::make_unique<LinxPackCells>(); }

}  // namespace tilec::linx
