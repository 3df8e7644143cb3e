#include "backend/pto/BatchPages.h"

#include <set>

#include "ir/NdShape.h"
#include "ir/OpDefs.h"
#include "passes/PassUtils.h"

namespace tilec::pto {

using namespace ir;

std::vector<int64_t> batchDims(const Type& t) {
  return t.rank() < 2 ? std::vector<int64_t>{} : std::vector<int64_t>(t.shape().begin(), t.shape().end() - 2);
}

int64_t pageCount(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    if (__builtin_mul_overflow(n, d, &n)) return INT64_MAX;
  return n;
}

bool fullBatch(const Type& t) {
  for (size_t i = 0; i + 2 < t.rank(); ++i)
    if (t.valid()[i] != Expr::constant(t.shape()[i])) return false;
  return true;
}

void forEachPage(const std::vector<int64_t>& dims,
                 const std::function<void(int64_t, const std::vector<int64_t>&)>& f) {
  std::vector<int64_t> at(dims.size(), 0);
  int64_t pages = pageCount(dims);
  for (int64_t p = 0; p < pages; ++p) {
    f(p, at);
    for (size_t i = dims.size(); i-- > 0;)
      if (++at[i] < dims[i]) break;
      else at[i] = 0;
  }
}

namespace {

// The source of a transpose_view that swaps the last two axes of an N-D tile, or null.
Value* transposedSource(Value* operand) {
  const Op* def = operand->definingOp();
  if (!def || def->kind() != OpKind::TransposeView || operand->type().rank() < 3) return nullptr;
  const auto* axes = def->find(attr::axes);
  const int64_t n = int64_t(operand->type().rank());
  if (!axes || axes->size() != 2 || std::min((*axes)[0], (*axes)[1]) != n - 2 || std::max((*axes)[0], (*axes)[1]) != n - 1)
    return nullptr;
  return def->operand(0);
}

// The load an operand reads, directly or through a transposed view.
Op* loadOf(const Value* operand) {
  if (Value* source = transposedSource(const_cast<Value*>(operand))) operand = source;
  Op* def = operand->definingOp();
  return def && def->kind() == OpKind::Load ? def : nullptr;
}

}  // namespace

bool loadsPerPage(const Value* operand, const Value* other) {
  const Op* load = loadOf(operand);
  if (!load) return false;
  const TargetModel& model = load->function()->module().target();
  const SpaceId stage = model.spaceWithRole(kMatmulStage);
  int64_t bytes;
  if (stage != kNoSpace &&
      (__builtin_add_overflow(operand->type().byteSize(), other->type().byteSize(), &bytes) ||
       bytes > model.spaces[stage].capacityBytes))
    return true;
  const Type& tile = load->result()->type();
  const Type& tensor = load->operand(0)->type();
  const int64_t rows = pageCount(batchDims(tile)) * tile.shape()[tile.rank() - 2];  // once flattened
  if (model.maxTileExtent && rows > model.maxTileExtent) return true;
  std::vector<Expr> window(tensor.rank() - tile.rank(), Expr::constant(1));
  window.insert(window.end(), tile.valid().begin(), tile.valid().end());
  return !nd::collapsesContiguously(window, tensor.dims());
}

OperandPages::OperandPages(OpBuilder& build, Value* operand, std::string name, bool perPage)
    : build_(build), operand_(operand), name_(std::move(name)) {
  if (perPage) {
    load_ = loadOf(operand);
    transposedLoad_ = load_ && load_->result() != operand;
    return;
  }
  Value* source = transposedSource(operand);
  if (!source || !source->type().hasFullValid()) return;
  const Type& t = source->type();
  const size_t n = t.rank();
  sourceBatch_ = batchDims(t);
  const int64_t rows = pageCount(sourceBatch_) * t.shape()[n - 2];
  Value* flat = passes::madeFrom(build_.createValue(OpKind::Reshape, {source}, {}, t.reshapedTo({rows, t.shape()[n - 1]}, {}),
                                            name_ + "_2d"),
                         operand);
  transposed_ = passes::madeFrom(build_.createValue(OpKind::TransposeView, {flat}, {attr::axes(std::vector<int64_t>{0, 1})}, {},
                                            name_ + "_t"),
                         operand);
}

Value* OperandPages::at(const std::vector<int64_t>& index, int64_t page) {
  const std::string name = name_ + std::to_string(page);
  if (load_) return loadPage(index, name);
  if (!transposed_) return operandPage(build_, operand_, index, name);
  // The page's position among the source's batch pages (broadcast axes read page 0).
  int64_t flat = 0;
  for (size_t i = 0; i < sourceBatch_.size(); ++i) flat = flat * sourceBatch_[i] + (sourceBatch_[i] == 1 ? 0 : index[i]);
  const Type& t = operand_->type();
  const size_t n = t.rank();
  const int64_t cols = t.shape()[n - 1];
  return passes::madeFrom(build_.createValue(OpKind::Slice, {transposed_},
                                     {attr::offsets(std::vector<Expr>{Expr::constant(0), Expr::constant(flat * cols)})},
                                     transposed_->type().withShape({t.shape()[n - 2], cols}, {}), name),
                  operand_);
}

// The page's window of the whole load: the load's offsets moved to the batch index on the
// tile's batch axes (the tensor's trailing ones), one [rows, cols] page loaded as 2-D.
Value* OperandPages::loadPage(const std::vector<int64_t>& index, const std::string& name) {
  const Type& whole = load_->result()->type();
  const size_t n = whole.rank();
  int64_t key = 0;
  for (size_t i = 0; i + 2 < n; ++i) key = key * whole.shape()[i] + (whole.shape()[i] == 1 ? 0 : index[i]);
  Value*& cached = loaded_[key];
  if (cached) return cached;
  std::vector<Expr> offsets = load_->get(attr::offsets);
  const size_t lead = offsets.size() - n;
  for (size_t i = 0; i + 2 < n; ++i)
    if (whole.shape()[i] != 1) offsets[lead + i] = offsets[lead + i] + index[i];
  Type page = whole.reshapedTo({whole.shape()[n - 2], whole.shape()[n - 1]}, {whole.valid()[n - 2], whole.valid()[n - 1]});
  Value* loaded = passes::madeFrom(build_.createValue(OpKind::Load, {load_->operand(0)}, {attr::offsets(offsets)}, page,
                                              transposedLoad_ ? name + "_load" : name),
                           operand_);
  cached = transposedLoad_ ? passes::madeFrom(build_.createValue(OpKind::TransposeView, {loaded},
                                                         {attr::axes(std::vector<int64_t>{0, 1})}, {}, name),
                                      operand_)
                           : loaded;
  return cached;
}

void dropUnused(const std::vector<Value*>& values) {
  std::vector<Op*> work;
  for (Value* v : values)
    if (Op* def = v->definingOp()) work.push_back(def);
  std::set<Op*> erased;  // ops only, never iterated for output
  while (!work.empty()) {
    Op* op = work.back();
    work.pop_back();
    if (erased.count(op) || op->result()->hasUses() || (!isView(op->kind()) && op->kind() != OpKind::Load)) continue;
    Op* read = isView(op->kind()) ? op->operand(0)->definingOp() : nullptr;
    op->parentBlock()->erase(op);
    erased.insert(op);
    if (read) work.push_back(read);
  }
}

Value* operandPage(OpBuilder& build, Value* operand, const std::vector<int64_t>& at, const std::string& name) {
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
  Value* slice = passes::madeFrom(build.createValue(OpKind::Slice, {operand}, {attr::offsets(offsets)}, t.withShape(shape, valid),
                                            name + "_page"),
                          operand);
  std::vector<int64_t> flat{t.shape()[n - 2], t.shape()[n - 1]};
  return passes::madeFrom(build.createValue(OpKind::Reshape, {slice}, {}, t.reshapedTo(flat, {t.valid()[n - 2], t.valid()[n - 1]}),
                                    name),
                  operand);
}

Value* asBatchPage(OpBuilder& build, Value* value, size_t rank, const std::string& name) {
  const Type& t = value->type();
  std::vector<int64_t> shape(rank - 2, 1);
  std::vector<Expr> valid(rank - 2, Expr::constant(1));
  shape.insert(shape.end(), t.shape().begin(), t.shape().end());
  valid.insert(valid.end(), t.valid().begin(), t.valid().end());
  return passes::madeFrom(build.createValue(OpKind::Reshape, {value}, {}, t.reshapedTo(shape, valid), name), value);
}

std::vector<Expr> pageOffsets(const std::vector<int64_t>& at) {
  std::vector<Expr> out = constExprs(at);
  out.push_back(Expr::constant(0));
  out.push_back(Expr::constant(0));
  return out;
}

std::vector<Expr> pageStoreOffsets(std::vector<Expr> offsets, size_t resultRank, const std::vector<int64_t>& at) {
  size_t lead = offsets.size() - resultRank;
  for (size_t i = 0; i < at.size(); ++i) offsets[lead + i] = offsets[lead + i] + at[i];
  return offsets;
}

}  // namespace tilec::pto
