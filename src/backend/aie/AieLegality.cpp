// aie-legality: a runtime sequence on an NPU holds only the ops of the AIE table (AieOps.def:
// scalar arithmetic, control flow, dma transfers and waits, size requirements, register
// operations); any other op works on tiles or regions, or reads a tensor's data (E0901). Every transfer's pattern is rewritten into the shape a shim
// descriptor walks (ShimPattern.h: four dimensions, the outermost the iteration); when
// that plain shape does not fit and the sizes and strides are constants, into the first
// other layout of the same walk that does (TxnRuntime.h's ShimLayout: a dimension cut
// over several slots, 1024 rows as 2 x 512, a long run as runs x words). Each is then
// checked: the channel exists (two per direction in each column), the descriptor fields
// hold the sizes and strides (TxnRuntime.h's own check, so the compiler and the encoder
// agree), and the offset is whole 4-byte words. What depends on loop variables or runtime
// sizes is checked where the values are known: by the TXN writer, or by the generated
// builder at dispatch (the same check, TxnRuntime.h); here only where the loops' bounds
// prove it wrong (an offset off the word, a sub-word innermost stride that is never 1).
// A transfer no descriptor holds was split by split-transfers when it could be; the
// refusal of one it could not split names the split it would need. A repeat past one
// queue push's 256 runs gets its pushes (`pushes`, at most a queue's worth: E0912), and
// the source's packet header, burst, token and split must fit (E0911); a walk no
// descriptor holds passes when split = reserved the descriptors its pieces take (the TXN
// writer and the builder split it, TxnRuntime.h's dispatchTransfer). Linear in the ops (each
// layout search is bounded: ShimLayout).
#include <algorithm>
#include <string>

#include "backend/aie/AieModel.h"
#include "backend/aie/AieTargets.h"
#include "backend/aie/AieOps.h"
#include "backend/aie/ShimPattern.h"
#include "ir/Describe.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"
#include "support/Wording.h"

namespace tilec::aie {
namespace {
using namespace ir;

class SequenceLegality {
 public:
  SequenceLegality(Function& f, const TargetModel& model, DiagnosticEngine& diags)
      : f_(f), model_(model), device_(npuDevice(npuOf(model))), diags_(diags) {}

  void run() { visit(f_.body()); }

 private:
  void visit(Block& b) {
    for (auto& op : b.ops()) {
      checkOp(*op);
      for (unsigned i = 0; i < op->numRegions(); ++i)
        if (mayRun(*op, i)) visit(op->body(i));
    }
  }

  // Why a sequence cannot run `op`: tile work needs a core; an element read from a tensor
  // would make the transfers depend on data, but they are fixed when the sequence is built.
  static std::string refusal(const Op& op) {
    const auto isTile = [](const Value* v) { return v->type().isTile(); };
    const auto& operands = op.operands();
    const std::vector<Value*> results = op.results();
    const bool tiles = std::any_of(operands.begin(), operands.end(), isTile) ||
                       std::any_of(results.begin(), results.end(), isTile);
    if (tiles)
      return " works on tiles, but a runtime sequence only moves data between host tensors and DMA channels; the "
             "cores' kernels are compiled on their own";
    return " reads a host tensor's data, but a runtime sequence cannot do data-dependent offsets: its transfers "
           "are fixed when it is built; compute the offsets on the host and pass them as sizes";
  }

  // False for the region of a branch whose condition is a constant that never picks it
  // (a tail `if M % 32 != 0` compiled with -D M=64): the stream never runs its transfers,
  // so their sizes (M % 32 rows, none) are not checked, as the runtime builder does not.
  static bool mayRun(const Op& op, unsigned region) {
    if (op.kind() != OpKind::If) return true;
    const std::optional<int64_t> cond = op.find(attr::cond)->asConst();
    return !cond || (*cond != 0) == (region == 0);
  }

  // An op without a row in the AIE table is of a group the NPUs do not accept (tiles,
  // regions, a tensor element read): the targets' one refusal.
  void checkOp(Op& op) {
    const AieOpInfo* row = findAieOp(op.kind());
    if (!row) {
      diags_.report(Diag::AieTileOp, op.loc(), describe(op, diags_.sources()) + refusal(op));
      return;
    }
    switch (row->form) {
      case AieForm::Transfer:
        if (!checkChannel(op)) return;
        return checkTransfer(op);
      case AieForm::Wait:
        checkChannel(op);
        return;
      case AieForm::Raw:
        return checkRaw(op);
      case AieForm::Const: case AieForm::Index: case AieForm::Loop: case AieForm::Branch: case AieForm::Yield:
      case AieForm::Require:
        return;
    }
  }

  // The name is one of the model's, the argument count fits, and constant arguments are
  // encodable (the encoder's own check; runtime ones are checked by the builder).
  void checkRaw(const Op& op) {
    const std::string& name = op.get(attr::op);
    const RawOpDesc* desc = model_.rawOp(name);
    const auto& args = op.get(attr::args);
    if (!desc)
      return report(Diag::AieRawOp, op, "'" + name + "' is no register operation of " + model_.name);
    if (args.size() < desc->required || args.size() > desc->args.size() || desc->data != op.has(attr::data))
      return report(Diag::AieRawOp, op, name + " takes " + std::to_string(desc->required) + " to " +
                                            std::to_string(desc->args.size()) + " arguments" +
                                            (desc->data ? " and a list of data words" : "") + ", not " +
                                            std::to_string(args.size()));
    std::vector<int64_t> values;
    for (const Expr& e : args)
      if (std::optional<int64_t> c = e.asConst()) values.push_back(*c);
    std::vector<uint32_t> data(desc->data ? 1 : 0, 0u);
    tilec_txn::Stream scratch;
    if (values.size() != args.size()) return;
    const std::string why = tilec_txn::appendRaw(scratch, name, values, data, true);
    if (!why.empty()) report(Diag::AieRawOp, op, why);
  }

  bool checkChannel(const Op& op) {
    const auto& channel = op.get(attr::channel);
    const std::optional<int64_t> column = channel[0].asConst(), number = channel[1].asConst();
    if (column && number && *column >= 0 && *column < device_.numCols && *number >= 0 && *number < kShimChannels)
      return true;
    std::vector<std::string> channels;
    for (int64_t c = 0; c < kShimChannels; ++c) channels.push_back(std::to_string(c));
    diags_.report(Diag::AieChannel, op.loc(),
                  describe(op, diags_.sources()) + " uses column " + text(channel[0]) + ", channel " + text(channel[1]) +
                      "; " + model_.name + " has " +
                      (device_.numCols == 1 ? std::string("column 0") : "columns 0 to " + std::to_string(device_.numCols - 1)) +
                      " with shim channels " + listText(channels) + " in each direction" +
                      (device_.numCols < kWholeColumns(npuOf(model_).gen) ? " (a partial-column device: compile for the whole NPU, "
                                                                            "or a device with more columns, to use others)"
                                                                          : ""));
    return false;
  }

  // The source's packet header, burst and token fit the device and the sequence's rules.
  void checkOptions(const Op& op) {
    if (const auto* packet = op.find(attr::packet)) {
      const int64_t id = (*packet)[0], type = (*packet)[1];
      if (id < 0 || id > tilec_txn::kPacketIdMax || type < 0 || type > tilec_txn::kPacketTypeMax)
        report(Diag::AieTransferOption, op,
               "packet " + std::to_string(id) + ", packet_type " + std::to_string(type) +
                   ": a descriptor's packet header holds an id of 5 bits (0 to " +
                   std::to_string(tilec_txn::kPacketIdMax) + ") and a type of 3 bits (0 to " +
                   std::to_string(tilec_txn::kPacketTypeMax) + ")");
    }
    if (const int64_t* burst = op.find(attr::burst); burst && !tilec_txn::burstSupported(device_, *burst))
      report(Diag::AieTransferOption, op,
             "burst " + std::to_string(*burst) + ": the shim DMA of " + model_.name + " bursts 64, 128 or 256" +
                 (tilec_txn::maxBurstBytes(device_) > 256 ? " or 512" : "") +
                 " bytes; give one of them, or 0 (or no burst =) for the largest");
    if (const int64_t* split = op.find(attr::split)) {
      if (*split < 1 || *split > int64_t(kShimQueueDepth))
        report(Diag::AieTransferOption, op,
               "split " + std::to_string(*split) + ": the pieces of a split are queued together on the channel, "
               "which holds " + std::to_string(kShimQueueDepth) + "; give 1 to " + std::to_string(kShimQueueDepth));
      else if (op.has(attr::bd))
        report(Diag::AieTransferOption, op,
               "split = " + std::to_string(*split) + " asks for a descriptor per piece, and bd = " +
                   std::to_string(op.get(attr::bd)) + " gives the transfer one; drop one of them");
    }
    if (const bool* token = op.find(attr::token); token && !*token && drains(op))
      report(Diag::AieTransferOption, op,
             "token = false: a drain always reports completion, since the sequence waits for every drain before the "
             "host reads its output (and the S2MM side always issues the token); drop token = false");
  }

  // A repeat of more runs than one queue push holds takes several pushes of the same
  // descriptor (`pushes`), as many as the channel's queue holds at most: only the last push
  // reports completion, so nothing can wait for room between the others.
  bool countPushes(Op& op, const AccessPattern& shaped) {
    const std::optional<int64_t> runs = shaped.sizes[0].asConst();
    if (!runs || shaped.strides[0].asConst() != std::optional<int64_t>(0) || *runs <= tilec_txn::kRunsPerPush)
      return true;
    const int64_t pushes = (*runs + tilec_txn::kRunsPerPush - 1) / tilec_txn::kRunsPerPush;
    if (pushes > int64_t(kShimQueueDepth)) {
      report(Diag::AieRepeatPushes, op,
             "the walk repeats " + std::to_string(*runs) + " times, which takes " + std::to_string(pushes) +
                 " queue pushes of " + std::to_string(tilec_txn::kRunsPerPush) + " runs, and a channel queues " +
                 std::to_string(kShimQueueDepth) +
                 " (only the last push reports completion, so no wait can make room between them); repeat at most " +
                 std::to_string(kShimQueueDepth * tilec_txn::kRunsPerPush) +
                 " times a transfer, and split the rest into further transfers");
      return false;
    }
    op.set(attr::pushes, pushes);
    return true;
  }

  void checkTransfer(Op& op) {
    checkOptions(op);
    AccessPattern p{op.get(attr::offset), op.get(attr::sizes),
                    op.get(attr::strides)};
    const Type& tensor = op.operand(0)->type();
    const int64_t bits = int64_t(dtypeBytes(tensor.dtype())) * 8;
    std::string why;
    std::optional<AccessPattern> shaped = shimPattern(p, bits, why);
    if (shaped && !countPushes(op, *shaped)) return;
    // Sizes and strides must be constants for the descriptor check; the offset may vary
    // with the loops, so it is checked for alignment and range separately.
    AccessPattern atZero = shaped ? *shaped : p;
    atZero.offset = Expr::constant(0);
    std::optional<tilec_txn::Transfer> t =
        shaped ? constantTransfer(atZero, bits, [](const Value*) { return std::nullopt; }) : std::nullopt;
    if (t) {
      t->pushes = queueEntries(op);
      tilec_txn::shimBdFields(*t, why);
    }
    if (!why.empty()) {
      // The plain layout does not fit: another layout of the same walk may (ShimLayout),
      // which counts the pushes of a repeat it puts in the iteration; or the source's
      // split = reserved the descriptors its pieces take (the writers split it).
      const std::optional<tilec_txn::Walk> walk = bits <= kDmaWordBits ? constantWalk(p, bits) : std::nullopt;
      tilec_txn::Transfer laid;
      if (walk && tilec_txn::layOut(*walk, laid)) {
        shaped = patternOf(laid, p.offset);
        t = laid;
        if (laid.pushes > 1) op.set(attr::pushes, laid.pushes);
        else op.remove(attr::pushes);
      } else if (!shaped || !walk || !splitFits(op, *walk)) {
        return report(Diag::AieDescriptor, op, why + splitAdvice(op, walk));
      }
    }
    op.set(attr::sizes, shaped->sizes);
    op.set(attr::strides, shaped->strides);
    // Runtime sizes and strides are checked where their values are known: by the TXN writer
    // for constants given with -D, by the generated builder at dispatch. A sub-word
    // innermost stride the loops' bounds keep from 1 fails in every run, so it fails here.
    const VarRanges ranges = loopBounds;
    if (const Expr& inner = shaped->strides.back();
        !t && bits < kDmaWordBits && prove(CmpKind::EQ, inner, Expr::constant(1), ranges) == std::optional<bool>(false))
      return report(Diag::AieDescriptor, op, tilec_txn::subWordStrideRule(bits, text(inner)));
    const Expr offsetBytes = shaped->offset * (bits / 8);
    if (prove(CmpKind::EQ, Expr::mod(offsetBytes, Expr::constant(kDmaWordBytes)), Expr::constant(0), ranges) ==
        std::optional<bool>(false))
      return report(Diag::AieDescriptor, op,
                    "the offset " + text(shaped->offset) + " (in " + dtypeName(tensor.dtype()) +
                        " elements) is not a whole number of " + std::to_string(kDmaWordBytes) +
                        "-byte words; a descriptor starts on a word");
  }

  static std::string text(const Expr& e) { return exprText(e); }

  // The source's split = reserved enough descriptors for the pieces of `walk`.
  static bool splitFits(const Op& op, const tilec_txn::Walk& walk) {
    const int64_t* split = op.find(attr::split);
    const int64_t pieces = split ? tilec_txn::splitWalk(walk, 0, nullptr) : 0;
    return pieces > 1 && pieces <= *split;
  }

  // What a transfer no descriptor holds would need, and why split-transfers left it whole.
  static std::string splitAdvice(const Op& op, const std::optional<tilec_txn::Walk>& walk) {
    if (!walk) return "";
    const int64_t pieces = tilec_txn::splitWalk(*walk, 0, nullptr);
    std::string advice = tilec_txn::splitAdvice(*walk);
    if (pieces == 0) return advice;
    if (op.has(attr::bd)) return advice + ", but a transfer given a descriptor (bd =) is not split; drop bd =";
    if (const int64_t* split = op.find(attr::split))
      return advice + ", and split = " + std::to_string(*split) + " reserves " + std::to_string(*split) +
             (pieces <= int64_t(kShimQueueDepth) ? "; give split = " + std::to_string(pieces) : "") +
             ", or drop split = to let tilec split it into transfers";
    if (pieces > kMaxSplitPieces)
      return advice + ", more than the " + std::to_string(kMaxSplitPieces) +
             " tilec writes for one transfer; move the outer dimensions into a loop around it";
    return advice;
  }

  void report(Diag id, const Op& op, const std::string& message) {
    diags_.report(id, op.loc(), describe(op, diags_.sources()) + ": " + message);
  }

  Function& f_;
  const TargetModel& model_;
  tilec_txn::Device device_;
  DiagnosticEngine& diags_;
};

class AieLegality final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"aie-legality", "check a runtime sequence against the NPU's shim DMA rules",
                                PropSSA | PropUnrolled, PropAieLegal, 0};
    return kInfo;
  }
  bool run(Module& m, PassContext& ctx) override {
    return passes::runOnFunctions<SequenceLegality>(m, ctx.diags);
  }
};

}  // namespace

std::unique_ptr<Pass> createAieLegalityPass() { return std::make_unique<AieLegality>(); }

}  // namespace tilec::aie
