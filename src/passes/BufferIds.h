// The `buffers` ids that assign-buffers records, read back: every tile result's id, and a
// dense numbering of the distinct ids in ascending order, so per-buffer tables are vectors
// whatever ids the IR states (hand-written .tir may use sparse or huge ones).
#pragma once
#include <cstdint>
#include <vector>

#include "ir/IR.h"

namespace tilec::passes {

// Calls f(result index, id) for each tile result of `op`, id -1 when it has none.
template <class F> void forEachTileBufferId(const ir::Op& op, F f) {
  const auto* ids = op.find(ir::attr::buffers);
  for (unsigned i = 0; i < op.numResults(); ++i)
    if (op.result(i)->type().isTile()) f(i, ids && i < ids->size() && (*ids)[i] >= 0 ? (*ids)[i] : -1);
}

class BufferIndex {
 public:
  // The distinct ids of the tiles in `f`'s body.
  explicit BufferIndex(const ir::Function& f);
  size_t size() const { return ids_.size(); }
  int64_t id(size_t index) const { return ids_[index]; }
  // The index of an id that occurs. O(1) when the ids are 0..n-1, as assign-buffers makes
  // them; O(log n) otherwise.
  size_t indexOf(int64_t id) const;

 private:
  std::vector<int64_t> ids_;  // ascending, distinct
  bool dense_ = false;        // ids_[i] == i for every i
};

}  // namespace tilec::passes
