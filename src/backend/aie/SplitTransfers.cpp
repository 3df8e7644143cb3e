// split-transfers: a transfer whose walk no shim descriptor holds, in any layout
// (TxnRuntime.h's layOut: a 2-D walk of 1024 rows, a contiguous run of 5000 words inside
// three strided dimensions do fit one), becomes several transfers over consecutive pieces
// of its walk, in order, on the same channel (splitWalk: the outermost dimension in chunks
// as long as fit, or each of its steps cut further). aie-legality then lays out each piece
// as it does any transfer, and assign-bds gives each its own descriptor, queue slot and
// waits, so a channel's 4-deep queue and the end-of-sequence waits for drains stay right.
//
// Pieces are issued in turn, not chained with next_bd: a chain is one task, and the queue
// repeats a task as a whole (every descriptor of the chain steps its iteration once a run),
// so pieces of different iteration counts could not share one; issued in turn, each piece
// keeps its own iteration and repeat, needs nothing of the executor or the encoder beyond
// what one transfer does, and a loop body that holds pieces still reuses its descriptors.
//
// Only transfers whose sizes and strides are constants (the offset may vary with loops)
// and that the source did not give a descriptor (bd =) are split, into at most
// kMaxSplitPieces; aie-legality refuses the rest and names the split they need. A transfer
// with split = N keeps its N descriptors and is split over them by the TXN writer, or by
// the generated builder at dispatch for runtime sizes (TxnRuntime.h's dispatchTransfer):
// the two write the same words for the same sizes. Linear in the ops plus the pieces
// written.
#include "backend/aie/AieOps.h"
#include "backend/aie/AieTargets.h"
#include "backend/aie/ShimPattern.h"
#include "ir/Builder.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::aie {
namespace {
using namespace ir;

class TransferSplitter {
 public:
  TransferSplitter(Function& f, const TargetModel&, DiagnosticEngine&) : f_(f) {}

  void run() {
    std::vector<Op*> transfers;
    f_.walk([&](Op& op) {
      const AieOpInfo* row = findAieOp(op.kind());
      if (row && row->form == AieForm::Transfer) transfers.push_back(&op);
    });
    for (Op* op : transfers) split(*op);
  }

 private:
  static std::vector<Expr> constants(const std::vector<int64_t>& v) {
    std::vector<Expr> out;
    for (int64_t x : v) out.push_back(Expr::constant(x));
    return out;
  }

  void split(Op& op) {
    const int64_t bits = int64_t(dtypeBytes(op.operand(0)->type().dtype())) * 8;
    const AccessPattern p{op.get(attr::offset), op.get(attr::sizes), op.get(attr::strides)};
    const std::optional<tilec_txn::Walk> walk = constantWalk(p, bits);
    tilec_txn::Transfer unused;
    if (bits > kDmaWordBits || !walk || op.has(attr::bd) || op.has(attr::split) || tilec_txn::layOut(*walk, unused))
      return;
    std::vector<tilec_txn::Walk> pieces;
    const int64_t count = tilec_txn::splitWalk(*walk, kMaxSplitPieces, &pieces);
    if (count < 2 || count > kMaxSplitPieces) return;  // aie-legality says why
    OpBuilder builder = OpBuilder::before(op);
    for (const tilec_txn::Walk& piece : pieces) {
      ValueMapping same;
      Op* copy = builder.clone(op, same);
      copy->set(attr::offset, p.offset + piece.offset);
      copy->set(attr::sizes, constants(piece.sizes.empty() ? std::vector<int64_t>{1} : piece.sizes));
      copy->set(attr::strides, constants(piece.strides.empty() ? std::vector<int64_t>{1} : piece.strides));
    }
    op.parentBlock()->erase(&op);
  }

  Function& f_;
};

class SplitTransfers final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"split-transfers",
                                "split a transfer no shim descriptor holds into transfers over pieces of its walk",
                                PropSSA | PropUnrolled, 0, 0};
    return kInfo;
  }
  bool run(Module& m, PassContext& ctx) override { return passes::runOnFunctions<TransferSplitter>(m, ctx.diags); }
};

}  // namespace

std::unique_ptr<Pass> createSplitTransfersPass() { return std::make_unique<SplitTransfers>(); }

}  // namespace tilec::aie
