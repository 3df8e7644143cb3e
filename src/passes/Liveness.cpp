#include "passes/Liveness.h"

#include "ir/OpDefs.h"

namespace tilec::passes {
using namespace ir;

Liveness::Liveness(const Function& f) { number(f.body()); }

void Liveness::number(const Block& b) {
  int start = advance();
  for (const auto& op : b.ops()) {
    int enter = advance();
    for (unsigned r = 0; r < op->numRegions(); ++r) number(op->body(r));
    spans_[op.get()] = {enter, advance()};
  }
  blockSpans_[&b] = {start, counter_};
}

Point Liveness::defOf(const Value* v) const {
  if (const Op* def = v->definingOp()) return exitOf(def);
  return {blockSpans_.at(v->ownerBlock()).first, v->ownerBlock()};
}

bool Liveness::inside(const Point& p, const Op* op) const {
  auto [enter, exit] = spans_.at(op);
  return p.index > enter && p.index < exit;
}

bool Liveness::inBlock(const Point& p, const Block* b) const {
  auto [start, end] = blockSpans_.at(b);
  return p.index >= start && p.index <= end;
}

bool Liveness::exclusive(const Point& p, const Point& q) const {
  for (const Block* b = p.block; b && b->parentOp(); b = b->parentOp()->parentBlock()) {
    const Op* owner = b->parentOp();
    if (owner->kind() == OpKind::If && inside(q, owner) && !inBlock(q, b)) return true;
  }
  return false;
}

bool Liveness::mayFollow(const Point& p, const Point& u, const Point& d, bool& nextIteration) const {
  if (u.index > p.index && !exclusive(p, u)) return true;
  for (const Block* b = p.block; b && b->parentOp(); b = b->parentOp()->parentBlock()) {
    const Op* loop = b->parentOp();
    if (loop->kind() == OpKind::For && inside(u, loop) && !inside(d, loop)) {
      nextIteration = true;
      return true;
    }
  }
  return false;
}

void Liveness::collectReads(Value* v, std::vector<const Op*>& out) {
  for (const Use& u : v->uses()) {
    if (isView(u.user->kind())) collectReads(u.user->result(), out);
    else if (!(u.index == 0 && isWriteBack(*u.user))) out.push_back(u.user);
  }
}

Value* Liveness::dataRoot(Value* v) {
  while (v->definingOp() && isView(v->definingOp()->kind())) v = v->definingOp()->operand(0);
  return v;
}

std::optional<Liveness::LaterRead> Liveness::readAfter(Value* v, const Point& p) const {
  Point d = defOf(v);
  if (p.index < d.index || exclusive(d, p)) return std::nullopt;
  std::vector<const Op*> reads;
  collectReads(v, reads);
  for (const Op* r : reads) {
    bool nextIteration = false;
    if (mayFollow(p, enterOf(r), d, nextIteration)) return LaterRead{r, nextIteration};
  }
  return std::nullopt;
}

int Liveness::liveEnd(Value* v) const {
  Point d = defOf(v);
  int end = d.index;
  std::vector<const Op*> reads;
  collectReads(v, reads);
  for (const Op* r : reads) {
    int e = spans_.at(r).second;
    for (const Op* loop = r->parentOp(); loop; loop = loop->parentOp())
      if (loop->kind() == OpKind::For && !inside(d, loop)) e = std::max(e, spans_.at(loop).second);
    end = std::max(end, e);
  }
  return end;
}

void Liveness::placeBefore(const Op* op, const Op* before) {
  int enter = spans_.at(before).first;
  spans_[op] = {enter - 2, enter - 1};
}

}  // namespace tilec::passes
