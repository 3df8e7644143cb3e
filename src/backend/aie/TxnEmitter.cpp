// The static TXN writer: runs a runtime sequence whose sizes are all constants, in order,
// and appends each transfer and wait to the stream through TxnRuntime.h, the encoder the
// runtime builders will share. Loops run here (the stream has none), so a loop whose
// bound is a runtime value is E0906. Every decision (descriptor, token, waits) was made by
// a pass and is read from the IR. Linear in the size of the stream written.
#include <cstdio>
#include <ostream>
#include <unordered_map>

#include "backend/aie/AieTargets.h"
#include "backend/aie/SeqOps.h"
#include "backend/aie/ShimPattern.h"

namespace tilec::aie {
namespace {

using namespace ir;

constexpr size_t kMaxWords = size_t(1) << 22;  // 16 MiB of stream, far beyond real sequences
constexpr int64_t kMaxSteps = int64_t(1) << 24;  // ops and loop iterations run: an empty loop is no hang

class SequenceWriter {
 public:
  SequenceWriter(const Function& f, tilec_txn::Device device, bool fold, DiagnosticEngine& diags)
      : f_(f), device_(device), fold_(fold), diags_(diags) {}

  std::optional<std::vector<uint32_t>> write() {
    runBlock(f_.body(), nullptr);
    if (failed_) return std::nullopt;
    tilec_txn::finish(stream_, device_);
    return stream_.words;
  }

 private:
  std::optional<int64_t> eval(const Expr& e) const {
    return e.substitute([&](const Value* v) {
              auto it = env_.find(v);
              return it == env_.end() ? Expr() : Expr::constant(it->second);
            })
        .asConst();
  }

  // The value of `e`; a runtime size in it is E0906 (reported once; the result is then 0
  // and the writer stops at the end of the op).
  int64_t need(const Expr& e, const Op& op) {
    std::optional<int64_t> x = eval(e);
    if (x) return *x;
    if (!failed_) {
      std::string names;
      for (const Value* v : e.vars())
        if (!env_.count(v)) names += (names.empty() ? "'" : ", '") + v->name() + "'";
      diags_.report(Diag::AieRuntimeLoop, op.loc(),
                    std::string(op.name()) + " depends on " + names +
                        ", known only at run time, and a static TXN stream holds numbers; give the size a value "
                        "with -D, or build the stream at dispatch with --emit=txn-cpp");
    }
    failed_ = true;
    return 0;
  }

  void runBlock(const Block& b, std::vector<int64_t>* yielded) {
    for (const auto& op : b.ops()) {
      if (failed_ || !countStep(*op)) return;
      if (op->kind() == OpKind::Yield) {
        if (yielded)
          for (const Value* v : op->operands()) yielded->push_back(scalar(v, *op));
        return;
      }
      runOp(*op);
    }
  }

  bool countStep(const Op& op) {
    if (++steps_ <= kMaxSteps) return true;
    diags_.report(Diag::AieStreamTooLarge, op.loc(),
                  "writing the stream runs more than " + std::to_string(kMaxSteps) +
                      " ops and loop iterations here; loop fewer times, or move more data per transfer");
    failed_ = true;
    return false;
  }

  int64_t scalar(const Value* v, const Op& at) {
    auto it = env_.find(v);
    if (it == env_.end()) throw std::logic_error(std::string(at.name()) + " reads a value the TXN writer has not seen");
    return it->second;
  }

  void runOp(const Op& op) {
    switch (seqForm(op.kind())) {
      case SeqForm::Const:
        if (const auto* i = op.attr<int64_t>("value")) env_[op.result()] = *i;
        return;
      case SeqForm::Index:
        env_[op.result()] = need(*op.attr<Expr>("value"), op);
        return;
      case SeqForm::Loop: return runFor(op);
      case SeqForm::Branch: {
        std::vector<int64_t> results;
        runBlock(op.body(need(*op.attr<Expr>("cond"), op) ? 0 : 1), &results);
        for (unsigned i = 0; i < op.numResults() && i < results.size(); ++i) env_[op.result(i)] = results[i];
        return;
      }
      case SeqForm::Transfer: return writeTransfer(op);
      case SeqForm::Raw: {
        std::vector<int64_t> args;
        std::vector<uint32_t> data;
        for (const Expr& e : *op.attr<std::vector<Expr>>("args")) args.push_back(need(e, op));
        if (const auto* words = op.attr<std::vector<Expr>>("data"))
          for (const Expr& e : *words) data.push_back(uint32_t(need(e, op)));
        if (failed_) return;
        const std::string why = tilec_txn::appendRaw(stream_, *op.attr<std::string>("op"), args, data, fold_);
        if (!why.empty()) {
          diags_.report(Diag::AieRawOp, op.loc(), why);
          failed_ = true;
        }
        return checkSize(op);
      }
      case SeqForm::Require:
        if (need(*op.attr<Expr>("cond"), op) || failed_) return;
        diags_.report(Diag::AieRequireFails, op.loc(), *op.attr<std::string>("message"));
        failed_ = true;
        return;
      case SeqForm::Wait: {
        const auto& c = *op.attr<std::vector<Expr>>("channel");
        const uint32_t dir = *op.attr<bool>("drain") ? tilec_txn::kS2MM : tilec_txn::kMM2S;
        tilec_txn::sync(stream_, uint32_t(need(c[0], op)), 0, dir, uint32_t(need(c[1], op)), 1, 1);
        return checkSize(op);
      }
      case SeqForm::Yield:
        return;  // runBlock reads the yield
      case SeqForm::TileWork:
        throw std::logic_error(std::string(op.name()) + " reached the TXN writer; aie-legality rejects it");
    }
  }

  void runFor(const Op& op) {
    const std::optional<int64_t> lb = eval(*op.attr<Expr>("lb")), ub = eval(*op.attr<Expr>("ub")),
                                 step = eval(*op.attr<Expr>("step"));
    if (!lb || !ub || !step) {
      diags_.report(Diag::AieRuntimeLoop, op.loc(),
                    "this loop runs a number of times known only at run time, and a static TXN stream has no "
                    "loops; give the size a value with -D, or build the stream at dispatch with --emit=txn-cpp, "
                    "which keeps the loop");
      failed_ = true;
      return;
    }
    const Block& body = op.body();
    std::vector<int64_t> carried;
    for (const Value* v : op.operands()) carried.push_back(scalar(v, op));
    if (*step <= 0) {
      diags_.report(Diag::BadLoopStep, op.loc(),
                    "the loop step is " + std::to_string(*step) + ", and a loop runs forward; give it a positive step");
      failed_ = true;
      return;
    }
    for (int64_t i = *lb; i < *ub && !failed_ && countStep(op);) {
      env_[body.arg(0)] = i;
      for (size_t c = 0; c < carried.size(); ++c) env_[body.arg(unsigned(c + 1))] = carried[c];
      std::vector<int64_t> next;
      runBlock(body, &next);
      carried = std::move(next);
      if (uint64_t(*ub) - uint64_t(i) <= uint64_t(*step)) break;  // the next i would reach ub (or overflow)
      i += *step;
    }
    for (unsigned r = 0; r < op.numResults() && r < carried.size(); ++r) env_[op.result(r)] = carried[r];
  }

  void writeTransfer(const Op& op) {
    AccessPattern p{*op.attr<Expr>("offset"), *op.attr<std::vector<Expr>>("sizes"),
                    *op.attr<std::vector<Expr>>("strides")};
    const Value* tensor = op.operand(0);
    const int64_t bits = int64_t(dtypeBytes(tensor->type().dtype())) * 8;
    std::optional<tilec_txn::Transfer> t = constantTransfer(p, bits, [&](const Value* v) { return eval(Expr::var(v)); });
    if (!t) {
      for (const Expr& e : p.sizes) need(e, op);
      for (const Expr& e : p.strides) need(e, op);
      need(p.offset, op);
      if (!failed_) throw std::logic_error(std::string(op.name()) + " reached the TXN writer without a 4-D pattern");
      return;
    }
    if (!insideTensor(op, *t)) return;
    std::string error;
    const tilec_txn::ShimBdFields fields = tilec_txn::shimBdFields(*t, error);
    if (!error.empty()) throw std::logic_error(std::string(op.name()) + " breaks a descriptor rule aie-legality checks: " + error);
    const auto& c = *op.attr<std::vector<Expr>>("channel");
    const int64_t* bd = op.attr<int64_t>("bd");
    if (!bd) throw std::logic_error(std::string(op.name()) + " has no descriptor; run assign-bds first");
    tilec_txn::ShimTask task;
    task.col = uint32_t(need(c[0], op));
    task.dir = op.kind() == OpKind::DmaDrain ? tilec_txn::kS2MM : tilec_txn::kMM2S;
    task.chan = uint32_t(need(c[1], op));
    task.bd = uint32_t(*bd);
    task.argIdx = tensor->index();
    const bool* token = op.attr<bool>("token");
    task.token = token && *token;
    tilec_txn::shimTransfer(stream_, device_, task, fields, fold_);
    checkSize(op);
  }

  // Every element the walk reaches lies in the host tensor (E0904 otherwise).
  bool insideTensor(const Op& op, const tilec_txn::Transfer& t) {
    const Value* tensor = op.operand(0);
    tilec_txn::Arith a;
    int64_t elements = 1;
    for (const Expr& d : tensor->type().dims()) elements = a.mul(elements, need(d, op));
    const std::string outside = tilec_txn::outsideBuffer(t, a.failed ? INT64_MAX : elements);
    if (outside.empty() || failed_) return !failed_;
    diags_.report(Diag::AiePastBuffer, op.loc(),
                  std::string(op.name()) + ": " + outside + " ('" + tensor->name() + "'); keep the walk inside the tensor");
    failed_ = true;
    return false;
  }

  void checkSize(const Op& op) {
    if (stream_.words.size() <= kMaxWords || failed_) return;
    diags_.report(Diag::AieStreamTooLarge, op.loc(),
                  "the TXN stream grows past " + std::to_string(kMaxWords * 4 >> 20) +
                      " MiB here; loop fewer times, or move more data per transfer");
    failed_ = true;
  }

  const Function& f_;
  tilec_txn::Device device_;
  bool fold_;
  DiagnosticEngine& diags_;
  tilec_txn::Stream stream_;
  std::unordered_map<const Value*, int64_t> env_;
  int64_t steps_ = 0;
  bool failed_ = false;
};

std::optional<std::vector<uint32_t>> writeModule(const Module& m, DiagnosticEngine& diags,
                                                 const target::FlagValues& flags) {
  const std::optional<Npu> npu = npuOf(m.target());
  if (!npu || m.functions().size() != 1)
    throw std::logic_error("the TXN writer needs one sequence kernel compiled for an NPU target");
  return SequenceWriter(*m.functions().front(), npuDevice(*npu), flags.at(kDdrFold), diags).write();
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
