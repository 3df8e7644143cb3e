// pad-short-rows: PTO keeps a vec tile's rows in whole 32-byte blocks (E0513), but a kernel
// that reduces a 1-D block into a one-element accumulator (an L2 norm), or works on a short
// 1-D tile, has one-row tiles narrower than a block: `[1, 1]` of f32 is 4 bytes. Such a row
// is widened to whole blocks with its valid shape kept (the extra columns are padding no op
// reads), and a row reduction's `[1, 1]` column of a one-row source becomes that padded row
// (a row reduction may store its column padded, see the typing rule's storesColumn), so the
// columns-as-rows reshapes between the two become identities and are removed.
//
// Tiles that must agree on their shape (the operands and result of pointwise work and casts,
// loop carries and branch merges, a column and its row view) form one class, padded as a
// whole to the widest block multiple its dtypes need. A class is padded only when every op
// that defines or uses one of its tiles keeps to its valid shape (pointwise work, casts,
// row reductions, loads, stores, fills, control flow, a gather's one-row source); otherwise it is left for pto-legality
// to report. Linear in program size (union-find over the ops once).
#include <algorithm>
#include <numeric>

#include "backend/pto/PtoModel.h"
#include "backend/pto/PtoTargets.h"
#include "ir/OpDefs.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
namespace {
using namespace ir;

bool isVecTile(const Value* v) {
  return passes::isTile(v) && v->type().rank() == 2 && v->type().space() == Space::Vec &&
         v->type().layout().slayout == SLayout::NoneBox;
}

bool isColumnMajor(const Value* v) { return v->type().layout().blayout == BLayout::ColMajor; }

// The element count of a one-row tile, or of the one-element column of a one-row
// reduction; nothing for other tiles.
std::optional<int64_t> rowLength(const Value* v) {
  if (!isVecTile(v)) return std::nullopt;
  const std::vector<int64_t>& s = v->type().shape();
  if (!isColumnMajor(v)) return s[0] == 1 ? std::optional<int64_t>(s[1]) : std::nullopt;
  return s[0] == 1 && s[1] == 1 ? std::optional<int64_t>(1) : std::nullopt;
}

// The smallest element count of whole blocks in `dtype`.
int64_t blockElements(DType dtype) { return std::max<int64_t>(1, kVecBlockBytes / dtypeBytes(dtype)); }

bool isShort(const Value* v) {
  std::optional<int64_t> n = rowLength(v);
  return n && (*n * dtypeBytes(v->type().dtype())) % kVecBlockBytes != 0;
}

bool pointwise(OpKind k) {
  return k == OpKind::Full || k == OpKind::Cast || opInfo(k).has(OpTrait(Elementwise | TileScalar | Unary));
}

// Ops that read and write only the valid part of a padded tile, in the operand positions
// they may hold one.
bool keepsToValid(const Op& op, const Value* v) {
  const OpKind k = op.kind();
  if (pointwise(k) || k == OpKind::Load || k == OpKind::Store || k == OpKind::Create || k == OpKind::For ||
      k == OpKind::If || k == OpKind::Yield)
    return true;
  if (opInfo(k).has(RowReduce)) return op.numResults() == 1 && (op.result() == v || op.operand(0) == v);
  // A gather reads a one-row source at its index's columns, which padding does not move;
  // its index and result are whole rows (tgather).
  if (k == OpKind::Gather) return op.operand(0) == v;
  // A column and its row view are padded together (both are members of the class).
  return k == OpKind::Reshape && rowLength(op.operand(0)) && rowLength(op.result());
}

class PadShortRows final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"pad-short-rows",
                                "widen one-row vec tiles narrower than a 32-byte block to whole blocks",
                                PropSSA | PropMemSpacesInferred, 0, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext&) override {
    for (auto& f : m.functions()) padFunction(*f);
    return true;
  }

 private:
  struct Class {
    std::vector<Value*> members;
    bool hasShort = false;
    bool paddable = true;
    int64_t width = 1;  // the block multiple every member's dtype needs
  };

  static void padFunction(Function& f) {
    std::vector<Op*> ops = passes::preorder(f);
    passes::ValueUnionFind uf;
    auto join = [&](Value* a, Value* b) {
      if (rowLength(a) && rowLength(b)) uf.unite(a, b);
    };
    passes::forEachTileJoin(ops, /*views=*/false, join);
    for (Op* op : ops) {
      if (!pointwise(op->kind()) && op->kind() != OpKind::Reshape) continue;
      for (Value* v : op->operands())
        if (op->numResults() == 1 && passes::isTile(v)) join(v, op->result());
    }
    std::vector<Class> classes;
    ValueMap<size_t> indexOf;
    auto classOf = [&](Value* v) -> Class& {
      Value* root = uf.find(v);
      const size_t* known = indexOf.find(root);
      if (known) return classes[*known];
      indexOf[root] = classes.size();
      return classes.emplace_back();
    };
    // Every value is defined once (a result or a block argument), so it joins its class's
    // members once; each definition and use says whether the class may be padded.
    auto touch = [&](Value* v, const Op& op, bool defines) {
      if (!rowLength(v)) return;
      Class& c = classOf(v);
      if (defines) {
        c.members.push_back(v);
        c.hasShort |= isShort(v);
        c.width = std::lcm(c.width, blockElements(v->type().dtype()));
      }
      if (!keepsToValid(op, v)) c.paddable = false;
    };
    for (Op* op : ops) {
      for (unsigned r = 0; r < op->numRegions(); ++r)
        for (unsigned a = 0; a < op->body(r).numArgs(); ++a) touch(op->body(r).arg(a), *op, true);
      for (Value* v : op->results()) touch(v, *op, true);
      for (Value* v : op->operands()) touch(v, *op, false);
    }
    for (unsigned i = 0; i < f.numParams(); ++i)
      if (rowLength(f.param(i))) classOf(f.param(i)).paddable = false;
    for (Class& c : classes)
      if (c.hasShort && c.paddable) pad(c);
    foldIdentityReshapes(f);
  }

  // Every member becomes a row-major [1, W] with W the class's row length rounded up to
  // its width; the valid shape stays what it was.
  static void pad(const Class& c) {
    const int64_t length = *rowLength(c.members.front());  // one shape joins a class
    const int64_t padded = (length + c.width - 1) / c.width * c.width;
    for (Value* v : c.members) {
      const Type& t = v->type();
      TileLayout layout = t.layout();
      layout.blayout = BLayout::RowMajor;
      const Expr validColumns = isColumnMajor(v) ? t.valid()[0] : t.valid()[1];
      v->setType(t.withLayout(layout).withShape({1, padded}, {Expr::constant(1), validColumns}));
    }
  }

};

}  // namespace

std::unique_ptr<Pass> createPadShortRowsPass() { return std::make_unique<PadShortRows>(); }

}  // namespace tilec::pto
