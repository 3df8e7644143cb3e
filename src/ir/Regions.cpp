#include "ir/Regions.h"

#include "ir/OpDefs.h"

namespace tilec::ir {
namespace {

void collect(const Block& b, std::unordered_set<const Value*>& arrays) {
  for (const auto& op : b.ops()) {
    const bool regionsOk = op->numRegions() == unsigned(opInfo(op->kind()).numRegions);
    if (op->kind() == OpKind::RegionArray || op->kind() == OpKind::RegionInsert)
      for (unsigned i = 0; i < op->numResults(); ++i) arrays.insert(op->result(i));
    if (op->kind() == OpKind::For && regionsOk)
      for (unsigned i = 0; i < op->numOperands() && i < op->numResults() && i + 1 < op->body().numArgs(); ++i)
        if (arrays.count(op->operand(i))) {
          arrays.insert(op->body().arg(i + 1));
          arrays.insert(op->result(i));
        }
    for (unsigned r = 0; r < op->numRegions(); ++r) collect(op->body(r), arrays);
    if (op->kind() == OpKind::If)
      for (unsigned r = 0; r < op->numRegions(); ++r)
        if (const Op* y = op->body(r).back(); y && y->kind() == OpKind::Yield)
          for (unsigned i = 0; i < y->numOperands() && i < op->numResults(); ++i)
            if (arrays.count(y->operand(i))) arrays.insert(op->result(i));
  }
}

}  // namespace

std::unordered_set<const Value*> tileArrayValues(const Function& f) {
  std::unordered_set<const Value*> arrays;
  // Every array value descends from a region.array or region.insert: without one, no walk.
  if (f.count(OpKind::RegionArray) + f.count(OpKind::RegionInsert) > 0) collect(f.body(), arrays);
  return arrays;
}

bool isRolled(const Op& loop) {
  const bool* rolled = loop.find(attr::rolled);
  return loop.kind() == OpKind::For && rolled && *rolled;
}

Op* loopSlotWrite(const Op& loop, unsigned operand) {
  if (loop.numRegions() != 1 || operand + 1 >= loop.body().numArgs()) return nullptr;
  const Value* arg = loop.body().arg(operand + 1);
  if (arg->uses().size() != 1) return nullptr;
  Op* write = arg->uses().front().user;
  if (write->kind() != OpKind::RegionInsert || write->operand(0) != arg || write->result()->uses().size() != 1)
    return nullptr;
  const Use& next = write->result()->uses().front();
  return next.user->kind() == OpKind::Yield && next.index == operand && next.user->parentBlock() == &loop.body()
             ? write
             : nullptr;
}

ArrayChain arrayChain(const Op& array) {
  ArrayChain chain;
  chain.end = array.result();
  while (chain.end->uses().size() == 1) {
    const Use& use = chain.end->uses().front();
    Op* user = use.user;
    if (user->kind() == OpKind::RegionAssembly) {
      chain.assembly = user;
      break;
    }
    Op* write = user->kind() == OpKind::RegionInsert && use.index == 0 ? user
                : isRolled(*user)                                       ? loopSlotWrite(*user, use.index)
                                                                       : nullptr;
    if (!write) {
      chain.stop = user;
      break;
    }
    chain.writes.push_back(write);
    chain.end = write == user ? user->result() : user->result(use.index);
  }
  return chain;
}

const Op* rolledLoopOf(const Op& write) {
  const Op* loop = write.parentBlock() ? write.parentBlock()->parentOp() : nullptr;
  return loop && isRolled(*loop) ? loop : nullptr;
}

std::optional<int64_t> slotOrdinal(const Op& write) {
  const auto& index = write.get(attr::index);
  const auto& grid = write.get(attr::grid);
  if (!index[0].isConst() || !index[1].isConst()) return std::nullopt;
  return index[0].constValue() * grid[1] + index[1].constValue();
}

}  // namespace tilec::ir
