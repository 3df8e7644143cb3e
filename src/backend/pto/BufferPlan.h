// Where each buffer of a function is allocated, read off the `buffers`
// attributes that assign-buffers recorded: the value that first defines it, its
// `!pto.tile_buf` type (a valid extent is dynamic unless every tile of the
// buffer has the same constant one) and the op before which its
// `pto.alloc_tile` goes. The alloc is placed in the innermost block containing
// every definition of the buffer, before the first op of that block that
// contains one, so it dominates all of them. Buffers are numbered densely in
// ascending id order, whatever ids the IR states (passes/BufferIds.h). Time
// O(n log n + n * depth) for n ops nested `depth` deep (the sort of the ids);
// memory a few words per buffer and per tile value.
#pragma once
#include <cstdint>
#include <vector>

#include "backend/pto/PtoSyntax.h"
#include "ir/IR.h"
#include "ir/ValueMap.h"
#include "support/PointerMap.h"

namespace tilec::passes {
class BufferIndex;
}

namespace tilec::pto {

struct BufferInfo {
  const ir::Value* first = nullptr;  // earliest defining value (program order); null if none
  const ir::Op* anchor = nullptr;    // the alloc goes right before this op
  uint32_t depth = 0;                // the anchor's nesting depth: 0 in the function body
  bool staticRows = true;            // every definition has the first's constant valid rows
  bool staticCols = true;
  int64_t address = -1;              // the `addrs` plan-addresses gave it; -1 if none
  TileBuf type() const;
};

class BufferPlan {
 public:
  // Returns false when some tile has no buffer id (see missing()).
  bool build(const ir::Function& f);
  const ir::Value* missing() const { return missing_; }

  size_t numBuffers() const { return buffers_.size(); }
  // The buffer of a tile value, as an index below numBuffers(); -1 for non-tiles.
  int64_t bufferOf(const ir::Value* v) const;
  const BufferInfo& buffer(size_t index) const { return buffers_[index]; }
  // Calls f(index) for each buffer whose alloc goes right before `op`, in ascending id order.
  template <class F> void forEachAllocBefore(const ir::Op* op, F f) const {
    const uint32_t* head = firstAnchored_.find(op);
    for (uint32_t i = head ? *head : 0; i != 0; i = nextAnchored_[i - 1]) f(size_t(i - 1));
  }

 private:
  using Path = std::vector<std::pair<const ir::Block*, const ir::Op*>>;
  void scan(const ir::Block& b, Path& path, const passes::BufferIndex& ids);
  void record(const ir::Value* v, uint32_t index, bool defines, const Path& path);
  void anchorAllocs();

  ir::ValueMap<uint32_t> index_;  // per tile value: its buffer's index
  std::vector<BufferInfo> buffers_;
  // Per anchor op, 1 + the first buffer anchored there; per buffer, 1 + the next one (0 ends).
  PointerMap<ir::Op, uint32_t> firstAnchored_;
  std::vector<uint32_t> nextAnchored_;
  const ir::Value* missing_ = nullptr;
};

}  // namespace tilec::pto
