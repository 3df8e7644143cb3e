#include "backend/aie/SequenceRunner.h"

#include <stdexcept>
#include <string>

namespace tilec::aie {

using namespace ir;

std::optional<int64_t> SequenceValues::eval(const Expr& e) const {
  return e.substitute([&](const Value* v) {
            const std::optional<int64_t> x = get(v);
            return x ? Expr::constant(*x) : Expr();
          })
      .asConst();
}

SequenceRunner::SequenceRunner(const Function& f, SequenceValues known, int64_t maxSteps)
    : f_(f), maxSteps_(maxSteps), values_(std::move(known)) {}

void SequenceRunner::run() { runBlock(f_.body(), nullptr); }

// Values the run carries (yields, loop operands) were all set by the ops that made them,
// or the run stopped there.
int64_t SequenceRunner::known(const Value* v, const Op& at) const {
  const std::optional<int64_t> x = get(v);
  if (!x) throw std::logic_error(std::string(at.name()) + " reads a value the sequence run has not seen");
  return *x;
}

void SequenceRunner::fail(const Op& at, Failure why) {
  failed(at, why);
  stop();
}

bool SequenceRunner::countStep(const Op& op) {
  if (++steps_ <= maxSteps_) return true;
  fail(op, Failure::TooManySteps);
  return false;
}

void SequenceRunner::runBlock(const Block& b, std::vector<int64_t>* yielded) {
  for (const auto& op : b.ops()) {
    if (stopped_ || !countStep(*op)) return;
    if (op->kind() == OpKind::Yield) {
      if (yielded)
        for (const Value* v : op->operands()) yielded->push_back(known(v, *op));
      return;
    }
    runOp(*op);
  }
}

void SequenceRunner::runOp(const Op& op) {
  const AieForm form = aieOp(op).form;
  switch (form) {
    case AieForm::Const:
      if (const auto* i = std::get_if<int64_t>(&op.get(attr::value))) set(op.result(), *i);
      return;
    case AieForm::Index:
      if (const std::optional<int64_t> x = need(op.get(attr::expr), op)) set(op.result(), *x);
      return;
    case AieForm::Loop: return runFor(op);
    case AieForm::Branch: return runIf(op);
    case AieForm::Yield: return;  // runBlock reads it
    case AieForm::Transfer:
    case AieForm::Wait:
    case AieForm::Require:
    case AieForm::Raw: return visit(op, form);
  }
}

void SequenceRunner::runFor(const Op& op) {
  const std::optional<int64_t> lb = eval(op.get(attr::lb)), ub = eval(op.get(attr::ub)),
                               step = eval(op.get(attr::step));
  if (!lb || !ub || !step) return fail(op, Failure::LoopBounds);
  if (*step <= 0) return fail(op, Failure::LoopStep);
  const Block& body = op.body();
  std::vector<int64_t> carried;
  for (const Value* v : op.operands()) carried.push_back(known(v, op));
  for (int64_t i = *lb; i < *ub && !stopped_ && countStep(op);) {
    set(body.arg(0), i);
    for (size_t c = 0; c < carried.size() && c + 1 < body.numArgs(); ++c) set(body.arg(unsigned(c + 1)), carried[c]);
    std::vector<int64_t> next;
    runBlock(body, &next);
    carried = std::move(next);
    if (uint64_t(*ub) - uint64_t(i) <= uint64_t(*step)) break;  // the next i would reach ub (or overflow)
    i += *step;
  }
  for (unsigned r = 0; r < op.numResults() && r < carried.size(); ++r) set(op.result(r), carried[r]);
}

void SequenceRunner::runIf(const Op& op) {
  const std::optional<int64_t> cond = need(op.get(attr::cond), op);
  if (!cond) return;
  const unsigned region = *cond ? 0 : 1;
  if (region >= op.numRegions()) return;
  std::vector<int64_t> results;
  runBlock(op.body(region), &results);
  for (unsigned r = 0; r < op.numResults() && r < results.size(); ++r) set(op.result(r), results[r]);
}

}  // namespace tilec::aie
