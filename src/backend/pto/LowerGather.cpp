// lower-gather: pto-isa's TGATHER (index form) reads its source at flat element indices:
// index p is element p of the source's storage counted from its first element, rows as
// many elements apart as the buffer has columns (a2a3's vgather adds p * element size to
// the source's address; a5's vgather2 and the CPU simulator count elements the same way).
// A gather from a one-row source already is that: its columns are its elements. From a
// source of R rows, row i of the index names columns of row i, so each of its indices gets
// i * S added, S the source's row stride:
//
//   %g_rows   = tile.iota %c0          : tile<i32, [1, R], valid=[1, v]>   // 0, 1, ..., R - 1
//   %g_starts = tile.muls %g_rows, %S  : tile<i32, [1, R], valid=[1, v]>   // i * S
//   %g_col    = tile.reshape %g_starts : tile<i32, [R, 1], valid=[v, 1]>   // the same bytes as a column
//   %g_flat   = tile.row_expand_add %index, %g_col                          // index[i, j] + i * S
//   %g        = tile.gather %src, %g_flat {row_stride = S}
//
// (tci, tmuls, treshape, trowexpandadd, tgather: four instructions and a view, each linear
// in its tile, for any valid row count v, also one known only at run time, since every op
// works on the valid rows.) The other ways PTO has were worse: one gather per row (one-row
// slices, as lower-scans writes its steps) is 2R instructions and needs the row count when
// compiling, and a flat iota over the whole tile is limited to 4095 elements. S is the
// columns of the buffer the source lives in: a slice is a window of its parent's buffer
// (PTOAS types a window that does not keep its parent's strides with the parent's shape),
// so the stride is that of the first tile up the chain of slices. A u32 index is converted
// to i32 first (a cast, exact for an index in range, which is far below 2^31: pto-isa's
// trowexpandadd takes i32, and PTOAS keeps no runtime valid extent through a bitcast). `row_stride` on the gather records the flat form, which the interpreter
// reads back (index i * S + c is column c of row i), so --verify-semantics checks the pass.
// Refused, located: R i32 values are the column [R, 1], which PTO keeps in whole 32-byte
// blocks, so R must be a multiple of 8 (E0513, naming the tiles to pad). Linear.
#include "backend/pto/PtoModel.h"
#include "backend/pto/PtoTargets.h"
#include "ir/Builder.h"
#include "ir/Describe.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
namespace {
using namespace ir;

class LowerGather final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"lower-gather",
                                "write the index of a gather from several rows as tgather's flat index",
                                PropSSA | PropTileOps2D, 0, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    passes::ErrorWatch watch(ctx.diags);
    for (auto& f : m.functions())
      for (Op* op : passes::opsOfKind(*f, {OpKind::Gather}))
        if (needsFlatIndex(*op) && check(*op, ctx.diags)) lower(*op);
    return watch.clean();
  }

 private:
  static bool needsFlatIndex(const Op& op) {
    const Type& src = op.operand(0)->type();
    return !op.find(attr::row_stride) && src.rank() == 2 && src.shape()[0] > 1;
  }

  // The row starts are a column of R i32 values, whole 32-byte blocks only when R is a
  // multiple of 8.
  static bool check(const Op& op, DiagnosticEngine& diags) {
    const Type& index = op.operand(1)->type();
    const int64_t rows = index.shape()[0];
    const int64_t multiple = kVecBlockBytes / int64_t(dtypeBytes(DType::I32));
    if (rows % multiple == 0) return true;
    const int64_t padded = (rows + multiple - 1) / multiple * multiple;
    const std::string cols = std::to_string(op.operand(0)->type().shape()[1]);
    diags.report(Diag::PtoVecRowAlign, op.loc(),
                 describe(op, diags.sources()) + " gathers from the " + std::to_string(rows) +
                     " rows of " + describe(op.operand(0), diags.sources()) +
                     ", and PTO's tgather reads them through a flat index made with a column of " +
                     std::to_string(rows) + " i32 row starts (" + std::to_string(rows * 4) +
                     " bytes), but vec column vectors must be a multiple of " + std::to_string(kVecBlockBytes) +
                     " bytes; give the source and the index a multiple of " + std::to_string(multiple) +
                     " rows and keep the real ones in their valid shapes, e.g. load [" + std::to_string(padded) +
                     ", " + cols + "] with valid = [" + std::to_string(rows) + ", " + cols + "]");
    return false;
  }

  // The columns of the buffer `v` lives in: a slice is a window of its parent's.
  static int64_t storageColumns(const Value* v) {
    while (v->definingOp() && v->definingOp()->kind() == OpKind::Slice) v = v->definingOp()->operand(0);
    return v->type().shape()[1];
  }

  static void lower(Op& op) {
    const Value* result = op.result();
    const std::string base = result->name().empty() ? "gather" : result->name();
    Value* index = op.operand(1);
    const Type& it = index->type();
    const int64_t rows = it.shape()[0];
    const Expr validRows = it.valid()[0];
    const int64_t stride = storageColumns(op.operand(0));
    OpBuilder build = OpBuilder::before(op);
    auto made = [&](Value* v) { return passes::madeFrom(v, index); };
    if (it.dtype() == DType::U32)
      index = made(build.createValue(OpKind::Cast, {index}, {}, it.withDType(DType::I32), base + "_index"));
    Value* zero = build.createValue(OpKind::Const, {}, {attr::value(int64_t(0))}, Type::scalar(DType::I32), "c0_i32");
    Value* step = build.createValue(OpKind::Const, {}, {attr::value(stride)}, Type::scalar(DType::I32),
                                    "c" + std::to_string(stride) + "_i32");
    const Type row = Type::tile(DType::I32, {1, rows}, {Expr::constant(1), validRows});
    Value* counts = made(build.createValue(OpKind::Iota, {zero}, {}, row, base + "_rows"));
    Value* starts = made(build.createValue(OpKind::MulS, {counts, step}, {}, {}, base + "_starts"));
    Value* column = made(build.createValue(OpKind::Reshape, {starts}, {},
                                           Type::tile(DType::I32, {rows, 1}, {validRows, Expr::constant(1)}),
                                           base + "_col"));
    Value* flat = made(build.createValue(OpKind::RowExpandAdd, {index, column}, {}, {}, base + "_flat"));
    op.setOperand(1, flat);
    op.set(attr::row_stride, stride);
  }
};

}  // namespace

std::unique_ptr<Pass> createLowerGatherPass() { return std::make_unique<LowerGather>(); }

}  // namespace tilec::pto
