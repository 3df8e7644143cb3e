// The pages of a batched matmul, shared by pack-accumulators and expand-batch-matmul:
// the batch axes (all but the last two), the row-major walk over the NumPy-style
// broadcast of them, an operand's 2-D page at a batch index, and where a page of a
// stored result lands.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ir/Builder.h"

namespace tilec::pto {

std::vector<int64_t> batchDims(const ir::Type& t);
int64_t pageCount(const std::vector<int64_t>& dims);  // saturates at INT64_MAX
// Whether every batch axis of `t` is fully valid, so each batch index has a page.
bool fullBatch(const ir::Type& t);

// Calls f(p, at) for p = 0, 1, ... and `at` the p-th batch index in row-major order.
void forEachPage(const std::vector<int64_t>& dims,
                 const std::function<void(int64_t, const std::vector<int64_t>&)>& f);

// Whether a batched matmul reads `operand` one page at a time, each page loaded from the
// tensor, instead of slicing pages out of the whole tile: when the operand is a load (or
// a transposed view of one) and either the two operands' whole tiles do not fit the
// target's matmul staging space together, or the flattened whole tile has more rows than a
// tile may have, or the whole load is not one contiguous run of rows (a window that cuts
// the row axis, [2, K0 < K, N] of [2, K, N]).
bool loadsPerPage(const ir::Value* operand, const ir::Value* other);

// The [rows, cols] pages of a batched matmul operand, as 2-D tiles, at batch indices of
// the broadcast (an axis of extent 1 reads its single page).
//  - whole: a plain operand's page is a slice reshaped to 2-D, which flatten-nd-to-2d
//    turns into a row band of the flattened operand; a transpose_view of the last two
//    axes of [B.., N, K] is read as the 2-D transposed view of the flattened source,
//    [K, B*N], and its pages are column bands of that (the zero-copy view exists only for
//    a whole 2-D tile).
//  - per page: the page's window of the operand's load, loaded on its own (then viewed
//    transposed, for a transposed operand).
class OperandPages {
 public:
  OperandPages(ir::OpBuilder& build, ir::Value* operand, std::string name, bool perPage);
  ir::Value* at(const std::vector<int64_t>& index, int64_t page);

 private:
  ir::Value* loadPage(const std::vector<int64_t>& index, const std::string& name);

  ir::OpBuilder& build_;
  ir::Value* operand_;
  std::string name_;
  ir::Op* load_ = nullptr;            // per page: the whole load the pages replace
  std::map<int64_t, ir::Value*> loaded_;  // per page: by operand page, so a broadcast page loads once
  bool transposedLoad_ = false;       // per page: the operand views load_ transposed
  ir::Value* transposed_ = nullptr;   // whole: the [K, B*N] view, for a transposed operand
  std::vector<int64_t> sourceBatch_;  // whole: the batch axes of the transposed operand's source
};

// Erases the view or load defining each of `values` when nothing uses it any more (an
// operand whose pages replaced it), and then what that view read, the same way.
void dropUnused(const std::vector<ir::Value*>& values);

// The page of `operand` at `at` (as OperandPages, for one page).
ir::Value* operandPage(ir::OpBuilder& build, ir::Value* operand, const std::vector<int64_t>& at,
                       const std::string& name);

// `value` ([rows, cols]) as the [1, .., 1, rows, cols] page of a `rank`-D tile, and the
// offsets of the page at `at` in it: what an assemble of a page into a batched tile takes.
ir::Value* asBatchPage(ir::OpBuilder& build, ir::Value* value, size_t rank, const std::string& name);
std::vector<ir::Expr> pageOffsets(const std::vector<int64_t>& at);

// The offsets a store of page `at` of a batched result takes, given the offsets of the
// store of the whole result (the result's axes are the tensor's trailing ones).
std::vector<ir::Expr> pageStoreOffsets(std::vector<ir::Expr> offsets, size_t resultRank,
                                       const std::vector<int64_t>& at);

}  // namespace tilec::pto
