#include "backend/linx/LinxBlocks.h"

#include <set>
#include <unordered_map>

#include "backend/linx/LinxOps.h"

namespace tilec::linx {
namespace {
using namespace ir;

class Planner {
 public:
  std::vector<PlannedBlock> plan(const Function& f) {
    visitBlock(f.body());
    return std::move(blocks_);
  }

 private:
  static const Op* nextWork(const std::vector<const Op*>& ops, size_t i) {
    for (; i < ops.size(); ++i) {
      const LinxForm form = linxOp(*ops[i]).form;
      if (form == LinxForm::Block || form == LinxForm::Fused) return ops[i];
    }
    return nullptr;
  }

  void visitBlock(const Block& body) {
    std::vector<const Op*> ops;
    for (const auto& op : body.ops()) ops.push_back(op.get());
    for (size_t i = 0; i < ops.size(); ++i) {
      if (ops[i]->kind() != OpKind::For) {
        visit(*ops[i], nextWork(ops, i + 1));
        continue;
      }
      carry(*ops[i]);
      blocks_.push_back(loopEntry(PlanEntry::LoopBegin, *ops[i]));
      visitBlock(ops[i]->body());
      blocks_.push_back(loopEntry(PlanEntry::LoopEnd, *ops[i]));
    }
  }

  // The only tile a rolled loop carries is a tile array (linx-legality): its body
  // argument and the loop's result are that array, one queue entry.
  void carry(const Op& loop) {
    for (unsigned i = 0; i < loop.numOperands(); ++i) {
      const Value* array = identityOf(loop.operand(i));
      identity_[loop.body().arg(i + 1)] = array;
      identity_[loop.result(i)] = array;
    }
  }

  static PlannedBlock loopEntry(PlanEntry entry, const Op& loop) {
    PlannedBlock b;
    b.entry = entry;
    b.op = &loop;
    return b;
  }

  void visit(const Op& op, const Op* next) {
    switch (linxOp(op).form) {
      case LinxForm::Marker:
        identity_[op.result()] = op.kind() == OpKind::RegionArray ? op.result() : identityOf(op.operand(0));
        return;
      case LinxForm::Block: {
        const bool fuses = op.numResults() == 1 && next && next->kind() == OpKind::RegionInsert &&
                           next->operand(1) == op.result() && op.result()->uses().size() == 1;
        PlannedBlock b;
        b.op = &op;
        for (const Value* v : op.operands())
          if (v->type().isTile() && !isFresh(v)) b.sources.push_back(sourceOf(v));
        if (fuses) {
          fused_.insert(next);
          addWrite(b, *next);
        } else if (op.numResults() == 1) {
          b.pushed = op.result();
        }
        blocks_.push_back(std::move(b));
        return;
      }
      case LinxForm::Fused:
        if (!fused_.count(&op)) {
          PlannedBlock b;
          b.op = &op;
          b.copy = true;
          b.sources = {sourceOf(op.operand(1))};
          addWrite(b, op);
          blocks_.push_back(std::move(b));
        }
        identity_[op.result()] = identityOf(op.operand(0));
        return;
      case LinxForm::View: case LinxForm::Fresh: case LinxForm::Scalar: case LinxForm::Control: case LinxForm::None:
        return;  // read where used; scalar work; none left after linx-legality
    }
  }

  // The first write of an array binds the whole tile; later ones refer to it.
  void addWrite(PlannedBlock& b, const Op& insert) {
    b.write = &insert;
    b.array = identityOf(insert.operand(0));
    const RegionPhase phase = insert.get(attr::phase);
    if (phase == RegionPhase::Init || phase == RegionPhase::InitLast) b.pushed = b.array;
  }

  // A created tile holds nothing yet: the block that first writes it allocates it.
  static bool isFresh(const Value* v) { return v->definingOp() && v->definingOp()->kind() == OpKind::Create; }

  PlannedSource sourceOf(const Value* v) const {
    const Op* def = v->definingOp();
    if (def && def->kind() == OpKind::RegionPart) return {identityOf(def->operand(0)), def};
    return {identityOf(v)};
  }

  const Value* identityOf(const Value* v) const {
    auto it = identity_.find(v);
    return it == identity_.end() ? v : it->second;
  }

  std::vector<PlannedBlock> blocks_;
  std::unordered_map<const Value*, const Value*> identity_;  // array values -> the array
  std::set<const Op*> fused_;
};

}  // namespace

std::vector<PlannedBlock> planBlocks(const Function& f) { return Planner().plan(f); }

Op* handOwner(const Value* pushed) { return pushed->definingOp(); }

}  // namespace tilec::linx
