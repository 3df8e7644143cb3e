// linx-legality: what a kernel must satisfy before its blocks can be written.
//  - Every op has a row in LinxOps.def (runtime-sequence ops have none) and a block form
//    (E1104). The relative tile queue (T#k) names
//    a source by how many tiles were bound after it, so no branch stays, and a loop that
//    stays rolled (a runtime trip count; linx-unroll unrolls the others) carries no tile
//    (E1104): a carried tile's place would change from one iteration to the next. The
//    rolled MIDDLE of a peeled slot-writing loop (linx-peel) carries its tile array, one
//    queue entry INIT made before the loop, which no iteration moves.
//  - Every tile a block binds is 2-D and its storage is a SizeCode the binder may give:
//    128 B .. 64 KiB for Local, .. 256 KiB for Shared (E1102); a tile stored row-major has
//    rows of whole 32-byte units (E1109; linx-align-rows pads the ones it can).
//  - Every partition view and tile array is proven slot by slot from its layout formula
//    (LinxLayout.h, E1101): one contiguous CELL range per slot at its ordinal place, the
//    slots a bijection over the parent's CELLs; a slot is at least one CELL (E1103), and
//    its size and the parent's are SizeCodes (E1102).
//  - A Shared tile (bound by B.IOS) is a tile array declared scope = shared: pto-spec asks
//    every Shared destination with more than one participating PE to carry one
//    B.ASSEMBLE, so no other block makes one (E1111). Its writers' PE mask and its
//    readers' have PEMode encodings, and its readers are among its writers (E1110): a
//    PE that wrote nothing holds no published CELL of it.
//  - The slots of a cube_m16/m32 array are written in ordinal order (E1107): a CUBE
//    generation covers a gap-free prefix of its CELLs. A rolled loop's write is a run of
//    slots (passes/SlotRuns.h), in order when it starts at the next ordinal and ascends. Other layouts' slots may come in
//    any order: their generation checks only overlap and coverage.
// Each (parent type, grid) pair is proven once: linear in the kernel plus its tiles.
#include <algorithm>
#include <set>
#include <string>

#include "backend/linx/LinxBlocks.h"
#include "backend/linx/LinxLayout.h"
#include "backend/linx/LinxModel.h"
#include "backend/linx/LinxOps.h"
#include "backend/linx/LinxTargets.h"
#include "backend/linx/LinxWords.h"
#include "ir/Describe.h"
#include "ir/Regions.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"
#include "passes/SlotRuns.h"

namespace tilec::linx {
namespace {
using namespace ir;

class Checker {
 public:
  Checker(Function& f, const TargetModel&, DiagnosticEngine& diags) : f_(f), diags_(diags) {}

  void run() {
    f_.walk([&](Op& op) { check(op); });
  }

 private:
  void check(Op& op) {
    const LinxOpInfo* row = findLinxOp(op.kind());
    if (!row)
      return report(Diag::LinxNoForm, op,
                    describe(op, diags_.sources()) + " belongs to a runtime sequence, which linx does not run; "
                    "compile it for a target with runtime sequences (tilec --list-targets)");
    switch (row->form) {
      case LinxForm::None: return report(Diag::LinxNoForm, op, describe(op, diags_.sources()) + ": " + row->noForm);
      case LinxForm::Control:
        if (op.kind() == OpKind::If)
          report(Diag::LinxNoForm, op,
                 "a branch stays in the kernel, but linx blocks name their sources by position in the tile queue "
                 "(T#1 is the latest tile bound), which differs between the two paths; compute both and pick with "
                 "arithmetic");
        if (op.kind() == OpKind::For)
          for (const Value* r : op.results())
            if (r->type().isTile() && !isRolledArray(op, r))
              return report(Diag::LinxNoForm, op,
                            "this loop has a runtime trip count, so it stays rolled, and it carries a tile from one "
                            "iteration to the next, whose place in the tile queue would change with every "
                            "iteration; give the loop constant bounds so it is unrolled, or carry no tile");
        return;
      case LinxForm::Block: return checkTiles(op);
      case LinxForm::View: return checkSlots(op, op.operand(0)->type());
      case LinxForm::Marker:
        if (op.kind() == OpKind::RegionArray) {
          checkSlots(op, op.result()->type());
          checkOrder(op);
          checkPes(op);
        }
        return;
      case LinxForm::Fused: return;  // the array's checks cover its writes
      case LinxForm::Fresh: return checkFresh(op);
      case LinxForm::Scalar: return;
    }
  }

  // A rolled loop (linx-peel) carries its tile array's one queue entry, which no iteration
  // moves: its writes reuse the entry INIT made before the loop.
  bool isRolledArray(const Op& loop, const Value* result) {
    if (!arrays_) arrays_ = tileArrayValues(f_);
    const bool* rolled = loop.find(attr::rolled);
    return rolled && *rolled && arrays_->count(result);
  }

  // A created tile is only a place to insert into: the first TINSERT allocates it.
  void checkFresh(const Op& create) {
    for (const Use& u : create.result()->uses())
      if (u.user->kind() != OpKind::Assemble || u.index != 0)
        return report(Diag::LinxNoForm, create,
                      "a linx tile exists once a block writes it, but this created tile is read by " +
                          describe(*u.user, diags_.sources()) + "; build a tile from parts with tile_array, or insert into it");
    checkTile(create, create.result()->type());
  }

  // Each tile a block makes is checked where it is made (its readers see the same type).
  // Typing gives a block that reads a Shared tile a Shared result, which the block binds
  // in Local cells (LinxBlocks.h: only slot writes bind a Shared destination).
  void checkTiles(const Op& op) {
    const bool readsShared = std::any_of(op.operands().begin(), op.operands().end(), [](const Value* v) {
      return v->type().isTile() && v->type().space() == Shared;
    });
    for (const Value* v : op.results()) checkTile(op, v->type(), readsShared);
  }

  // A tile's allocation is the smallest SizeCode that holds it (a 64-byte row vector takes
  // one CELL), at most what its binder may give.
  void checkTile(const Op& op, const Type& t, bool boundLocal = false) {
    if (!t.isTile()) return;
    if (t.rank() == 1) {
      const std::string row = "[1, " + std::to_string(t.shape()[0]) + "]";
      return report(Diag::LinxNoForm, op,
                    "linx tiles are 2-D, but this one is 1-D, [" + std::to_string(t.shape()[0]) +
                        "]; write it as the row " + row + " (a 1-D tensor it moves to or from then needs a row "
                        "axis: declare it [1, N] and move the row at [0, i])");
    }
    if (t.rank() != 2)
      return report(Diag::LinxNoForm, op, "linx tiles are 2-D, but " + typeText(t) + " is not; reshape it");
    const SpaceId space = boundLocal ? SpaceId(Local) : t.space();
    if (space == Shared)
      return report(Diag::LinxSharedWrite, op,
                    "a Shared destination with more than one participating PE must carry one B.ASSEMBLE, but " +
                        describe(op, diags_.sources()) +
                        " makes a Shared tile of its own; build it as tile_array<dtype>([R, C], [h, w], scope = "
                        "shared) and write its slots, or keep the tile Local");
    std::string why;
    std::optional<int64_t> bytes = storageBytes(t, why);
    if (!bytes) return report(Diag::LinxSizeCode, op, why);
    const int code = capacityCode(*bytes);
    if (code < 1 || code > maxSizeCode(space))
      return report(Diag::LinxSizeCode, op,
                    "a " + typeText(t) + " tile takes " + std::to_string(*bytes) + " bytes, more than the " +
                        sizeText(maxSizeCode(space)) + " of a " + spaceText(space) +
                        " binder; cut the work into smaller tiles");
    checkRows(op, t);
  }

  // linx-align-rows pads every row it can; one it could not is reported here.
  void checkRows(const Op& op, const Type& t) {
    const int64_t element = dtypeBytes(t.dtype()), row = t.shape()[1] * element;
    if (!storedInRows(t) || row % rowAlignBytes() == 0) return;
    const int64_t padded = (row + rowAlignBytes() - 1) / rowAlignBytes() * rowAlignBytes() / element;
    report(Diag::LinxRowAlign, op,
           "a linx tile stored row-major has rows of whole " + std::to_string(rowAlignBytes()) +
               "-byte units, but the rows of this " + typeText(t) + " tile are " + std::to_string(row) +
               " bytes, and they cannot be padded: its columns are tied to another extent (a matmul's, a "
               "transpose's, a column-split slot's, a loop's) or to a tile not stored row-major; give it " +
               std::to_string(padded) + " physical columns and keep its extent in the valid shape (valid = [" +
               exprText(t.valid()[0]) + ", " + exprText(t.valid()[1]) + "]), or widen the tile it is computed from");
  }

  // A region range is exactly its bytes: a SizeCode the binder may give.
  void checkCode(const Op& op, const std::string& what, int64_t bytes, SpaceId space) {
    const int code = sizeCodeForBytes(bytes);
    if (code >= 1 && code <= maxSizeCode(space)) return;
    report(Diag::LinxSizeCode, op,
           what + " takes " + std::to_string(bytes) + " bytes, which is no SizeCode a " + spaceText(space) +
               " range names (a power of two from " + sizeText(1) + " to " + sizeText(maxSizeCode(space)) +
               "); choose a grid or tile whose parts are one");
  }

  // The partition proof for `parent` cut by op's grid, once per (type, grid).
  void checkSlots(const Op& op, const Type& parent) {
    const auto& grid = op.get(attr::grid);
    const std::string key = parent.str(nameOf) + "/" + std::to_string(grid[0]) + "x" + std::to_string(grid[1]);
    if (!proven_.insert(key).second) return;
    std::string why;
    std::optional<int64_t> bytes = storageBytes(parent, why);
    if (!bytes) return report(Diag::LinxSizeCode, op, why);
    std::optional<SlotRanges> slots = proveSlots(parent, grid, why);
    if (!slots) return report(Diag::LinxSlotRange, op, why);
    if (slots->slotBytes < kCellBytes)
      return report(Diag::LinxSubCell, op,
                    "a slot of " + std::to_string(slots->slotBytes) + " bytes is smaller than one " +
                        std::to_string(kCellBytes) +
                        "-byte CELL, the smallest range a modifier names; give the slots more rows, or more physical "
                        "columns with the same valid extent, so each is whole CELLs");
    checkCode(op, "a slot", slots->slotBytes, parent.space());
    checkCode(op, "the parent", slots->parentBytes, parent.space());
  }

  // A cube_m16/m32 array's writes come in ordinal order; the first out of place is
  // reported. pto-spec's CUBE generation (local-generation-cube) keeps the covered CELLs a
  // gap-free prefix from CELL 0 and faults a writer that would leave a gap
  // (Fault_TileLegality); other layouts' generations check only that the writers do not
  // overlap and cover the parent by LAST, so their slots may come in any order (the
  // phases follow the order of the writes).
  void checkOrder(const Op& array) {
    const TileLayout& layout = array.result()->type().layout();
    if (layout.cells != CubeCells::M16 && layout.cells != CubeCells::M32) return;
    const ArrayChain chain = arrayChain(array);
    int64_t next = 0;  // the ordinal the next write must start at
    for (const Op* write : chain.writes) {
      std::optional<passes::SlotRun> run = passes::slotRun(*write, rolledLoopOf(*write), nullptr);
      if (!run) return;  // derive-regions reported why
      // A descending run starts in place and writes its second slot out of place.
      const int64_t wrong = run->first != next ? run->first : run->count > 1 && run->stride != 1 ? run->first - 1 : -1;
      if (wrong < 0) {
        next += run->count;
        continue;
      }
      const int64_t expected = wrong == run->first ? next : next + 1;
      return report(Diag::LinxSlotOrder, *write,
                    "slot " + passes::slotText(wrong, array.get(attr::grid)) + " (ordinal " + std::to_string(wrong) +
                        ") is written where ordinal " + std::to_string(expected) + " is next, but a " +
                        layoutText(layout) +
                        " tile array is assembled as a gap-free prefix of its CELLs from CELL 0 (a CUBE generation "
                        "faults a writer that would leave a gap); write its slots in ordinal order, row by row");
    }
  }

  // The writers' mask on the array, the readers' on its assembly (by default the writers').
  void checkPes(const Op& array) {
    if (array.result()->type().space() != Shared) return;
    const std::string writers = writerPes(array);
    if (peModeForMask(writers) < 0) return report(Diag::LinxPeMask, array, noPeMode("writers", writers));
    const Op* assembly = arrayChain(array).assembly;
    if (!assembly) return;
    const std::string readers = readerPes(*assembly, array);
    if (peModeForMask(readers) < 0) return report(Diag::LinxPeMask, *assembly, noPeMode("readers", readers));
    for (size_t pe = 0; pe < readers.size(); ++pe)
      if (readers[pe] == '1' && writers[pe] != '1')
        return report(Diag::LinxPeMask, *assembly,
                      "PE" + std::to_string(pe) + " reads this Shared tile (pes = " + readers +
                          "), but only the PEs of pes = " + writers +
                          " write it, so PE" + std::to_string(pe) +
                          " holds none of its CELLs and its read never sees it published; read it on PEs among its "
                          "writers, or let PE" + std::to_string(pe) + " write it too");
  }

  static std::string noPeMode(const char* whose, const std::string& mask) {
    std::string masks;
    for (int mode = 1; mode < 8; ++mode) masks += std::string(mode > 1 ? ", " : "") + peMask(mode);
    return std::string("pes = ") + mask + " (the " + whose + ") has no PEMode encoding: a binder's PE mask is one of " +
           masks + " (PE0 leftmost)";
  }

  void report(Diag id, const Op& op, const std::string& message) { diags_.report(id, op.loc(), message); }

  static std::string nameOf(const Value* v) { return v->name(); }
  static const char* spaceText(SpaceId space) { return space == Shared ? "Shared" : "Local"; }

  Function& f_;
  DiagnosticEngine& diags_;
  std::set<std::string> proven_;
  std::optional<std::unordered_set<const Value*>> arrays_;  // tileArrayValues, once it is asked
};

class LinxLegality final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"linx-legality", "check linx block forms, tile sizes and region slot proofs",
                                PropRegionsDerived | PropLinxRowsAligned, PropLinxLegal, 0};
    return kInfo;
  }
  bool run(Module& m, PassContext& ctx) override { return passes::runOnFunctions<Checker>(m, ctx.diags); }
};

}  // namespace

std::unique_ptr<Pass> createLinxLegalityPass() { return std::make_unique<LinxLegality>(); }

}  // namespace tilec::linx
