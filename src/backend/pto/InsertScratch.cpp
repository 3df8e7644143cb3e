// insert-transpose-scratch and insert-reduction-scratch: PTO's ttrans, its row
// reductions (trowmax/trowsum/trowmin) and its arg-reductions (trowargmax/trowargmin,
// tcolargmax/tcolargmin) take a scratch tile shaped like their source (the row
// reductions' is required by PTOAS before v0.60 and by pto-isa on a2a3, the
// arg-reductions' by PTOAS, with the source's valid shape), tsel (where) one row of
// u32 mask words (PtoModel.h), which PTOAS requires and a2a3 uses, and txor/txors (`^`)
// one shaped like their source, which PTOAS's syntax requires and a2a3 uses, and tgather's
// index form (gather) one of its index's type on a2a3, where it holds each row's byte
// offsets (pto-isa: the index's dtype and valid shape), and one 32-byte block of the index's
// dtype on a5, whose TGATHER ignores it but whose PTOAS syntax requires one. Every such op
// without one (the op table's scratch operand absent) gets a fresh `tile.create` right
// before it, as that operand. Two passes because they run at two points of the pipeline:
// transposes before tile-ops-2d, which checks that each has its scratch (N-D transposes
// already have theirs from flatten-nd-to-2d's unroll), reductions once memory spaces are
// known. Linear in the number of ops.
#include "backend/pto/PtoModel.h"
#include "backend/pto/PtoTargets.h"
#include "ir/Builder.h"
#include "ir/OpDefs.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
namespace {
using namespace ir;

// What one of the two passes gives a scratch to, and the scratch it makes.
struct ScratchRule {
  PassInfo info;
  std::vector<Op*> (*ops)(Function& f);  // the ops whose PTO form takes a scratch
  Type (*type)(const Op& op);             // the scratch it takes
  std::string (*name)(const Value& source);
};

class InsertScratch final : public Pass {
 public:
  explicit InsertScratch(const ScratchRule& rule) : rule_(rule) {}
  const PassInfo& info() const override { return rule_.info; }

  bool run(Module& m, PassContext&) override {
    for (auto& f : m.functions())
      for (Op* op : rule_.ops(*f))
        if (op->numOperands() == unsigned(opInfo(op->kind()).scratchOperand)) append(*op);
    return true;
  }

 private:
  // Messages call the scratch what they call its source.
  void append(Op& op) const {
    const Value& source = *op.operand(0);
    Value* scratch = OpBuilder::before(op).createValue(OpKind::Create, {}, {}, rule_.type(op), rule_.name(source));
    op.addOperand(passes::madeFrom(scratch, &source));
  }

  const ScratchRule& rule_;
};

}  // namespace

std::unique_ptr<Pass> createInsertTransposeScratchPass() {
  static const ScratchRule kTranspose{
      {"insert-transpose-scratch", "give every 2-D transpose the scratch tile ttrans needs", PropSSA | PropTileOps2D,
       0, 0},
      [](Function& f) { return passes::opsOfKind(f, {OpKind::Transpose}); },
      [](const Op& op) { return op.operand(0)->type().withFullValid(); },
      [](const Value& source) { return (source.name().empty() ? std::string("transpose") : source.name()) + "_scratch"; }};
  return std::make_unique<InsertScratch>(kTranspose);
}

std::unique_ptr<Pass> createInsertReductionScratchPass() {
  static const ScratchRule kReduction{
      {"insert-reduction-scratch", "give every reduction, where, xor and gather the scratch tile their PTO forms take",
       PropSSA | PropMemSpacesInferred, 0, 0},
      [](Function& f) {
        std::vector<Op*> ops = passes::opsWithTrait(f, RowReduce | ColReduce);
        for (Op* op : passes::opsOfKind(f, {OpKind::Sel, OpKind::Xor, OpKind::XorS, OpKind::Gather})) ops.push_back(op);
        return ops;
      },
      [](const Op& op) {
        if (op.kind() == OpKind::Gather) {
          const Type& index = op.operand(1)->type();
          if (archOf(op.function()->module().target()) == Arch::A2A3) return index;
          const int64_t block = kVecBlockBytes / int64_t(dtypeBytes(index.dtype()));
          return Type::tile(index.dtype(), {1, block}, {}, index.space(), std::nullopt, index.model());
        }
        if (op.kind() != OpKind::Sel) return op.operand(0)->type();
        const Type& value = op.operand(1)->type();
        return Type::tile(DType::U32, {1, kSelectScratchWords}, {}, value.space(), std::nullopt, value.model());
      },
      [](const Value&) { return std::string("tmp"); }};
  return std::make_unique<InsertScratch>(kReduction);
}

}  // namespace tilec::pto
