// unroll-loops: every `scf.for unroll` becomes its iterations, in order, at the loop's
// place. The loop variable becomes a constant in each copy (in operands through an
// arith.index, in offsets, bounds and types directly), the carried values flow from one
// copy's yield into the next, and the loop's results are the last yield (its inits for a
// loop that runs zero times). Inner loops unroll before the loops around them, so every
// copy is made once. Before copying, the pass counts what the copies will add and stops
// with E0621 past --max-ops: `unroll for i in 0 .. 1000000000` is an error, not an hour.
// A rule that held for the symbolic loop variable can fail for one of its values (a load
// at `i * 9` runs past its tensor when i = 7): each copy is checked against its ops'
// rules, and a violation is the user's error, with the iteration named, not IR that
// fails to verify. Linear in the size of the unrolled program.
#include <optional>
#include <string>
#include <vector>

#include "ir/Builder.h"
#include "ir/Describe.h"
#include "ir/OpDefs.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec {
namespace {
using namespace ir;

struct TripCount {
  int64_t lb = 0, step = 1, trips = 0;
};

class UnrollLoops final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"unroll-loops", "replace every 'unroll' loop by its iterations", PropSSA,
                                PropUnrolled, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    passes::ErrorWatch errors(ctx.diags);
    for (auto& f : m.functions()) {
      if (f->count(OpKind::For) == 0) continue;
      int64_t ops = f->numOps();
      // Post-order: an inner loop is unrolled before the loop that contains it is copied.
      std::vector<Op*> loops;
      collect(f->body(), loops);
      for (Op* loop : loops) {
        std::optional<TripCount> trip = tripCount(*loop, ctx.diags);
        if (!trip) continue;
        const int64_t body = passes::countOps(loop->body());  // the yield's place goes to an arith.index
        if (trip->trips > (ctx.limits.maxOps - ops) / body) {
          tooLarge(*loop, *f, *trip, body, ops, ctx);
          return false;
        }
        ops += trip->trips * body;
        if (!unroll(*loop, *trip, ctx.diags)) return false;
      }
    }
    return errors.clean();
  }

 private:
  static bool isUnrollLoop(const Op& op) {
    const LoopMode* mode = op.find(attr::mode);
    return op.kind() == OpKind::For && mode && *mode == LoopMode::Unroll;
  }

  static void collect(Block& b, std::vector<Op*>& out) {
    for (auto& op : b.ops()) {
      for (unsigned i = 0; i < op->numRegions(); ++i) collect(op->body(i), out);
      if (isUnrollLoop(*op)) out.push_back(op.get());
    }
  }

  static std::optional<TripCount> tripCount(const Op& loop, DiagnosticEngine& diags) {
    std::optional<int64_t> lb = loop.find(attr::lb)->asConst();
    std::optional<int64_t> ub = loop.find(attr::ub)->asConst();
    std::optional<int64_t> step = loop.find(attr::step)->asConst();
    if (!lb || !ub || !step || *step <= 0) {
      diags.report(Diag::UnrollBounds, loop.loc(),
                   "an unroll loop needs constant bounds and a positive constant step; make them constants, "
                   "or make the loop serial");
      return std::nullopt;
    }
    TripCount t{*lb, *step, 0};
    // (ub - lb) can overflow for extreme bounds; compare first and divide in unsigned.
    if (*ub > *lb) t.trips = int64_t((uint64_t(*ub) - uint64_t(*lb) - 1) / uint64_t(*step) + 1);
    return t;
  }

  static void tooLarge(const Op& loop, const Function& f, const TripCount& trip, int64_t body, int64_t ops,
                       PassContext& ctx) {
    ctx.diags.report(Diag::TooManyOps, loop.loc(),
                     "unrolling this loop makes " + std::to_string(trip.trips) + " copies of " +
                         std::to_string(body) + " ops, which would grow kernel '" + f.name() +
                         "' past the limit of " + std::to_string(ctx.limits.maxOps) +
                         " ops (--max-ops); make the loop serial, or unroll a smaller inner loop");
  }

  static bool unroll(Op& loop, const TripCount& trip, DiagnosticEngine& diags) {
    std::vector<Value*> carried = loop.operands();
    OpBuilder b = OpBuilder::before(loop);
    for (int64_t k = 0; k < trip.trips; ++k) {
      const Expr iv = Expr::constant(trip.lb + k * trip.step);
      if (!passes::checkIteration(passes::cloneIteration(b, loop, iv, carried), loop, iv, "unrolled", diags))
        return false;
    }
    for (unsigned i = 0; i < loop.numResults(); ++i) loop.result(i)->replaceAllUsesWith(carried[i]);
    loop.parentBlock()->erase(&loop);
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> createUnrollLoopsPass() { return std::make_unique<UnrollLoops>(); }

}  // namespace tilec
