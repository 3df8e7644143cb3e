// expand-batch-matmul: a tile.batch_matmul whose result is only stored becomes one 2-D
// tile.matmul per element of the NumPy-style broadcast of the batch axes ([2, 1, M, K] x
// [1, 3, K, N] gives 6), each operand page a slice of the operand at its batch index (a
// size-1 batch axis reuses its single page) reshaped to 2-D, and each store one store per
// page at the page's offsets. It runs on N-D tiles, before store-partition and
// flatten-nd-to-2d, which turn the page slices into 2-D row bands. Results used otherwise,
// and batch_matmul_acc, are left for flatten-nd-to-2d to reject (E0606). Linear in the ops
// plus the matmuls the batches unroll into (at most kMaxPages per batch_matmul).
#include "ir/Builder.h"
#include "ir/NdShape.h"
#include "passes/Pass.h"

namespace tilec {
namespace {
using namespace ir;

constexpr int64_t kMaxPages = 4096;

// A [1.., rows, cols] page of `operand` at the batch index `at` (broadcast axes of extent
// 1 stay at 0), as a 2-D tile.
Value* page(OpBuilder& build, Value* operand, const std::vector<int64_t>& at, const std::string& name) {
  const Type& t = operand->type();
  const size_t n = t.rank();
  std::vector<Expr> offsets;
  std::vector<int64_t> shape;
  std::vector<Expr> valid;
  for (size_t i = 0; i + 2 < n; ++i) {
    offsets.push_back(Expr::constant(t.shape()[i] == 1 ? 0 : at[i]));
    shape.push_back(1);
    valid.push_back(Expr::constant(1));
  }
  for (size_t i = n - 2; i < n; ++i) {
    offsets.push_back(Expr::constant(0));
    shape.push_back(t.shape()[i]);
    valid.push_back(t.valid()[i]);
  }
  Value* slice = build.createValue(OpKind::Slice, {operand}, {{"offsets", offsets}}, t.withShape(shape, valid),
                                   name + "_page");
  std::vector<int64_t> flat{t.shape()[n - 2], t.shape()[n - 1]};
  return build.createValue(OpKind::Reshape, {slice}, {}, t.withShape(flat, {t.valid()[n - 2], t.valid()[n - 1]}),
                           name);
}

bool fullBatch(const Type& t) {
  for (size_t i = 0; i + 2 < t.rank(); ++i)
    if (t.valid()[i] != Expr::constant(t.shape()[i])) return false;
  return true;
}

class ExpandBatchMatmul final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"expand-batch-matmul",
                                "turn each stored batch_matmul into one 2-D matmul and store per batch page",
                                PropSSA, 0, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext&) override {
    for (auto& f : m.functions()) {
      std::vector<Op*> found;
      f->walk([&](Op& op) {
        if (op.kind() == OpKind::BatchMatmul && expandable(op)) found.push_back(&op);
      });
      for (Op* op : found) expand(*op);
    }
    return true;
  }

 private:
  static bool expandable(const Op& op) {
    const Value* r = op.result();
    if (!r->hasUses() || !fullBatch(op.operand(0)->type()) || !fullBatch(op.operand(1)->type())) return false;
    int64_t pages = 1;
    for (size_t i = 0; i + 2 < r->type().rank(); ++i) pages *= r->type().shape()[i];
    if (pages > kMaxPages) return false;
    for (const Use& u : r->uses())
      if (u.user->kind() != OpKind::Store || u.index != 0) return false;
    return true;
  }

  static void expand(Op& op) {
    const Type& result = op.result()->type();
    const size_t n = result.rank();
    std::vector<int64_t> batch(result.shape().begin(), result.shape().end() - 2);
    std::vector<Op*> stores;
    for (const Use& u : op.result()->uses()) stores.push_back(u.user);
    const std::string base = op.result()->name().empty() ? "mm" : op.result()->name();
    OpBuilder build = OpBuilder::before(op);
    std::vector<int64_t> at(batch.size(), 0);
    int64_t pages = 1;
    for (int64_t b : batch) pages *= b;
    for (int64_t p = 0; p < pages; ++p) {
      std::string idx = std::to_string(p);
      Value* lhs = page(build, op.operand(0), at, base + "_lhs" + idx);
      Value* rhs = page(build, op.operand(1), at, base + "_rhs" + idx);
      Value* product = build.createValue(OpKind::Matmul, {lhs, rhs}, {}, {}, base + "_" + idx);
      for (Op* store : stores) {
        // The result's axes are the tensor's trailing ones: the page starts at the batch
        // index on the result's batch axes.
        std::vector<Expr> offsets = *store->attr<std::vector<Expr>>("offsets");
        size_t lead = offsets.size() - n;
        for (size_t i = 0; i < batch.size(); ++i) offsets[lead + i] = offsets[lead + i] + at[i];
        OpBuilder::before(*store).create(OpKind::Store, {product, store->operand(1)}, {{"offsets", offsets}});
      }
      for (size_t i = batch.size(); i-- > 0;)  // the next batch index, row-major
        if (++at[i] < batch[i]) break;
        else at[i] = 0;
    }
    for (Op* store : stores) store->parentBlock()->erase(store);
    op.parentBlock()->erase(&op);
  }
};

}  // namespace

std::unique_ptr<Pass> createExpandBatchMatmulPass() { return std::make_unique<ExpandBatchMatmul>(); }

}  // namespace tilec
