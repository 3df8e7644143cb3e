// infer-memory-space: gives every tile a memory space and every incore kernel a
// core kind.
//
// Tiles that must share storage (loop carries, branch merges, tied results,
// views) form one class with one space. Each op states what it needs of the
// tiles it touches (a demand); a class takes the strongest demand, in this order:
// a space the user declared, acc (matmul results and accumulators), vec when
// vector work produces the tile, mat when it feeds a matmul operand (a
// `tile.move` to left/right is inserted after the producer, once per value and
// space), vec for other vector work, mat for explicit moves to cube buffers,
// and vec otherwise. Demands the chosen space cannot meet are errors, except
// vector work reading an accumulator on a5, which reads a `tile.move` to vec.
//
// An incore kernel whose tiles are all vec becomes aiv, all cube-side becomes
// aic, and both at once mix: its accumulators read by vector work and its vec tiles
// fed to matmuls cross between the cores through moves (acc -> vec, vec -> mat), which
// split-cube-vector turns into pipes. An aic/aiv kernel doing the other core's work is
// an error. Linear in program size (union-find, one pass over the demands).
#include <map>
#include <optional>

#include "backend/pto/NzLoads.h"
#include "backend/pto/PtoTargets.h"
#include "ir/Builder.h"
#include "ir/Describe.h"
#include "ir/OpDefs.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"
#include "support/PointerMap.h"

namespace tilec::pto {
namespace {

using namespace ir;

// The fix for an aic or aiv kernel whose data must cross between the cores.
constexpr const char* kBothCores =
    "an incore kernel, which runs its cube and vector work on both cores, passing tiles between them";

enum class DemandKind { Declared, Accumulator, VectorDef, MatmulOperand, VectorUse, MoveSource };

struct Demand {
  DemandKind kind;
  SpaceId space;
  Op* op;        // the op that makes the demand
  Value* value;  // the class member it uses or defines
  int operand;   // operand index of a use, -1 for a definition
};

struct TileClass {
  std::vector<Value*> members;
  const Demand* reason = nullptr;  // the strongest demand
  SpaceId space = ir::kNoSpace;
};

bool doesVectorWork(const Op& op) {
  const OpInfo& info = opInfo(op.kind());
  return info.has(Elementwise) || info.has(TileScalar) || info.has(Unary) ||
         info.has(RowReduce) || info.has(ColReduce) || info.has(RowExpand) ||
         info.has(ColExpand) || op.kind() == OpKind::Cast || op.kind() == OpKind::Transpose ||
         op.kind() == OpKind::Gather;
}

bool isMatmul(OpKind k) { return k == OpKind::Matmul || k == OpKind::BatchMatmul; }
bool isMatmulAcc(OpKind k) { return k == OpKind::MatmulAcc || k == OpKind::BatchMatmulAcc; }

const char* operandRole(const Demand& d) { return d.space == Space::Left ? "lhs" : "rhs"; }

class FunctionSpaces {
 public:
  FunctionSpaces(Function& f, const ir::TargetModel& model, DiagnosticEngine& diags)
      : f_(f), target_(archOf(model)), diags_(diags) {}

  void run() {
    passes::ErrorWatch errors(diags_);
    ops_ = passes::preorder(f_);
    buildClasses();
    collectDemands();
    resolve();
    if (!errors.clean()) return;
    applySpaces();
    if (!loadMatThroughRowViews()) return;
    relayTransposedViews();
    insertMoves();
    resolveKernelKind();
  }

 private:
  // ---- classes ----

  void addMember(Value* v) {
    if (!passes::isTile(v) || classOf_.contains(v)) return;
    classOf_[v] = -1;
    members_.push_back(v);
  }

  void buildClasses() {
    for (unsigned i = 0; i < f_.numParams(); ++i) addMember(f_.param(i));
    for (Op* op : ops_) {
      for (unsigned r = 0; r < op->numRegions(); ++r)
        for (unsigned a = 0; a < op->body(r).numArgs(); ++a) addMember(op->body(r).arg(a));
      for (Value* v : op->results()) addMember(v);
    }
    passes::forEachTileJoin(ops_, /*views=*/true, [&](Value* a, Value* b) { uf_.unite(a, b); });
    ValueMap<int> indexOfRoot;
    for (Value* v : members_) {
      Value* root = uf_.find(v);
      const int* known = indexOfRoot.find(root);
      const int index = known ? *known : int(classes_.size());
      if (!known) {
        indexOfRoot[root] = index;
        classes_.emplace_back();
      }
      classes_[size_t(index)].members.push_back(v);
      classOf_[v] = index;
    }
  }

  TileClass& classOfValue(Value* v) { return classes_[size_t(classOf_.at(v))]; }

  // ---- demands ----

  void demand(DemandKind kind, SpaceId space, Op* op, Value* v, int operand) {
    if (passes::isTile(v)) demands_.push_back({kind, space, op, v, operand});
  }

  void collectDemands() {
    for (Op* op : ops_) {
      for (Value* r : op->results())
        if (passes::isTile(r) && r->type().space() != ir::kNoSpace)
          demand(DemandKind::Declared, r->type().space(), op, r, -1);
      if (doesVectorWork(*op)) {
        for (unsigned i = 0; i < op->numOperands(); ++i)
          demand(DemandKind::VectorUse, Space::Vec, op, op->operand(i), int(i));
        for (Value* r : op->results()) demand(DemandKind::VectorDef, Space::Vec, op, r, -1);
      } else if (isMatmul(op->kind()) || isMatmulAcc(op->kind())) {
        // A matmul_acc result is tied to its accumulator operand: one demand covers both.
        unsigned first = isMatmulAcc(op->kind()) ? 1 : 0;
        if (first) demand(DemandKind::Accumulator, Space::Acc, op, op->operand(0), 0);
        demand(DemandKind::MatmulOperand, Space::Left, op, op->operand(first), int(first));
        demand(DemandKind::MatmulOperand, Space::Right, op, op->operand(first + 1),
               int(first + 1));
        if (!first) demand(DemandKind::Accumulator, Space::Acc, op, op->result(), -1);
      } else if (op->kind() == OpKind::Move) {
        SpaceId to = op->result()->type().space();
        if (to == Space::Left || to == Space::Right || to == Space::Bias ||
            to == Space::Scaling)
          demand(DemandKind::MoveSource, Space::Mat, op, op->operand(0), 0);
      }
    }
  }

  // ---- resolution ----

  // Each class takes its strongest demand; then every demand is checked against
  // its class's space, in program order so diagnostics come out in source order.
  void resolve() {
    for (const Demand& d : demands_) {
      TileClass& c = classOfValue(d.value);
      if (!c.reason || d.kind < c.reason->kind) c.reason = &d;
    }
    for (TileClass& c : classes_) {
      if (!c.reason) c.space = Space::Vec;
      else if (c.reason->kind == DemandKind::MatmulOperand) c.space = Space::Mat;
      else c.space = c.reason->space;
    }
    for (const Demand& d : demands_) {
      TileClass& c = classOfValue(d.value);
      check(c, d, *c.reason);
    }
  }

  void check(TileClass& c, const Demand& d, const Demand& reason) {
    if (d.space == c.space || d.kind == DemandKind::MoveSource) return;
    bool declared = reason.kind == DemandKind::Declared;
    switch (d.kind) {
      case DemandKind::Declared:
        return conflict(d, reason,
                        "tiles that share storage need one memory space: " + describe(d.value) +
                            " is declared in " + spaceName(d.space) + " but " +
                            describe(reason.value) + " in " + spaceName(reason.space),
                        "declare them in the same space");
      case DemandKind::Accumulator:
        return conflict(d, reason,
                        describe(*d.op) + " needs " + describe(d.value) +
                            " in acc but it is declared in " + spaceName(c.space),
                        "declare it in acc or leave its space out");
      case DemandKind::MatmulOperand:
        if (c.space == Space::Mat) {
          moves_.push_back({d.value, d.space, d.op, unsigned(d.operand)});
          return;
        }
        if (c.space == Space::Vec && !declared && splittable()) {
          moves_.push_back({d.value, d.space, d.op, unsigned(d.operand), Space::Mat});
          return;
        }
        return badMatmulOperand(c, d, reason, declared);
      case DemandKind::VectorUse:
        if (c.space == Space::Acc) return accFeedsVector(d, reason);
        [[fallthrough]];
      case DemandKind::VectorDef:
        return vectorOnCubeTile(c, d, reason, declared);
      case DemandKind::MoveSource:
        return;
    }
  }

  std::string describe(const Value* v) const { return ir::describe(v, diags_.sources()); }
  std::string describe(const Op& op) const { return ir::describe(op, diags_.sources()); }

  void conflict(const Demand& d, const Demand& declaration, std::string rule, const char* fix) {
    Diagnostic& diag = diags_.report(Diag::MemSpaceConflict, d.op->loc(), rule + "; " + fix);
    passes::addNote(diag, declaration.op->loc(),
                    describe(declaration.value) + " is declared in " +
                        spaceName(declaration.space) + " here");
  }

  void badMatmulOperand(const TileClass& c, const Demand& d, const Demand& reason, bool declared) {
    std::string rule = describe(*d.op) + " needs its " + operandRole(d) + " " +
                       describe(d.value) + " in " + spaceName(d.space) + " (loaded through mat)";
    if (declared)
      return conflict(d, reason, rule + " but it is declared in " + spaceName(c.space),
                      "declare it in mat or leave its space out");
    // An accumulator moves to mat in the same (cube) kernel; vector work's result cannot.
    std::string why = c.space == Space::Acc
                          ? "it is an accumulator (acc); move it to mat first, writing move(" +
                                sourceText(d.value, diags_.sources()) +
                                ", space = mat) in its place"
                          : "it is computed by vector work in vec, which kernel '" + f_.name() + "' (" +
                                kindName() + ") does not run; compute it and do the matmul in " + kBothCores;
    Diagnostic& diag = diags_.report(Diag::BadMemSpace, d.op->loc(), rule + " but " + why);
    passes::addNote(diag, reason.op->loc(),
                    describe(reason.value) + " is placed in " + spaceName(c.space) + " because of " +
                        describe(*reason.op));
  }

  const char* kindName() const { return f_.module().target().kernelKindName(f_.kind()); }

  // An incore kernel may still become mix: its tiles may cross between the cores.
  bool splittable() const { return Kernel(f_.kind()) == Kernel::Incore || Kernel(f_.kind()) == Kernel::Mix; }

  void accFeedsVector(const Demand& d, const Demand& reason) {
    if (splittable() || movable(target_, Space::Acc, Space::Vec)) {
      moves_.push_back({d.value, Space::Vec, d.op, unsigned(d.operand)});
      return;
    }
    Diagnostic& diag = diags_.report(
        Diag::AccToVec, d.op->loc(),
        describe(*d.op) + " is vector work on the accumulator " + describe(d.value) +
            ", but " + archName(target_) + " has no path from acc to vec inside one core and kernel '" + f_.name() +
            "' is " + kindName() + "; make " + describe(d.value) + " and do the vector work in " + kBothCores);
    passes::addNote(diag, reason.op->loc(),
                    describe(reason.value) + " is an accumulator because of " + describe(*reason.op));
  }

  void vectorOnCubeTile(const TileClass& c, const Demand& d, const Demand& reason, bool declared) {
    std::string rule = describe(*d.op) + " is vector work but " + describe(d.value) +
                       " is in " + spaceName(c.space);
    if (declared)
      return conflict(d, reason, rule, "declare it in vec or leave its space out");
    Diagnostic& diag = diags_.report(Diag::BadMemSpace, d.op->loc(),
                                     rule + ", for cube work, and a tile lives on one core; give the vector work a "
                                            "tile of its own (load the data again for it)");
    passes::addNote(diag, reason.op->loc(),
                    describe(reason.value) + " is placed in " + spaceName(c.space) + " because of " +
                        describe(*reason.op));
  }

  // ---- rewriting ----

  void applySpaces() {
    for (const TileClass& c : classes_)
      for (Value* v : c.members) v->setType(v->type().withSpace(c.space, f_.module().target()));
  }

  // A transposed view reads its source's bytes transposed, so its layout is the source's
  // (now the space's default) transposed, and a slice of such a view keeps its layout.
  void relayTransposedViews() {
    for (Op* op : ops_) {
      if (op->kind() != OpKind::TransposeView && op->kind() != OpKind::Slice) continue;
      const Type& src = op->operand(0)->type();
      if (src.rank() != 2 || (op->kind() == OpKind::Slice && src.hasDefaultLayout())) continue;
      TileLayout l = op->kind() == OpKind::TransposeView ? transposedLayout(src.layout()) : src.layout();
      op->result()->setType(op->result()->type().withLayout(l));
    }
  }

  struct MoveRequest {
    Value* value;
    SpaceId to;
    Op* user;
    unsigned operand;
    SpaceId via = ir::kNoSpace;  // a vec tile reaches left/right through mat
  };

  void indexSuccessors(Block& b) {
    Op* prev = nullptr;
    for (auto& op : b.ops()) {
      if (prev) nextOp_[prev] = op.get();
      prev = op.get();
      for (unsigned r = 0; r < op->numRegions(); ++r) indexSuccessors(op->body(r));
    }
  }

  // Where a value's moves go: right after its producer, or first in its block.
  std::pair<Block*, Op*> insertionPoint(Value* v) {
    if (Op* def = v->definingOp()) {
      Block* b = def->parentBlock();
      Op* const* next = nextOp_.find(def);
      return {b, next ? *next : nullptr};
    }
    Block* b = v->ownerBlock();
    return {b, b->empty() ? nullptr : b->ops().front().get()};
  }

  void insertMoves() {
    if (moves_.empty()) return;
    indexSuccessors(f_.body());
    for (const MoveRequest& m : moves_) {
      Value* v = m.value;
      if (m.via != ir::kNoSpace) v = moved(v, m.via, m.user->loc());
      m.user->setOperand(m.operand, moved(v, m.to, m.user->loc()));
    }
  }

  // `v`'s copy in `to`, made once, right after `v` is defined (after the copy it is made
  // from, for a copy of a copy).
  Value* moved(Value* v, SpaceId to, SourceRange loc) {
    auto key = std::make_pair(v->id(), to);
    auto it = moved_.find(key);
    if (it != moved_.end()) return it->second;
    auto [block, before] = insertionPoint(v);
    OpBuilder build(*block, before);
    build.setLoc(loc);
    std::string base = v->name().empty() ? "tile" : v->name();
    Value* copy = passes::madeFrom(
        build.createValue(OpKind::Move, {v}, {}, v->type().withSpace(to, f_.module().target()), base + "_" + spaceName(to)),
        v);
    nextOp_[copy->definingOp()] = before;
    return moved_.emplace(key, copy).first->second;
  }

  // ---- kernel kind ----

  enum class Side { None, Cube, Vector };

  static Side sideOf(const Op& op) {
    bool cube = false, vec = false;
    auto look = [&](const Value* v) {
      if (!passes::isTile(v)) return;
      cube |= v->type().space() != Space::Vec && v->type().space() != ir::kNoSpace;
      vec |= v->type().space() == Space::Vec;
    };
    for (Value* v : op.operands()) look(v);
    for (Value* v : op.results()) look(v);
    if (cube) return Side::Cube;
    return vec ? Side::Vector : Side::None;
  }

  // Whether `op` is the work that puts it on its side (a matmul, an exp), rather than data
  // movement either side does: the op a message names for the side.
  static bool isWorkOf(const Op& op, Side s) {
    return s == Side::Cube ? opInfo(op.kind()).has(Cube) : doesVectorWork(op);
  }

  void resolveKernelKind() {
    Op* first[3] = {nullptr, nullptr, nullptr};  // each side's first work, or else its first op
    for (Op* op : ops_) {
      if (op->numRegions() || op->kind() == OpKind::Yield) continue;
      Side s = sideOf(*op);
      if (s == Side::None) continue;
      Op*& named = first[size_t(s)];
      if (!named || (!isWorkOf(*named, s) && isWorkOf(*op, s))) named = op;
    }
    Op* cube = first[size_t(Side::Cube)];
    Op* vec = first[size_t(Side::Vector)];
    switch (Kernel(f_.kind())) {
      case Kernel::Aic:
        if (vec) wrongKind(*vec, "aic", "vector", "aiv");
        return;
      case Kernel::Aiv:
        if (cube) wrongKind(*cube, "aiv", "cube", "aic");
        return;
      case Kernel::Mix:
        if (isSplitKernel(f_)) return;  // its sections say which core runs what (pto-legality checks them)
        [[fallthrough]];
      case Kernel::Incore:
        if (cube && vec) f_.setKind(ir::KernelKind(Kernel::Mix));
        else if (cube) f_.setKind(ir::KernelKind(Kernel::Aic));
        else if (vec) f_.setKind(ir::KernelKind(Kernel::Aiv));
        return;
    }
  }

  void wrongKind(const Op& op, const char* kind, const char* work, const char* other) {
    Diagnostic& d = diags_.report(
        Diag::KernelKindWork, op.loc(),
        std::string(kind) + " kernel '" + f_.name() + "' does " + work + " work (" + describe(op) +
            "); do that work in an " + other + " kernel, passing values between the two through tensors");
    passes::addNote(d, f_.loc(), "'" + f_.name() + "' is declared " + kind + " here");
  }

  Function& f_;
  Arch target_;
  DiagnosticEngine& diags_;
  // A load that lands in mat only now (a batched matmul operand with no declared space)
  // still carries its tensor-rank window from flatten-nd-to-2d; the NZ conversion is 2-D,
  // so it reads a 2-D view of the tensor, as a load declared in mat does.
  bool loadMatThroughRowViews() {
    bool ok = true;
    for (Op* op : ops_) {
      if (op->kind() != OpKind::Load) continue;
      const Type& tile = op->result()->type();
      const auto* window = op->find(attr::window);
      if (!window || window->size() <= 2 || !convertsToNz(tile)) continue;
      const std::vector<Expr> box = *window;  // a copy: the rewrite drops the attribute
      ok = loadThroughRowView(*op, box, diags_) && ok;
    }
    return ok;
  }

  std::vector<Op*> ops_;
  std::vector<Value*> members_;
  ValueMap<int> classOf_;
  passes::ValueUnionFind uf_;
  std::vector<TileClass> classes_;
  std::vector<Demand> demands_;  // program order
  std::vector<MoveRequest> moves_;
  std::map<std::pair<uint32_t, SpaceId>, Value*> moved_;  // keyed by value id: ordered
  PointerMap<Op, Op*> nextOp_;
};

class InferMemorySpace final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"infer-memory-space",
                                "give every tile a memory space, insert operand moves, and "
                                "resolve incore kernels to aic or aiv",
                                PropSSA, PropMemSpacesInferred, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    return passes::runOnFunctions<FunctionSpaces>(m, ctx.diags);
  }
};

}  // namespace

std::unique_ptr<Pass> createInferMemorySpacePass() { return std::make_unique<InferMemorySpace>(); }

}  // namespace tilec::pto
