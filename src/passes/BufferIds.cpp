#include "passes/BufferIds.h"

#include <algorithm>

namespace tilec::passes {
namespace {

void collect(const ir::Block& b, std::vector<int64_t>& ids) {
  for (const auto& op : b.ops()) {
    forEachTileBufferId(*op, [&](unsigned, int64_t id) {
      if (id >= 0) ids.push_back(id);
    });
    for (unsigned r = 0; r < op->numRegions(); ++r) collect(op->body(r), ids);
  }
}

}  // namespace

BufferIndex::BufferIndex(const ir::Function& f) {
  collect(f.body(), ids_);
  std::sort(ids_.begin(), ids_.end());
  ids_.erase(std::unique(ids_.begin(), ids_.end()), ids_.end());
  dense_ = ids_.empty() || ids_.back() == int64_t(ids_.size() - 1);
}

size_t BufferIndex::indexOf(int64_t id) const {
  if (dense_) return size_t(id);
  return size_t(std::lower_bound(ids_.begin(), ids_.end(), id) - ids_.begin());
}

}  // namespace tilec::passes
