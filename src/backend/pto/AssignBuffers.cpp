// assign-buffers: decides which tiles share one on-chip buffer and records it as
// a `buffers` attribute (one id per result, -1 for non-tiles) on every op with
// results; ids are numbered in program order of first definition.
//
// Tiles must share a buffer along four kinds of edges: views (always), tied
// results (matmul_acc, assemble, set_valid_shape write their operand 0), loop
// carries (init, body argument, yield, result) and branch merges (yields and
// result of scf.if). Edges are coalesced in program order, like SSA
// destruction with copy coalescing: before two classes merge, every pair of
// their tiles is checked for interference (one is still read after the other is
// written, counting reads in later loop iterations, or their storage types
// differ, or an op forbids its result to overwrite its source). An interfering
// edge on vec tiles gets a copy (`tile.move` to vec) on its incoming side; on
// other spaces there is no copy instruction, so it is an error with a note at
// the read that needs the old value. Program points are pre-order positions
// (each op has an enter and an exit point), so each interference test costs the
// reads of the two tiles times the nesting depth; a merge tests every pair of
// the two classes' tiles that are not views, which is quadratic in class size
// (classes are mostly small: a tile, its carries and its views; a flattened N-D
// tile's chain of page assembles is one class of as many tiles as pages).
#include <map>
#include <optional>

#include "backend/pto/PtoTargets.h"
#include "ir/Builder.h"
#include "ir/Describe.h"
#include "ir/OpDefs.h"
#include "passes/Liveness.h"
#include "passes/Pass.h"
#include "passes/PassManager.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
namespace {

using namespace ir;

// Why two tiles cannot share a buffer: `live` is read at `read` after `writer` wrote.
struct Interference {
  Value* live;
  Value* writer;
  const Op* read = nullptr;  // null when the reason is the storage type or an op rule
  bool nextIteration = false;
};

enum class Edge { Tied, LoopInit, LoopYield, LoopResult, BranchYield };

bool sameStorage(const Type& a, const Type& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() && a.space() == b.space() &&
         a.layout() == b.layout();
}

class FunctionBuffers {
 public:
  FunctionBuffers(Function& f, const ir::TargetModel& model, DiagnosticEngine& diags)
      : f_(f), target_(archOf(model)), diags_(diags) {}

  void run() {
    passes::ErrorWatch errors(diags_);
    process(f_.body());
    if (errors.clean()) recordBufferIds(f_.body());
  }

 private:
  // Ops whose result must not overwrite their source (PTOAS/pto-isa rules): those whose PTO
  // form works through a scratch tile (transposes, reductions) read the source throughout.
  bool forbidsAliasing(const Op& op) const {
    return opInfo(op.kind()).scratchOperand >= 0 ||
           (op.kind() == OpKind::Recip && target_ == Arch::A2A3);
  }

  // `live` (defined before `writer`) is still read after `writer` is defined.
  std::optional<Interference> readAfter(Value* live, Value* writer) const {
    if (auto later = live_.readAfter(live, live_.defOf(writer)))
      return Interference{live, writer, later->read, later->nextIteration};
    return std::nullopt;
  }

  std::optional<Interference> interference(Value* a, Value* b) const {
    if (!sameStorage(a->type(), b->type())) return Interference{a, b};
    for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
      Op* def = y->definingOp();
      if (def && forbidsAliasing(*def))
        for (Value* o : def->operands())
          if (passes::isTile(o) && passes::Liveness::dataRoot(o) == x) return Interference{x, y};
    }
    if (auto i = readAfter(a, b)) return i;
    return readAfter(b, a);
  }

  // Views share their source's data, and so do values updated in place in a view (a
  // matmul_acc into an accumulator's window), so only the other members are compared.
  std::optional<Interference> classInterference(Value* a, Value* b) {
    if (uf_.find(a) == uf_.find(b)) return std::nullopt;
    const std::vector<Value*>& xs = compared(a);  // references into the map survive rehashing
    const std::vector<Value*>& ys = compared(b);
    for (Value* x : xs)
      for (Value* y : ys)
        if (auto i = interference(x, y)) return i;
    return std::nullopt;
  }

  static bool isViewValue(const Value* v) {
    const Value* u = updatedValue(v);
    return u->definingOp() && isView(u->definingOp()->kind());
  }

  // The members of v's class that interference is tested on: all but views and values
  // updated in a view. Each value is classified once, when its class is first asked for
  // (its chain of in-place updates is final by then), not at every test: the pages of a
  // flattened N-D tile make classes of hundreds of values and chains as long.
  std::vector<Value*>& compared(Value* v) {
    Value* root = uf_.find(v);
    auto [it, fresh] = compared_.try_emplace(root);
    if (fresh && !isViewValue(root)) it->second.push_back(root);
    return it->second;
  }

  // The smaller class's list joins the larger one's, so each value moves O(log n) times.
  void unite(Value* a, Value* b) {
    Value* ra = uf_.find(a);
    Value* rb = uf_.find(b);
    if (ra == rb) return;
    std::vector<Value*> la = std::move(compared(ra)), lb = std::move(compared(rb));
    compared_.erase(ra);
    compared_.erase(rb);
    if (la.size() < lb.size()) la.swap(lb);
    la.insert(la.end(), lb.begin(), lb.end());
    uf_.unite(a, b);
    compared_[uf_.find(a)] = std::move(la);
  }

  // ---- coalescing walk ----

  void process(Block& b) {
    for (auto& owned : b.ops()) {
      Op* op = owned.get();
      if (isView(op->kind()) && passes::isTile(op->result()))
        unite(op->operand(0), op->result());
      int tied = tiedOperand(op->kind());
      if (tied >= 0 && passes::isTile(op->result())) tiedEdge(*op, unsigned(tied));
      if (op->kind() == OpKind::For) loop(*op);
      else if (op->kind() == OpKind::If) branch(*op);
      else
        for (unsigned r = 0; r < op->numRegions(); ++r) process(op->body(r));  // a split kernel's sections
    }
  }

  void tiedEdge(Op& op, unsigned operand) {
    coalesce(Edge::Tied, op, op.operand(operand), op.result(),
             [&](Value* copy) { op.setOperand(operand, copy); }, &op);
  }

  void loop(Op& op) {
    Block& body = op.body();
    for (unsigned i = 0; i < op.numOperands() && i + 1 < body.numArgs(); ++i)
      coalesce(Edge::LoopInit, op, op.operand(i), body.arg(i + 1),
               [&](Value* copy) { op.setOperand(i, copy); }, &op);
    process(body);
    if (Op* yield = body.terminator())
      for (unsigned i = 0; i < yield->numOperands() && i + 1 < body.numArgs(); ++i)
        coalesce(Edge::LoopYield, op, yield->operand(i), body.arg(i + 1),
                 [&](Value* copy) { yield->setOperand(i, copy); }, yield);
    for (unsigned i = 0; i < op.numResults() && i + 1 < body.numArgs(); ++i)
      coalesce(Edge::LoopResult, op, op.result(i), body.arg(i + 1), nullptr, nullptr);
  }

  // Branch yields are coalesced with the if's result; values defined inside their
  // branch go first, so a value passed through from outside is the one that gets
  // copied when it is still read after the branch overwrote it.
  void branch(Op& op) {
    for (unsigned r = 0; r < op.numRegions(); ++r) process(op.body(r));
    for (bool passThrough : {false, true})
      for (unsigned r = 0; r < op.numRegions(); ++r) {
        Block& region = op.body(r);
        Op* yield = region.terminator();
        for (unsigned i = 0; yield && i < yield->numOperands() && i < op.numResults(); ++i) {
          Value* y = yield->operand(i);
          if (!passes::isTile(y) || live_.inBlock(live_.defOf(y), &region) == passThrough) continue;
          coalesce(Edge::BranchYield, op, y, op.result(i),
                   [&](Value* copy) { yield->setOperand(i, copy); }, yield);
        }
      }
  }

  // Merges the classes of `incoming` and `target`; on interference, replaces the
  // incoming value by a vec copy made right before `copyBefore` (via `redirect`),
  // or reports why it cannot.
  void coalesce(Edge edge, Op& op, Value* incoming, Value* target,
                const std::function<void(Value*)>& redirect, Op* copyBefore) {
    if (!passes::isTile(incoming) || !passes::isTile(target)) return;
    auto clash = classInterference(incoming, target);
    if (!clash) return unite(incoming, target);
    bool copyable = redirect && incoming->type().space() == Space::Vec;
    if (copyable) {
      Value* copy = copyOf(incoming, *copyBefore);
      redirect(copy);
      clash = classInterference(copy, target);
      if (!clash) return unite(copy, target);
      return reportUnresolvable(op, *clash);
    }
    if (edge == Edge::LoopResult || edge == Edge::BranchYield || !redirect)
      return reportUnresolvable(op, *clash);
    reportClobber(edge, op, incoming, *clash);
  }

  Value* copyOf(Value* v, Op& before) {
    Op* move = OpBuilder::before(before).create(OpKind::Move, {v}, {}, v->type(),
                                                         (v->name().empty() ? "tile" : v->name()) + "_copy");
    live_.placeBefore(move, &before);
    return passes::madeFrom(move->result(), v);
  }

  // ---- diagnostics ----

  std::string describe(const Value* v) const { return ir::describe(v, diags_.sources()); }

  std::string kindOf(const Value* v) const {
    return v->type().space() == Space::Acc ? "accumulator " : "tile ";
  }

  void noteRead(Diagnostic& d, const Interference& i) {
    if (!i.read) {
      passes::addNote(d, passes::definitionLoc(i.writer),
                      describe(i.writer) + " is defined here");
      return;
    }
    passes::addNote(d, i.read->loc(),
                    i.nextIteration
                        ? "the old value of " + describe(i.live) +
                              " is read here again in the next iteration of the loop"
                        : "the old value of " + describe(i.live) + " is read here");
  }

  void reportClobber(Edge edge, Op& op, Value* incoming, const Interference& i) {
    std::string name = kindOf(incoming) + describe(i.live);
    std::string message;
    switch (edge) {
      case Edge::Tied:
        message = name + " is updated in place by " + ir::describe(op, diags_.sources()) +
                  " but its old value is read afterwards; read the updated value instead" +
                  (incoming->type().space() == Space::Acc
                       ? ", or start a separate accumulator with matmul"
                       : "");
        break;
      case Edge::LoopInit:
        message = name + " starts a loop-carried value that the loop updates in place, but " +
                  "its value from before the loop is read afterwards; finish reading it " +
                  "before the loop, or carry a separate tile";
        break;
      case Edge::LoopYield:
        message = describe(incoming) + " becomes the next iteration's value in the buffer of " +
                  name + ", but " + describe(i.live) + " is read after " + describe(incoming) +
                  " is computed; finish reading " + describe(i.live) + " first";
        break;
      case Edge::LoopResult:
      case Edge::BranchYield:
        throw InternalError("coalesce() reports a clash on a loop result or branch yield as unresolvable");
    }
    Diagnostic& d = diags_.report(Diag::InPlaceClobber, op.loc(), message);
    noteRead(d, i);
  }

  void reportUnresolvable(Op& op, const Interference& i) {
    std::string why = i.read ? describe(i.live) + " is read after " + describe(i.writer) +
                                   " is written"
                             : "their storage types or the op that defines " +
                                   describe(i.writer) + " do not allow it";
    Diagnostic& d = diags_.report(
        Diag::BufferInterference, op.loc(),
        describe(i.live) + " and " + describe(i.writer) + " must share one buffer through " +
            ir::describe(op, diags_.sources()) + " but " + why +
            "; compute the merged values into fresh tiles instead of reusing them");
    noteRead(d, i);
  }

  // ---- result ----

  void recordBufferIds(Block& b) {
    for (auto& owned : b.ops()) {
      Op* op = owned.get();
      for (unsigned r = 0; r < op->numRegions(); ++r) recordBufferIds(op->body(r));
      if (!op->numResults()) continue;
      std::vector<int64_t> ids;
      for (Value* v : op->results()) ids.push_back(passes::isTile(v) ? bufferId(v) : -1);
      op->set(attr::buffers, ids);
    }
  }

  int64_t bufferId(Value* v) {
    int64_t& id = ids_[uf_.find(v)];  // 1 + the id; 0 until the class has one
    if (id == 0) id = ++nextId_;
    return id - 1;
  }

  Function& f_;
  Arch target_;
  DiagnosticEngine& diags_;
  passes::Liveness live_{f_};
  // Lookup tables only; nothing here is iterated, so output never depends on addresses.
  std::unordered_map<const Value*, std::vector<Value*>> compared_;  // see compared()
  ValueMap<int64_t> ids_;
  passes::ValueUnionFind uf_;
  int64_t nextId_ = 0;
};

class AssignBuffers final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"assign-buffers",
                                "decide which tiles share a buffer; copy or reject in-place "
                                "updates whose old value is still read",
                                PropSSA | PropMemSpacesInferred, PropBuffersAssigned, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    return passes::runOnFunctions<FunctionBuffers>(m, ctx.diags);
  }
};

}  // namespace

std::unique_ptr<Pass> createAssignBuffersPass() { return std::make_unique<AssignBuffers>(); }

}  // namespace tilec::pto
