// assign-bds: gives every transfer a shim buffer descriptor and decides which transfers
// report completion, keeping the hardware's two limits: 16 descriptors per column, and
// 4 tasks queued per channel (a fifth push would be dropped). A channel's transfers
// complete in order, so a wait ends the channel's oldest unfinished transfer and frees
// its descriptor. Where a channel already holds 4 tasks the pass inserts a wait; a
// wait with nothing to wait for is E0905. Loops and branches keep their bodies
// self-contained: transfers a body starts and does not wait for get a wait at the end of
// the body, and transfers on the channels a body uses are waited for before it, so every
// iteration starts with the same queues and uses the same descriptors. At the end of the sequence every drain is
// waited for, so the host never reads an output before it has arrived. Every decision is
// an attribute (`bd`, `token`) or a dma.wait op in the IR; a `bd` the source gave is kept
// (E0907 when it is out of range or busy). Linear in the ops.
#include <array>
#include <deque>
#include <map>
#include <string>
#include <tuple>

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
  int depth;  // the nesting depth of the body that started it
};


class BdAssignment {
 public:
  BdAssignment(Function& f, const TargetModel&, DiagnosticEngine& diags) : f_(f), diags_(diags) {}

  void run() {
    visitBlock(f_.body(), 0);
    for (auto& [key, queue] : queues_)
      while (std::get<1>(key) && !queue.empty()) insertWait(key, f_.body(), nullptr, queue.front().transfer->loc());
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
          if (queues_[key].size() == kShimQueueDepth) insertWait(key, b, &op, op.loc());
          push(op, key, depth);
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
          pop(key);
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
      while (!queues_[key].empty()) insertWait(key, b, &op, op.loc());
  }

  // A body ends with every transfer it started waited for.
  void visitBody(Block& body, int depth) {
    visitBlock(body, depth);
    for (auto& [key, queue] : queues_)
      while (!queue.empty() && queue.back().depth == depth) {
        Op* at = body.terminator();
        insertWait(key, body, at, queue.back().transfer->loc());
      }
  }

  void push(Op& op, const ChannelKey& key, int depth) {
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
      while (used[size_t(bd)]) ++bd;  // one is free (the static_assert above)
    }
    used[size_t(bd)] = true;
    op.set(attr::bd, bd);
    op.set(attr::token, std::get<1>(key));  // a drain always reports; a fill when waited for
    queues_[key].push_back({&op, depth});
  }

  void pop(const ChannelKey& key) {
    Task t = queues_[key].front();
    queues_[key].pop_front();
    t.transfer->set(attr::token, true);
    busy_[std::get<0>(key)][size_t(t.transfer->get(attr::bd))] = false;
  }

  // A wait for the channel's oldest transfer, before `before` (the end of `b` if null).
  void insertWait(const ChannelKey& key, Block& b, Op* before, SourceRange loc) {
    OpBuilder builder(b, before);
    builder.setLoc(loc);
    builder.create(OpKind::DmaWait, {},
                   {attr::channel(std::vector<Expr>{Expr::constant(std::get<0>(key)), Expr::constant(std::get<2>(key))}),
                    attr::drain(std::get<1>(key))});
    pop(key);
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
