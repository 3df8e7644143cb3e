// assign-bds: gives every transfer a shim buffer descriptor and decides which transfers
// report completion, keeping the hardware's two limits: 16 descriptors per column, and
// 4 pushes queued per channel (a fifth would be dropped; a long repeat takes several,
// aie-legality's `pushes`). A channel's transfers complete in order, so a wait ends the
// channel's oldest unfinished transfer and frees its descriptor. Where a channel's queue
// has no room for a transfer's pushes the pass inserts waits; a wait with nothing to
// wait for is E0905. A token the source fixed is kept: a fill with token = true is
// waited for by the end of the sequence (so no stale token ends a later wait early), one
// with token = false must never be waited for (E0911). Loops and branches keep their bodies
// self-contained: transfers a body starts and does not wait for get a wait at the end of
// the body, and transfers on the channels a body uses are waited for before it, so every
// iteration starts with the same queues and uses the same descriptors. At the end of the sequence every drain is
// waited for, so the host never reads an output before it has arrived. A transfer the
// source lets the builder split at dispatch (split = N) holds N descriptors (`bd`, then
// `spare_bds`) and N queue entries, one per piece, until it is waited for. Every decision is
// an attribute (`bd`, `spare_bds`, `token`) or a dma.wait op in the IR; a `bd` the source gave is kept
// (E0907 when it is out of range or busy). Linear in the ops.
#include <array>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "backend/aie/AieOps.h"
#include "backend/aie/AieTargets.h"
#include "ir/Builder.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::aie {
namespace {
using namespace ir;

constexpr int64_t kBdsPerColumn = tilec_txn::kShimBds;
// A push finds a free descriptor: it waits first when its channel's queue is full, so at
// most every queue but its own is full, and its own holds one task fewer.
static_assert(2 * kShimChannels * kShimQueueDepth <= kBdsPerColumn);

using ChannelKey = std::tuple<int64_t, bool, int64_t>;  // column, drain, channel number

struct Task {
  Op* transfer;
  int depth;       // the nesting depth of the body that started it
  int64_t pushes;  // queue entries it takes: one per 256 runs of its repeat (aie-legality's `pushes`)
  std::optional<bool> source;  // the token the source fixed (token = ...)
};

// Why the sequence waits for a transfer, for the refusal of one whose source said token = false.
enum class WaitReason { Explicit, QueueFull, BodyEnd, BeforeBody, SequenceEnd };


class BdAssignment {
 public:
  BdAssignment(Function& f, const TargetModel&, DiagnosticEngine& diags) : f_(f), diags_(diags) {}

  // At the end, every drain is waited for, and every fill whose source asked for its token
  // (a token no sync consumed would end a later wait on the channel early).
  void run() {
    visitBlock(f_.body(), 0);
    for (auto& [key, queue] : queues_)
      while (!queue.empty() && (std::get<1>(key) || tokenAsked(queue)))
        insertWait(key, f_.body(), nullptr, queue.front().transfer->loc(), WaitReason::SequenceEnd);
  }

 private:
  static ChannelKey keyOf(const Op& op) {
    const auto& c = op.get(attr::channel);
    return {c[0].constValue(), drains(op), c[1].constValue()};
  }

  void visitBlock(Block& b, int depth) {
    for (auto it = b.ops().begin(); it != b.ops().end();) {
      Op& op = **it++;  // waits are inserted before `op`, never after it
      switch (aieOp(op).form) {
        case AieForm::Transfer: {
          const ChannelKey key = keyOf(op);
          const int64_t pushes = queueEntries(op);
          while (queued(key) + pushes > int64_t(kShimQueueDepth) && !queues_[key].empty())
            insertWait(key, b, &op, op.loc(), WaitReason::QueueFull);
          push(op, key, depth, pushes);
          break;
        }
        case AieForm::Wait: {
          const ChannelKey key = keyOf(op);
          if (queues_[key].empty()) {
            diags_.report(Diag::AieWaitNothing, op.loc(),
                          "this wait has no unfinished transfer on its channel to wait for, and would block "
                          "forever; remove it, or start a transfer on the channel first");
            break;
          }
          pop(key, WaitReason::Explicit);
          break;
        }
        case AieForm::Loop: case AieForm::Branch:
          drainChannelsUsedIn(op, b);
          for (unsigned i = 0; i < op.numRegions(); ++i) visitBody(op.body(i), depth + 1);
          break;
        case AieForm::Const: case AieForm::Index: case AieForm::Yield: case AieForm::Require: case AieForm::Raw:
          break;  // no channel work
      }
    }
  }

  // Transfers on a channel a loop or branch uses are waited for before it, so its body
  // starts every time with the same queues.
  void drainChannelsUsedIn(Op& op, Block& b) {
    std::vector<ChannelKey> used;
    op.walk([&](Op& inner) {
      if (aieOp(inner).channel != AieChannel::None) used.push_back(keyOf(inner));
    });
    for (const ChannelKey& key : used)
      while (!queues_[key].empty()) insertWait(key, b, &op, op.loc(), WaitReason::BeforeBody);
  }

  // A body ends with every transfer it started waited for.
  void visitBody(Block& body, int depth) {
    visitBlock(body, depth);
    for (auto& [key, queue] : queues_)
      while (!queue.empty() && queue.back().depth == depth) {
        Op* at = body.terminator();
        insertWait(key, body, at, queue.back().transfer->loc(), WaitReason::BodyEnd);
      }
  }

  int64_t queued(const ChannelKey& key) {
    int64_t n = 0;
    for (const Task& t : queues_[key]) n += t.pushes;
    return n;
  }

  static bool tokenAsked(const std::deque<Task>& queue) {
    for (const Task& t : queue)
      if (t.source == std::optional<bool>(true)) return true;
    return false;
  }

  void push(Op& op, const ChannelKey& key, int depth, int64_t pushes) {
    std::array<bool, kBdsPerColumn>& used = busy_[std::get<0>(key)];
    int64_t bd = 0;
    if (const int64_t* pinned = op.find(attr::bd)) {
      bd = *pinned;
      if (bd < 0 || bd >= kBdsPerColumn || used[size_t(bd)]) {
        diags_.report(Diag::AieBdPinned, op.loc(),
                      "descriptor " + std::to_string(bd) +
                          (bd < 0 || bd >= kBdsPerColumn
                               ? " does not exist; a shim column has descriptors 0 to " +
                                     std::to_string(kBdsPerColumn - 1)
                               : " of column " + std::to_string(std::get<0>(key)) +
                                     " is still in use by an unfinished transfer; wait for it first, or drop "
                                     "bd = and let tilec choose"));
        return;
      }
    } else {
      bd = freeBd(used);
    }
    used[size_t(bd)] = true;
    op.set(attr::bd, bd);
    if (const int64_t* split = op.find(attr::split); split && *split > 1) {
      std::vector<int64_t> spare;
      for (int64_t i = 1; i < *split; ++i) used[size_t(spare.emplace_back(freeBd(used)))] = true;
      op.set(attr::spare_bds, spare);
    }
    const bool* token = op.find(attr::token);
    const std::optional<bool> source = token ? std::optional<bool>(*token) : std::nullopt;
    // A drain always reports; a fill when its source asks, or when it is waited for.
    op.set(attr::token, std::get<1>(key) || source == std::optional<bool>(true));
    queues_[key].push_back({&op, depth, pushes, source});
  }

  // A task holds no more descriptors than queue entries, so one is free (the static_assert above).
  static int64_t freeBd(const std::array<bool, kBdsPerColumn>& used) {
    int64_t bd = 0;
    while (used[size_t(bd)]) ++bd;
    return bd;
  }

  void pop(const ChannelKey& key, WaitReason why) {
    Task t = queues_[key].front();
    queues_[key].pop_front();
    if (t.source == std::optional<bool>(false)) refuseNoToken(*t.transfer, why);
    t.transfer->set(attr::token, true);
    std::array<bool, kBdsPerColumn>& used = busy_[std::get<0>(key)];
    used[size_t(t.transfer->get(attr::bd))] = false;
    if (const auto* spare = t.transfer->find(attr::spare_bds))
      for (int64_t bd : *spare) used[size_t(bd)] = false;
  }

  // The source said token = false, but the sequence has to wait for the transfer.
  void refuseNoToken(const Op& op, WaitReason why) {
    static const char* const kWhy[] = {
        "a wait on its channel waits for it",
        "a later transfer finds its channel's queue full, and the sequence waits for this one to make room",
        ("it starts in a loop or branch body, and a body ends waiting for what it started, so every "
         "iteration uses the same descriptors"),
        "a loop or branch after it uses its channel, and the sequence waits for the channel first",
        "the sequence ends waiting for it"};
    diags_.report(Diag::AieTransferOption, op.loc(),
                  "token = false, but " + std::string(kWhy[int(why)]) +
                      ", and a wait needs the completion token; drop token = false");
  }

  // A wait for the channel's oldest transfer, before `before` (the end of `b` if null).
  void insertWait(const ChannelKey& key, Block& b, Op* before, SourceRange loc, WaitReason why) {
    OpBuilder builder(b, before);
    builder.setLoc(loc);
    builder.create(OpKind::DmaWait, {},
                   {attr::channel(std::vector<Expr>{Expr::constant(std::get<0>(key)), Expr::constant(std::get<2>(key))}),
                    attr::drain(std::get<1>(key))});
    pop(key, why);
  }

  Function& f_;
  DiagnosticEngine& diags_;
  std::map<ChannelKey, std::deque<Task>> queues_;
  std::map<int64_t, std::array<bool, kBdsPerColumn>> busy_;
};

class AssignBds final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"assign-bds", "give every transfer a shim descriptor and insert the waits the queues need",
                                PropSSA | PropAieLegal, PropBdsAssigned, 0};
    return kInfo;
  }
  bool run(Module& m, PassContext& ctx) override { return passes::runOnFunctions<BdAssignment>(m, ctx.diags); }
};

}  // namespace

std::unique_ptr<Pass> createAssignBdsPass() { return std::make_unique<AssignBds>(); }

}  // namespace tilec::aie
