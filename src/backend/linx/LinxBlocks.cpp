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
        if (op.kind() == OpKind::RegionArray) pes_[op.result()] = writerPes(op);
        if (op.kind() == OpKind::RegionAssembly) {
          const Value* array = identityOf(op.operand(0));
          pes_[array] = readerPes(op, *array->definingOp());
        }
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
        decideMask(b);
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
          decideMask(b);
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

  // The block's one mask (LinxBlocks.h), and the first binding it does not serve. pes_
  // holds a Shared array's writers' mask until its assembly, its readers' after it.
  void decideMask(PlannedBlock& b) {
    std::string local = "1111", shared, sharedWhy;
    auto require = [&](const std::string& mask, const std::string& why) {
      if (shared.empty()) {
        shared = mask;
        sharedWhy = why;
      } else if (mask != shared && b.conflict.empty()) {
        b.conflict = why + " with pes = " + mask + ", and " + sharedWhy + " with pes = " + shared;
      }
    };
    if (b.write && isSharedTile(b.array)) require(pes_[b.array], "it writes a Shared tile array");
    for (const PlannedSource& s : b.sources) {
      if (isSharedTile(s.tile)) {
        require(pes_[s.tile], "it reads a Shared tile");
        continue;
      }
      auto made = pes_.find(s.tile);
      if (made != pes_.end())
        for (size_t pe = 0; pe < local.size(); ++pe)
          if (made->second[pe] != '1') local[pe] = '0';
    }
    b.pes = shared.empty() ? local : shared;
    for (size_t pe = 0; pe < local.size() && b.conflict.empty(); ++pe)
      if (b.pes[pe] == '1' && local[pe] != '1')
        b.conflict = sharedWhy + " on the PEs of pes = " + b.pes + ", but a Local tile it reads was made only on pes = " +
                     local + ", so PE" + std::to_string(pe) + " holds none of it";
    if (b.conflict.empty() && b.pes == "0000") b.conflict = "its Local sources were made on no PE in common";
    if (b.pushed && !isSharedTile(b.pushed)) pes_[b.pushed] = b.pes;
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
  std::unordered_map<const Value*, std::string> pes_;  // a tile -> the PEs that hold it
};

}  // namespace

std::vector<PlannedBlock> planBlocks(const Function& f) { return Planner().plan(f); }

Op* handOwner(const Value* pushed) { return pushed->definingOp(); }

bool isSharedTile(const Value* tile) {
  return tile->type().space() == Shared && tile->definingOp() && tile->definingOp()->kind() == OpKind::RegionArray;
}

std::string writerPes(const Op& array) {
  const std::string* pes = array.find(attr::pes);
  return pes ? *pes : "1111";
}

std::string readerPes(const Op& assembly, const Op& array) {
  const std::string* pes = assembly.find(attr::pes);
  return pes ? *pes : writerPes(array);
}

}  // namespace tilec::linx
