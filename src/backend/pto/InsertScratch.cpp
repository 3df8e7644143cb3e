// insert-transpose-scratch and insert-reduction-scratch: PTO's ttrans, its row
// reductions (trowmax/trowsum/trowmin) and its arg-reductions (trowargmax/trowargmin,
// tcolargmax/tcolargmin) take a scratch tile shaped like their source (the row
// reductions' is required by PTOAS before v0.60 and by pto-isa on a2a3, the
// arg-reductions' by PTOAS, with the source's valid shape). Every such op
// without one (the op table's scratch operand absent) gets a fresh `tile.create` right
// before it, as that operand. Two passes because they run at two points of the pipeline:
// transposes before tile-ops-2d, which checks that each has its scratch (N-D transposes
// already have theirs from flatten-nd-to-2d's unroll), reductions once memory spaces are
// known. Linear in the number of ops.
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
  bool fullValid;                        // the scratch's valid shape: all of it, or its source's
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
  // Messages call the scratch what they call its source, whose shape it has.
  void append(Op& op) const {
    const Value& source = *op.operand(0);
    const Type type = rule_.fullValid ? source.type().withFullValid() : source.type();
    Value* scratch = OpBuilder::before(op).createValue(OpKind::Create, {}, {}, type, rule_.name(source));
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
      /*fullValid=*/true,
      [](const Value& source) { return (source.name().empty() ? std::string("transpose") : source.name()) + "_scratch"; }};
  return std::make_unique<InsertScratch>(kTranspose);
}

std::unique_ptr<Pass> createInsertReductionScratchPass() {
  static const ScratchRule kReduction{
      {"insert-reduction-scratch", "give every reduction whose PTO form takes one its scratch tile",
       PropSSA | PropMemSpacesInferred, 0, 0},
      [](Function& f) { return passes::opsWithTrait(f, RowReduce | ColReduce); },
      /*fullValid=*/false,
      [](const Value&) { return std::string("tmp"); }};
  return std::make_unique<InsertScratch>(kReduction);
}

}  // namespace tilec::pto
