// multi-buffer: runs serial loops that load tiles for matmuls two iterations a step, the
// second iteration's tiles values of their own. assign-buffers then gives them buffers of
// their own (and plan-addresses different bytes), and PTOAS's synchronization, which orders
// accesses per buffer, lets the load of one iteration (MTE2), its moves into L0A/L0B (MTE1)
// and the work on the other iteration's tiles (CUBE, VEC) run at once instead of each
// waiting for the previous iteration to free its buffer. The loop becomes
//     scf.for %i = lb to lb + T / 2 * 2s step 2s {copies = 2} { body(%i); body(%i + s) }
// then, when the trip count T may be odd, the last iteration once more (when T is known only at
// run time, the loop itself from lb + T / 2 * 2s: zero or one iteration). A serial loop the
// author wrote with `buffers(N)` is run N iterations a step whether or not it looks worth it
// (a warning when its copies do not fit), and one with `buffers(1)` is left alone.
//
// Every level is buffered: loops are visited innermost first, and a loop qualifies when its
// own body loads a tile, moves one into L0A/L0B or makes an accumulator, and matmuls run in it
// (nested loops included), so a GEMM's K loop (over slices of panels in L1 too), the loop over
// output tiles that makes and stores the accumulator (ping-pong accumulators),
// the loop over output rows that loads an A panel and the one over output columns that loads
// a B panel are each doubled. A doubled loop is kept only when every space still holds the
// tiles live at once (the peak over the kernel of tiles' live ranges, a tile counted with
// what it updates in place, carries or views: the number check-capacity will hold against the
// capacity, give or take assign-buffers' sharing); the doubled body is first put in stages
// (loads, moves, the rest), then, if that does not fit, only its loads go first, and otherwise
// the loop keeps one buffer per tile. Each check is linear in the kernel, so the pass is
// linear in program size times the number of loops.
#include <algorithm>
#include <map>
#include <set>
#include <optional>

#include "backend/pto/PtoTargets.h"
#include "ir/Builder.h"
#include "ir/OpDefs.h"
#include "passes/BufferLifetimes.h"
#include "passes/Liveness.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
namespace {

using namespace ir;

constexpr int64_t kCopies = 2;
constexpr int64_t kFullUnrollTrips = 8;

bool isSerialLoop(const Op& op) {
  const LoopMode* mode = op.find(attr::mode);
  return op.kind() == OpKind::For && (!mode || *mode == LoopMode::Serial) && !op.find(attr::copies);
}

bool hasCube(const Block& b) {
  for (const auto& op : b.ops()) {
    if (opInfo(op->kind()).has(OpTrait::Cube)) return true;
    for (unsigned r = 0; r < op->numRegions(); ++r)
      if (hasCube(op->body(r))) return true;
  }
  return false;
}

// A serial loop whose own body fills tiles and that has matmuls in it, with more than one
// iteration. Fills are loads from GM, moves into L0A/L0B and fresh accumulators; a loop that
// fills only accumulators qualifies when two of them fit their space at once (ping-pong
// accumulators: one stored while the other is summed), else a second copy buys nothing.
// (Vector loops are left alone: on Perf-Sim a softmax keeps the vector unit busy 99% of the
// time with one buffer per tile.)
bool worthDoubling(const Op& loop, const TargetModel& model) {
  if (!isSerialLoop(loop) || !hasCube(loop.body())) return false;
  bool transfers = false;
  std::map<SpaceId, int64_t> created;
  for (const auto& op : loop.body().ops()) {
    transfers = transfers || op->kind() == OpKind::Load || op->kind() == OpKind::Move;
    if (op->kind() == OpKind::Create) created[op->result()->type().space()] += op->result()->type().byteSize();
  }
  if (!transfers) {
    if (created.empty()) return false;
    for (const auto& [space, bytes] : created)
      if (space == kNoSpace || 2 * bytes > model.spaces[space].capacityBytes) return false;
  }
  const auto lb = loop.get(attr::lb).asConst(), ub = loop.get(attr::ub).asConst(), step = loop.get(attr::step).asConst();
  return !(lb && ub && step) || *ub - *lb > *step;
}

// Tiles that get a buffer of their own: not views, updates in place, or the results of loops
// and branches (those live in the buffer of the tile they come from).
bool makesBuffer(const Op& op) {
  return !opInfo(op.kind()).has(OpTrait::View) && tiedOperand(op.kind()) < 0 && op.numRegions() == 0;
}

// The peak bytes of tiles live at once, per space, over `f` without the ops inside `skip`
// (the loop a doubled copy replaces). A tile's range runs from its definition to the last
// read of it or of anything that updates it in place, carries it through a loop or branch,
// or views it; sizes are rounded up to the space's alignment.
class PeakBytes {
 public:
  PeakBytes(const Function& f, const TargetModel& model, const Op* skip) : live_(f), model_(model), skip_(skip) {
    walk(f.body());
  }
  bool fits() const {
    std::map<SpaceId, std::vector<std::pair<int, int64_t>>> events;  // point, +bytes / -bytes
    for (const auto& [root, range] : ranges_) {
      const SpaceId space = root->type().space();
      const int64_t bytes = passes::alignedBytes(root->type().byteSize(), model_.spaces[space].alignment);
      events[space].push_back({range.first, bytes});
      events[space].push_back({range.second + 1, -bytes});
    }
    for (auto& [space, list] : events) {
      std::sort(list.begin(), list.end());
      int64_t bytes = 0;
      for (const auto& [point, delta] : list)
        if ((bytes += delta) > model_.spaces[space].capacityBytes) return false;
    }
    return true;
  }

 private:
  void walk(const Block& b) {
    for (const auto& op : b.ops()) {
      if (op.get() == skip_) continue;
      for (unsigned r = 0; r < op->numRegions(); ++r) {
        if (op->kind() == OpKind::For)
          for (unsigned i = 1; i < op->body().numArgs() && i - 1 < op->numOperands(); ++i)
            alias(op->body().arg(i), op->operand(i - 1));
        walk(op->body(r));
      }
      for (unsigned i = 0; i < op->numResults(); ++i) note(*op, i);
    }
  }
  void note(const Op& op, unsigned i) {
    const Value* v = op.result(i);
    if (!v->type().isTile() || v->type().space() == kNoSpace) return;
    if (makesBuffer(op)) {
      roots_[v] = v;
      ranges_[v] = {live_.defOf(v).index, live_.liveEnd(const_cast<Value*>(v))};
      return;
    }
    const Value* from = source(op, i);
    if (from) alias(v, from);
  }
  const Value* source(const Op& op, unsigned i) const {
    if (tiedOperand(op.kind()) >= 0) return op.operand(unsigned(tiedOperand(op.kind())));
    if (opInfo(op.kind()).has(OpTrait::View) || op.kind() == OpKind::For) return i < op.numOperands() ? op.operand(i) : nullptr;
    if (op.kind() == OpKind::If) return op.body(0).terminator()->operand(i);
    return nullptr;
  }
  void alias(const Value* v, const Value* from) {
    auto it = roots_.find(from);
    if (it == roots_.end()) return;
    roots_[v] = it->second;
    auto& range = ranges_[it->second];
    range.second = std::max(range.second, live_.liveEnd(const_cast<Value*>(v)));
  }

  passes::Liveness live_;
  const TargetModel& model_;
  const Op* skip_;
  std::map<const Value*, const Value*> roots_;
  std::map<const Value*, std::pair<int, int>> ranges_;  // per root: first and last point
};

class MultiBuffer final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"multi-buffer",
                                "run loops that load tiles for matmuls two iterations a step, each with buffers of its own",
                                PropMemSpacesInferred, 0, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    for (auto& f : m.functions()) {
      if (f->count(OpKind::For) == 0 || f->count(OpKind::Load) == 0) continue;
      std::vector<Op*> loops = passes::opsOfKind(*f, {OpKind::For});
      for (auto it = loops.rbegin(); it != loops.rend(); ++it) {  // innermost first
        Op& loop = **it;
        if (const int64_t* asked = loop.find(attr::buffering)) {
          if (*asked > 1 && isSerialLoop(loop) && !multiply(*f, loop, *asked)) notFitting(loop, *asked, ctx.diags);
          continue;
        }
        if (worthDoubling(loop, m.target()) && !unrollFully(*f, loop)) multiply(*f, loop, kCopies);
      }
    }
    return true;
  }

 private:
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

  // A short loop of constant trip count that fills only on-chip tiles from on-chip tiles
  // (moves into L0A/L0B, fresh accumulators: a K loop over an L1 panel, the loop over the
  // accumulators of one output block, once its own K loop is copied out) and holds no other
  // loop or branch is copied out whole, each iteration with its own tiles:
  // PTOAS synchronizes every pipe at a loop's boundaries, which a rolled loop pays once per
  // iteration of the loops around it. False, changing nothing, when it does not qualify or its
  // tiles do not fit.
  static bool unrollFully(const Function& f, Op& loop) {
    const auto lb = loop.get(attr::lb).asConst(), ub = loop.get(attr::ub).asConst(),
               step = loop.get(attr::step).asConst();
    if (!lb || !ub || !step || *step <= 0) return false;
    const int64_t trips = (*ub - *lb + *step - 1) / *step;
    const bool loadsOrLoops = std::any_of(loop.body().ops().begin(), loop.body().ops().end(), [](const auto& op) {
      return op->kind() == OpKind::Load || op->numRegions() != 0;
    });
    if (loadsOrLoops || trips > kFullUnrollTrips) return false;
    const Op* mark = opBefore(loop);
    OpBuilder before = OpBuilder::before(loop);
    std::vector<Value*> carried(loop.operands().begin(), loop.operands().end());
    for (int64_t k = 0; k < trips; ++k) carried = copyBody(loop, before, Expr::constant(*lb + k * *step), carried);
    std::vector<Op*> made = opsBetween(mark ? *mark->nextOp() : *loop.parentBlock()->ops().front(), loop);
    for (unsigned i = 0; i < loop.numResults(); ++i) loop.result(i)->replaceAllUsesWith(carried[i]);
    if (!verifies(made) || !PeakBytes(f, f.module().target(), &loop).fits()) {
      for (unsigned i = 0; i < loop.numResults(); ++i) carried[i]->replaceAllUsesWith(loop.result(i));
      for (auto it = made.rbegin(); it != made.rend(); ++it) loop.parentBlock()->erase(*it);
      return false;
    }
    loop.parentBlock()->erase(&loop);
    return true;
  }

  static const Op* opBefore(const Op& op) {
    const Op* last = nullptr;
    for (const auto& o : op.parentBlock()->ops()) {
      if (o.get() == &op) break;
      last = o.get();
    }
    return last;
  }

  // The loop as `copies` iterations a step, each with tiles of its own, then the iterations
  // left over: copied out when their number is a constant, else the loop itself from there.
  // False, changing nothing, when a copy breaks an op's rules or the tiles do not fit.
  static bool multiply(const Function& f, Op& loop, int64_t copies) {
    const Expr lb = loop.get(attr::lb), ub = loop.get(attr::ub), step = loop.get(attr::step);
    const Expr trips = Expr::max(Expr::constant(0), Expr::ceilDiv(ub - lb, step));
    const Expr steps = Expr::floorDiv(trips, Expr::constant(copies));
    const Expr rest = trips - steps * copies;  // the iterations left over: 0 .. copies - 1
    const Expr restStart = lb + steps * copies * step;
    OpBuilder before = OpBuilder::before(loop);

    Op* many = loop.parentBlock()->create(OpKind::For, loop.loc(), &loop);
    many->set(attr::lb, lb);
    many->set(attr::ub, restStart);
    many->set(attr::step, step * copies);
    many->set(attr::copies, copies);
    for (Value* v : loop.operands()) many->addOperand(v);
    Block& body = many->addRegion().block();
    Value* iv = body.addArg(Type::index(), loop.body().arg(0)->name());
    iv->setOrigin(loop.body().arg(0)->origin());
    std::vector<Value*> carried;
    for (unsigned i = 1; i < loop.body().numArgs(); ++i) {
      carried.push_back(body.addArg(loop.body().arg(i)->type(), loop.body().arg(i)->name()));
      many->addResult(loop.result(i - 1)->type(), loop.result(i - 1)->name());
    }
    OpBuilder inside(body);
    inside.setLoc(loop.loc());
    for (int64_t k = 0; k < copies; ++k) carried = copyBody(loop, inside, Expr::var(iv) + step * k, carried);
    yield(body, loop.loc(), carried);

    std::vector<Value*> after = many->results();
    if (const auto r = rest.asConst())
      for (int64_t k = 0; k < *r; ++k) after = copyBody(loop, before, restStart + step * k, after, false);
    else
      after = remainder(loop, before, restStart, after);
    const std::vector<Op*> made = opsBetween(*many, loop);
    for (unsigned i = 0; i < loop.numResults(); ++i) loop.result(i)->replaceAllUsesWith(after[i]);
    const std::vector<Op*> inOrder = opsBetween(*body.ops().front(), *body.terminator());
    auto fitsInStages = [&](bool stageMoves) {
      for (Op* op : inOrder) body.moveHere(op, body.terminator());
      orderByStage(body, stageMoves);
      return PeakBytes(f, f.module().target(), &loop).fits();
    };
    if (!verifies(made) || !(fitsInStages(true) || fitsInStages(false))) {
      for (unsigned i = 0; i < loop.numResults(); ++i) after[i]->replaceAllUsesWith(loop.result(i));
      for (auto it = made.rbegin(); it != made.rend(); ++it) loop.parentBlock()->erase(*it);
      return false;
    }
    loop.parentBlock()->erase(&loop);
    return true;
  }

  // The loop again from `start` on, carrying `carried`: the iterations a runtime trip count
  // leaves over.
  static std::vector<Value*> remainder(const Op& loop, OpBuilder& at, const Expr& start,
                                       const std::vector<Value*>& carried) {
    ValueMapping none;
    Op* rest = at.clone(loop, none);
    rest->set(attr::lb, start);
    rest->remove(attr::buffering);
    for (unsigned i = 0; i < carried.size(); ++i) rest->setOperand(i, carried[i]);
    return rest->results();
  }

  static void notFitting(const Op& loop, int64_t copies, DiagnosticEngine& diags) {
    diags.report(Diag::PtoBuffersNoFit, loop.loc(),
                 "buffers(" + std::to_string(copies) + ") asks for " + std::to_string(copies) +
                     " iterations of this loop at once, but their tiles do not fit the target's on-chip memory "
                     "(or a copy's window runs past its tensor); the loop keeps one buffer per tile; ask for "
                     "fewer copies or use smaller tiles");
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
  static void orderByStage(Block& body, bool stageMoves) {
    std::set<const Value*> stored;
    for (const auto& op : body.ops())
      if (op->kind() == OpKind::Store) stored.insert(rootTensor(op->operand(1)));
    std::map<const Value*, int> stageOf;  // of the values the body makes
    std::vector<std::pair<int, Op*>> staged;
    for (const auto& op : body.ops()) {
      if (op->kind() == OpKind::Yield) break;
      int stage = ownStage(*op, stored, stageMoves);
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

  static int ownStage(const Op& op, const std::set<const Value*>& stored, bool stageMoves) {
    if (op.kind() == OpKind::Load) return stored.count(rootTensor(op.operand(0))) ? kRest : kLoads;
    if (op.kind() == OpKind::Move) return stageMoves ? kMoves : kRest;
    // Scalars and views go as early as what they read allows.
    if (op.kind() == OpKind::IndexExpr || op.kind() == OpKind::Const || isView(op.kind())) return kLoads;
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

  static void yield(Block& b, SourceRange loc, const std::vector<Value*>& values) {
    Op* y = b.create(OpKind::Yield, loc);
    for (Value* v : values) y->addOperand(v);
  }
};

}  // namespace

std::unique_ptr<Pass> createMultiBufferPass() { return std::make_unique<MultiBuffer>(); }

}  // namespace tilec::pto
