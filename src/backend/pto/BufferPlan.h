// Where each buffer of a function is allocated, read off the `buffers`
// attributes that assign-buffers recorded: the value that first defines it, its
// `!pto.tile_buf` type (a valid extent is dynamic unless every tile of the
// buffer has the same constant one) and the op before which its
// `pto.alloc_tile` goes. The alloc is placed in the innermost block containing
// every definition of the buffer, before the first op of that block that
// contains one, so it dominates all of them. Linear in program size times the
// nesting depth.
#pragma once
#include <map>
#include <utility>
#include <vector>

#include "backend/pto/PtoSyntax.h"
#include "ir/IR.h"
#include "support/PointerMap.h"

namespace tilec::pto {

struct BufferInfo {
  const ir::Value* first = nullptr;  // earliest defining value (program order)
  TileBuf type{};
};

class BufferPlan {
 public:
  // Returns false when some tile has no buffer id (see missing()).
  bool build(const ir::Function& f);
  const ir::Value* missing() const { return missing_; }

  // -1 for non-tiles.
  int64_t bufferOf(const ir::Value* v) const;
  const BufferInfo& buffer(int64_t id) const { return buffers_.at(id); }
  // Buffer ids (ascending) whose alloc goes right before `op`.
  std::vector<int64_t> allocsBefore(const ir::Op* op) const;

 private:
  using Path = std::vector<std::pair<const ir::Block*, const ir::Op*>>;
  void scan(const ir::Block& b, Path& path);
  void record(const ir::Value* v, int64_t id, bool defines, const Path& path);

  PointerMap<ir::Value, int64_t> ids_;
  std::map<int64_t, BufferInfo> buffers_;
  // Per buffer: the block/op path of its first definition, cut to the prefix
  // shared by all its definitions.
  std::map<int64_t, Path> placements_;
  PointerMap<ir::Op, std::vector<int64_t>> anchored_;
  const ir::Value* missing_ = nullptr;
};

}  // namespace tilec::pto
