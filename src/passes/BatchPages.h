// The pages of a batched matmul, shared by pack-accumulators and expand-batch-matmul:
// the batch axes (all but the last two), the row-major walk over the NumPy-style
// broadcast of them, an operand's 2-D page at a batch index, and where a page of a
// stored result lands.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ir/Builder.h"

namespace tilec::passes {

// More pages than this are not unrolled (the op is left for flatten-nd-to-2d to reject).
constexpr int64_t kMaxBatchPages = 4096;

std::vector<int64_t> batchDims(const ir::Type& t);
int64_t pageCount(const std::vector<int64_t>& dims);  // saturates at INT64_MAX
// Whether every batch axis of `t` is fully valid, so each batch index has a page.
bool fullBatch(const ir::Type& t);

// Calls f(p, at) for p = 0, 1, ... and `at` the p-th batch index in row-major order.
void forEachPage(const std::vector<int64_t>& dims,
                 const std::function<void(int64_t, const std::vector<int64_t>&)>& f);

// The [rows, cols] page of the batched `operand` at batch index `at` of the broadcast
// (an axis of extent 1 reads its single page), as a 2-D tile: a slice reshaped to 2-D,
// which flatten-nd-to-2d turns into a row band of the flattened operand.
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

}  // namespace tilec::passes
