// multi-buffer: runs each innermost loop that loads tiles two iterations a step, the second
// iteration's tiles values of their own. assign-buffers then gives them buffers of their own,
// and PTOAS's synchronization, which orders accesses per buffer, lets the load of one
// iteration (MTE2), its moves into L0A/L0B (MTE1) and the work on the other iteration's
// tiles (CUBE, VEC) run at once instead of each waiting for the previous iteration to free
// its buffer. The loop becomes
//     scf.for %i = lb to lb + T / 2 * 2s step 2s {copies = 2} { body(%i); body(%i + s) }
// then, when the trip count T may be odd, the last iteration once more (under scf.if
// T % 2 == 1 when T is known only at run time). A loop is doubled only when every space
// still holds all the kernel's tiles, each in a buffer of its own and the loop's twice
// (no sharing assumed: an upper bound of what check-capacity will find); otherwise it keeps
// one buffer per tile. Linear in program size.
#include <algorithm>
#include <map>
#include <set>
#include <optional>

#include "backend/pto/PtoTargets.h"
#include "ir/Builder.h"
#include "ir/OpDefs.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
namespace {

using namespace ir;

constexpr int64_t kCopies = 2;

bool isSerialLoop(const Op& op) {
  const LoopMode* mode = op.find(attr::mode);
  return op.kind() == OpKind::For && (!mode || *mode == LoopMode::Serial) && !op.find(attr::copies);
}

struct BodyKinds {
  bool loop = false, load = false, cube = false;
};

void scan(const Block& b, BodyKinds& k) {
  for (const auto& op : b.ops()) {
    k.loop = k.loop || op->kind() == OpKind::For;
    k.load = k.load || op->kind() == OpKind::Load;
    k.cube = k.cube || opInfo(op->kind()).has(OpTrait::Cube);
    for (unsigned r = 0; r < op->numRegions(); ++r) scan(op->body(r), k);
  }
}

// An innermost serial loop that loads tiles for matmuls and may run twice. (Vector loops are
// left alone: on Perf-Sim a softmax keeps the vector unit busy 99% of the time with one
// buffer per tile, so a second one buys nothing.)
bool worthDoubling(const Op& loop) {
  if (!isSerialLoop(loop)) return false;
  BodyKinds kinds;
  scan(loop.body(), kinds);
  if (kinds.loop || !kinds.load || !kinds.cube) return false;
  const auto lb = loop.get(attr::lb).asConst(), ub = loop.get(attr::ub).asConst(), step = loop.get(attr::step).asConst();
  return !(lb && ub && step) || *ub - *lb > *step;
}

// Bytes per space of the tiles `b` makes (nested blocks included), each in a buffer of its
// own rounded up to the space's alignment; views, updates in place and the results of loops
// and branches live in the buffer of the tile they come from.
bool makesBuffer(const Op& op) {
  return !opInfo(op.kind()).has(OpTrait::View) && tiedOperand(op.kind()) < 0 && op.numRegions() == 0;
}

void addTileBytes(const Block& b, const TargetModel& model, std::map<SpaceId, int64_t>& bytes) {
  for (const auto& op : b.ops()) {
    if (makesBuffer(*op))
      for (const Value* r : op->results())
        if (r->type().isTile() && r->type().space() != kNoSpace) {
          const int64_t align = model.spaces[r->type().space()].alignment;
          bytes[r->type().space()] += (r->type().byteSize() + align - 1) / align * align;
        }
    for (unsigned i = 0; i < op->numRegions(); ++i) addTileBytes(op->body(i), model, bytes);
  }
}

class MultiBuffer final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"multi-buffer",
                                "run innermost loops that load tiles two iterations a step, each with buffers of its own",
                                PropMemSpacesInferred, 0, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext&) override {
    for (auto& f : m.functions()) {
      if (f->count(OpKind::For) == 0 || f->count(OpKind::Load) == 0) continue;
      std::map<SpaceId, int64_t> used;
      addTileBytes(f->body(), m.target(), used);
      for (Op* loop : passes::opsOfKind(*f, {OpKind::For}))
        if (worthDoubling(*loop) && fits(*loop, m.target(), used)) double_(*loop);
    }
    return true;
  }

 private:
  // Whether every space holds the loop's tiles once more; if so they are counted.
  static bool fits(const Op& loop, const TargetModel& model, std::map<SpaceId, int64_t>& used) {
    std::map<SpaceId, int64_t> more;
    addTileBytes(loop.body(), model, more);
    for (const auto& [space, bytes] : more)
      if (used[space] + bytes > model.spaces[space].capacityBytes) return false;
    for (const auto& [space, bytes] : more) used[space] += bytes;
    return true;
  }

  // Copies the body of `loop` (but its yield) before `at`, the induction variable standing
  // for `iv` and the carried values for `carried`; returns the values the body yields.
  // With `inline_`, the expressions of the copy hold `iv` itself, so that bounds are known
  // from the loop's; otherwise they name an arith.index of it that stands for the loop
  // variable (a fault in the last iteration names the variable, not the arithmetic).
  static std::vector<Value*> copyBody(const Op& loop, OpBuilder& at, const Expr& iv, const std::vector<Value*>& carried,
                                      bool inline_ = true) {
    const Block& body = loop.body();
    Value* ivValue = passes::madeFrom(
        at.createValue(OpKind::IndexExpr, {}, {{"value", iv}}, body.arg(0)->type(), body.arg(0)->name()), body.arg(0));
    ValueMapping mapping{{body.arg(0), ivValue}};
    for (unsigned i = 1; i < body.numArgs(); ++i) mapping[body.arg(i)] = carried[i - 1];
    std::vector<Value*> yielded;
    for (const auto& op : body.ops()) {
      if (op->kind() == OpKind::Yield) {
        for (Value* v : op->operands()) yielded.push_back(mapping.count(v) ? mapping.at(v) : v);
        continue;
      }
      Op* copy = at.clone(*op, mapping);
      if (inline_) passes::bindInExprs(*copy, ivValue, iv);
    }
    // Operands may still read the arith.index; expressions hold the expression itself.
    if (inline_ && !ivValue->hasUses()) ivValue->definingOp()->parentBlock()->erase(ivValue->definingOp());
    return yielded;
  }

  static void double_(Op& loop) {
    const Expr lb = loop.get(attr::lb), ub = loop.get(attr::ub), step = loop.get(attr::step);
    const Expr trips = Expr::max(Expr::constant(0), Expr::ceilDiv(ub - lb, step));
    const Expr pairs = Expr::floorDiv(trips, Expr::constant(kCopies));
    const Expr rest = trips - pairs * kCopies;  // the iteration left over: 0 or 1
    OpBuilder before = OpBuilder::before(loop);

    Op* twice = loop.parentBlock()->create(OpKind::For, loop.loc(), &loop);
    twice->set(attr::lb, lb);
    twice->set(attr::ub, lb + pairs * kCopies * step);
    twice->set(attr::step, step * kCopies);
    twice->set(attr::copies, kCopies);
    for (Value* v : loop.operands()) twice->addOperand(v);
    Block& body = twice->addRegion().block();
    Value* iv = body.addArg(Type::index(), loop.body().arg(0)->name());
    iv->setOrigin(loop.body().arg(0)->origin());
    std::vector<Value*> carried;
    for (unsigned i = 1; i < loop.body().numArgs(); ++i) {
      carried.push_back(body.addArg(loop.body().arg(i)->type(), loop.body().arg(i)->name()));
      twice->addResult(loop.result(i - 1)->type(), loop.result(i - 1)->name());
    }
    OpBuilder inside(body);
    inside.setLoc(loop.loc());
    for (int64_t k = 0; k < kCopies; ++k) carried = copyBody(loop, inside, Expr::var(iv) + step * k, carried);
    yield(body, loop.loc(), carried);
    orderByStage(body);

    std::vector<Value*> after = twice->results();
    if (rest.asConst() == std::optional<int64_t>(1))
      after = copyBody(loop, before, lb + pairs * kCopies * step, after, false);
    else if (!rest.isConst())
      after = lastIteration(loop, rest, lb + pairs * kCopies * step, after);
    const std::vector<Op*> made = opsBetween(*twice, loop);
    if (!verifies(made)) {
      for (auto it = made.rbegin(); it != made.rend(); ++it) loop.parentBlock()->erase(*it);
      return;
    }
    for (unsigned i = 0; i < loop.numResults(); ++i) loop.result(i)->replaceAllUsesWith(after[i]);
    loop.parentBlock()->erase(&loop);
  }

  // Whether the ops from `first` up to `loop` keep their rules: an iteration that breaks one
  // (a window past its tensor at the last step) is the kernel's error, which pto-legality
  // reports on the loop as written.
  static bool verifies(const std::vector<Op*>& ops) {
    bool ok = true;
    for (Op* op : ops) op->walk([&](Op& o) { ok = ok && !verifyOp(o); });
    return ok;
  }

  // The ops of `from`'s block from `from` up to (not including) `to`.
  static std::vector<Op*> opsBetween(const Op& from, const Op& to) {
    std::vector<Op*> out;
    bool in = false;
    for (const auto& op : from.parentBlock()->ops()) {
      if (op.get() == &to) break;
      in = in || op.get() == &from;
      if (in) out.push_back(op.get());
    }
    return out;
  }

  // The doubled body in stages, each in program order: the loads, then the moves (into L0A
  // and L0B), then the rest. The scalar unit issues instructions in program order and stops
  // at each wait, so the second copy's load or move written after the first copy's matmul
  // would not start before that matmul does; in stages, the loads and moves of both copies
  // are queued first. An op goes no earlier than the ops it reads; a load of a tensor the
  // body stores to stays with the rest. A stable sort by stage keeps every op after what it
  // reads, because an op's stage is at least its operands'.
  static void orderByStage(Block& body) {
    std::set<const Value*> stored;
    for (const auto& op : body.ops())
      if (op->kind() == OpKind::Store) stored.insert(rootTensor(op->operand(1)));
    std::map<const Value*, int> stageOf;  // of the values the body makes
    std::vector<std::pair<int, Op*>> staged;
    for (const auto& op : body.ops()) {
      if (op->kind() == OpKind::Yield) break;
      int stage = ownStage(*op, stored);
      for (const Value* v : reads(*op))
        if (auto it = stageOf.find(v); it != stageOf.end()) stage = std::max(stage, it->second);
      for (const Value* r : op->results()) stageOf[r] = stage;
      staged.push_back({stage, op.get()});
    }
    std::stable_sort(staged.begin(), staged.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    Op* end = body.terminator();
    for (const auto& [stage, op] : staged) body.moveHere(op, end);
  }

  static int ownStage(const Op& op, const std::set<const Value*>& stored) {
    if (op.kind() == OpKind::Load) return stored.count(rootTensor(op.operand(0))) ? kRest : kLoads;
    if (op.kind() == OpKind::Move) return kMoves;
    if (op.kind() == OpKind::IndexExpr || op.kind() == OpKind::Const) return kLoads;
    return kRest;
  }
  static constexpr int kLoads = 0, kMoves = 1, kRest = 2;

  // The parameter a tensor view views.
  static const Value* rootTensor(const Value* t) {
    while (t->definingOp() && t->definingOp()->kind() == OpKind::TensorView) t = t->definingOp()->operand(0);
    return t;
  }

  // The values `op` and the ops inside it read: operands, and scalars named in expressions.
  static std::set<const Value*> reads(const Op& op) {
    std::set<const Value*> out;
    const_cast<Op&>(op).walk([&](Op& o) {
      for (const Value* v : o.operands()) out.insert(v);
      passes::addNamedScalars(o, out);
    });
    return out;
  }

  // scf.if rest == 1 { the body at `iv` } else { the values as they are }.
  static std::vector<Value*> lastIteration(Op& loop, const Expr& rest, const Expr& iv,
                                           const std::vector<Value*>& carried) {
    Op* branch = loop.parentBlock()->create(OpKind::If, loop.loc(), &loop);
    branch->set(attr::cond, Expr::cmp(CmpKind::EQ, rest, Expr::constant(1)));
    for (const Value* v : carried) branch->addResult(v->type(), v->name());
    Block& thenBlock = branch->addRegion().block();
    OpBuilder then(thenBlock);
    then.setLoc(loop.loc());
    yield(thenBlock, loop.loc(), copyBody(loop, then, iv, carried, false));
    yield(branch->addRegion().block(), loop.loc(), carried);
    return branch->results();
  }

  static void yield(Block& b, SourceRange loc, const std::vector<Value*>& values) {
    Op* y = b.create(OpKind::Yield, loc);
    for (Value* v : values) y->addOperand(v);
  }
};

}  // namespace

std::unique_ptr<Pass> createMultiBufferPass() { return std::make_unique<MultiBuffer>(); }

}  // namespace tilec::pto
