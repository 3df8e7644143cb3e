// split-cube-vector: runs a mix kernel (cube and vector work in one incore kernel, as
// infer-memory-space resolves it) on both cores. The kernel becomes two sections that
// run at the same time, core.cube and core.vector, with a pipe per direction between them:
//  - every op goes to the side of its tiles (vec tiles: vector; mat, left, right, acc,
//    bias: cube), so a store of an accumulator stays on the cube side; ops on scalars only
//    and the loops and branches around either side's work go to both;
//  - the moves infer-memory-space made across the cores (acc -> vec, the scores of an
//    attention; vec -> mat, its probabilities), and the tiles an op reads from the other core
//    (an accumulator's page assembled into a vec tile), become a pipe.push on the producing
//    side and a pipe.pop on the consuming one, at the same place in each section's order; a
//    tile of a run-time valid shape travels whole and is narrowed again on both sides (on
//    the cube core, its move to left or right is);
//  - the consumer frees each popped slot (pipe.free) right after the last op of the pop's
//    block that reads the tile or a view of it; a popped tile that lives on past its
//    block (a carried value) is copied out of its slot first;
//  - each pipe gets enough slots for the popped tiles held at once (at least 2, so the
//    producer can fill one while the consumer reads the other), each slot the bytes of the
//    largest tile it carries.
// Both sections are projections of one sequential program in which every pop directly
// follows its push, so that program is a schedule of the two sections whose pipes never
// hold more than the slots held at once; by Kahn's determinism no schedule of them
// deadlocks. Unused copies of scalar work and loops left empty are removed from each side.
// A vec tile written into a cube tile by an op other than a matmul operand's move is
// refused (E0408). Scalars never
// cross: no op computes one from a tile, so both sides compute every scalar themselves.
// Linear in program size.
#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "backend/pto/PtoTargets.h"
#include "ir/Builder.h"
#include "ir/Describe.h"
#include "ir/OpDefs.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
namespace {

using namespace ir;

enum class Side : uint8_t { Both, Cube, Vector };

Side sideOfSpace(SpaceId s) {
  if (s == ir::kNoSpace) return Side::Both;
  return s == Space::Vec ? Side::Vector : Side::Cube;
}

Side sideOfValue(const Value* v) { return passes::isTile(v) ? sideOfSpace(v->type().space()) : Side::Both; }

// A move whose source and result are on different cores: the producer's side, or Both.
Side crossingFrom(const Op& op) {
  if (op.kind() != OpKind::Move) return Side::Both;
  const Side from = sideOfValue(op.operand(0)), to = sideOfValue(op.result());
  return from != to && from != Side::Both && to != Side::Both ? from : Side::Both;
}

// The side an op runs on: its tile results', or else its tile operands' (a store).
Side sideOfOp(const Op& op) {
  for (const Value* v : op.results())
    if (sideOfValue(v) != Side::Both) return sideOfValue(v);
  for (const Value* v : op.operands())
    if (sideOfValue(v) != Side::Both) return sideOfValue(v);
  return Side::Both;
}

// The tiles `op` reads from the other core (an assemble of an accumulator's page into a vec
// tile): each crosses through a pipe just before the op. Once per value, in operand order.
std::vector<const Value*> foreignOperands(const Op& op) {
  std::vector<const Value*> out;
  if (crossingFrom(op) != Side::Both) return out;
  const Side s = sideOfOp(op);
  for (const Value* v : op.operands())
    if (sideOfValue(v) != Side::Both && sideOfValue(v) != s && std::find(out.begin(), out.end(), v) == out.end())
      out.push_back(v);
  return out;
}

// The pipe of each direction, numbered as the crossings are met.
struct Pipe {
  int64_t id;
  int64_t slotBytes = 0;
  int64_t held = 0;  // popped tiles held at once, at most
};

class FunctionSplit {
 public:
  FunctionSplit(Function& f, DiagnosticEngine& diags) : f_(f), diags_(diags) {}

  bool run() {
    passes::ErrorWatch errors(diags_);
    findPipes(f_.body());
    if (!errors.clean()) return false;
    Block& body = f_.body();
    Block& cube = section(OpKind::CoreCube);
    Block& vector = section(OpKind::CoreVector);
    Op* sections = cube.parentOp();
    ValueMapping cubeMap = paramMap(), vectorMap = paramMap();
    cloneBlock(body, cube, Side::Cube, cubeMap, nullptr, sections);
    cloneBlock(body, vector, Side::Vector, vectorMap, nullptr, sections);
    if (!errors.clean()) return false;
    for (Block* b : {&cube, &vector}) {
      placeFrees(*b);
      removeDead(*b);
    }
    std::vector<Op*> original;
    for (const auto& op : body.ops()) {
      if (op.get() == sections) break;
      original.push_back(op.get());
    }
    for (auto it = original.rbegin(); it != original.rend(); ++it) body.erase(*it);
    declarePipes(*sections);
    return true;
  }

  // ---- pipes ----

  Pipe& pipeFrom(Side producer) {
    auto it = pipes_.find(producer);
    if (it == pipes_.end()) it = pipes_.emplace(producer, Pipe{int64_t(pipes_.size())}).first;
    return it->second;
  }

  void findPipes(const Block& b) {
    for (const auto& op : b.ops()) {
      for (unsigned r = 0; r < op->numRegions(); ++r) findPipes(op->body(r));
      for (const Value* v : foreignOperands(*op)) {
        if (sideOfValue(v) == Side::Vector) {
          diags_.report(Diag::SplitVecIntoCube, op->loc(),
                        describe(*op, diags_.sources()) + " puts " + describe(v, diags_.sources()) +
                            ", a tile of the vector core, into a tile of the cube core, but only matmul operands "
                            "cross to the cube core; assemble the whole tile on the vector core and use it as the "
                            "matmul operand");
          continue;
        }
        Pipe& p = pipeFrom(sideOfValue(v));
        p.slotBytes = std::max(p.slotBytes, v->type().elementCount() * dtypeBytes(v->type().dtype()));
      }
      const Side from = crossingFrom(*op);
      if (from == Side::Both) continue;
      const Type& t = op->result()->type();
      Pipe& p = pipeFrom(from);
      p.slotBytes = std::max(p.slotBytes, t.elementCount() * dtypeBytes(t.dtype()));
    }
  }

  static bool staticValid(const Type& t) {
    return std::all_of(t.valid().begin(), t.valid().end(), [](const Expr& e) { return e.asConst().has_value(); });
  }

  void declarePipes(Op& before) {
    OpBuilder build = OpBuilder::before(before);
    build.setLoc(f_.loc());
    for (const auto& [producer, p] : pipes_)
      build.create(OpKind::PipeInit, {},
                   {attr::pipe(p.id), attr::slots(std::max<int64_t>(p.held, kMinSlots)), attr::slot_bytes(p.slotBytes)});
  }

  // ---- sections ----

  Block& section(OpKind kind) {
    Op* op = f_.body().create(kind, f_.loc());
    op->addRegion();
    return op->body();
  }

  ValueMapping paramMap() const {
    ValueMapping m;
    for (unsigned i = 0; i < f_.numParams(); ++i) m[f_.param(i)] = f_.param(i);
    return m;
  }

  static bool keeps(const Value* v, Side side) {
    const Side s = sideOfValue(v);
    return s == Side::Both || s == side;
  }

  // Copies the ops of `src` that run on `side` to the end of `dst`; `kept` says which
  // values a yield passes on. Stops at `end` (the sections themselves, at function level).
  void cloneBlock(const Block& src, Block& dst, Side side, ValueMapping& map, const std::vector<bool>* kept,
                  const Op* end) {
    for (const auto& owned : src.ops()) {
      const Op& op = *owned;
      if (&op == end) return;
      if (op.kind() == OpKind::Yield) {
        Op* yield = dst.create(OpKind::Yield, op.loc());
        for (unsigned i = 0; i < op.numOperands(); ++i)
          if (!kept || (*kept)[i]) yield->addOperand(mapped(op.operand(i), map, op));
        continue;
      }
      if (op.kind() == OpKind::For || op.kind() == OpKind::If) {
        cloneControl(op, dst, side, map);
        continue;
      }
      const Side from = crossingFrom(op);
      if (from != Side::Both) {
        cross(op, dst, from == side, map);
        continue;
      }
      const Side s = sideOfOp(op);
      const std::vector<const Value*> foreign = foreignOperands(op);
      OpBuilder build(dst);
      build.setLoc(op.loc());
      if (s != Side::Both && s != side) {
        for (const Value* v : foreign)
          if (sideOfValue(v) == side) push(build, pipeFrom(side), v, map, op);
        continue;
      }
      if (moveNarrowed(op, build, map)) continue;
      for (const Value* v : foreign) map[v] = pop(build, pipeFrom(sideOfValue(v)), v->type().withSpace(consumerSpace(side), model()), v);
      for (const Value* v : op.operands()) mapped(v, map, op);
      build.clone(op, map);
      for (const Value* v : foreign) map.erase(v);  // each reader gets a pop of its own
    }
  }

  const TargetModel& model() const { return f_.module().target(); }
  static SpaceId consumerSpace(Side s) { return s == Side::Vector ? Space::Vec : Space::Mat; }

  Value* pop(OpBuilder& build, const Pipe& p, const Type& t, const Value* of) {
    Value* popped = passes::madeFrom(build.createValue(OpKind::PipePop, {}, {attr::pipe(p.id)}, t, of->name()), of);
    popped_.push_back({popped, p.id});
    return popped;
  }

  // A value the copy of `user` reads: one this side has (a scalar both compute, or a tile
  // of this side or popped from the other).
  static Value* mapped(const Value* v, ValueMapping& map, const Op& user) {
    auto it = map.find(v);
    if (it == map.end())
      throw std::logic_error(std::string("split-cube-vector: ") + user.name() + " reads a value its section lacks");
    return it->second;
  }

  // A loop or branch with the carried values and results of `side` only.
  void cloneControl(const Op& op, Block& dst, Side side, ValueMapping& map) {
    const bool loop = op.kind() == OpKind::For;
    std::vector<bool> kept;
    for (unsigned i = 0; i < op.numResults(); ++i) kept.push_back(keeps(op.result(i), side));
    Op* copy = dst.create(op.kind(), op.loc());
    for (const auto& [key, value] : op.attrs()) copy->attrs()[key] = remap(value, map);
    for (unsigned i = 0; loop && i < op.numOperands(); ++i)
      if (kept[i]) copy->addOperand(mapped(op.operand(i), map, op));
    for (unsigned r = 0; r < op.numRegions(); ++r) {
      copy->addRegion();
      const Block& from = op.body(r);
      Block& to = copy->body(r);
      for (unsigned a = 0; a < from.numArgs(); ++a)
        if (a == 0 || kept[a - 1])
          map[from.arg(a)] = passes::madeFrom(to.addArg(remap(from.arg(a)->type(), map), from.arg(a)->name()), from.arg(a));
    }
    for (unsigned i = 0; i < op.numResults(); ++i)
      if (kept[i])
        map[op.result(i)] =
            passes::madeFrom(copy->addResult(remap(op.result(i)->type(), map), op.result(i)->name()), op.result(i));
    for (unsigned r = 0; r < op.numRegions(); ++r) cloneBlock(op.body(r), copy->body(r), side, map, &kept, nullptr);
  }

  // A crossing move: a push on the producing side, a pop on the other.
  void cross(const Op& move, Block& dst, bool producing, ValueMapping& map) {
    const Pipe& p = pipeFrom(crossingFrom(move));
    OpBuilder build(dst);
    build.setLoc(move.loc());
    if (producing) {
      push(build, p, move.operand(0), map, move);
      return;
    }
    // A slot holds a tile of the pipe's static shape. A valid shape known only at run time
    // (a tail) is set again, from the scalars both sides compute, on a copy of the popped
    // tile: PTOAS narrows only tiles of the core's own memory, not a pipe's slots.
    const Type t = remap(move.result()->type(), map);
    const std::string name = move.result()->name();
    Value* popped = pop(build, p, t.withFullValid(), move.result());
    Value* value = popped;
    if (!staticValid(t) && consumerSpace(Side::Vector) == t.space()) {
      Value* copy = passes::madeFrom(build.createValue(OpKind::Move, {popped}, {}, popped->type(), name + "_copy"), popped);
      value = passes::madeFrom(build.createValue(OpKind::SetValidShape, {copy}, {}, t, name), move.result());
    } else if (!staticValid(t)) {
      narrowed_[popped] = t;  // the cube core narrows its move to left or right instead (moveNarrowed)
    }
    map[move.result()] = value;
  }

  // The move to left or right of a whole popped mat tile that stands for one of a run-time
  // valid shape: the move keeps the whole tile, and the copy in left or right is narrowed.
  bool moveNarrowed(const Op& op, OpBuilder& build, ValueMapping& map) {
    if (op.kind() != OpKind::Move) return false;
    auto it = map.find(op.operand(0));
    if (it == map.end() || !narrowed_.count(it->second)) return false;
    const Type declared = remap(op.result()->type(), map);
    Value* whole = build.createValue(OpKind::Move, {it->second}, {}, declared.withFullValid(), op.result()->name() + "_whole");
    map[op.result()] =
        passes::madeFrom(build.createValue(OpKind::SetValidShape, {passes::madeFrom(whole, op.result())}, {}, declared,
                                           op.result()->name()),
                         op.result());
    return true;
  }

  // Sends `v` whole: a tile of a run-time valid shape is widened to its full shape for the
  // push (the pipe moves a slot's rows at its full row pitch only then) and narrowed back
  // for its later readers on this side.
  void push(OpBuilder& build, const Pipe& p, const Value* v, ValueMapping& map, const Op& at) {
    Value* tile = mapped(v, map, at);
    const Type& t = tile->type();
    if (staticValid(t)) {
      build.create(OpKind::PipePush, {tile}, {attr::pipe(p.id)});
      return;
    }
    const std::string name = tile->name().empty() ? "tile" : tile->name();
    Value* whole = build.createValue(OpKind::SetValidShape, {tile}, {}, t.withFullValid(), name + "_whole");
    build.create(OpKind::PipePush, {passes::madeFrom(whole, v)}, {attr::pipe(p.id)});
    map[v] = passes::madeFrom(build.createValue(OpKind::SetValidShape, {whole}, {}, t, tile->name()), v);
  }

  // ---- slots ----

  struct Popped {
    Value* value;
    int64_t pipe;
  };

  // Each popped slot is freed after the last op of its block that reads the tile (or a view
  // of it, or a value updated in place in it); a tile carried past its block is copied out.
  void placeFrees(Block& section) {
    for (const Popped& p : popped_) {
      if (!inside(p.value->block(), section)) continue;
      Op* pop = p.value->definingOp();
      Block* home = pop->parentBlock();
      Op* last = pop;
      bool escapes = false;
      lastUse(p.value, *home, last, escapes);
      if (escapes) {
        OpBuilder build(*home, pop->nextOp());
        build.setLoc(pop->loc());
        Value* copy = passes::madeFrom(build.createValue(OpKind::Move, {p.value}, {}, p.value->type(), p.value->name() + "_copy"),
                                       p.value);
        std::vector<Use> uses = p.value->uses();
        for (const Use& u : uses)
          if (u.user != copy->definingOp()) u.user->setOperand(u.index, copy);
        last = copy->definingOp();
      }
      OpBuilder build(*home, last->nextOp());
      build.setLoc(pop->loc());
      build.create(OpKind::PipeFree, {}, {attr::pipe(p.pipe)});
    }
    countHeld(section, {});
  }

  static bool inside(const Block* b, const Block& section) {
    for (; b; b = b->parentOp() ? b->parentOp()->parentBlock() : nullptr)
      if (b == &section) return true;
    return false;
  }

  // The last op of `home` reading `v` or a value sharing its storage; `escapes` when one
  // is yielded out of `home` or read outside it.
  void lastUse(const Value* v, const Block& home, Op*& last, bool& escapes) {
    for (const Use& u : v->uses()) {
      Op* user = u.user;
      while (user && user->parentBlock() != &home) user = user->parentOp();
      if (!user || (u.user->kind() == OpKind::Yield && u.user->parentBlock() == &home)) {
        escapes = true;
        continue;
      }
      if (position(*user) > position(*last)) last = user;
      const Op* def = u.user;
      const bool shares = (isView(def->kind()) || tiedOperand(def->kind()) == int(u.index)) && def->numResults() == 1;
      if (shares) lastUse(def->result(), home, last, escapes);
    }
  }

  size_t position(const Op& op) {
    const Block* b = op.parentBlock();
    if (!numbered_.count(b)) {
      size_t i = 0;
      for (const auto& o : b->ops()) positions_[o.get()] = i++;
      numbered_.insert(b);
    }
    return positions_.at(&op);
  }

  // The popped tiles of each pipe held at once: those held in the enclosing blocks
  // (`outer`) plus those popped and not yet freed in this one.
  void countHeld(const Block& b, std::map<int64_t, int64_t> held) {
    for (const auto& op : b.ops()) {
      if (op->kind() == OpKind::PipePop) ++held[op->get(attr::pipe)];
      if (op->kind() == OpKind::PipeFree) --held[op->get(attr::pipe)];
      for (auto& [side, p] : pipes_) p.held = std::max(p.held, held[p.id]);
      for (unsigned r = 0; r < op->numRegions(); ++r) countHeld(op->body(r), held);
    }
  }

  // ---- clean-up ----

  // Ops whose results nothing reads and which do nothing else, innermost first; a loop or
  // branch left with only its yield goes too. A scalar named only inside expressions (a loop
  // bound made of the block index) has no use list but is read all the same.
  static void removeDead(Block& b) {
    std::set<const Value*> named;
    mentions(b, named);
    removeDead(b, named);
  }

  static void removeDead(Block& b, const std::set<const Value*>& named) {
    std::vector<Op*> ops;
    for (const auto& op : b.ops()) ops.push_back(op.get());
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
      Op* op = *it;
      for (unsigned r = 0; r < op->numRegions(); ++r) removeDead(op->body(r), named);
      if (dead(*op, named)) b.erase(op);
    }
  }

  // The values the expressions of `b`'s ops (attributes and result types) name.
  static void mentions(const Block& b, std::set<const Value*>& named) {
    for (const auto& op : b.ops()) {
      passes::addNamedScalars(*op, named);
      for (unsigned r = 0; r < op->numRegions(); ++r) mentions(op->body(r), named);
    }
  }

  static bool dead(const Op& op, const std::set<const Value*>& named) {
    if (op.kind() == OpKind::Yield || opInfo(op.kind()).has(Effect)) return false;
    for (const Value* r : op.results())
      if (r->hasUses() || named.count(r)) return false;
    for (unsigned r = 0; r < op.numRegions(); ++r)
      for (const auto& inner : op.body(r).ops())
        if (inner->kind() != OpKind::Yield) return false;
    return true;
  }

  static constexpr int64_t kMinSlots = 2;

  Function& f_;
  DiagnosticEngine& diags_;
  std::map<Side, Pipe> pipes_;
  std::vector<Popped> popped_;
  std::map<const Value*, Type> narrowed_;  // whole popped mat tiles, by the valid shape they stand for
  std::map<const Op*, size_t> positions_;
  std::set<const Block*> numbered_;
};

class SplitCubeVector final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"split-cube-vector",
                                "split each mix kernel into a cube and a vector section with pipes between them",
                                PropMemSpacesInferred, PropCoresSplit, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    passes::ErrorWatch errors(ctx.diags);
    for (auto& f : m.functions())
      if (Kernel(f->kind()) == Kernel::Mix && !isSplitKernel(*f)) FunctionSplit(*f, ctx.diags).run();
    return errors.clean();
  }
};

}  // namespace

bool isSplitKernel(const Function& f) {
  for (const auto& op : f.body().ops())
    if (opInfo(op->kind()).group == OpGroup::Cores) return true;
  return false;
}

std::unique_ptr<Pass> createSplitCubeVectorPass() { return std::make_unique<SplitCubeVector>(); }

}  // namespace tilec::pto
