// Tile regions: `partview(t, [R, C])` borrows t as a grid of equal slots, read as `p[i, j]`;
// `tile_array<dt>([R, C], [h, w])` is a tile built slot by slot (`arr[i, j] = e;`) and
// finished by `assembly(arr)`. A tile array is linear: each slot write consumes the array
// and rebinds the name to the next one, and assembly consumes it for good, so a use after
// it is an error here; whether every slot is written exactly once is derive-regions' proof.
#include "frontend/Lowering.h"
#include "support/Wording.h"

namespace tilec::frontend {

std::optional<std::vector<int64_t>> Lowerer::gridArg(const ast::Expr& e, const char* what) {
  std::optional<std::vector<int64_t>> grid = staticShape(e, what);
  if (grid && grid->size() != 2) {
    error(Diag::BadShapeList, e.range,
          std::string(what) + " has " + std::to_string(grid->size()) +
              " entries; tile regions are 2-D, so give [rows, columns]");
    return std::nullopt;
  }
  return grid;
}

std::optional<std::vector<ir::Expr>> Lowerer::slotIndex(const std::vector<ast::ExprPtr>& indices, SourceRange at) {
  if (indices.size() != 2) {
    error(Diag::RegionIndex, at,
          "a slot is named by two indices [row, column], but this gives " + std::to_string(indices.size()));
    return std::nullopt;
  }
  std::vector<ir::Expr> out;
  for (const ast::ExprPtr& i : indices) {
    std::optional<ir::Expr> e = asInt(eval(*i), "a slot index");
    if (!e) return std::nullopt;
    out.push_back(*e);
  }
  return out;
}

// False (after an error) when `b` is a tile array assembly has consumed.
bool Lowerer::usableArray(const Binding& b, SourceRange at) {
  if (!b.val.assembledAt) return true;
  error(Diag::RegionArrayConsumed, at,
        "tile array " + quotedName(b.name) + " was consumed by assembly; use the tile assembly returned")
      .notes.push_back({"assembled here", *b.val.assembledAt});
  return false;
}

Val Lowerer::callPartview(ir::OpKind, const CallArgs& a) {
  Val parent = eval(a.pos(0));
  ir::Value* t = asTile(parent, "the parent of partview");
  std::optional<std::vector<int64_t>> grid = gridArg(a.pos(1), "the partition grid");
  if (!t || !grid) return Val::poison(a.call.range);
  const ir::Type& type = t->type();
  if (type.rank() == 1) {
    error(Diag::RegionGrid, a.pos(0).range,
          "tile regions are 2-D, but " + typeText(type) + " is 1-D, one row; reshape it to a 2-D tile first, " +
              "e.g. reshape(" + text(a.pos(0).range) + ", [1, " + std::to_string(type.shape()[0]) +
              "]) to cut the row into column slots");
    return Val::poison(a.call.range);
  }
  if (type.rank() != 2 || type.shape()[0] % (*grid)[0] != 0 || type.shape()[1] % (*grid)[1] != 0) {
    error(Diag::RegionGrid, a.pos(1).range,
          "a [" + std::to_string((*grid)[0]) + ", " + std::to_string((*grid)[1]) + "] grid cannot cut " +
              typeText(type) + " into equal slots; the tile must be 2-D and the counts must divide its rows and columns");
    return Val::poison(a.call.range);
  }
  Val v = Val::ssa(ValKind::PartView, t, a.call.range);
  v.grid = *grid;
  return v;
}

// The Shared space is the one a target names "shared" (linx's Shared tile cells, bound by
// B.IOS); a target without one has no use for the scope, which is then a placement hint
// it ignores, so one kernel compiles for every target.
constexpr const char* kSharedSpace = "shared";

std::optional<bool> Lowerer::sharedScope(const CallArgs& a, bool spaceGiven) {
  const ast::Expr* scope = a.kw("scope");
  const std::string name = !scope ? "local" : text(scope->range);
  if (name != "local" && name != "shared") {
    error(Diag::BadKeywordValue, scope->range,
          quotedName(name) + " is not a tile-array scope; use scope = local (the default) or scope = shared");
    return std::nullopt;
  }
  if (name == "shared" && spaceGiven) {
    error(Diag::BadKeywordValue, scope->range,
          "scope = shared places the array in the target's Shared space, and space = places it too; give one of them");
    return std::nullopt;
  }
  if (name == "local" && a.kw("pes")) {
    error(Diag::BadKeywordValue, a.kw("pes")->range,
          "pes = names the PEs of a Shared tile array, but this array is local; add scope = shared or remove pes =");
    return std::nullopt;
  }
  return name == "shared";
}

// Four digits 0 or 1, PE0 leftmost, at least one PE; which masks a target can encode is
// its own rule (linx-legality).
std::optional<std::string> Lowerer::peMaskArg(const ast::Expr* e) {
  if (!e) return std::string("1111");
  const std::string mask = text(e->range);
  const bool digits = mask.size() == 4 && mask.find_first_not_of("01") == std::string::npos;
  if (digits && mask != "0000") return mask;
  error(Diag::BadKeywordValue, e->range,
        quotedName(mask) + " is not a PE mask: write four digits 0 or 1, PE0 leftmost, with at least one 1 (pes = 1111 "
        "is every PE)");
  return std::nullopt;
}

Val Lowerer::callTileArray(ir::OpKind kind, const CallArgs& a) {
  std::optional<std::vector<int64_t>> grid = gridArg(a.pos(0), "the tile-array grid");
  std::optional<std::vector<int64_t>> slot = gridArg(a.pos(1), "the slot shape");
  std::optional<ir::SpaceId> space = spaceArg(a.kw("space"));
  std::optional<LayoutChoice> layout = layoutArg(a.kw("layout"));
  std::optional<bool> shared = sharedScope(a, a.kw("space") != nullptr);
  std::optional<std::string> pes = peMaskArg(a.kw("pes"));
  if (!grid || !slot || !space || !layout || !shared || !pes) return Val::poison(a.call.range);
  ir::AttrMap attrs = {ir::attr::grid(*grid)};
  const std::optional<ir::SpaceId> sharedSpace = target_.parseSpace(kSharedSpace);
  if (*shared && sharedSpace) {
    space = sharedSpace;
    attrs[ir::attr::pes.key] = ir::AttrValue(*pes);
  }
  std::vector<int64_t> whole = {(*grid)[0] * (*slot)[0], (*grid)[1] * (*slot)[1]};
  ir::Type declared = ir::Type::tile(*a.call.typeArg, whole, {}, *space, *layout, &target_);
  Val made = tileOp(kind, {}, attrs, declared, a.call.range);
  if (made.isPoison()) return made;
  made.kind = ValKind::TileArray;
  made.grid = *grid;
  return made;
}

Val Lowerer::callAssembly(ir::OpKind kind, const CallArgs& a) {
  const auto* name = ast::dynCast<ast::NameRef>(&a.pos(0));
  Binding* b = name ? scopes_.lookup(name->name) : nullptr;
  if (!b || b->val.kind != ValKind::TileArray) {
    Val v = eval(a.pos(0));
    if (!v.isPoison())
      error(Diag::WrongValueKind, a.pos(0).range,
            "assembly takes a tile array by name, but this is " + std::string(valKindName(v.kind)) +
                "; build one with tile_array<dtype>([rows, columns], [slot rows, slot columns])");
    return Val::poison(a.call.range);
  }
  if (!usableArray(*b, a.pos(0).range) || !b->val.value) return Val::poison(a.call.range);
  if (b->val.value->block() != block_) {
    error(Diag::RegionArrayConsumed, a.call.range,
          "assembly consumes tile array " + quotedName(b->name) + ", which this loop or branch does not build: in a loop it " +
              "would be consumed once per iteration; assemble it where its slots are written, and use that tile here")
        .notes.push_back({quotedName(b->name) + " declared here", b->declRange});
    return Val::poison(a.call.range);
  }
  std::optional<std::string> pes = peMaskArg(a.kw("pes"));
  if (!pes) return Val::poison(a.call.range);
  // A Shared array's assembly is read by the PEs pes = names (by default, those that
  // wrote it); a target without a Shared space ignores the mask, as it does the scope.
  ir::AttrMap attrs = {ir::attr::grid(b->val.grid)};
  const std::optional<ir::SpaceId> sharedSpace = target_.parseSpace(kSharedSpace);
  if (a.kw("pes") && sharedSpace) {
    if (b->val.value->type().space() != *sharedSpace) {
      error(Diag::BadKeywordValue, a.kw("pes")->range,
            "pes = names the PEs that read a Shared tile array, but " + quotedName(b->name) +
                " is local; declare it with scope = shared or remove pes =");
      return Val::poison(a.call.range);
    }
    attrs[ir::attr::pes.key] = ir::AttrValue(*pes);
  }
  Val whole = tileOp(kind, {{b->val.value, a.pos(0).range}}, attrs, ir::Type(), a.call.range);
  b->val.assembledAt = a.call.range;
  return whole;
}

Val Lowerer::evalIndex(const ast::Index& x) {
  ast::NameRef ref;  // the name is resolved as any other (with its spelling suggestions)
  ref.name = x.name;
  ref.range = x.nameRange;
  const Val base = evalName(ref);
  if (base.isPoison()) return Val::poison(x.range);
  if (base.kind == ValKind::TileArray) {
    error(Diag::RegionArrayConsumed, x.range,
          base.assembledAt ? "tile array " + quotedName(x.name) + " was consumed by assembly; read the tile assembly returned"
                           : "slots of tile array " + quotedName(x.name) + " cannot be read while it is built; read them after "
                             "assembly, e.g. partview(assembly(" + x.name + "), [R, C])[i, j]");
    return Val::poison(x.range);
  }
  if (base.kind == ValKind::Tensor) return readElement(x, base);
  if (base.kind != ValKind::PartView) {
    std::string fix = base.kind == ValKind::Tile ? "cut it first: let p = partview(" + x.name + ", [R, C]);"
                                                 : "index a partition view";
    error(Diag::WrongValueKind, x.nameRange,
          quotedName(x.name) + " is " + valKindName(base.kind) + " and has no slots; " + fix);
    return Val::poison(x.range);
  }
  std::optional<std::vector<ir::Expr>> index = slotIndex(x.indices, x.range);
  if (!index) return Val::poison(x.range);
  return tileOp(ir::OpKind::RegionPart, {{base.value, x.nameRange}}, {ir::attr::grid(base.grid), ir::attr::index(*index)},
                ir::Type(), x.range);
}

void Lowerer::lowerSlotWrite(const ast::Assign& a, Binding& b) {
  Val v = eval(*a.value);
  if (b.val.isPoison()) return;
  if (b.val.kind != ValKind::TileArray) {
    error(Diag::WrongValueKind, a.nameRange,
          quotedName(a.name) + " is " + valKindName(b.val.kind) +
              "; only a tile array's slots are written, e.g. arr[i, j] = e with arr = tile_array<f32>(...)");
    return;
  }
  if (a.compound) {
    error(Diag::RegionSlotTwice, a.opRange,
          "a slot of tile array " + quotedName(a.name) + " is written once; compute the value first, then assign it with '='");
    return;
  }
  if (!usableArray(b, a.nameRange)) return;
  std::optional<std::vector<ir::Expr>> index = slotIndex(a.indices, a.nameRange);
  ir::Value* slot = asTile(v, "the value written into a slot");
  if (!index || !slot || !b.val.value) return;
  Val next = tileOp(ir::OpKind::RegionInsert, {{b.val.value, a.nameRange}, {slot, v.range}},
                    {ir::attr::grid(b.val.grid), ir::attr::index(*index)}, ir::Type(), a.range);
  if (next.isPoison()) return;
  nameValue(next.value, a.name, a.nameRange);
  b.val.value = next.value;
  b.assignedAt = a.range;
}

}  // namespace tilec::frontend
