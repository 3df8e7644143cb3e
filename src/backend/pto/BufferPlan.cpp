#include "backend/pto/BufferPlan.h"

#include <algorithm>

#include "ir/OpDefs.h"
#include "passes/BufferIds.h"

namespace tilec::pto {
using namespace ir;

namespace {

bool sameConstExtent(const Expr& a, const Expr& b) {
  auto x = a.asConst(), y = b.asConst();
  return x && y && *x == *y;
}

}  // namespace

TileBuf BufferInfo::type() const {
  TileBuf t = tileBufOf(first->type());
  if (!staticRows) t.validRows.reset();
  if (!staticCols && t.dtype != DType::Bool) t.validCols.reset();  // a mask's are always static (tileBufOf)
  return t;
}

bool BufferPlan::build(const Function& f) {
  const passes::BufferIndex index(f);
  buffers_.resize(index.size());
  Path path;
  scan(f.body(), path, index);
  if (missing_) return false;
  anchorAllocs();
  return true;
}

// Stops at the first tile without an id (missing_).
void BufferPlan::scan(const Block& b, Path& path, const passes::BufferIndex& ids) {
  for (const auto& owned : b.ops()) {
    const Op* op = owned.get();
    path.push_back({&b, op});
    for (unsigned r = 0; r < op->numRegions(); ++r) scan(op->body(r), path, ids);
    const bool merge = op->kind() == OpKind::For || op->kind() == OpKind::If;
    const auto* addrs = op->find(attr::addrs);
    passes::forEachTileBufferId(*op, [&](unsigned i, int64_t id) {
      if (id < 0 && !missing_) missing_ = op->result(i);
      if (missing_) return;
      const auto index = uint32_t(ids.indexOf(id));
      const Value* v = op->result(i);
      // A view, and a value updated in place in a view, live in another value's buffer.
      const Op* updated = updatedValue(v)->definingOp();
      record(v, index, !merge && !(updated && isView(updated->kind())), path);
      if (addrs && i < addrs->size() && (*addrs)[i] >= 0) buffers_[index].address = (*addrs)[i];
      if (op->kind() == OpKind::For && i + 1 < op->body().numArgs()) index_[op->body().arg(i + 1)] = index;
    });
    path.pop_back();
  }
}

void BufferPlan::record(const Value* v, uint32_t index, bool defines, const Path& path) {
  index_[v] = index;
  if (!defines) return;
  BufferInfo& info = buffers_[index];
  if (!info.first) {
    info.first = v;
    info.anchor = path.back().second;
    info.depth = uint32_t(path.size() - 1);
    info.staticRows = info.first->type().valid()[0].asConst().has_value();
    info.staticCols = info.first->type().valid()[1].asConst().has_value();
    return;
  }
  const std::vector<Expr>& firstValid = info.first->type().valid();
  info.staticRows = info.staticRows && sameConstExtent(firstValid[0], v->type().valid()[0]);
  info.staticCols = info.staticCols && sameConstExtent(firstValid[1], v->type().valid()[1]);
  if (v->definingOp()->kind() == OpKind::SetValidShape) {
    // PTOAS's set_validshape only accepts a tile whose valid extents are both dynamic.
    info.staticRows = info.staticCols = false;
  }
  // The anchor moves out to the innermost block that also contains this definition: the
  // deepest depth at which the anchor's enclosing block is the one on `path`.
  size_t depth = std::min<size_t>(info.depth, path.size() - 1);
  const Op* anchor = info.anchor;
  for (size_t d = info.depth; d > depth; --d) anchor = anchor->parentOp();
  while (anchor->parentBlock() != path[depth].first) {
    anchor = anchor->parentOp();
    --depth;
  }
  info.anchor = anchor;
  info.depth = uint32_t(depth);
}

// Chains the buffers anchored at each op, built backwards so each chain ascends.
void BufferPlan::anchorAllocs() {
  nextAnchored_.assign(buffers_.size(), 0);
  for (size_t i = buffers_.size(); i-- > 0;) {
    if (!buffers_[i].first) continue;
    uint32_t& head = firstAnchored_[buffers_[i].anchor];
    nextAnchored_[i] = head;
    head = uint32_t(i + 1);
  }
}

int64_t BufferPlan::bufferOf(const Value* v) const {
  const uint32_t* index = index_.find(v);
  return index ? int64_t(*index) : -1;
}

}  // namespace tilec::pto
