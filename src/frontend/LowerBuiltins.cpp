// Built-in calls: the table of built-ins (arity, keywords, `<dtype>`), argument
// checking shared by all of them, and one handler per family that turns the
// arguments into operands, attributes and (where the op needs one) the declared
// result type before building the op through Lowerer::tileOp.
#include <algorithm>
#include <cctype>

#include "frontend/Lowering.h"
#include "ir/Builder.h"
#include "ir/Describe.h"
#include "ir/OpDefs.h"
#include "support/Wording.h"

namespace tilec::frontend {

using L = Lowerer;
using K = ir::OpKind;

namespace {

bool isIdentifier(const char* s) {
  if (!*s || std::isdigit(static_cast<unsigned char>(*s))) return false;
  for (; *s; ++s)
    if (!std::islower(static_cast<unsigned char>(*s)) && !std::isdigit(static_cast<unsigned char>(*s)) && *s != '_')
      return false;
  return true;
}

// A tile op that takes one or two tiles and nothing else needs no row of its own: its
// Ops.def spelling is its built-in, called as name(tile) or name(tile, tile).
void addPlainTileOps(std::vector<BuiltinSig>& table, Lowerer::Handler unaryCall, Lowerer::Handler binaryCall) {
  for (const ir::OpInfo& info : ir::allOps()) {
    const bool plain = info.group == ir::OpGroup::Tile && info.numResults == 1 &&
                       (info.numOperands == 1 || info.numOperands == 2) && isIdentifier(info.spelling) &&
                       std::none_of(ir::attrSchema(info.kind).begin(), ir::attrSchema(info.kind).end(),
                                    [](const ir::AttrSpec& a) { return a.required; });
    const bool listed = std::any_of(table.begin(), table.end(), [&](const BuiltinSig& b) {
      return b.kind == info.kind || std::string(b.name) == info.spelling;  // max(a, b) covers max and maxs
    });
    if (!plain || listed) continue;
    const bool unary = info.numOperands == 1;
    table.push_back({info.spelling, info.kind, unsigned(info.numOperands), unsigned(info.numOperands), {}, false,
                     std::string(info.spelling) + (unary ? "(tile)" : "(tile, tile)"),
                     unary ? unaryCall : binaryCall});
  }
}

}  // namespace

const std::vector<BuiltinSig>& builtins() {
  static const std::vector<BuiltinSig> kTable = [] {
    std::vector<BuiltinSig> table = {
        {"load", K::Load, 3, 3, {"valid", "space", "layout"}, false,
         "load(tensor, [offsets], [shape], valid = [...], space = ..., layout = ...)", &L::callLoad},
        {"store", K::Store, 3, 3, {}, false, "store(tensor, [offsets], tile)", &L::callStore},
        {"create", K::Create, 1, 1, {"space", "valid", "layout"}, true, "create<dtype>([shape], space = ..., valid = [...], layout = ...)",
         &L::callCreate},
        {"full", K::Full, 2, 2, {"space", "valid", "layout"}, true, "full<dtype>([shape], value, space = ..., valid = [...], layout = ...)",
         &L::callFull},
        {"cast", K::Cast, 1, 1, {"rmode"}, true, "cast<dtype>(tile, rmode = ...)", &L::callCast},
        {"iota", K::Iota, 1, 1, {"start", "descending", "space", "valid", "layout"}, true,
         "iota<dtype>([n] or [1, n], start = s, descending = b, space = ..., valid = [...], layout = ...)", &L::callIota},
        {"row_expand_add", K::RowExpandAdd, 2, 2, {}, false, "row_expand_add(tile, row_vector)", &L::callBinaryTile},
        {"row_expand_sub", K::RowExpandSub, 2, 2, {}, false, "row_expand_sub(tile, row_vector)", &L::callBinaryTile},
        {"row_expand_mul", K::RowExpandMul, 2, 2, {}, false, "row_expand_mul(tile, row_vector)", &L::callBinaryTile},
        {"row_expand_div", K::RowExpandDiv, 2, 2, {}, false, "row_expand_div(tile, row_vector)", &L::callBinaryTile},
        {"matmul", K::Matmul, 2, 2, {}, false, "matmul(lhs, rhs)", &L::callBinaryTile},
        {"batch_matmul", K::BatchMatmul, 2, 2, {}, false, "batch_matmul(lhs, rhs)", &L::callBinaryTile},
        {"matmul_acc", K::MatmulAcc, 3, 3, {"init"}, false, "matmul_acc(acc, lhs, rhs, init = cond)",
         &L::callMatmulAcc},
        {"batch_matmul_acc", K::BatchMatmulAcc, 3, 3, {"init"}, false,
         "batch_matmul_acc(acc, lhs, rhs, init = cond)", &L::callMatmulAcc},
        {"transpose", K::Transpose, 3, 3, {}, false, "transpose(tile, axis, axis)", &L::callTranspose},
        {"transpose_view", K::TransposeView, 3, 3, {}, false, "transpose_view(tile, axis, axis)",
         &L::callTranspose},
        {"reshape", K::Reshape, 2, 2, {"valid"}, false, "reshape(tile, [shape], valid = [...])", &L::callReshape},
        {"reinterpret_view", K::ReinterpretView, 2, 2, {}, true, "reinterpret_view<dtype>(tile, [shape])",
         &L::callReinterpret},
        {"slice", K::Slice, 3, 3, {"valid", "steps"}, false,
         "slice(tile, [offsets], [shape], valid = [...]), or of a tensor slice(tensor, [offsets], [sizes], steps = [...])",
         &L::callSlice},
        {"assemble", K::Assemble, 3, 3, {}, false, "assemble(target, source, [offsets])", &L::callAssemble},
        {"move", K::Move, 1, 1, {"space", "layout"}, false, "move(tile, space = ..., layout = ...)", &L::callMove},
        {"set_valid_shape", K::SetValidShape, 2, 2, {}, false, "set_valid_shape(tile, [valid])", &L::callSetValid},
        // Overloaded on integers and tiles; `kind` is the tile-tile op.
        {"max", K::Max, 2, 2, {}, false, "max(a, b)", &L::callMinMax},
        {"min", K::Min, 2, 2, {}, false, "min(a, b)", &L::callMinMax},
        {"ceildiv", K::IndexExpr, 2, 2, {}, false, "ceildiv(a, b)", &L::callCeilDiv},
        // ---- the launch (issue 30) ----
        {"block_idx", K::BlockIdx, 0, 0, {}, false, "block_idx()", &L::callLaunchQuery},
        {"block_num", K::BlockNum, 0, 0, {}, false, "block_num()", &L::callLaunchQuery},
        {"subblock_idx", K::SubblockIdx, 0, 0, {}, false, "subblock_idx()", &L::callLaunchQuery},
        {"subblock_num", K::SubblockNum, 0, 0, {}, false, "subblock_num()", &L::callLaunchQuery},
        // ---- compare and select (issue 28) ----
        {"where", K::Sel, 3, 3, {}, false, "where(mask, a, b)", &L::callWhere},
        // ---- remainder and leaky relu (issue 28); `kind` is the tile-tile op ----
        {"fmod", K::Fmod, 2, 2, {}, false, "fmod(a, b)", &L::callFmod},
        {"lrelu", K::LRelu, 2, 2, {}, false, "lrelu(tile, slope)", &L::callLRelu},
        {"tril", K::Tri, 1, 1, {"diagonal", "space", "valid", "layout"}, true,
         "tril<dtype>([shape], diagonal = k, space = ..., valid = [...], layout = ...)", &L::callTri},
        {"triu", K::Tri, 1, 1, {"diagonal", "space", "valid", "layout"}, true,
         "triu<dtype>([shape], diagonal = k, space = ..., valid = [...], layout = ...)", &L::callTri},
        // ---- prefix scans (issue 28) ----
        {"cumsum", K::Scan, 1, 1, {"axis"}, false, "cumsum(tile, axis = a)", &L::callScan},
        {"cummax", K::Scan, 1, 1, {"axis"}, false, "cummax(tile, axis = a)", &L::callScan},
        {"cummin", K::Scan, 1, 1, {"axis"}, false, "cummin(tile, axis = a)", &L::callScan},
        // ---- sort and top-k (issue 28) ----
        {"topk", K::PairValues, 2, 2, {}, false, "topk(tile, k)", &L::callTopk},
        {"topk_indices", K::PairIndices, 2, 2, {}, false, "topk_indices(tile, k)", &L::callTopk},
        // ---- gather by an index tile (issue 28) ----
        {"gather", K::Gather, 2, 2, {}, false, "gather(source, index)", &L::callGather},
        // ---- tile regions (LowerRegions.cpp) ----
        {"partview", K::RegionPart, 2, 2, {}, false, "partview(tile, [rows, columns])", &L::callPartview},
        {"tile_array", K::RegionArray, 2, 2, {"space", "layout", "scope", "pes"}, true,
         "tile_array<dtype>([rows, columns], [slot rows, slot columns], space = ..., layout = ..., scope = shared, "
         "pes = 1111)",
         &L::callTileArray},
        {"assembly", K::RegionAssembly, 1, 1, {"pes"}, false, "assembly(array, pes = 1111)", &L::callAssembly},
        // ---- runtime sequences (LowerSequence.cpp) ----
        {"tap", K::DmaFill, 4, 4, {}, false, "tap(tensor, offset, [sizes], [strides])", &L::callTap},
        {"simple_tiler", K::DmaFill, 1, 2, {"tile_col_major", "iter_col_major", "repeat"}, false,
         "simple_tiler(tensor, [tile], tile_col_major = b, iter_col_major = b, repeat = n)", &L::callTiler},
        {"group_tiler", K::DmaFill, 3, 3,
         {"tile_col_major", "group_col_major", "iter_col_major", "allow_partial", "prune", "repeat"}, false,
         "group_tiler(tensor, [tile], [group], tile_col_major = b, group_col_major = b, iter_col_major = b, "
         "allow_partial = b, prune = b, repeat = n)",
         &L::callTiler},
        {"step_tiler", K::DmaFill, 4, 4,
         {"tile_col_major", "group_col_major", "iter_col_major", "allow_partial", "prune", "repeat"}, false,
         "step_tiler(tensor, [tile], [group repeats], [group steps], tile_col_major = b, group_col_major = b, "
         "iter_col_major = b, allow_partial = b, prune = b, repeat = n)",
         &L::callTiler},
        {"tile_at", K::DmaFill, 2, 2, {}, false, "tile_at(tiler, step)", &L::callTileAt},
        {"tile_count", K::DmaFill, 1, 1, {}, false, "tile_count(tiler)", &L::callTileCount},
        {"fill", K::DmaFill, 1, 1, {"column", "channel", "bd", "packet", "packet_type", "burst", "token", "split"}, false,
         "fill(pattern or tensor, column = c, channel = n, bd = id, packet = id, packet_type = t, burst = bytes, "
         "token = b)",
         &L::callTransfer},
        {"drain", K::DmaDrain, 1, 1, {"column", "channel", "bd", "packet", "packet_type", "burst", "token", "split"}, false,
         "drain(pattern or tensor, column = c, channel = n, bd = id, packet = id, packet_type = t, burst = bytes, "
         "token = b)",
         &L::callTransfer},
        {"wait_fill", K::DmaWait, 0, 0, {"column", "channel"}, false, "wait_fill(column = c, channel = n)",
         &L::callWait},
        {"wait_drain", K::DmaWait, 0, 0, {"column", "channel"}, false, "wait_drain(column = c, channel = n)",
         &L::callWait},
    };
    addPlainTileOps(table, &L::callUnary, &L::callBinaryTile);
    return table;
  }();
  return kTable;
}

const BuiltinSig* findBuiltin(const std::string& name) {
  for (const BuiltinSig& b : builtins())
    if (name == b.name) return &b;
  return nullptr;
}

const ast::Expr* Lowerer::CallArgs::kw(const std::string& k) const {
  auto it = keywords.find(k);
  return it == keywords.end() ? nullptr : it->second->value.get();
}

namespace {

std::string keywordList(const std::vector<const char*>& keywords) {
  if (keywords.empty()) return "it takes no keyword arguments";
  std::string out = "it accepts ";
  for (size_t i = 0; i < keywords.size(); ++i) {
    if (i > 0) out += i + 1 == keywords.size() ? " and " : ", ";
    out += keywords[i];
  }
  return out;
}

// "1 dim", "2 dims".
std::string count(size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::vector<std::string> builtinNames() {
  std::vector<std::string> names;
  for (const BuiltinSig& b : builtins()) names.push_back(b.name);
  return names;
}

}  // namespace

// ---------------------------------------------------------------- dispatch

Val Lowerer::evalCall(const ast::Call& c) {
  const BuiltinSig* sig = findBuiltin(c.callee);
  if (!sig && target_.rawOp(c.callee)) return callRaw(c, *target_.rawOp(c.callee));
  if (!sig) {
    std::optional<std::string> guess = closestName(c.callee, builtinNames());
    std::string message = "unknown function " + quotedName(c.callee);
    if (guess)
      error(Diag::UnknownBuiltin, c.calleeRange, message + "; did you mean '" + *guess + "'?")
          .fixes.push_back({c.calleeRange, *guess});
    else
      error(Diag::UnknownBuiltin, c.calleeRange, message + "; docs/language.md lists the built-in functions");
    return Val::poison(c.range);
  }
  std::optional<CallArgs> args = checkCallArgs(c, *sig);
  if (!args) return Val::poison(c.range);
  Val v = (this->*sig->handler)(sig->kind, *args);
  v.range = c.range;
  return v;
}

std::optional<Lowerer::CallArgs> Lowerer::checkCallArgs(const ast::Call& c, const BuiltinSig& sig) {
  CallArgs args{c, {}, {}};
  bool ok = true;
  if (sig.takesDType && !c.typeArg) {
    error(Diag::BuiltinArity, c.calleeRange,
          quotedName(c.callee) + " needs an element type; call it as " + sig.usage);
    ok = false;
  } else if (!sig.takesDType && c.typeArg) {
    error(Diag::BuiltinArity, c.typeArgRange,
          quotedName(c.callee) + " takes no type argument; remove '<" + ir::dtypeName(*c.typeArg) + ">'");
    ok = false;
  }
  for (const ast::Arg& a : c.args) {
    if (a.keyword.empty()) {
      if (!args.keywords.empty()) {
        error(Diag::BadKeywordArg, a.range,
              "positional argument after a keyword argument; put positional arguments first");
        ok = false;
      }
      args.positional.push_back(&a);
      continue;
    }
    bool known = std::any_of(sig.keywords.begin(), sig.keywords.end(),
                             [&](const char* k) { return a.keyword == k; });
    if (!known) {
      error(Diag::BadKeywordArg, a.keywordRange,
            quotedName(c.callee) + " has no keyword argument " + quotedName(a.keyword) + "; " + keywordList(sig.keywords));
      ok = false;
    } else if (!args.keywords.emplace(a.keyword, &a).second) {
      error(Diag::BadKeywordArg, a.keywordRange, "keyword argument " + quotedName(a.keyword) + " is given twice; remove one");
      ok = false;
    }
  }
  size_t n = args.positional.size();
  if (n < sig.minArgs || n > sig.maxArgs) {
    SourceRange at = n > sig.maxArgs ? args.positional[sig.maxArgs]->range : c.range;
    error(Diag::BuiltinArity, at,
          quotedName(c.callee) + " takes " + count(sig.minArgs, "positional argument") + " but " + std::to_string(n) +
              (n == 1 ? " was" : " were") + " given; call it as " + sig.usage);
    ok = false;
  }
  if (!ok) return std::nullopt;
  return args;
}

// ---------------------------------------------------------------- argument helpers

// False (reported unless poison) when `v` is not a bracketed list.
bool Lowerer::isList(const Val& v, const char* what, const char* example) {
  if (v.isPoison()) return false;
  if (v.kind == ValKind::List) return true;
  error(Diag::BadShapeList, v.range,
        std::string(what) + " must be a list like " + example + ", but this is " + valKindName(v.kind) +
            "; write the values in brackets");
  return false;
}

std::optional<std::vector<int64_t>> Lowerer::staticShape(const ast::Expr& e, const char* what) {
  return staticShapeOf(eval(e), what);
}

std::optional<std::vector<int64_t>> Lowerer::staticShapeOf(const Val& list, const char* what) {
  if (!isList(list, what, "[16, 16]")) return std::nullopt;
  if (list.elems.empty()) {
    error(Diag::BadShapeList, list.range, std::string(what) + " is empty; a tile needs at least one dim");
    return std::nullopt;
  }
  std::vector<int64_t> shape;
  bool ok = true;
  int64_t elements = 1;
  for (const Val& d : list.elems) {
    std::optional<ir::Expr> e = asInt(d, "a tile dim");
    if (!e) {
      ok = false;
      continue;
    }
    std::optional<int64_t> c = e->asConst();
    if (!c) {
      error(Diag::DynamicTileShape, d.range,
            "tile shapes must be static (a tile is a fixed on-chip buffer), but '" + text(d.range) +
                "' is only known at run time; chunk that dimension with a loop (a static chunk size "
                "here, the run-time extent in valid = [...]), or reshape the tensor to 2-D before the "
                "kernel so that the run-time extent becomes a loop bound");
      ok = false;
    } else if (*c <= 0) {
      error(Diag::BadShapeList, d.range,
            "every entry of " + std::string(what) + " must be positive, but this one is " + std::to_string(*c) +
                "; use a positive number");
      ok = false;
    } else if (ok && __builtin_mul_overflow(elements, *c, &elements)) {
      error(Diag::ConstOverflow, list.range,
            "the tile shape " + text(list.range) + " has more elements than fit in 64 bits; use a smaller shape");
      ok = false;
    }
    if (c) shape.push_back(*c);
  }
  if (!ok) return std::nullopt;
  return shape;
}

std::optional<std::vector<ir::Expr>> Lowerer::intList(const ast::Expr& e, const char* what) {
  Val list = eval(e);
  if (!isList(list, what, "[0, 0]")) return std::nullopt;
  std::vector<ir::Expr> out;
  bool ok = true;
  std::string role = std::string("an element of ") + what;
  for (const Val& v : list.elems) {
    std::optional<ir::Expr> x = asInt(v, role.c_str());
    if (x)
      out.push_back(*x);
    else
      ok = false;
  }
  if (!ok) return std::nullopt;
  return out;
}

// The valid extents of a new tile: the `valid = [...]` list when given (one per
// dim), else the full shape (an empty list means "full" to Type::tile).
std::optional<std::vector<ir::Expr>> Lowerer::validList(const ast::Expr* e, const std::vector<int64_t>& shape) {
  if (!e) return std::vector<ir::Expr>{};
  std::optional<std::vector<ir::Expr>> valid = intList(*e, "valid");
  if (!valid) return std::nullopt;
  if (valid->size() != shape.size()) {
    error(Diag::BadShapeList, e->range,
          "valid has " + count(valid->size(), "extent") + " but the shape has " + count(shape.size(), "dim") +
              "; give one extent per dim");
    return std::nullopt;
  }
  return valid;
}

std::optional<ir::SpaceId> Lowerer::spaceArg(const ast::Expr* e) {
  if (!e) return ir::kNoSpace;
  const auto* name = ast::dynCast<ast::NameRef>(e);
  return spaceNamed(name ? name->name : text(e->range), e->range);
}

std::optional<Lowerer::LayoutChoice> Lowerer::layoutArg(const ast::Expr* e) {
  if (!e) return LayoutChoice();
  const auto* ref = ast::dynCast<ast::NameRef>(e);
  const std::string name = ref ? ref->name : text(e->range);
  for (const char* allowed : target_.layouts)
    if (name == allowed) return LayoutChoice(ir::namedLayout(name));
  error(Diag::BadKeywordValue, e->range,
        target_.layouts.empty()
            ? std::string("target ") + target_.name + " lays tiles out itself; remove layout ="
            : quotedName(name) + " is not a layout " + target_.name + " kernels may name; " +
                  useOneOf({target_.layouts.begin(), target_.layouts.end()}, "layout"));
  return std::nullopt;
}

std::optional<ir::SpaceId> Lowerer::spaceNamed(const std::string& name, SourceRange at) {
  std::optional<ir::SpaceId> space = target_.parseSpace(name);
  if (!space || *space == ir::kNoSpace) {
    error(Diag::BadKeywordValue, at,
          quotedName(name) + " is not a memory space" +
              (target_.spaceNames().empty() ? ", and target " + std::string(target_.name) + " has none to name; remove space = ..."
                                            : "; " + useOneOf(target_.spaceNames(), "memory space")));
    return std::nullopt;
  }
  return space;
}

// A keyword that must be true or false when the kernel is compiled; false when absent.
std::optional<bool> Lowerer::constFlag(const ast::Expr* e, const char* key) {
  if (!e) return false;
  std::optional<ir::Expr> b = asBool(eval(*e), key);
  if (!b) return std::nullopt;
  if (std::optional<int64_t> c = b->asConst()) return *c != 0;
  error(Diag::NotConstant, e->range,
        std::string(key) + " must be known when the kernel is compiled, but '" + text(e->range) +
            "' is only known at run time; write true or false");
  return std::nullopt;
}

// ---------------------------------------------------------------- data movement

Val Lowerer::callLoad(ir::OpKind kind, const CallArgs& a) {
  Val tensor = eval(a.pos(0));
  ir::Value* t = asTensor(tensor, "the source of load");
  std::optional<std::vector<ir::Expr>> offsets = intList(a.pos(1), "the offsets");
  std::optional<std::vector<int64_t>> shape = staticShape(a.pos(2), "the tile shape");
  std::optional<std::vector<ir::Expr>> valid = shape ? validList(a.kw("valid"), *shape) : std::nullopt;
  std::optional<ir::SpaceId> space = spaceArg(a.kw("space"));
  std::optional<LayoutChoice> layout = layoutArg(a.kw("layout"));
  if (!t || !offsets || !shape || !valid || !space || !layout) return Val::poison(a.call.range);
  ir::Type declared = ir::Type::tile(t->type().dtype(), *shape, *valid, *space, *layout, &target_);
  return tileOp(kind, {{t, tensor.range}}, {ir::attr::offsets(*offsets)}, declared, a.call.range);
}

Val Lowerer::callStore(ir::OpKind kind, const CallArgs& a) {
  Val tensor = eval(a.pos(0));
  ir::Value* t = asTensor(tensor, "the destination of store");
  std::optional<std::vector<ir::Expr>> offsets = intList(a.pos(1), "the offsets");
  Val tile = eval(a.pos(2));
  ir::Value* src = asTile(tile, "the stored value");
  if (!t || !offsets || !src) return Val::poison(a.call.range);
  unsigned index = t->index();
  if (!t->definingOp() && fn_->paramDir(index) == ir::ParamDir::In) {
    error(Diag::StoreToInput, tensor.range,
          quotedName(t->name()) + " is an input tensor and cannot be stored to; declare it out or inout")
        .notes.push_back({quotedName(t->name()) + " declared here", fn_->paramLoc(index)});
    return Val::poison(a.call.range);
  }
  std::vector<Operand> operands = {{src, tile.range}, {t, tensor.range}};
  ir::OpBuilder builder(*block_);
  builder.setLoc(a.call.range);
  auto made = builder.tryCreate(kind, {src, t}, {ir::attr::offsets(*offsets)});
  if (const auto* err = std::get_if<ir::OpError>(&made)) {
    reportOpError(*err, operands, a.call.range);
    return Val::poison(a.call.range);
  }
  return Val::make(ValKind::Void, a.call.range);
}

Val Lowerer::callCreate(ir::OpKind kind, const CallArgs& a) {
  std::optional<std::vector<int64_t>> shape = staticShape(a.pos(0), "the tile shape");
  std::optional<std::vector<ir::Expr>> valid = shape ? validList(a.kw("valid"), *shape) : std::nullopt;
  std::optional<ir::SpaceId> space = spaceArg(a.kw("space"));
  std::optional<LayoutChoice> layout = layoutArg(a.kw("layout"));
  if (!shape || !valid || !space || !layout) return Val::poison(a.call.range);
  ir::Type declared = ir::Type::tile(*a.call.typeArg, *shape, *valid, *space, *layout, &target_);
  return tileOp(kind, {}, {}, declared, a.call.range);
}

Val Lowerer::callFull(ir::OpKind kind, const CallArgs& a) {
  std::optional<std::vector<int64_t>> shape = staticShape(a.pos(0), "the tile shape");
  Val value = eval(a.pos(1));
  ir::Value* scalar = scalarOperand(value, *a.call.typeArg, "the fill value");
  std::optional<std::vector<ir::Expr>> valid = shape ? validList(a.kw("valid"), *shape) : std::nullopt;
  std::optional<ir::SpaceId> space = spaceArg(a.kw("space"));
  std::optional<LayoutChoice> layout = layoutArg(a.kw("layout"));
  if (!shape || !scalar || !valid || !space || !layout) return Val::poison(a.call.range);
  ir::Type declared = ir::Type::tile(*a.call.typeArg, *shape, *valid, *space, *layout, &target_);
  return tileOp(kind, {{scalar, value.range}}, {}, declared, a.call.range);
}

// The start defaults to 0 and the direction to counting up; the direction is in the
// instruction (tci's attribute), so it is a constant.
Val Lowerer::callIota(ir::OpKind kind, const CallArgs& a) {
  const ir::DType dtype = *a.call.typeArg;
  std::optional<std::vector<int64_t>> shape = staticShape(a.pos(0), "the tile shape");
  Val start = a.kw("start") ? eval(*a.kw("start")) : Val::integer(ir::Expr::constant(0), a.call.range);
  ir::Value* s = scalarOperand(start, dtype, "the start of iota");
  std::optional<bool> descending = constFlag(a.kw("descending"), "descending");
  std::optional<std::vector<ir::Expr>> valid = shape ? validList(a.kw("valid"), *shape) : std::nullopt;
  std::optional<ir::SpaceId> space = spaceArg(a.kw("space"));
  std::optional<LayoutChoice> layout = layoutArg(a.kw("layout"));
  if (!shape || !s || !descending || !valid || !space || !layout) return Val::poison(a.call.range);
  ir::Type declared = ir::Type::tile(dtype, *shape, *valid, *space, *layout, &target_);
  ir::AttrMap attrs;
  if (*descending) attrs = {ir::attr::descending(true)};
  return tileOp(kind, {{s, start.range}}, std::move(attrs), declared, a.call.range);
}

Val Lowerer::callMove(ir::OpKind kind, const CallArgs& a) {
  Val tile = eval(a.pos(0));
  ir::Value* t = asTile(tile, "the operand of move");
  if (!a.kw("space") && !a.kw("layout")) {
    error(Diag::BuiltinArity, a.call.range,
          "move needs a target memory space or layout; call it as move(t, space = vec) or move(t, layout = nz)");
    return Val::poison(a.call.range);
  }
  std::optional<ir::SpaceId> space = a.kw("space") ? spaceArg(a.kw("space")) : std::optional<ir::SpaceId>(ir::kNoSpace);
  std::optional<LayoutChoice> layout = layoutArg(a.kw("layout"));
  if (!t || !space || !layout) return Val::poison(a.call.range);
  ir::Type moved = a.kw("space") ? t->type().withSpace(*space, target_) : t->type();
  return tileOp(kind, {{t, tile.range}}, {}, *layout ? moved.withLayout(**layout) : moved, a.call.range);
}

// ---------------------------------------------------------------- compute

Val Lowerer::callCast(ir::OpKind kind, const CallArgs& a) {
  Val tile = eval(a.pos(0));
  ir::Value* t = asTile(tile, "the operand of cast");
  ir::RoundMode rmode = ir::RoundMode::CastRint;
  if (const ast::Expr* m = a.kw("rmode")) {
    const auto* name = ast::dynCast<ast::NameRef>(m);
    std::optional<ir::RoundMode> known = name ? ir::parseRoundMode(name->name) : std::nullopt;
    if (!known) {
      error(Diag::BadKeywordValue, m->range,
            quotedName(text(m->range)) + " is not a rounding mode; use " + ir::roundModeList());
      return Val::poison(a.call.range);
    }
    rmode = *known;
  }
  if (!t) return Val::poison(a.call.range);
  return tileOp(kind, {{t, tile.range}}, {ir::attr::rmode(rmode)}, t->type().withDType(*a.call.typeArg), a.call.range);
}

Val Lowerer::callUnary(ir::OpKind kind, const CallArgs& a) {
  Val tile = eval(a.pos(0));
  std::string role = std::string("the operand of ") + a.call.callee;
  ir::Value* t = asTile(tile, role.c_str());
  if (!t) return Val::poison(a.call.range);
  return tileOp(kind, {{t, tile.range}}, {}, ir::Type(), a.call.range);
}

Val Lowerer::callBinaryTile(ir::OpKind kind, const CallArgs& a) {
  Val lhs = eval(a.pos(0));
  Val rhs = eval(a.pos(1));
  std::string role0 = "the first operand of " + a.call.callee, role1 = "the second operand of " + a.call.callee;
  ir::Value* l = asTile(lhs, role0.c_str());
  ir::Value* r = asTile(rhs, role1.c_str());
  if (!l || !r) return Val::poison(a.call.range);
  return tileOp(kind, {{l, lhs.range}, {r, rhs.range}}, {}, ir::Type(), a.call.range);
}

Val Lowerer::callMatmulAcc(ir::OpKind kind, const CallArgs& a) {
  Val acc = eval(a.pos(0));
  Val lhs = eval(a.pos(1));
  Val rhs = eval(a.pos(2));
  std::string name = a.call.callee;
  ir::Value* c = asTile(acc, ("the accumulator of " + name).c_str());
  ir::Value* l = asTile(lhs, ("the lhs of " + name).c_str());
  ir::Value* r = asTile(rhs, ("the rhs of " + name).c_str());
  ir::AttrMap attrs;
  bool ok = c && l && r;
  if (const ast::Expr* init = a.kw("init")) {
    std::optional<ir::Expr> cond = asBool(eval(*init), "init");
    if (cond)
      attrs["init"] = *cond;
    else
      ok = false;
  }
  if (!ok) return Val::poison(a.call.range);
  return tileOp(kind, {{c, acc.range}, {l, lhs.range}, {r, rhs.range}}, std::move(attrs), ir::Type(), a.call.range);
}

Val Lowerer::callMinMax(ir::OpKind kind, const CallArgs& a) {
  Val lhs = eval(a.pos(0));
  Val rhs = eval(a.pos(1));
  if (lhs.isPoison() || rhs.isPoison()) return Val::poison(a.call.range);
  bool isMax = kind == ir::OpKind::Max;
  if (lhs.kind == ValKind::Tile || rhs.kind == ValKind::Tile) {
    if (lhs.kind == ValKind::Tile && rhs.kind == ValKind::Tile) return combineTiles(kind, lhs, rhs, a.call.range);
    const Val& tile = lhs.kind == ValKind::Tile ? lhs : rhs;
    const Val& scalar = lhs.kind == ValKind::Tile ? rhs : lhs;
    ir::Value* s = scalarOperand(scalar, tile.value->type().dtype(), "the scalar operand");
    if (!s) return Val::poison(a.call.range);
    return tileOp(isMax ? ir::OpKind::MaxS : ir::OpKind::MinS, {{tile.value, tile.range}, {s, scalar.range}}, {},
                  ir::Type(), a.call.range);
  }
  std::optional<ir::Expr> x = asInt(lhs, ("the first operand of " + a.call.callee).c_str());
  std::optional<ir::Expr> y = asInt(rhs, ("the second operand of " + a.call.callee).c_str());
  if (!x || !y) return Val::poison(a.call.range);
  return Val::integer(isMax ? ir::Expr::max(*x, *y) : ir::Expr::min(*x, *y), a.call.range);
}

// fmod(a, b) of two tiles, or of a tile and a number or scalar parameter (NumPy's and C's
// fmod: the dividend comes first, so a number there has no tile form). An integer tile
// divided by a constant 0 has no remainder: refused here rather than at run time.
Val Lowerer::callFmod(ir::OpKind kind, const CallArgs& a) {
  Val lhs = eval(a.pos(0));
  Val rhs = eval(a.pos(1));
  if (lhs.isPoison() || rhs.isPoison()) return Val::poison(a.call.range);
  if (lhs.kind != ValKind::Tile) return fmodDividendError(lhs, rhs, a.call.range);
  if (rhs.kind == ValKind::Tile) return combineTiles(kind, lhs, rhs, a.call.range);
  const ir::DType dtype = lhs.value->type().dtype();
  if (!literalFits(rhs, lhs, std::string("the dtype of ") + quotedName(text(lhs.range)), "use a value in that range"))
    return Val::poison(a.call.range);
  if (ir::isInteger(dtype) && rhs.kind == ValKind::Int && rhs.constInt() == int64_t(0)) {
    error(Diag::RemainderByZero, rhs.range,
          "an integer remainder needs a nonzero divisor, but fmod divides the " + std::string(ir::dtypeName(dtype)) +
              " tile " + quotedName(text(lhs.range)) + " by 0; divide by a nonzero number");
    return Val::poison(a.call.range);
  }
  ir::Value* s = scalarOperand(rhs, dtype, "the divisor of fmod");
  if (!s) return Val::poison(a.call.range);
  return tileOp(ir::OpKind::FmodS, {{lhs.value, lhs.range}, {s, rhs.range}}, {}, ir::Type(), a.call.range);
}

Val Lowerer::fmodDividendError(const Val& lhs, const Val& rhs, SourceRange whole) {
  if (rhs.kind != ValKind::Tile) {
    error(Diag::WrongValueKind, lhs.range,
          "fmod needs a tile as its dividend, but " + quotedName(text(lhs.range)) + " is " + valKindName(lhs.kind) +
              "; fmod works on tiles (for integers write a % b, the floor modulo)");
    return Val::poison(whole);
  }
  const ir::Type& t = rhs.value->type();
  error(Diag::ScalarOperand, lhs.range,
        "a scalar cannot be the dividend of fmod with a tile divisor; divide a tile of it: fmod(full<" +
            std::string(ir::dtypeName(t.dtype())) + ">(" + ir::shapeText(t.shape()) + ", " + text(lhs.range) + "), " +
            text(rhs.range) + ")");
  return Val::poison(whole);
}

// lrelu(x, slope): the slope, a number or an f32 scalar parameter, is f32 whatever x's
// float dtype (the op rounds it to that dtype; inferLRelu).
Val Lowerer::callLRelu(ir::OpKind kind, const CallArgs& a) {
  Val x = eval(a.pos(0));
  Val slope = eval(a.pos(1));
  ir::Value* t = asTile(x, "the operand of lrelu");
  if (!t || slope.isPoison()) return Val::poison(a.call.range);
  ir::Value* s = scalarOperand(slope, ir::DType::F32, "the slope of lrelu");
  if (!s) return Val::poison(a.call.range);
  return tileOp(kind, {{t, x.range}, {s, slope.range}}, {}, ir::Type(), a.call.range);
}

// where(mask, a, b) with tiles a and b; a number on one side is a tile of it, made by
// `full` in the other side's type.
Val Lowerer::callWhere(ir::OpKind kind, const CallArgs& a) {
  Val mask = eval(a.pos(0));
  Val values[2] = {eval(a.pos(1)), eval(a.pos(2))};
  ir::Value* m = asTile(mask, "the condition of where");
  if (!m || values[0].isPoison() || values[1].isPoison()) return Val::poison(a.call.range);
  const int tileSide = values[0].kind == ValKind::Tile ? 0 : values[1].kind == ValKind::Tile ? 1 : -1;
  if (tileSide < 0) {
    const char* dtype = values[0].kind == ValKind::Float ? "f32" : "i32";
    error(Diag::WrongValueKind, values[0].range,
          "where needs a tile as one of its values, but " + quotedName(text(values[0].range)) + " and " +
              quotedName(text(values[1].range)) + " are not tiles; make one a tile: where(" + text(mask.range) +
              ", full<" + dtype + ">(" + ir::shapeText(m->type().shape()) + ", " + text(values[0].range) + "), " +
              text(values[1].range) + ")");
    return Val::poison(a.call.range);
  }
  const ir::Type& like = values[tileSide].value->type();
  std::vector<Operand> operands = {{m, mask.range}};
  for (Val& v : values) {
    if (v.kind != ValKind::Tile) {
      ir::Value* s = scalarOperand(v, like.dtype(), "a value of where");
      if (!s) return Val::poison(a.call.range);
      v = tileOp(ir::OpKind::Full, {{s, v.range}}, {}, like, v.range);
      if (v.isPoison()) return Val::poison(a.call.range);
    }
    operands.push_back({v.value, v.range});
  }
  return tileOp(kind, operands, {}, ir::Type(), a.call.range);
}

// tril<dtype>([R, C], diagonal = k): the lower triangle of a tile of ones (np.tril of
// ones, torch.tril's diagonal); triu the upper. The diagonal may be known only at run time.
Val Lowerer::callTri(ir::OpKind kind, const CallArgs& a) {
  std::optional<std::vector<int64_t>> shape = staticShape(a.pos(0), "the tile shape");
  std::optional<ir::Expr> diagonal = ir::Expr::constant(0);
  SourceRange diagonalRange = a.call.range;
  if (const ast::Expr* d = a.kw("diagonal")) {
    diagonal = asInt(eval(*d), "the diagonal");
    diagonalRange = d->range;
  }
  std::optional<std::vector<ir::Expr>> valid = shape ? validList(a.kw("valid"), *shape) : std::nullopt;
  std::optional<ir::SpaceId> space = spaceArg(a.kw("space"));
  std::optional<LayoutChoice> layout = layoutArg(a.kw("layout"));
  if (!shape || !diagonal || !valid || !space || !layout) return Val::poison(a.call.range);
  ir::Value* d = materialize(*diagonal, ir::Type::scalar(ir::DType::I32), diagonalRange);
  ir::Type declared = ir::Type::tile(*a.call.typeArg, *shape, *valid, *space, *layout, &target_);
  ir::AttrMap attrs;
  if (a.call.callee == "triu") attrs = {ir::attr::upper(true)};
  return tileOp(kind, {{d, diagonalRange}}, std::move(attrs), declared, a.call.range);
}

// topk(x, k) and topk_indices(x, k): torch.topk along the rows of a 2-D f32 tile, the k
// largest values of each row in descending order, or their columns (i32); equal values
// give the smaller column first. One tsort32 run of 32 columns sorts a row (tile.sort32);
// rows longer than a run would need tmrgsort merges, which are not built yet.
Val Lowerer::callTopk(ir::OpKind kind, const CallArgs& a) {
  Val tile = eval(a.pos(0));
  Val kArg = eval(a.pos(1));
  ir::Value* x = asTile(tile, ("the operand of " + a.call.callee).c_str());
  std::optional<int64_t> k = constInt(kArg, "k");
  if (!x || !k) return Val::poison(a.call.range);
  const ir::Type& t = x->type();
  const std::string name = quotedName(text(tile.range));
  const std::string call = a.call.callee;
  if (t.rank() != 2) {
    error(Diag::RankNotSupported, tile.range,
          call + " works along the rows of a 2-D tile, but " + name + " has rank " + std::to_string(t.rank()) +
              "; reshape it to [rows, columns]");
    return Val::poison(a.call.range);
  }
  if (t.dtype() != ir::DType::F32) {
    error(Diag::DTypeNotSupported, tile.range,
          call + " sorts f32 values, but " + name + " is " + ir::dtypeName(t.dtype()) + "; write " + call +
              "(cast<f32>(" + text(tile.range) + "), " + text(kArg.range) + ")");
    return Val::poison(a.call.range);
  }
  const int64_t cols = t.shape()[1];
  if (cols > ir::kSortRun) {
    error(Diag::SortExtent, tile.range,
          call + " sorts rows of at most " + std::to_string(ir::kSortRun) + " columns (one tsort32 run), but " + name +
              " has " + std::to_string(cols) + "; sort " + std::to_string(ir::kSortRun) + " columns at a time, " + call +
              "(slice(" + text(tile.range) + ", [0, 0], [" + std::to_string(t.shape()[0]) + ", " +
              std::to_string(ir::kSortRun) + "]), " + text(kArg.range) + ")");
    return Val::poison(a.call.range);
  }
  std::optional<int64_t> validCols = t.valid()[1].asConst();
  const int64_t most = validCols ? *validCols : cols;
  if (*k < 1 || *k > most) {
    error(Diag::SortExtent, kArg.range,
          call + " takes k from 1 to the " + std::string(validCols ? "valid " : "") + "row length " +
              std::to_string(most) + " of " + name + ", but k is " + std::to_string(*k) + "; write " + call + "(" +
              text(tile.range) + ", " + std::to_string(std::clamp<int64_t>(*k, 1, most)) + ")");
    return Val::poison(a.call.range);
  }
  ir::Value* keys = topkKeys(x, a.call.range);
  if (!keys) return Val::poison(a.call.range);
  Val field = tileOp(kind, {{keys, a.call.range}}, {}, ir::Type(), a.call.range);
  if (field.isPoison()) return field;
  const std::vector<ir::Expr> origin = {ir::Expr::constant(0), ir::Expr::constant(0)};
  // The whole run stays the physical shape, so that a row of the result is as wide as a
  // vector row must be for any k; the first k columns are its valid part.
  ir::Type cut = field.value->type().withValid({t.valid()[0], ir::Expr::constant(*k)});
  return tileOp(ir::OpKind::Slice, {{field.value, a.call.range}}, {ir::attr::offsets(origin)}, cut, a.call.range);
}

// The sorted (value, index) pairs of x's rows: x's valid part in a tile of -inf one run
// wide (the padding sorts last, after a real -inf, whose index is smaller), sorted with
// the column numbers, an iota row added to each row of zeros.
ir::Value* Lowerer::topkKeys(ir::Value* x, SourceRange at) {
  const ir::Type& t = x->type();
  const int64_t rows = t.shape()[0];
  const std::vector<ir::Expr> origin = {ir::Expr::constant(0), ir::Expr::constant(0)};
  const ir::Type run = t.reshapedTo({rows, ir::kSortRun}, {});
  ir::Value* keys = x;
  if (t != run) {
    // -inf from its bits, an i32 fill seen as f32 and copied out of that view: PTOAS writes
    // an infinite f32 constant into its C++ as `-Inf.0f`, which does not compile, and
    // cannot assemble into a reinterpreted tile.
    constexpr int64_t kNegInfBits = -8388608;  // 0xff800000
    ir::Value* negInf = constant(Val::integer(ir::Expr::constant(kNegInfBits), at), ir::DType::I32, at);
    Val fill = tileOp(ir::OpKind::Full, {{negInf, at}}, {}, run.withDType(ir::DType::I32), at);
    if (fill.isPoison()) return nullptr;
    Val seen = tileOp(ir::OpKind::ReinterpretView, {{fill.value, at}}, {}, run, at);
    if (seen.isPoison()) return nullptr;
    Val pad = tileOp(ir::OpKind::Move, {{seen.value, at}}, {}, run, at);
    if (pad.isPoison()) return nullptr;
    Val padded = tileOp(ir::OpKind::Assemble, {{pad.value, at}, {x, at}}, {ir::attr::offsets(origin)}, ir::Type(), at);
    if (padded.isPoison()) return nullptr;
    keys = padded.value;
  }
  const ir::Type columns = run.withDType(ir::DType::I32);
  ir::Value* zero = constant(Val::integer(ir::Expr::constant(0), at), ir::DType::I32, at);
  Val zeros = tileOp(ir::OpKind::Full, {{zero, at}}, {}, columns, at);
  Val row = tileOp(ir::OpKind::Iota, {{zero, at}}, {}, columns.reshapedTo({1, ir::kSortRun}, {}), at);
  if (zeros.isPoison() || row.isPoison()) return nullptr;
  Val ids = tileOp(ir::OpKind::ColExpandAdd, {{zeros.value, at}, {row.value, at}}, {}, ir::Type(), at);
  if (ids.isPoison()) return nullptr;
  Val bits = tileOp(ir::OpKind::ReinterpretView, {{ids.value, at}}, {}, columns.withDType(ir::DType::U32), at);
  if (bits.isPoison()) return nullptr;
  Val pairs = tileOp(ir::OpKind::Sort32, {{keys, at}, {bits.value, at}}, {}, ir::Type(), at);
  return pairs.isPoison() ? nullptr : pairs.value;
}

// cumsum/cummax/cummin(x, axis = a): torch's inclusive scans of a 2-D tile. The axis is
// required, as torch's dim is (NumPy's default flattens, which a tile scan does not), and
// may count from the end (-1 is along each row).
Val Lowerer::callScan(ir::OpKind kind, const CallArgs& a) {
  Val tile = eval(a.pos(0));
  ir::Value* t = asTile(tile, ("the operand of " + a.call.callee).c_str());
  const ast::Expr* axisArg = a.kw("axis");
  if (!axisArg) {
    error(Diag::ScanAxis, a.call.range,
          a.call.callee + " needs the axis it runs along; write " + a.call.callee + "(" + text(tile.range) +
              ", axis = 1) along each row or axis = 0 down each column");
    return Val::poison(a.call.range);
  }
  std::optional<int64_t> axis = constInt(eval(*axisArg), "the scan axis");
  if (!t || !axis) return Val::poison(a.call.range);
  if (*axis < -2 || *axis > 1) {
    error(Diag::ScanAxis, axisArg->range,
          a.call.callee + " runs along axis 0 (down each column) or 1 (along each row) of a 2-D tile, but the axis is " +
              std::to_string(*axis) + "; write axis = 1 or axis = 0 (-1 and -2 count from the end)");
    return Val::poison(a.call.range);
  }
  ir::ScanKind scan = ir::ScanKind::Add;
  for (ir::ScanKind k : {ir::ScanKind::Add, ir::ScanKind::Max, ir::ScanKind::Min})
    if (a.call.callee == ir::scanBuiltin(k)) scan = k;
  ir::AttrMap attrs = {ir::attr::scan(scan), ir::attr::axis(*axis < 0 ? *axis + 2 : *axis)};
  return tileOp(kind, {{t, tile.range}}, std::move(attrs), ir::Type(), a.call.range);
}

// gather(src, index): NumPy's take_along_axis(src, index, axis=-1); the typing rule
// (inferGather) has the ranks, rows and dtypes.
Val Lowerer::callGather(ir::OpKind kind, const CallArgs& a) {
  Val src = eval(a.pos(0));
  Val index = eval(a.pos(1));
  ir::Value* s = asTile(src, "the source of gather");
  ir::Value* i = asTile(index, "the index of gather");
  if (!s || !i) return Val::poison(a.call.range);
  return tileOp(kind, {{s, src.range}, {i, index.range}}, {}, ir::Type(), a.call.range);
}

// Which block (or sub-block) of the launch runs this copy of the kernel, and how many there are.
Val Lowerer::callLaunchQuery(ir::OpKind kind, const CallArgs& a) {
  if (!target_.hasBlocks()) {
    error(Diag::NoBlocks, a.call.range,
          quotedName(text(a.call.range)) + " asks which block runs the kernel, but " + target_.name +
              " kernels run as one program, not as blocks; compile for a2a3 or a5, or drop the call");
    return Val::poison(a.call.range);
  }
  ir::OpBuilder builder(*block_);
  builder.setLoc(a.call.range);
  return Val::integer(ir::Expr::var(builder.createValue(kind, {})), a.call.range);
}

Val Lowerer::callCeilDiv(ir::OpKind, const CallArgs& a) {
  Val lhs = eval(a.pos(0));
  Val rhs = eval(a.pos(1));
  std::optional<ir::Expr> x = asInt(lhs, "the dividend of ceildiv");
  std::optional<ir::Expr> y = asInt(rhs, "the divisor of ceildiv");
  if (!x || !y) return Val::poison(a.call.range);
  std::optional<int64_t> cx = x->asConst(), cy = y->asConst();
  if (cy && *cy == 0) {
    error(Diag::ConstDivByZero, rhs.range, "division by zero in " + quotedName(text(a.call.range)) + "; use a non-zero divisor");
    return Val::poison(a.call.range);
  }
  if (cx && cy) {
    // ceil(a / b) == -floor(-a / b); negating INT64_MIN overflows.
    if (*cx == INT64_MIN) {
      error(Diag::ConstOverflow, a.call.range, "integer overflow in " + quotedName(text(a.call.range)) + "; use smaller values");
      return Val::poison(a.call.range);
    }
    int64_t q = -*cx / *cy, r = -*cx % *cy;
    int64_t floorQ = (r != 0 && ((r < 0) != (*cy < 0))) ? q - 1 : q;
    return Val::integer(ir::Expr::constant(-floorQ), a.call.range);
  }
  return Val::integer(ir::Expr::ceilDiv(*x, *y), a.call.range);
}

// ---------------------------------------------------------------- views and shapes

Val Lowerer::callTranspose(ir::OpKind kind, const CallArgs& a) {
  Val tile = eval(a.pos(0));
  ir::Value* t = asTile(tile, ("the operand of " + a.call.callee).c_str());
  std::optional<int64_t> axis0 = constInt(eval(a.pos(1)), "a transpose axis");
  std::optional<int64_t> axis1 = constInt(eval(a.pos(2)), "a transpose axis");
  if (!t || !axis0 || !axis1) return Val::poison(a.call.range);
  return tileOp(kind, {{t, tile.range}}, {ir::attr::axes(std::vector<int64_t>{*axis0, *axis1})}, ir::Type(),
                a.call.range);
}

Val Lowerer::callReshape(ir::OpKind kind, const CallArgs& a) {
  Val tile = eval(a.pos(0));
  ir::Value* t = asTile(tile, "the operand of reshape");
  std::optional<std::vector<int64_t>> shape = staticShape(a.pos(1), "the new shape");
  std::optional<std::vector<ir::Expr>> valid = shape ? validList(a.kw("valid"), *shape) : std::nullopt;
  if (!t || !shape || !valid) return Val::poison(a.call.range);
  if (valid->empty() && !t->type().hasFullValid()) {
    error(Diag::BadShapeList, a.call.range,
          "reshape of a partially valid tile needs the new valid extents; add valid = [...]");
    return Val::poison(a.call.range);
  }
  return tileOp(kind, {{t, tile.range}}, {}, t->type().withShape(*shape, *valid), a.call.range);
}

Val Lowerer::callReinterpret(ir::OpKind kind, const CallArgs& a) {
  Val tile = eval(a.pos(0));
  ir::Value* t = asTile(tile, "the operand of reinterpret_view");
  std::optional<std::vector<int64_t>> shape = staticShape(a.pos(1), "the new shape");
  if (!t || !shape) return Val::poison(a.call.range);
  ir::Type declared = t->type().withDType(*a.call.typeArg).withShape(*shape, {});
  return tileOp(kind, {{t, tile.range}}, {}, declared, a.call.range);
}

// A slice of a fully valid tile is fully valid; otherwise each valid extent is
// what remains of the source's valid extent past the offset, capped by the shape.
Val Lowerer::callSlice(ir::OpKind kind, const CallArgs& a) {
  Val tile = eval(a.pos(0));
  if (tile.kind == ValKind::Tensor) return tensorSlice(a, tile);
  if (a.kw("steps")) {
    error(Diag::BadPattern, a.keywords.at("steps")->range, "'steps' slices a tensor into an access pattern; a tile slice has no steps");
    return Val::poison(a.call.range);
  }
  ir::Value* t = asTile(tile, "the operand of slice");
  std::optional<std::vector<ir::Expr>> offsets = intList(a.pos(1), "the offsets");
  std::optional<std::vector<int64_t>> shape = staticShape(a.pos(2), "the slice shape");
  std::optional<std::vector<ir::Expr>> valid = shape ? validList(a.kw("valid"), *shape) : std::nullopt;
  if (!t || !offsets || !shape || !valid) return Val::poison(a.call.range);
  const ir::Type& src = t->type();
  if (valid->empty() && !src.hasFullValid() && offsets->size() == shape->size() &&
      src.valid().size() == shape->size()) {
    for (size_t i = 0; i < shape->size(); ++i) {
      ir::Expr remaining = ir::Expr::max(ir::Expr::sub(src.valid()[i], (*offsets)[i]), ir::Expr::constant(0));
      valid->push_back(ir::Expr::min(ir::Expr::constant((*shape)[i]), remaining));
    }
  }
  return tileOp(kind, {{t, tile.range}}, {ir::attr::offsets(*offsets)}, src.withShape(*shape, *valid), a.call.range);
}

Val Lowerer::callAssemble(ir::OpKind kind, const CallArgs& a) {
  Val target = eval(a.pos(0));
  Val source = eval(a.pos(1));
  ir::Value* dst = asTile(target, "the target of assemble");
  ir::Value* src = asTile(source, "the source of assemble");
  std::optional<std::vector<ir::Expr>> offsets = intList(a.pos(2), "the offsets");
  if (!dst || !src || !offsets) return Val::poison(a.call.range);
  return tileOp(kind, {{dst, target.range}, {src, source.range}}, {ir::attr::offsets(*offsets)}, ir::Type(), a.call.range);
}

Val Lowerer::callSetValid(ir::OpKind kind, const CallArgs& a) {
  Val tile = eval(a.pos(0));
  ir::Value* t = asTile(tile, "the operand of set_valid_shape");
  std::optional<std::vector<ir::Expr>> valid = intList(a.pos(1), "the valid shape");
  if (!t || !valid) return Val::poison(a.call.range);
  if (valid->size() != t->type().rank()) {
    error(Diag::BadShapeList, a.pos(1).range,
          "the valid shape has " + count(valid->size(), "extent") + " but the tile has " +
              count(t->type().rank(), "dim") + "; give one extent per dim");
    return Val::poison(a.call.range);
  }
  return tileOp(kind, {{t, tile.range}}, {}, t->type().withValid(*valid), a.call.range);
}

}  // namespace tilec::frontend
