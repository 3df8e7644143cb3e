#include "backend/pto/BufferPlan.h"

#include <algorithm>

#include "ir/OpDefs.h"

namespace tilec::pto {
using namespace ir;

namespace {

bool sameConstExtent(const Expr& a, const Expr& b) {
  auto x = a.asConst(), y = b.asConst();
  return x && y && *x == *y;
}

// The buffer id of each tile result of `op` (-1 when it has none), in result order.
template <class F> void forEachTileResult(const Op& op, F f) {
  const auto* ids = op.attr<std::vector<int64_t>>("buffers");
  for (unsigned i = 0; i < op.numResults(); ++i)
    if (op.result(i)->type().isTile()) f(i, ids && i < ids->size() ? (*ids)[i] : -1);
}

}  // namespace

TileBuf BufferInfo::type() const {
  TileBuf t = tileBufOf(first->type());
  if (!staticRows) t.validRows.reset();
  if (!staticCols) t.validCols.reset();
  return t;
}

bool BufferPlan::build(const Function& f) {
  std::vector<int64_t> ids;
  collectIds(f.body(), ids);
  if (missing_) return false;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  buffers_.resize(ids.size());
  Path path;
  scan(f.body(), path, ids);
  anchorAllocs();
  return true;
}

// Every buffer id, and the first tile without one in the order scan() visits them.
void BufferPlan::collectIds(const Block& b, std::vector<int64_t>& ids) {
  for (const auto& op : b.ops()) {
    for (unsigned r = 0; r < op->numRegions(); ++r) collectIds(op->body(r), ids);
    forEachTileResult(*op, [&](unsigned i, int64_t id) {
      if (id >= 0) ids.push_back(id);
      else if (!missing_) missing_ = op->result(i);
    });
  }
}

void BufferPlan::scan(const Block& b, Path& path, const std::vector<int64_t>& ids) {
  for (const auto& owned : b.ops()) {
    const Op* op = owned.get();
    path.push_back({&b, op});
    for (unsigned r = 0; r < op->numRegions(); ++r) scan(op->body(r), path, ids);
    const bool merge = op->kind() == OpKind::For || op->kind() == OpKind::If;
    forEachTileResult(*op, [&](unsigned i, int64_t id) {
      const auto index = uint32_t(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
      const Value* v = op->result(i);
      // A view, and a value updated in place in a view, live in another value's buffer.
      const Op* updated = updatedValue(v)->definingOp();
      record(v, index, !merge && !(updated && isView(updated->kind())), path);
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
