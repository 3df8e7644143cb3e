// The estimate: a walk of the final IR in program order that places every op instance on
// its pipe (PipeSchedule). Values map to the end of the instance that made them last, so a
// loop's next iteration reads what the previous one yielded. Linear in the instances
// simulated, which kMaxInstances bounds, plus the ops of the kernel.
#include "report/Timeline.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "ir/OpDefs.h"
#include "ir/ValueMap.h"
#include "passes/BufferIds.h"

namespace tilec::report {

int64_t PipeSchedule::place(size_t pipe, int64_t cycles, int64_t ready, const std::vector<size_t>& buffers) {
  int64_t start = std::max(pipeFree_[pipe], ready);
  for (size_t b : buffers) start = std::max(start, bufferDone_[b]);
  const int64_t end = start + cycles;
  pipeFree_[pipe] = end;
  for (size_t b : buffers) bufferDone_[b] = std::max(bufferDone_[b], end);
  return start;
}

namespace {

using ir::Expr;
using ir::OpKind;
using ir::Value;

class Simulator {
 public:
  Simulator(const KernelView& kernel, const PipeModel& model, size_t maxInstances)
      : kernel_(kernel),
        model_(model),
        buffers_(kernel.function()),
        schedule_(model.pipes.size(), buffers_.size()),
        maxInstances_(maxInstances) {
    out_.pipes = model.pipes;
  }

  Timeline run() {
    walk(kernel_.function().body());
    // Each pipe's instances are in start order already (in-order queues); grouped by pipe,
    // the figure draws a pipe's bars together and merges neighbours.
    std::stable_sort(out_.spans.begin(), out_.spans.end(),
                     [](const Timeline::Span& a, const Timeline::Span& b) { return a.pipe < b.pipe; });
    if (capped_)
      out_.notes.push_back("The estimate stops after " + std::to_string(maxInstances_) +
                           " instructions: the timeline and the totals are those of the first ones only.");
    return std::move(out_);
  }

 private:
  void walk(const ir::Block& b) {
    for (const auto& op : b.ops()) {
      if (capped_) return;
      switch (op->kind()) {
        case OpKind::For: loop(*op); break;
        case OpKind::If: branch(*op); break;
        case OpKind::Yield: break;
        default:
          if (op->numRegions() == 0) place(*op);
          for (unsigned r = 0; r < op->numRegions(); ++r) walk(op->body(r));  // a core's section
      }
    }
  }

  std::optional<int64_t> eval(const Expr& e) const {
    return e.substitute([&](const Value* v) {
              const int64_t* k = known_.find(v);
              return k ? Expr::constant(*k) : Expr::var(v);
            })
        .asConst();
  }

  int64_t readyOf(const Value* v) const {
    const int64_t* t = ready_.find(v);
    return t ? *t : 0;
  }

  void bindBuffer(const Value* v, int64_t id) {
    if (id >= 0) bufferOf_[v] = buffers_.indexOf(id);
  }

  void place(const ir::Op& op) {
    int64_t ready = 0;
    std::vector<size_t> touched;
    for (const Value* v : op.operands()) {
      ready = std::max(ready, readyOf(v));
      if (const size_t* b = bufferOf_.find(v)) touched.push_back(*b);
    }
    passes::forEachTileBufferId(op, [&](unsigned i, int64_t id) {
      bindBuffer(op.result(i), id);
      if (const size_t* b = bufferOf_.find(op.result(i))) touched.push_back(*b);
    });
    const PipeCost cost = model_.cost(op);
    int64_t end = ready;
    if (cost.pipe >= 0) {
      const int64_t start = schedule_.place(size_t(cost.pipe), cost.cycles, ready, touched);
      end = start + cost.cycles;
      out_.spans.push_back({uint32_t(cost.pipe), start, end, label(op)});
      capped_ = out_.spans.size() >= maxInstances_;
    }
    for (const Value* r : op.results()) ready_[r] = end;
    bindScalar(op);
  }

  // The integers loop bounds and conditions may name: constants, index expressions, and the
  // launch queries of block 0.
  void bindScalar(const ir::Op& op) {
    std::optional<int64_t> v;
    const ir::Function& f = kernel_.function();
    switch (op.kind()) {
      case OpKind::Const:
        if (const auto* i = std::get_if<int64_t>(&op.get(ir::attr::value))) v = *i;
        break;
      case OpKind::IndexExpr: v = eval(op.get(ir::attr::expr)); break;
      case OpKind::BlockIdx:
      case OpKind::SubblockIdx: v = 0; break;
      case OpKind::BlockNum: v = std::max<int64_t>(1, f.blocks()); break;
      case OpKind::SubblockNum: v = std::max<int64_t>(1, f.subblocks()); break;
      default: break;
    }
    if (v) known_[op.result()] = *v;
  }

  void loop(const ir::Op& op) {
    const ir::Block& body = op.body(0);
    const std::optional<int64_t> lb = eval(op.get(ir::attr::lb)), ub = eval(op.get(ir::attr::ub)),
                                 step = eval(op.get(ir::attr::step));
    int64_t trips = 1;
    if (lb && ub && step && *step > 0) trips = std::max<int64_t>(0, (*ub - *lb + *step - 1) / *step);
    else
      noteOnce("The " + kernel_.loopName(op) + " at " + kernel_.sourceLink(op.loc()) +
               " has a trip count known only at run time: it is simulated once.");
    passes::forEachTileBufferId(op, [&](unsigned i, int64_t id) {
      bindBuffer(op.result(i), id);
      bindBuffer(body.arg(i + 1), id);
    });
    for (unsigned i = 0; i < op.numOperands(); ++i) ready_[body.arg(i + 1)] = readyOf(op.operand(i));
    for (int64_t it = 0; it < trips && !capped_; ++it) {
      if (lb && step) known_[body.arg(0)] = *lb + it * *step;
      walk(body);
      const ir::Op* yield = body.terminator();
      for (unsigned i = 0; yield && i < yield->numOperands(); ++i) ready_[body.arg(i + 1)] = readyOf(yield->operand(i));
    }
    for (unsigned i = 0; i < op.numResults(); ++i) ready_[op.result(i)] = readyOf(body.arg(i + 1));
  }

  void branch(const ir::Op& op) {
    const std::optional<int64_t> cond = eval(op.get(ir::attr::cond));
    if (!cond)
      noteOnce("The branch at " + kernel_.sourceLink(op.loc()) +
               " has a condition known only at run time: its then-branch is simulated.");
    const unsigned taken = !cond || *cond ? 0 : 1;
    passes::forEachTileBufferId(op, [&](unsigned i, int64_t id) { bindBuffer(op.result(i), id); });
    if (taken >= op.numRegions()) return;
    walk(op.body(taken));
    const ir::Op* yield = op.body(taken).terminator();
    for (unsigned i = 0; yield && i < yield->numOperands() && i < op.numResults(); ++i)
      ready_[op.result(i)] = readyOf(yield->operand(i));
  }

  // Once per sentence: a loop in a nest runs many times, and a split kernel's sections
  // both hold loops from one source loop.
  void noteOnce(const std::string& html) {
    if (noted_.insert(html).second) out_.notes.push_back(html);
  }

  // "exp at k.tile:7:13", one label per op however many instances it has.
  uint32_t label(const ir::Op& op) {
    auto [it, added] = labelOf_.emplace(&op, uint32_t(out_.labels.size()));
    if (added) {
      const std::string kind = ir::opInfo(op.kind()).spelling;
      const std::string where = kernel_.where(op.loc());
      out_.labels.push_back(where.empty() ? kind : kind + " at " + where);
      out_.sources.push_back(op.loc());
    }
    return it->second;
  }

  const KernelView& kernel_;
  const PipeModel& model_;
  passes::BufferIndex buffers_;
  PipeSchedule schedule_;
  size_t maxInstances_;
  bool capped_ = false;
  ir::ValueMap<int64_t> ready_, known_;
  ir::ValueMap<size_t> bufferOf_;
  std::unordered_map<const ir::Op*, uint32_t> labelOf_;  // looked up only: no order leaks out
  std::unordered_set<std::string> noted_;
  Timeline out_;
};

}  // namespace

Timeline estimateTimeline(const KernelView& kernel, const PipeModel& model, size_t maxInstances) {
  return Simulator(kernel, model, maxInstances).run();
}

}  // namespace tilec::report
