// Runs a runtime sequence on the host the way the firmware meets it: index values are
// computed, loops run out with their carried values, branches taken by their condition.
// The TXN writer and the report's transfer section share this; what an op does beyond
// control flow (write words, draw a transfer) is the subclass's, and so is what a value
// the host cannot know means (a diagnostic, or a drawing that ends there).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "backend/aie/AieOps.h"
#include "ir/IR.h"

namespace tilec::aie {

// The values of a sequence's scalars known so far, by value id.
class SequenceValues {
 public:
  explicit SequenceValues(const ir::Function& f) : values_(f.valueIdBound()) {}
  void set(const ir::Value* v, int64_t x) { values_.at(v->id()) = x; }
  std::optional<int64_t> get(const ir::Value* v) const {
    return v->id() < values_.size() ? values_[v->id()] : std::nullopt;
  }
  // `e` with the values known so far; nullopt when it reads one not known.
  std::optional<int64_t> eval(const ir::Expr& e) const;

 private:
  std::vector<std::optional<int64_t>> values_;
};

class SequenceRunner {
 public:
  virtual ~SequenceRunner() = default;

 protected:
  // `known`: the values set before the run (sizes given or assumed). `maxSteps`: the ops
  // and loop iterations run before the run stops (an empty loop of a billion iterations is
  // no hang).
  SequenceRunner(const ir::Function& f, SequenceValues known, int64_t maxSteps);

  void run();  // the function's body, until it ends or stop() is called
  void stop() { stopped_ = true; }
  bool stopped() const { return stopped_; }

  std::optional<int64_t> get(const ir::Value* v) const { return values_.get(v); }
  void set(const ir::Value* v, int64_t x) { values_.set(v, x); }
  std::optional<int64_t> eval(const ir::Expr& e) const { return values_.eval(e); }

  // The value of `e` at `at`; nullopt only after the subclass stopped the run.
  virtual std::optional<int64_t> need(const ir::Expr& e, const ir::Op& at) = 0;
  // Every op that is no control flow or value (Transfer, Wait, Require, Raw).
  virtual void visit(const ir::Op& op, AieForm form) = 0;
  enum class Failure {
    LoopBounds,    // a loop's bounds are not known
    LoopStep,      // a loop's step is not positive
    TooManySteps,  // more than maxSteps ops and iterations
  };
  // The run cannot go on at `at`; it stops after this returns.
  virtual void failed(const ir::Op& at, Failure why) = 0;

 private:
  void runBlock(const ir::Block& b, std::vector<int64_t>* yielded);
  void runOp(const ir::Op& op);
  void runFor(const ir::Op& op);
  void runIf(const ir::Op& op);
  bool countStep(const ir::Op& op);
  int64_t known(const ir::Value* v, const ir::Op& at) const;
  void fail(const ir::Op& at, Failure why);

  const ir::Function& f_;
  const int64_t maxSteps_;
  SequenceValues values_;
  int64_t steps_ = 0;
  bool stopped_ = false;
};

}  // namespace tilec::aie
