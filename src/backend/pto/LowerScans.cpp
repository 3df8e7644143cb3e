// lower-scans: pto-isa has no scan instruction, so each tile.scan becomes instructions
// that exist, linear in the tile:
//  - down each column (axis 0) of an [R, C] tile with V valid rows: row i of the result
//    is tadd/tmax/tmin of result row i - 1 and source row i (one-row slices), each row
//    assembled into a tile of the result's type: V - 1 one-row ops and V assembles;
//  - along each row (axis 1): transpose, the scan down the columns of [C, R], transpose
//    back (insert-transpose-scratch gives both transposes their scratch).
// A scan along an axis of one valid element is its source. The steps use the very ops
// the interpreter's scan is defined by (each step rounded, integer sums wrapping, a NaN
// kept), so --verify-semantics checks the pass bit for bit.
// Refused, located: a valid extent along the scanned axis known only at run time (E0529:
// the steps are unrolled), and a scan along rows whose transposed rows would not be whole
// 32-byte vec blocks (E0513). An expansion past --max-ops is E0621.
#include "backend/pto/PtoTargets.h"
#include "ir/Builder.h"
#include "ir/Describe.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
namespace {
using namespace ir;

class LowerScans final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"lower-scans",
                                "write each prefix scan as one-row adds, maxima or minima (and transposes along rows)",
                                PropSSA, 0, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    passes::ErrorWatch watch(ctx.diags);
    for (auto& f : m.functions()) {
      int64_t ops = f->numOps();
      for (Op* op : passes::opsOfKind(*f, {OpKind::Scan})) {
        std::optional<int64_t> steps = checkScan(*op, ctx.diags);
        if (!steps) continue;
        // Per step: a slice, the combine and an assemble; along rows also the transposes'.
        ops += *steps * 3 + 4;
        if (ops > ctx.limits.maxOps) {
          ctx.diags.report(Diag::TooManyOps, op->loc(),
                           describe(*op, ctx.diags.sources()) + " is written as " + std::to_string(*steps) +
                               " one-row steps, which would grow kernel '" + f->name() + "' to about " +
                               std::to_string(ops) + " ops, more than the limit of " +
                               std::to_string(ctx.limits.maxOps) + " (--max-ops); scan smaller tiles");
          return false;
        }
        lower(*op);
      }
    }
    return watch.clean();
  }

 private:
  // The number of one-row steps the scan takes, or nothing after reporting why it has no
  // PTO form.
  static std::optional<int64_t> checkScan(const Op& op, DiagnosticEngine& diags) {
    const Type& t = op.operand(0)->type();
    const int64_t axis = op.get(attr::axis);
    const std::optional<int64_t> extent = t.valid()[size_t(axis)].asConst();
    if (!extent) {
      reportRuntimeExtent(op, t, axis, diags);
      return std::nullopt;
    }
    if (axis == 1 && *extent > 1 && !wholeVecRows(t)) {
      const int64_t bytes = dtypeBytes(t.dtype());
      const int64_t multiple = kVecBlockBytes / std::min(kVecBlockBytes, bytes);
      diags.report(Diag::PtoVecRowAlign, op.loc(),
                   describe(op, diags.sources()) + " scans along the rows of a " + shapeText(t.shape()) + " " + dtypeName(t.dtype()) +
                       " tile through its transpose, whose rows are its " + std::to_string(t.shape()[0]) + " rows (" +
                       std::to_string(t.shape()[0] * bytes) + " bytes), but vec tile rows must be a multiple of " +
                       std::to_string(kVecBlockBytes) + " bytes; give the tile a multiple of " +
                       std::to_string(multiple) + " rows and keep the real ones in its valid shape, e.g. load [" +
                       std::to_string(multiple) + ", " + std::to_string(t.shape()[1]) + "] with valid = [" +
                       exprText(t.valid()[0]) + ", " + exprText(t.valid()[1]) + "]");
      return std::nullopt;
    }
    return *extent;
  }

  // The fix scans the whole physical extent, which a prefix allows (an element past the
  // valid ones changes none before it), and narrows the result again for its users.
  static void reportRuntimeExtent(const Op& op, const Type& t, int64_t axis, DiagnosticEngine& diags) {
    const char* what = axis == 0 ? "rows" : "columns";
    std::vector<Expr> whole = t.valid();
    whole[size_t(axis)] = Expr::constant(t.shape()[size_t(axis)]);
    const std::string source = sourceText(op.operand(0), diags.sources());
    const std::string scan = std::string(scanBuiltin(op.get(attr::scan))) + "(set_valid_shape(" + source + ", " +
                             shapeText(whole) + "), axis = " + std::to_string(axis) + ")";
    diags.report(Diag::PtoScanExtent, op.loc(),
                 describe(op, diags.sources()) + " scans " + what + " whose valid count " +
                     exprText(t.valid()[size_t(axis)]) +
                     " is known only at run time, but PTO has no scan instruction and tilec writes a scan as one "
                     "step per " + (axis == 0 ? "row" : "column") + ", which needs the count when compiling; scan all " +
                     std::to_string(t.shape()[size_t(axis)]) + " " + what + " (those past the valid ones change none " +
                     "before them) and keep the valid ones: set_valid_shape(" + scan + ", " + shapeText(t.valid()) + ")");
  }

  // The transpose of `t` has its rows as columns: whole 32-byte blocks, as vec rows must be.
  static bool wholeVecRows(const Type& t) { return (t.shape()[0] * dtypeBytes(t.dtype())) % kVecBlockBytes == 0; }

  static void lower(Op& op) {
    Value* result = op.result();
    const std::string base = result->name().empty() ? scanBuiltin(op.get(attr::scan)) : result->name();
    OpBuilder build = OpBuilder::before(op);
    Value* scanned = op.get(attr::axis) == 0 ? downColumns(build, op, op.operand(0), base)
                                             : alongRows(build, op, base);
    result->replaceAllUsesWith(scanned);
    op.parentBlock()->erase(&op);
  }

  // Transposed, scanned down the columns, transposed back.
  static Value* alongRows(OpBuilder& build, const Op& op, const std::string& base) {
    Value* x = op.operand(0);
    if (x->type().valid()[1].asConst() == std::optional<int64_t>(1)) return x;
    const AttrMap swap = {attr::axes(std::vector<int64_t>{0, 1})};
    Value* columns = passes::madeFrom(build.createValue(OpKind::Transpose, {x}, swap, {}, base + "_t"), op.result());
    Value* scanned = downColumns(build, op, columns, base + "_t");
    return passes::madeFrom(build.createValue(OpKind::Transpose, {scanned}, swap, {}, base), op.result());
  }

  // Row i = combine(row i - 1 of the result, row i of x), each assembled at its row.
  static Value* downColumns(OpBuilder& build, const Op& op, Value* x, const std::string& base) {
    const Type& t = x->type();
    const int64_t rows = *t.valid()[0].asConst();
    if (rows == 1) return x;
    Type whole = t.space() == kNoSpace ? t : t.withSpace(kNoSpace, *t.model());
    Value* assembled = passes::madeFrom(build.createValue(OpKind::Create, {}, {}, whole, base), op.result());
    // Each column is scanned on its own, so the steps may run on whole rows; with a
    // column count known only at run time they must: a one-row step of it would be a
    // subview with a constant valid row count and a dynamic column count, a type PTO's
    // row vectors (both extents dynamic) cannot have.
    const Expr columns = t.valid()[1].asConst() ? t.valid()[1] : Expr::constant(t.shape()[1]);
    const Type row = t.reshapedTo({1, t.shape()[1]}, {Expr::constant(1), columns});
    const OpKind combine = scanStep(op.get(attr::scan));
    Value* prefix = nullptr;
    for (int64_t i = 0; i < rows; ++i) {
      const std::string at = std::to_string(i);
      const std::vector<Expr> offsets = {Expr::constant(i), Expr::constant(0)};
      Value* xi = passes::madeFrom(
          build.createValue(OpKind::Slice, {x}, {attr::offsets(offsets)}, row, base + "_row" + at), op.result());
      prefix = i == 0 ? xi
                      : passes::madeFrom(build.createValue(combine, {prefix, xi}, {}, {}, base + "_prefix" + at), op.result());
      assembled = passes::madeFrom(
          build.createValue(OpKind::Assemble, {assembled, prefix}, {attr::offsets(offsets)}, {}, base), op.result());
    }
    return assembled;
  }
};

}  // namespace

std::unique_ptr<Pass> createLowerScansPass() { return std::make_unique<LowerScans>(); }

}  // namespace tilec::pto
