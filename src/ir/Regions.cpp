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

std::optional<ArrayChain> arrayChain(const Op& array) {
  ArrayChain chain;
  for (const Value* v = array.result(); v->uses().size() == 1;) {
    Op* user = v->uses().front().user;
    if (user->kind() == OpKind::RegionAssembly) {
      chain.assembly = user;
      return chain;
    }
    if (user->kind() != OpKind::RegionInsert) break;
    chain.writes.push_back(user);
    v = user->result();
  }
  return std::nullopt;
}

std::optional<int64_t> slotOrdinal(const Op& write) {
  const auto& index = write.get(attr::index);
  const auto& grid = write.get(attr::grid);
  if (!index[0].isConst() || !index[1].isConst()) return std::nullopt;
  return index[0].constValue() * grid[1] + index[1].constValue();
}

}  // namespace tilec::ir
