// pto-legality: every PTO rule tilec can check before PTOAS (its verifiers) or
// pto-isa (static_asserts when the generated C++ is compiled) would reject the
// output. One diagnostic code per rule (E05xx); see docs/passes.md for the list.
// Tile rules are checked once per defined tile, op rules once per op (capacity is
// check-capacity's). Linear in program size.
#include "backend/pto/PtoLegality.h"

#include <algorithm>

#include "backend/pto/PtoTargets.h"
#include "ir/Describe.h"
#include "ir/NdShape.h"
#include "ir/OpDefs.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"
#include "support/Wording.h"

namespace tilec::pto {
using namespace ir;

namespace {

constexpr uint32_t kGmTransfer = dtypes::GmTransfer;

std::string dtypeList(uint32_t set) {
  static const DType kOrder[] = {DType::F32, DType::F16, DType::BF16, DType::I64, DType::I32,
                                 DType::I16, DType::I8,  DType::U32,  DType::U16, DType::U8};
  std::string out;
  for (DType d : kOrder)
    if (set & dtypeBit(d)) out += std::string(out.empty() ? "" : ", ") + dtypeName(d);
  return out;
}

// The fix of an unsupported dtype: with one dtype left (a2a3's tfmod) the cast is spelled out.
std::string castFix(uint32_t allowed) {
  if (allowed & (allowed - 1)) return "cast it to a supported dtype first";
  const std::string name = dtypeList(allowed);
  return "cast it to " + name + " first, with cast<" + name + ">(...)";
}

// "vec or acc": spaces as a message lists the ones a rule allows.
std::string spacesText(const std::vector<SpaceId>& spaces) {
  std::vector<std::string> names;
  for (SpaceId s : spaces) names.push_back(spaceName(s));
  return listText(names, "or");
}

// "mat to left, right, bias or scaling; vec to vec; acc to mat" on a2a3.
std::string movesOn(Arch t) {
  std::string out;
  for (const MovePaths& p : movePaths(t)) out += (out.empty() ? "" : "; ") + std::string(spaceName(p.from)) + " to " + spacesText(p.to);
  return out;
}

int varOccurrences(const Expr& e) {
  if (e.kind() == ExprKind::Var) return 1;
  if (e.kind() == ExprKind::Const) return 0;
  int n = 0;
  for (const Expr& o : e.operands()) n += varOccurrences(o);
  return n;
}

// Sums, products with constants, min and max: monotone in each variable, so
// interval arithmetic is exact when every variable occurs once.
bool isMonotone(const Expr& e) {
  switch (e.kind()) {
    case ExprKind::Const:
    case ExprKind::Var:
      return true;
    case ExprKind::Mul: {
      int nonConst = 0;
      for (const Expr& o : e.operands()) nonConst += !o.isConst();
      if (nonConst > 1) return false;
      [[fallthrough]];
    }
    case ExprKind::Add:
    case ExprKind::Min:
    case ExprKind::Max:
      for (const Expr& o : e.operands())
        if (!isMonotone(o)) return false;
      return true;
    default:
      return false;
  }
}

}  // namespace

void FunctionLegality::run() {
  for (Op* op : passes::preorder(f_)) {
    checkOp(*op);
    if (op->numRegions()) continue;  // a loop's or branch's results merge tiles checked where made
    for (Value* v : op->results())
      if (passes::isTile(v)) checkTile(*op, v);
  }
}

// One diagnostic per source construct and rule: the ops a pass unrolled from one
// construct (the pages of an N-D transpose) share its range and would repeat it. A tile
// rule is kept once per tile the author wrote (`about`, by its origin): a tile a pass
// made in its image, a reduction's scratch say, breaks the rule where its model does.
void FunctionLegality::report(Diag id, const Op& op, std::string message, const Value* about) {
  const SourceRange key = about ? about->origin() : op.loc();
  if (key.valid() && !reported_.insert({uint16_t(id), key.file, key.begin, key.end}).second) return;
  diags_.report(id, op.loc(), std::move(message));
}

// A section's ops touch its core's tiles only: vec tiles in core.vector, the cube's
// memories in core.cube (split-cube-vector makes them so; IR text may not).
void FunctionLegality::checkSection(const Op& section) {
  const bool vector = section.kind() == OpKind::CoreVector;
  const char* core = vector ? "vector" : "cube";
  const_cast<Op&>(section).walk([&](Op& op) {
    if (&op == &section) return;
    auto foreign = [&](const Value* v) { return passes::isTile(v) && (v->type().space() == Space::Vec) != vector; };
    for (const Value* v : op.operands())
      if (foreign(v))
        return report(Diag::KernelKindWork, op, std::string("the ") + core + " section of kernel '" + f_.name() +
                                                   "' reads " + describe(v) + ", a " + spaceName(v->type().space()) +
                                                   " tile of the other core; pass it through a pipe (pipe.push in the "
                                                   "other section, pipe.pop here)");
    for (const Value* v : op.results())
      if (foreign(v))
        return report(Diag::KernelKindWork, op, std::string("the ") + core + " section of kernel '" + f_.name() +
                                                   "' makes " + describe(v) + " in " + spaceName(v->type().space()) +
                                                   ", the other core's memory; make it in the other section");
  });
}

// ---- tile rules ----

void FunctionLegality::checkTile(const Op& op, const Value* v) {
  const Type& t = v->type();
  for (size_t i = 0; i < t.valid().size(); ++i) {
    std::optional<int64_t> extent = t.valid()[i].asConst();
    if (extent && (*extent < 1 || *extent > maxExtent()))
      report(Diag::PtoValidRange, op,
             "valid extents of PTO tiles must be in [1, " + std::to_string(maxExtent()) + "] but dim " +
                 std::to_string(i) +
                 " of " + describe(v) + " is " + std::to_string(*extent) +
                 "; split the tile into smaller ones",
             v);
  }
  if (t.layout().slayout == SLayout::NoneBox) checkVecAlignment(op, v);
  else checkFractals(op, v);
}

void FunctionLegality::checkVecAlignment(const Op& op, const Value* v) {
  const Type& t = v->type();
  int64_t bytes = dtypeBytes(t.dtype());
  bool columns = t.layout().blayout == BLayout::ColMajor;
  int64_t line;
  if (__builtin_mul_overflow(columns ? t.shape()[0] : t.shape()[1], bytes, &line) || line % kVecBlockBytes == 0) return;
  const int64_t multiple = kVecBlockBytes / std::min(kVecBlockBytes, bytes);
  const std::string block = std::to_string(kVecBlockBytes);
  // A row reduction's column has the rows of its source, so that is the tile to pad.
  const Op* def = v->definingOp();
  if (def && opInfo(def->kind()).has(RowReduce))
    return report(Diag::PtoVecRowAlign, op,
                  spellingOf(def->kind()) + " gives one value per row of " + describe(def->operand(0)) + ", " +
                      std::to_string(t.shape()[0]) + " " + dtypeName(t.dtype()) + " value" +
                      (t.shape()[0] == 1 ? "" : "s") + ", but PTO keeps such a column in whole " + block + "-byte blocks of " +
                      std::to_string(multiple) + " rows; reduce a tile whose rows are a multiple of " +
                      std::to_string(multiple) + " and keep the real rows in its valid shape, e.g. load [" +
                      std::to_string(multiple) + ", n] with valid = [" + std::to_string(t.shape()[0]) +
                      ", n] (of a tensor with a row axis: a 1-D tensor declared [1, N] instead)",
                  v);
  // A comparison's mask has a byte per element of the tiles compared (a5's tcmp wants their
  // shape), so those are the tiles to pad.
  if (def && opInfo(def->kind()).has(Predicate) && t.dtype() == DType::Bool && !columns)
    return report(Diag::PtoVecRowAlign, op,
                  "the mask of " + describe(v) + " keeps a byte per element of the tiles compared, " +
                      std::to_string(line) + " bytes per row, but vec tile rows must be a multiple of " + block +
                      " bytes; compare tiles of a multiple of " + std::to_string(multiple) +
                      " columns and keep the real ones in the valid shape, e.g. load [" +
                      std::to_string(t.shape()[0]) + ", " + std::to_string(multiple) + "] with valid = [" +
                      std::to_string(t.shape()[0]) + ", " + std::to_string(t.shape()[1]) + "]",
                  v);
  const std::string padded = columns ? "its rows" : "its columns";
  report(Diag::PtoVecRowAlign, op,
         std::string(columns ? "vec column vectors" : "vec tile rows") +
             " must be a multiple of " + block + " bytes but " + describe(v) + " is " +
             ir::shapeText(t.shape()) + " of " + dtypeName(t.dtype()) + " (" +
             std::to_string(line) + " bytes per " + (columns ? "column" : "row") +
             "); pad " + padded + " to a multiple of " +
             std::to_string(multiple) + " and keep the real extent in the valid shape",
         v);
}

void FunctionLegality::checkFractals(const Op& op, const Value* v) {
  const Type& t = v->type();
  const FractalShape box = fractalShape(t.layout(), t.dtype());
  if (t.shape()[0] % box.rows == 0 && t.shape()[1] % box.cols == 0) return;
  report(Diag::PtoFractalAlign, op,
         std::string(spaceName(t.space())) + " tiles of " + dtypeName(t.dtype()) +
             " are stored in " + std::to_string(box.rows) + " x " + std::to_string(box.cols) +
             " fractals but " + describe(v) + " is " + ir::shapeText(t.shape()) +
             "; pad its shape to whole fractals and keep the real extent in the valid shape",
         v);
}

// ---- op rules ----

// An op without a row in the table is of a group the PTO targets do not accept.
void FunctionLegality::checkOp(const Op& op) {
  const PtoOpInfo* row = ptoOp(op.kind());
  if (!row)
    return report(Diag::PtoNoForm, op,
                  describe(op) + " moves data for a runtime sequence, which PTO targets do not run; "
                  "compile the sequence for a target that has sequence kernels (tilec --list-targets)");
  checkDType(op, *row);
  checkRowMajor(op, *row);
  if (row->rule) (this->*row->rule)(op);
}

// The rule is about the op's first operand when that is a tile (its source; where's
// first value, after its mask), else its result (what `full` fills).
void FunctionLegality::checkDType(const Op& op, const PtoOpInfo& row) {
  const uint32_t allowed = row.dtypes(target_);
  if (allowed == dtypes::AnyDType) return;
  const unsigned source = op.kind() == OpKind::Sel ? 1 : 0;
  const Value* v = op.numOperands() > source && passes::isTile(op.operand(source)) ? op.operand(source)
                   : op.numResults()                                             ? op.result()
                                                                                 : nullptr;
  if (!passes::isTile(v)) return;
  DType d = v->type().dtype();
  if (allowed & dtypeBit(d)) return;
  if (d == DType::BF16 && (allowed & dtypeBit(DType::F32)))
    report(Diag::PtoDTypeUnsupported, op,
           describe(op) + " does not support bf16 on " + targetStr() + "; convert " + describe(v) +
               " to f32 with cast<f32>(...) first");
  else
    report(Diag::PtoDTypeUnsupported, op,
           describe(op) + " supports only " + dtypeList(allowed) + " on " +
               targetStr() + " but " + describe(v) + " is " + dtypeName(d) + "; " + castFix(allowed));
}

void FunctionLegality::checkRowMajor(const Op& op, const PtoOpInfo& row) {
  const RowMajorScope scope = row.rowMajor;
  if (scope == RowMajorScope::None) return;
  std::vector<const Value*> tiles;
  for (unsigned i = 0; i < op.numOperands(); ++i)
    if (scope != RowMajorScope::FirstOperandAndResult || i == 0) tiles.push_back(op.operand(i));
  if (scope != RowMajorScope::AllOperands)
    for (const Value* r : op.results()) tiles.push_back(r);
  for (const Value* v : tiles) {
    if (!passes::isTile(v) || v->type().rank() != 2) continue;
    const Type& t = v->type();
    if (t.space() != Space::Vec || t.layout().blayout == BLayout::RowMajor) continue;
    report(Diag::PtoRowMajor, op,
           describe(op) + " needs row-major tiles but " + describe(v) + " is a " +
               ir::shapeText(t.shape()) + " column vector (col_major); reshape it to [" +
               std::to_string(t.shape()[1]) + ", " + std::to_string(t.shape()[0]) +
               "] first, with reshape(..., [" + std::to_string(t.shape()[1]) + ", " + std::to_string(t.shape()[0]) +
               "])");
    return;
  }
}

void FunctionLegality::checkTensorAccess(const Op& op, const Value* tensor) {
  const Type& tt = tensor->type();
  if (tt.rank() < 1 || tt.rank() > 5) {
    report(Diag::PtoTensorRank, op,
           "PTO partition views have rank 1 to 5 but " + describe(tensor) + " has rank " +
               std::to_string(tt.rank()) + "; merge adjacent axes of the tensor (declare [a * b, ...] for [a, b, ...])");
    return;
  }
  const auto* offsets = op.find(attr::offsets);
  std::vector<Expr> sizes = nd::accessWindow(op);
  if (!offsets || offsets->size() != tt.rank() || sizes.size() != tt.rank()) return;
  for (size_t i = 0; i < tt.rank(); ++i) {
    std::optional<int64_t> dim = tt.dims()[i].asConst();
    const Expr reach = (*offsets)[i] + sizes[i];
    std::optional<int64_t> end = largest(reach);
    if (!dim || !end || *end <= *dim) continue;
    const std::string when = iterationOfLargest(reach);
    report(Diag::PtoWindowBounds, op,
           describe(op) + " runs past dim " + std::to_string(i) + " of " + describe(tensor) +
               (when.empty() ? " at offset " + exprText((*offsets)[i]) : " in the iteration " + when) +
               ": offset + size reaches " + std::to_string(*end) + " but the dim is " + std::to_string(*dim) +
               "; keep the window inside the tensor (give a partial tile a smaller valid "
               "shape)");
    return;
  }
}

// The loop variables of `e` at the values where it is largest ("i = 3, j = 0"), for an
// `e` largest() bounds: monotone in each variable, so each sits at one end of its range.
std::string FunctionLegality::iterationOfLargest(const Expr& e) const {
  std::vector<std::string> at;
  for (const Value* var : e.vars()) {
    const Interval range = loopRange(var);
    if (!range.lo || !range.hi) continue;
    auto fixedAt = [&](int64_t x) {
      return bounds(e, [&](const Value* v) { return v == var ? Interval{x, x} : loopRange(v); }).hi;
    };
    const std::optional<int64_t> low = fixedAt(*range.lo), high = fixedAt(*range.hi);
    const int64_t value = high && (!low || *high >= *low) ? *range.hi : *range.lo;
    at.push_back(exprText(Expr::var(var)) + " = " + std::to_string(value));
  }
  return listText(at);
}

// The largest value `e` takes, when interval arithmetic gives it exactly (a
// monotone expression in which every variable occurs once; loop variables
// range over their constant bounds, anything else is unbounded).
std::optional<int64_t> FunctionLegality::largest(const Expr& e) const {
  if (auto c = e.asConst()) return c;
  if (!isMonotone(e) || varOccurrences(e) != int(e.vars().size())) return std::nullopt;
  Interval i = bounds(e, [](const Value* v) { return loopRange(v); });
  return i.hi;
}

Interval FunctionLegality::loopRange(const Value* v) {
  const Block* body = v->ownerBlock();
  const Op* loop = body ? body->parentOp() : nullptr;
  if (!loop || loop->kind() != OpKind::For || v->index() != 0) return {};
  const Expr* lb = loop->find(attr::lb);
  const Expr* ub = loop->find(attr::ub);
  const Expr* step = loop->find(attr::step);
  if (!lb || !ub || !step) return {};
  auto l = lb->asConst(), u = ub->asConst(), s = step->asConst();
  if (!l || !u || !s || *s <= 0 || *u <= *l) return {};
  return {l, *l + (*u - 1 - *l) / *s * *s};
}

void FunctionLegality::checkLoad(const Op& op) {
  const Value* tile = op.result();
  if (!passes::isTile(tile)) return;
  SpaceId s = tile->type().space();
  if (s != Space::Vec && s != Space::Mat)
    report(Diag::PtoLoadSpace, op,
           "load can fill only vec or mat tiles but " + describe(tile) + " is in " + spaceName(s) +
               "; load it with space = mat and move it with move(..., space = " + spaceName(s) + ")");
  checkGmDType(op, tile, "load");
  checkTensorAccess(op, op.operand(0));
}

void FunctionLegality::checkGmDType(const Op& op, const Value* tile, const char* what) {
  DType d = tile->type().dtype();
  if (kGmTransfer & dtypeBit(d)) return;
  report(Diag::PtoDTypeUnsupported, op,
         std::string(what) + " moves only " + dtypeList(kGmTransfer) + " tiles but " +
             describe(tile) + " is " + dtypeName(d) + "; cast it to a supported dtype first");
}

void FunctionLegality::checkStore(const Op& op) {
  const Value* tile = op.operand(0);
  const Value* tensor = op.operand(1);
  if (!passes::isTile(tile)) return;
  SpaceId s = tile->type().space();
  const std::vector<SpaceId>& sources = storeSources(target_);
  const std::string allowed = spacesText(sources);
  if (std::find(sources.begin(), sources.end(), s) == sources.end())
    report(Diag::PtoStoreSpace, op,
           "store on " + std::string(targetStr()) + " stores only " + allowed +
               " tiles but " + describe(tile) + " is in " + spaceName(s) +
               "; store from a " + allowed + " tile instead");
  if (s == Space::Acc) checkAccStore(op, tile, tensor);
  else checkGmDType(op, tile, "store");
  checkStoreCount(op, tile);
  checkTensorAccess(op, tensor);
}

void FunctionLegality::checkAccStore(const Op& op, const Value* tile, const Value* tensor) {
  DType src = tile->type().dtype(), dst = tensor->type().dtype();
  bool srcOk = src == DType::F32 || src == DType::I32;
  bool dstOk = dst == DType::F32 || dst == DType::I32 || dst == DType::F16 || dst == DType::BF16;
  if (srcOk && dstOk) return;
  report(Diag::PtoAccStoreDType, op,
         "accumulator stores read f32 or i32 tiles and write f32, i32, f16 or bf16 tensors, "
         "but " + describe(tile) + " is " + dtypeName(src) + " and " + describe(tensor) +
             " is " + dtypeName(dst) + "; accumulate in f32 or i32");
}

void FunctionLegality::checkStoreCount(const Op& op, const Value* tile) {
  const auto* window = op.find(attr::window);
  if (!window) return;
  Expr written = product(*window);
  Expr valid = product(tile->type().valid());
  if (provablyEqual(written, valid)) return;
  auto w = written.asConst(), v = valid.asConst();
  if (!w || !v) return;
  report(Diag::PtoStoreCount, op,
         describe(op) + " writes a window of " + std::to_string(*w) + " elements but " +
             describe(tile) + " has " + std::to_string(*v) +
             " valid elements; make the window cover exactly the valid shape");
}

// An assemble whose window PTOAS would widen to the parent's shape needs a form the
// target has for it (AssembleForm.h): a tinsert at an aligned column, or on a2a3 an add
// of 0 into the subview, on row-major vec tiles of their dtypes.
void FunctionLegality::checkAssemble(const Op& op) {
  if (isWriteBack(op)) return;  // a write-back emits nothing
  const AssembleWrite w = assembleWrite(op, target_);
  if (w.form != AssembleForm::None) return;
  const WindowWrites& rules = windowWrites(target_);
  const bool addZero = !w.rowViews && rules.addZeroDTypes;
  const uint32_t dtypes = rules.insertDTypes | (addZero ? rules.addZeroDTypes : 0);
  const Type& target = op.operand(0)->type();
  const Type& src = op.operand(1)->type();
  const bool rowBand = !w.rowViews && src.shape()[1] != target.shape()[1];
  const std::string window = w.rowViews ? "that does not span all its rows"
                             : rowBand  ? "that is not a full-width row band"
                                        : "that does not keep the tile's strides";
  const std::string form = std::string("a vec tinsert") +
                           (w.rowViews ? " into the column's row-major view, which takes only "
                            : addZero  ? " or a vec add into the window, which take only row-major vec tiles of "
                                       : ", which takes only row-major vec tiles of ");
  std::string accepted = dtypeList(dtypes);
  if (size_t last = accepted.rfind(", "); last != std::string::npos) accepted.replace(last, 2, " or ");
  report(Diag::PtoAssembleInsert, op,
         describe(op) + " writes a " + ir::shapeText(src.shape()) + " tile into a window of the " +
             ir::shapeText(target.shape()) + " tile " + describeIn(op.operand(0), op) + " " + window + "; on " +
             targetStr() + " that is " + form + accepted + ", but " + whyNoForm(op, w, dtypes) +
             (rowBand ? ", or assemble whole rows (a source as wide as the target)" : ""));
}

// What keeps an assemble from its target's forms, then "; " and the fix: the dtype, a
// tile's space or layout, or else tinsert's column alignment.
std::string FunctionLegality::whyNoForm(const Op& op, const AssembleWrite& w, uint32_t dtypes) {
  const DType d = w.source.dtype();
  if (!(dtypes & dtypeBit(d))) return "the tiles are " + std::string(dtypeName(d)) + "; cast to f32 around the assemble";
  if (!rowMajorVec(w.target) || !rowMajorVec(w.source)) {
    const Value* odd = rowMajorVec(w.source) ? op.operand(0) : op.operand(1);
    const Type& t = odd->type();
    return describeIn(odd, op) + " is a " + blayoutName(t.layout().blayout) + " tile in " + spaceName(t.space()) + "; " +
           (t.space() != Space::Vec ? "assemble in vec" : "keep both tiles row-major ([1, n] rather than [n, 1])");
  }
  const std::string axis = w.rowViews ? "row" : "column";
  const std::string step = std::to_string(insertColumnStep(target_, d));
  return "the window starts at " + axis + " " + exprText(w.offsets[1]) +
         ", and a tinsert on " + targetStr() + " starts at a multiple of " +
         std::to_string(windowWrites(target_).insertAlignBytes) + " bytes (" + step + " " + dtypeName(d) +
         " values); start the window at a " + axis + " that is a multiple of " + step;
}

void FunctionLegality::checkMove(const Op& op) {
  const Value* src = op.operand(0);
  const Value* dst = op.result();
  if (!passes::isTile(src) || !passes::isTile(dst)) return;
  SpaceId from = src->type().space(), to = dst->type().space();
  if (movable(target_, from, to)) return;
  // Through mat when the target moves both legs; otherwise no kernel moves the data, and
  // it goes through a tensor between two kernels, one for each core (E0404).
  const std::string fix =
      movable(target_, from, Space::Mat) && movable(target_, Space::Mat, to)
          ? std::string("move it to mat first: move(move(..., space = mat), space = ") + spaceName(to) + ")"
          : std::string("no kernel moves it there on ") + targetStr() +
                ": store it to a tensor in one kernel and load it in another (two kernels, each compiled with "
                "--kernel)";
  report(Diag::PtoMovePair, op,
         describe(op) + " moves " + describe(src) + " from " + spaceName(from) + " to " + spaceName(to) +
             ", which " + targetStr() + " does not support (supported: " + movesOn(target_) + "); " + fix);
}

// pto-isa's a2a3 tcmp and tcmps compare i32 for equality whatever the predicate says.
void FunctionLegality::checkCompare(const Op& op) {
  const CmpKind k = op.get(attr::cmp);
  if (target_ != Arch::A2A3 || op.operand(0)->type().dtype() != DType::I32 || k == CmpKind::EQ) return;
  report(Diag::PtoDTypeUnsupported, op,
         describe(op) + " compares i32 tiles on a2a3 only with ==; " +
             (k == CmpKind::NE ? "write == and swap the values of the where that uses it"
                               : "cast both sides to f32 first (exact below 2^24)"));
}

// tgather's index form (pto-isa's TGATHER and PTOAS's verifier): 2- and 4-byte data on both
// targets (a2a3's vgather moves b16 and b32; a5's byte form takes 16-bit indices, and the
// index here is 32-bit), and whole rows: the index's and the result's valid columns are
// their physical ones (PTOAS: "expects indices valid_shape[1] to equal indices cols").
void FunctionLegality::checkGather(const Op& op) {
  const Value* src = op.operand(0);
  const Value* index = op.operand(1);
  const DType d = src->type().dtype();
  if (!(dtypeBit(d) & dtypes::GatherData)) {
    std::string fix = castFix(dtypes::GatherData);
    if (d == DType::BF16) fix = "cast it to f32 first, with cast<f32>(...)";
    if (d == DType::I8 || d == DType::U8)
      fix = std::string("cast it to ") + (d == DType::I8 ? "i16" : "u16") + " first, with cast<" +
            (d == DType::I8 ? "i16" : "u16") + ">(...), and the result back with cast<" + dtypeName(d) + ">(...)";
    report(Diag::PtoDTypeUnsupported, op,
           describe(op) + " gathers 2- and 4-byte elements (" + dtypeList(dtypes::GatherData) + ") on " + targetStr() +
               " but " + describe(src) + " is " + dtypeName(d) + "; " + fix);
  }
  const Type& t = index->type();
  const int64_t columns = t.shape().back();
  const Expr& valid = t.valid().back();
  if (valid.asConst() == std::optional<int64_t>(columns)) return;
  const std::string whole = shapeText(t.shape());
  report(Diag::PtoGatherColumns, op,
         describe(op) + " gathers whole index rows on PTO (tgather writes every column of its result), but " +
             describe(index) + " has " + exprText(valid) + " valid columns of its " + std::to_string(columns) +
             "; give all " + std::to_string(columns) + " an index in range (e.g. assemble it into full<" +
             dtypeName(t.dtype()) + ">(" + whole + ", 0)) and narrow the result afterwards with set_valid_shape");
}

void FunctionLegality::checkFull(const Op& op) {
  const Value* tile = op.result();
  if (!passes::isTile(tile)) return;
  SpaceId s = tile->type().space();
  if (s != Space::Vec && s != Space::Mat)
    report(Diag::PtoFullSpace, op,
           "full can fill only vec or mat tiles but " + describe(tile) + " is in " +
               spaceName(s) +
               (s == Space::Acc ? "; start the accumulation with matmul (or "
                                     "matmul_acc with init) instead of filling the accumulator"
                                   : "; fill a vec or mat tile and move it"));
  const Value* value = op.operand(0);
  if (value->type().isScalar() && value->type().dtype() != tile->type().dtype())
    report(Diag::PtoScalarType, op,
           "the fill value of full must have the tile's dtype " +
               std::string(dtypeName(tile->type().dtype())) + " but " + describe(value) +
               " is " + dtypeName(value->type().dtype()) + "; give the value the tile's dtype");
}

// A matmul's lhs and rhs are its last two operands; one that accumulates updates its
// operand 0 in place.
void FunctionLegality::checkMatmul(const Op& op) {
  const Value* lhs = op.operand(op.numOperands() - 2);
  const Value* rhs = op.operand(op.numOperands() - 1);
  const Value* dst = op.result();
  const Type &l = lhs->type(), &r = rhs->type(), &d = dst->type();
  if (l.rank() != 2 || r.rank() != 2 || d.rank() != 2) return;
  if (l.space() != Space::Left || r.space() != Space::Right || d.space() != Space::Acc)
    report(Diag::PtoMatmulSpace, op,
           describe(op) + " needs lhs in left, rhs in right and the result in acc but they are in " +
               spaceName(l.space()) + ", " + spaceName(r.space()) + " and " +
               spaceName(d.space()) + "; move the operands with move(..., space = left) and move(..., space = right)");
  if (l.shape()[0] != d.shape()[0] || l.shape()[1] != r.shape()[0] ||
      r.shape()[1] != d.shape()[1])
    report(Diag::PtoMatmulShape, op,
           "the physical shapes of " + describe(op) + " must chain as [M, K] x [K, N] = [M, N] but they are " +
               ir::shapeText(l.shape()) + " x " + ir::shapeText(r.shape()) + " = " +
               ir::shapeText(d.shape()) + "; make the tile shapes agree");
  checkMatmulDTypes(op, d.dtype(), l.dtype(), r.dtype());
  if (tiedOperand(op.kind()) == 0) checkAccWindow(op);
  if (l.valid().size() != 2 || r.valid().size() != 2) return;
  checkAccPitch(op, l.valid()[0], r.valid()[1], d);
  checkMatmulValid(op, "m", l.valid()[0]);
  checkMatmulValid(op, "k", l.valid()[1]);
  checkMatmulValid(op, "n", r.valid()[1]);
}

// The matrix unit writes its [m, n] destination compactly from the window's start, with
// no row stride. In acc's 16x16-box layout that lands right only when the window spans
// every row of its parent from a box-aligned column (its boxes are then consecutive),
// or lies inside one 16-column block (its rows are then consecutive).
void FunctionLegality::checkAccWindow(const Op& op) {
  const Value* window = updatedValue(op.operand(0));
  const Op* slice = window->definingOp();
  if (!slice || slice->kind() != OpKind::Slice) return;
  const Type& parent = slice->operand(0)->type();
  const Type& part = window->type();
  const auto* at = slice->find(attr::offsets);
  if (parent.rank() != 2 || part.rank() != 2 || !at || at->size() != 2) return;
  const Expr& colExpr = (*at)[1];
  std::optional<int64_t> col = colExpr.asConst();
  const int64_t rows = parent.shape()[0], cols = part.shape()[1];
  const bool boxAligned = provablyEqual(Expr::mod(colExpr, Expr::constant(kBoxSide)), Expr::constant(0));
  const bool columnBand = part.shape()[0] == rows && rows % kBoxSide == 0 && boxAligned && cols % kBoxSide == 0;
  if (columnBand || (col && inOneAccBlockColumn(*col, cols))) return;
  const std::string box = std::to_string(kBoxSide);
  report(Diag::PtoAccWindow, op,
         describe(op) + " accumulates into the " + ir::shapeText(part.shape()) + " window of " +
             describe(slice->operand(0)) + " " + ir::shapeText(parent.shape()) + " at column " +
             exprText(colExpr) +
             ", which the matrix unit cannot address: it writes compactly with no row stride, so the window "
             "must span all rows from a column that is a multiple of " + box + ", or lie inside one " + box +
             "-column block; accumulate into a tile of its own, or lay the pages out along columns");
}

// A mat tile's boxes seen transposed are a ZN tile of the same bytes (a treshape); no
// other space has a zero-copy transposed form.
void FunctionLegality::checkTransposeView(const Op& op) {
  const Type& src = op.operand(0)->type();
  if (src.space() == Space::Mat && src.layout().slayout != SLayout::NoneBox) return;
  report(Diag::PtoTransposeView, op,
         describe(op) + " reads " + describe(op.operand(0)) + " transposed without a copy, which PTO does "
             "only for mat tiles (their " + std::to_string(kBoxSide) + "x" + std::to_string(kBoxSide) +
             " boxes reread as the transposed layout), but it is in " +
             spaceName(src.space()) + "; use it only as a matmul operand, or copy with transpose(...)");
}

// The matrix unit lays its [m, n] product out in acc with a pitch of m rounded up to 16
// rows between 16-column blocks; every reader of the accumulator (stores, moves, the
// next matmul_acc) uses the tile's physical rows. The two agree when m fills the last
// 16-row box of the tile, or when there is only one block column (n <= 16).
void FunctionLegality::checkAccPitch(const Op& op, const Expr& m, const Expr& n, const Type& dst) {
  const int64_t rows = dst.shape()[0];
  const bool oneBlockColumn = prove(CmpKind::LE, n, Expr::constant(kBoxSide)) == std::optional<bool>(true);
  // A valid extent is at least 1 (the runtime checks it), so a one-box-high accumulator's
  // one box is always its last: min(16, M - m) rows need no proof.
  const bool fillsLastBox =
      rows % kBoxSide == 0 &&
      (rows == kBoxSide || prove(CmpKind::GT, m, Expr::constant(rows - kBoxSide)) == std::optional<bool>(true));
  if (oneBlockColumn || fillsLastBox) return;
  const std::string box = std::to_string(kBoxSide);
  report(Diag::PtoAccPitch, op,
         describe(op) + " writes " + exprText(m) +
             " valid rows into " + describeIn(op.result(), op) + ", a " + std::to_string(rows) + "-row accumulator" +
             ", but the matrix unit lays the product out with a pitch of its valid rows rounded up to " + box +
             ", while readers of the tile use its " + std::to_string(rows) +
             " rows; give the accumulator (and the lhs tile) as many rows as the valid rows rounded up to " + box +
             ", or keep the product at most " + box + " columns wide");
}

void FunctionLegality::checkMatmulDTypes(const Op& op, DType acc, DType lhs, DType rhs) {
  auto triple = [](DType acc, DType lhs, DType rhs) {
    return "(" + std::string(dtypeName(acc)) + ", " + dtypeName(lhs) + ", " + dtypeName(rhs) + ")";
  };
  std::vector<std::string> supported;
  for (const MatmulDTypes& m : matmulDTypes()) {
    if (m.acc == acc && m.operands == lhs && m.operands == rhs) return;
    supported.push_back(triple(m.acc, m.operands, m.operands));
  }
  report(Diag::PtoMatmulDTypes, op,
         describe(op) + " supports (acc, lhs, rhs) dtypes " + listText(supported) + " but got " +
             triple(acc, lhs, rhs) + "; cast the operands with cast<...>(...)");
}

void FunctionLegality::checkMatmulValid(const Op& op, const char* dim, const Expr& extent) {
  auto c = extent.asConst();
  if (!c || (*c >= 1 && *c <= maxExtent())) return;
  report(Diag::PtoMatmulValid, op,
         "valid " + std::string(dim) + " of " + describe(op) + " must be in [1, " + std::to_string(maxExtent()) + "] but is " +
             std::to_string(*c) + "; split the matmul into smaller tiles");
}

// `v` in a message about `op`: "its result" when it stands for op's own construct (an
// unnamed result, or what a pass made of it), whose text would only repeat op's.
void FunctionLegality::refuseRegion(const Op& op) {
  report(Diag::PtoNoForm, op,
         describe(op) + " reached PTO legality unlowered; run lower-regions before it, "
         "which writes partition views and tile arrays as slices and assembles");
}

std::string FunctionLegality::describe(const Value* v) const { return ir::describe(v, diags_.sources()); }
std::string FunctionLegality::describe(const Op& op) const { return ir::describe(op, diags_.sources()); }

std::string FunctionLegality::describeIn(const Value* v, const Op& op) const {
  return v->origin() == op.loc() ? "its result" : describe(v);
}

namespace {

class PtoLegality final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"pto-legality",
                                "check the PTOAS and pto-isa rules for the target",
                                PropSSA | PropNdLegalized | PropBuffersAssigned, PropPtoLegal, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    return passes::runOnFunctions<FunctionLegality>(m, ctx.diags);
  }
};

}  // namespace

std::unique_ptr<Pass> createPtoLegalityPass() { return std::make_unique<PtoLegality>(); }

}  // namespace tilec::pto
