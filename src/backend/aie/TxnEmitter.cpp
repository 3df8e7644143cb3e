// The static TXN writer: runs a runtime sequence whose sizes are all constants, in order,
// and appends each transfer and wait to the stream through TxnRuntime.h, the encoder the
// runtime builders will share. Loops run here (the stream has none), so a loop whose
// bound is a runtime value is E0906. Every decision (descriptor, token, waits) was made by
// a pass and is read from the IR. Linear in the size of the stream written.
#include <cstdio>
#include <ostream>

#include "backend/aie/AieTargets.h"
#include "backend/aie/SequenceRunner.h"
#include "backend/aie/ShimPattern.h"
#include "ir/Describe.h"
#include "support/Wording.h"

namespace tilec::aie {
namespace {

using namespace ir;

constexpr size_t kMaxWords = size_t(1) << 22;  // 16 MiB of stream, far beyond real sequences
constexpr int64_t kMaxSteps = int64_t(1) << 24;  // ops and loop iterations run: an empty loop is no hang

class SequenceWriter final : public SequenceRunner {
 public:
  SequenceWriter(const Function& f, tilec_txn::Device device, const target::FlagValues& flags, DiagnosticEngine& diags)
      : SequenceRunner(f, SequenceValues(f), kMaxSteps),
        device_(device),
        fold_(flags.at(kDdrFold)),
        task_(flagSet(flags, kDmaTask)),
        diags_(diags) {}

  std::optional<std::vector<uint32_t>> write() {
    run();
    if (stopped()) return std::nullopt;
    tilec_txn::finish(stream_, device_);
    return stream_.words;
  }

 private:
  std::optional<int64_t> need(const Expr& e, const Op& op) override {
    const int64_t x = value(e, op);
    return stopped() ? std::nullopt : std::optional<int64_t>(x);
  }

  // The value of `e`; a runtime size in it is E0906 (reported once; the result is then 0
  // and the writer stops at the end of the op).
  int64_t value(const Expr& e, const Op& op) {
    std::optional<int64_t> x = eval(e);
    if (x) return *x;
    if (!stopped()) {
      std::vector<std::string> names;
      for (const Value* v : e.vars())
        if (!get(v)) names.push_back(describe(v, diags_.sources()));
      diags_.report(Diag::AieRuntimeLoop, op.loc(),
                    describe(op, diags_.sources()) + " depends on " + listText(names) +
                        ", known only at run time, and a static TXN stream holds numbers; give the size a value "
                        "with -D, or build the stream at dispatch with --emit=txn-cpp");
    }
    stop();
    return 0;
  }

  void failed(const Op& op, Failure why) override {
    switch (why) {
      case Failure::LoopBounds:
        diags_.report(Diag::AieRuntimeLoop, op.loc(),
                      "this loop runs a number of times known only at run time, and a static TXN stream has no "
                      "loops; give the size a value with -D, or build the stream at dispatch with --emit=txn-cpp, "
                      "which keeps the loop");
        return;
      case Failure::LoopStep:
        diags_.report(Diag::BadLoopStep, op.loc(),
                      "the loop step is " + std::to_string(eval(op.get(attr::step)).value_or(0)) +
                          ", and a loop runs forward; give it a positive step");
        return;
      case Failure::TooManySteps:
        diags_.report(Diag::AieStreamTooLarge, op.loc(),
                      "writing the stream runs more than " + std::to_string(kMaxSteps) +
                          " ops and loop iterations here; loop fewer times, or move more data per transfer");
        return;
    }
  }

  void visit(const Op& op, AieForm form) override {
    switch (form) {
      case AieForm::Transfer: return writeTransfer(op);
      case AieForm::Raw: return writeRaw(op);
      case AieForm::Require: {
        // A requirement on a size the stream never uses (none given with -D) binds only
        // the builder, which checks it at dispatch; one the stream uses fails where it is used.
        const std::optional<int64_t> holds = eval(op.get(attr::cond));
        if (!holds || *holds || stopped()) return;
        diags_.report(Diag::AieRequireFails, op.loc(), op.get(attr::message));
        return stop();
      }
      case AieForm::Wait: {
        const auto& c = op.get(attr::channel);
        const uint32_t dir = drains(op) ? tilec_txn::kS2MM : tilec_txn::kMM2S;
        tilec_txn::sync(stream_, uint32_t(value(c[0], op)), 0, dir, uint32_t(value(c[1], op)), 1, 1);
        return checkSize(op);
      }
      case AieForm::Const:
      case AieForm::Index:
      case AieForm::Loop:
      case AieForm::Branch:
      case AieForm::Yield:
        throw std::logic_error(std::string(op.name()) + " is control flow, which the sequence runner runs");
    }
  }

  void writeRaw(const Op& op) {
    std::vector<int64_t> args;
    std::vector<uint32_t> data;
    for (const Expr& e : op.get(attr::args)) args.push_back(value(e, op));
    if (const auto* words = op.find(attr::data))
      for (const Expr& e : *words) data.push_back(uint32_t(value(e, op)));
    if (stopped()) return;
    const std::string why = tilec_txn::appendRaw(stream_, op.get(attr::op), args, data, fold_);
    if (!why.empty()) {
      diags_.report(Diag::AieRawOp, op.loc(), why);
      return stop();
    }
    checkSize(op);
  }

  void writeTransfer(const Op& op) {
    AccessPattern p{op.get(attr::offset), op.get(attr::sizes),
                    op.get(attr::strides)};
    const Value* tensor = op.operand(0);
    const int64_t bits = int64_t(dtypeBytes(tensor->type().dtype())) * 8;
    std::optional<tilec_txn::Transfer> t = constantTransfer(p, bits, [&](const Value* v) { return get(v); });
    if (!t) {
      for (const Expr& e : p.sizes) value(e, op);
      for (const Expr& e : p.strides) value(e, op);
      value(p.offset, op);
      if (!stopped()) throw std::logic_error(std::string(op.name()) + " reached the TXN writer without a descriptor's pattern");
      return;
    }
    t->pushes = queueEntries(op);
    const auto& c = op.get(attr::channel);
    const int64_t* bd = op.find(attr::bd);
    if (!bd) throw std::logic_error(std::string(op.name()) + " has no descriptor; run assign-bds first");
    tilec_txn::ShimTask task;
    task.col = uint32_t(value(c[0], op));
    task.dir = drains(op) ? tilec_txn::kS2MM : tilec_txn::kMM2S;
    task.chan = uint32_t(value(c[1], op));
    task.bd = uint32_t(*bd);
    task.argIdx = tensor->index();
    const bool* token = op.find(attr::token);
    task.token = token && *token;
    task.task = task_;
    if (const int64_t* burst = op.find(attr::burst)) task.burstBytes = *burst;
    if (const auto* packet = op.find(attr::packet)) task.packet = {true, uint32_t((*packet)[0]), uint32_t((*packet)[1])};
    if (const auto* spare = op.find(attr::spare_bds)) task.spareBds.assign(spare->begin(), spare->end());
    // aie-legality checked the fields it could; these numbers hold this run's loop variables
    // and are re-laid (or split over the descriptors split = reserved) as the builder does it
    // at dispatch.
    std::string error;
    tilec_txn::Transfer laid = *t;
    const tilec_txn::ShimBdFields fields = tilec_txn::reLaidShimBdFields(laid, error);
    if (error.empty()) {
      if (!insideTensor(op, laid)) return;
      tilec_txn::shimTransfer(stream_, device_, task, fields, fold_);
    } else if (!task.spareBds.empty()) {
      error = tilec_txn::dispatchTransfer(stream_, device_, task, *t, tensorElements(op), fold_);
    }
    if (!error.empty()) {
      diags_.report(Diag::AieDescriptor, op.loc(), describe(op, diags_.sources()) + ": " + error);
      return stop();
    }
    checkSize(op);
  }

  // Every element the walk reaches lies in the host tensor (E0904 otherwise).
  bool insideTensor(const Op& op, const tilec_txn::Transfer& t) {
    const Value* tensor = op.operand(0);
    const std::string outside = tilec_txn::outsideBuffer(t, tensorElements(op));
    if (outside.empty() || stopped()) return !stopped();
    diags_.report(Diag::AiePastBuffer, op.loc(),
                  describe(op, diags_.sources()) + ": " + outside + " (" + describe(tensor, diags_.sources()) +
                      "); keep the walk inside the tensor");
    stop();
    return false;
  }

  // The elements of the transfer's tensor (INT64_MAX past that: the walk is checked against it).
  int64_t tensorElements(const Op& op) {
    tilec_txn::Arith a;
    int64_t elements = 1;
    for (const Expr& d : op.operand(0)->type().dims()) elements = a.mul(elements, value(d, op));
    return a.failed ? INT64_MAX : elements;
  }

  void checkSize(const Op& op) {
    if (stream_.words.size() <= kMaxWords || stopped()) return;
    diags_.report(Diag::AieStreamTooLarge, op.loc(),
                  "the TXN stream grows past " + std::to_string(kMaxWords * 4 >> 20) +
                      " MiB here; loop fewer times, or move more data per transfer");
    stop();
  }

  tilec_txn::Device device_;
  bool fold_, task_;
  DiagnosticEngine& diags_;
  tilec_txn::Stream stream_;
};

std::optional<std::vector<uint32_t>> writeModule(const Module& m, DiagnosticEngine& diags,
                                                 const target::FlagValues& flags) {
  const NpuDevice npu = npuOf(m.target());
  if (m.functions().size() != 1) throw std::logic_error("the TXN writer needs one sequence kernel");
  return SequenceWriter(*m.functions().front(), npuDevice(npu), flags, diags).write();
}

}  // namespace

bool emitTxn(const Module& m, OutputBuffer& os, DiagnosticEngine& diags, const target::FlagValues& flags) {
  std::optional<std::vector<uint32_t>> words = writeModule(m, diags, flags);
  if (!words) return false;
  for (uint32_t w : *words)
    for (int i = 0; i < 4; ++i) os.put(char(uint8_t(w >> (8 * i))));
  return true;
}

bool emitTxnText(const Module& m, OutputBuffer& os, DiagnosticEngine& diags, const target::FlagValues& flags) {
  std::optional<std::vector<uint32_t>> words = writeModule(m, diags, flags);
  if (!words) return false;
  char line[16];
  for (uint32_t w : *words) {
    std::snprintf(line, sizeof line, "%08X\n", w);
    os << line;
  }
  return true;
}

}  // namespace tilec::aie
