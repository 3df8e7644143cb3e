#include "backend/pto/BufferPlan.h"

#include "ir/OpDefs.h"

namespace tilec::pto {
using namespace ir;

namespace {

std::optional<int64_t> sameExtent(const std::optional<int64_t>& a, const Expr& b) {
  auto c = b.asConst();
  return a && c && *a == *c ? a : std::nullopt;
}

}  // namespace

bool BufferPlan::build(const Function& f) {
  Path path;
  scan(f.body(), path);
  if (missing_) return false;
  for (const auto& [id, p] : placements_) anchored_[p.back().second].push_back(id);
  placements_.clear();  // a path per buffer: the largest table here
  return true;
}

void BufferPlan::scan(const Block& b, Path& path) {
  for (const auto& owned : b.ops()) {
    const Op* op = owned.get();
    path.push_back({&b, op});
    for (unsigned r = 0; r < op->numRegions(); ++r) scan(op->body(r), path);
    const auto* ids = op->attr<std::vector<int64_t>>("buffers");
    bool merge = op->kind() == OpKind::For || op->kind() == OpKind::If;
    for (unsigned i = 0; i < op->numResults(); ++i) {
      const Value* v = op->result(i);
      if (!v->type().isTile()) continue;
      if (!ids || i >= ids->size() || (*ids)[i] < 0) {
        if (!missing_) missing_ = v;
        continue;
      }
      // A view, and a value updated in place in a view, live in another value's buffer.
      const Op* updated = updatedValue(v)->definingOp();
      record(v, (*ids)[i], !merge && !(updated && isView(updated->kind())), path);
      if (op->kind() == OpKind::For && i + 1 < op->body().numArgs())
        ids_[op->body().arg(i + 1)] = (*ids)[i];
    }
    path.pop_back();
  }
}

void BufferPlan::record(const Value* v, int64_t id, bool defines, const Path& path) {
  ids_[v] = id;
  if (!defines) return;
  auto [it, fresh] = buffers_.emplace(id, BufferInfo{v, tileBufOf(v->type())});
  if (fresh) {
    placements_[id] = path;
    return;
  }
  TileBuf& t = it->second.type;
  t.validRows = sameExtent(t.validRows, v->type().valid()[0]);
  t.validCols = sameExtent(t.validCols, v->type().valid()[1]);
  if (v->definingOp()->kind() == OpKind::SetValidShape) {
    // PTOAS's set_validshape only accepts a tile whose valid extents are both dynamic.
    t.validRows.reset();
    t.validCols.reset();
  }
  Path& p = placements_[id];
  size_t common = 0;
  while (common < p.size() && common < path.size() && p[common].first == path[common].first)
    ++common;
  p.resize(common);
}

int64_t BufferPlan::bufferOf(const Value* v) const {
  const int64_t* id = ids_.find(v);
  return id ? *id : -1;
}

std::vector<int64_t> BufferPlan::allocsBefore(const Op* op) const {
  const std::vector<int64_t>* ids = anchored_.find(op);
  return ids ? *ids : std::vector<int64_t>{};
}

}  // namespace tilec::pto
