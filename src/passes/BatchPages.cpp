#include "passes/BatchPages.h"

namespace tilec::passes {

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
  Value* slice = build.createValue(OpKind::Slice, {operand}, {{"offsets", offsets}}, t.withShape(shape, valid),
                                   name + "_page");
  std::vector<int64_t> flat{t.shape()[n - 2], t.shape()[n - 1]};
  return build.createValue(OpKind::Reshape, {slice}, {}, t.reshapedTo(flat, {t.valid()[n - 2], t.valid()[n - 1]}),
                           name);
}

Value* asBatchPage(OpBuilder& build, Value* value, size_t rank, const std::string& name) {
  const Type& t = value->type();
  std::vector<int64_t> shape(rank - 2, 1);
  std::vector<Expr> valid(rank - 2, Expr::constant(1));
  shape.insert(shape.end(), t.shape().begin(), t.shape().end());
  valid.insert(valid.end(), t.valid().begin(), t.valid().end());
  return build.createValue(OpKind::Reshape, {value}, {}, t.reshapedTo(shape, valid), name);
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

}  // namespace tilec::passes
