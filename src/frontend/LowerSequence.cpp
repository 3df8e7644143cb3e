// Built-ins of runtime sequences (kernels of the target's sequence kind): access patterns
// written as a tap, a tensor slice with steps, or a tiler's tile_at(t, i); transfers that
// fill a channel from a host tensor or drain one into it; waits. A pattern is a
// compile-time value (an offset and (size, stride) pairs of Exprs), so a loop variable or
// a runtime size inside it stays symbolic until a pass or the backend needs numbers.
#include "frontend/Lowering.h"
#include "ir/Builder.h"
#include "support/Wording.h"

namespace tilec::frontend {

namespace {

// Row-major element strides of a tensor of `dims`.
std::vector<ir::Expr> rowMajorStrides(const std::vector<ir::Expr>& dims) {
  std::vector<ir::Expr> strides(dims.size(), ir::Expr::constant(1));
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

Val patternVal(ir::Value* tensor, ir::AccessPattern p, SourceRange r) {
  Val v = Val::make(ValKind::Pattern, r);
  v.value = tensor;
  v.pattern = std::make_shared<const ir::AccessPattern>(std::move(p));
  return v;
}

}  // namespace

bool Lowerer::inSequence(const CallArgs& a) {
  if (target_.sequenceKind && fn_->kind() == *target_.sequenceKind) return true;
  std::string fix = target_.sequenceKind
                        ? std::string("declare the kernel as '") + target_.kernelKindName(*target_.sequenceKind) +
                              " kernel ...'"
                        : std::string("compile for a target with runtime sequences (tilec --list-targets)");
  error(Diag::SequenceOnly, a.call.calleeRange,
        quotedName(a.call.callee) + " moves data in a runtime sequence, and kernel '" + fn_->name() +
            "' is not one; " + fix);
  return false;
}

std::optional<ir::AccessPattern> Lowerer::patternOf(const Val& v, ir::Value*& tensor, const char* role) {
  if (v.kind == ValKind::Pattern) {
    tensor = v.value;
    return *v.pattern;
  }
  tensor = asTensor(v, role);
  if (!tensor) return std::nullopt;
  const std::vector<ir::Expr>& dims = tensor->type().dims();
  return ir::AccessPattern{ir::Expr::constant(0), dims, rowMajorStrides(dims)};
}

Val Lowerer::tensorSlice(const CallArgs& a, const Val& tensor) {
  std::optional<std::vector<ir::Expr>> offsets = intList(a.pos(1), "the offsets");
  std::optional<std::vector<ir::Expr>> sizes = intList(a.pos(2), "the sizes");
  std::optional<std::vector<ir::Expr>> steps =
      a.kw("steps") ? intList(*a.kw("steps"), "the steps") : std::optional<std::vector<ir::Expr>>(std::vector<ir::Expr>());
  if (!offsets || !sizes || !steps) return Val::poison(a.call.range);
  if (a.kw("valid")) {
    error(Diag::BadPattern, a.keywords.at("valid")->range, "a tensor slice is an access pattern and has no valid shape; drop 'valid'");
    return Val::poison(a.call.range);
  }
  const std::vector<ir::Expr>& dims = tensor.value->type().dims();
  if (steps->empty()) steps->assign(dims.size(), ir::Expr::constant(1));
  if (offsets->size() != dims.size() || sizes->size() != dims.size() || steps->size() != dims.size()) {
    error(Diag::BadPattern, a.call.range,
          "a slice of a rank-" + std::to_string(dims.size()) + " tensor gives " + std::to_string(dims.size()) +
              " offsets, sizes and steps, but this one has " + std::to_string(offsets->size()) + ", " +
              std::to_string(sizes->size()) + " and " + std::to_string(steps->size()));
    return Val::poison(a.call.range);
  }
  const std::vector<ir::Expr> rowStrides = rowMajorStrides(dims);
  ir::AccessPattern p{ir::Expr::constant(0), *sizes, {}};
  for (size_t i = 0; i < dims.size(); ++i) {
    p.offset = p.offset + (*offsets)[i] * rowStrides[i];
    p.strides.push_back((*steps)[i] * rowStrides[i]);
  }
  return patternVal(tensor.value, std::move(p), a.call.range);
}

Val Lowerer::callTap(ir::OpKind, const CallArgs& a) {
  Val tensor = eval(a.pos(0));
  ir::Value* t = asTensor(tensor, "the tensor of tap");
  std::optional<ir::Expr> offset = asInt(eval(a.pos(1)), "the offset of tap");
  std::optional<std::vector<ir::Expr>> sizes = intList(a.pos(2), "the sizes");
  std::optional<std::vector<ir::Expr>> strides = intList(a.pos(3), "the strides");
  if (!t || !offset || !sizes || !strides) return Val::poison(a.call.range);
  if (sizes->empty() || sizes->size() != strides->size()) {
    error(Diag::BadPattern, a.call.range,
          "a tap has as many strides as sizes, and at least one of each; this one has " +
              std::to_string(sizes->size()) + " sizes and " + std::to_string(strides->size()) + " strides");
    return Val::poison(a.call.range);
  }
  return patternVal(t, {*offset, *sizes, *strides}, a.call.range);
}

Val Lowerer::callTiler(ir::OpKind, const CallArgs& a) {
  Val tensor = eval(a.pos(0));
  ir::Value* t = asTensor(tensor, ("the tensor of " + a.call.callee).c_str());
  if (!t) return Val::poison(a.call.range);
  ir::TilerSpec spec;
  spec.tensorDims = t->type().dims();
  bool ok = true;
  auto ints = [&](size_t i, const char* what, std::vector<int64_t>& out) {
    if (i >= a.positional.size()) return;
    std::optional<std::vector<int64_t>> xs = staticShape(a.pos(i), what);
    if (xs) out = *xs;
    else ok = false;
  };
  ints(1, "the tile dims", spec.tileDims);
  ints(2, a.call.callee == "group_tiler" ? "the group dims" : "the group repeats", spec.groupRepeats);
  ints(3, "the group steps", spec.groupSteps);
  auto flag = [&](const char* key, bool& out) {
    const ast::Expr* e = a.kw(key);
    if (!e) return;
    std::optional<ir::Expr> b = asBool(eval(*e), key);
    if (b && b->asConst()) out = *b->asConst() != 0;
    else ok = false;
  };
  flag("tile_col_major", spec.tileColMajor);
  flag("group_col_major", spec.groupColMajor);
  flag("iter_col_major", spec.iterColMajor);
  flag("allow_partial", spec.allowPartial);
  flag("prune", spec.pruneSteps);
  if (const ast::Expr* e = a.kw("repeat")) {
    std::optional<int64_t> n = constInt(eval(*e), "the pattern repeat");
    if (n) spec.patternRepeat = *n;
    else ok = false;
  }
  if (!ok) return Val::poison(a.call.range);
  std::string why;
  std::optional<ir::Tiler> tiler = ir::Tiler::make(spec, why);
  if (!tiler) {
    error(Diag::BadTiler, a.call.range, a.call.callee + ": " + why);
    return Val::poison(a.call.range);
  }
  // What runtime sizes must satisfy is checked when they are known: seq.require.
  ir::OpBuilder builder(*block_);
  builder.setLoc(a.call.range);
  for (const ir::RuntimeGuard& g : tiler->guards())
    builder.create(ir::OpKind::SeqRequire, {}, {ir::attr::cond(g.holds), ir::attr::message(a.call.callee + ": " + g.message)});
  Val v = Val::make(ValKind::Tiler, a.call.range);
  v.value = t;
  v.tiler = std::make_shared<const ir::Tiler>(std::move(*tiler));
  return v;
}

Val Lowerer::callTileAt(ir::OpKind, const CallArgs& a) {
  Val tiler = eval(a.pos(0));
  std::optional<ir::Expr> k = asInt(eval(a.pos(1)), "the step of tile_at");
  if (tiler.isPoison() || !k) return Val::poison(a.call.range);
  if (tiler.kind != ValKind::Tiler) {
    error(Diag::WrongValueKind, tiler.range,
          "tile_at takes a tiler (simple_tiler, group_tiler or step_tiler), but this is " +
              std::string(valKindName(tiler.kind)));
    return Val::poison(a.call.range);
  }
  const std::optional<int64_t> c = k->asConst(), n = tiler.tiler->count().asConst();
  const bool outside = c && n && (*c < 0 || *c >= *n);
  if (outside && !insideBranch()) {
    error(Diag::BadTiler, a.call.range,
          "tile_at(" + text(tiler.range) + ", " + std::to_string(*c) + ") asks for a step the tiler does not have; it has steps 0 to " +
              std::to_string(*n - 1));
    return Val::poison(a.call.range);
  }
  // In a branch (one -D sizes may rule out), a step it lacks is a fault only of a run
  // that takes the branch, as it is for the builder.
  if (outside || !c || !n) requireStep(tiler, *k, a);
  std::string why;
  std::optional<ir::TileStep> step = tiler.tiler->at(*k, why);
  if (!step) {
    error(Diag::BadTiler, a.call.range, why);
    return Val::poison(a.call.range);
  }
  if (step->shapeVaries && !stepUnrolled(*k, tiler, a)) return Val::poison(a.call.range);
  return patternVal(tiler.value, std::move(step->pattern), a.call.range);
}

// A step whose pattern changes shape with the step (the smaller groups at the edges of a
// partial tiler) becomes one shape per transfer only when unroll-loops makes it a
// constant: every variable in it must be an unroll loop's. A serial loop writes one
// descriptor shape for all its iterations, and a runtime value has none at compile time.
bool Lowerer::stepUnrolled(const ir::Expr& k, const Val& tiler, const CallArgs& a) {
  for (const ir::Value* v : k.vars()) {
    const ir::Op* loop = ir::loopOf(v);
    if (loop && loop->get(ir::attr::mode) == ir::LoopMode::Unroll) continue;
    const std::string call = "tile_at(" + text(tiler.range) + ", " + text(a.pos(1).range) + ")";
    const std::string rule = call + " takes a step of a tiler whose partial groups at the edges have another shape than "
                                    "the others, ";
    if (!loop) {
      error(Diag::BadTiler, a.call.range,
            rule + "so the step must be known at compile time, but '" + v->name() +
                "' is known only when the sequence runs; index the tiler with constants or an unroll loop's "
                "variable");
      return false;
    }
    error(Diag::BadTiler, a.call.range,
          rule + "and the " + ir::loopModeName(loop->get(ir::attr::mode)) + " loop over '" + v->name() +
              "' uses one descriptor shape in every iteration; write 'unroll for " + v->name() +
              "', which gives each step its own descriptor")
        .notes.push_back({"the loop over '" + v->name() + "'", loop->loc()});
    return false;
  }
  return true;
}

bool Lowerer::insideBranch() const {
  for (const ir::Op* op = block_->parentOp(); op; op = op->parentOp())
    if (op->kind() == ir::OpKind::If) return true;
  return false;
}

// Whether every step `k` takes inside its loops is one of the tiler's: it is the variable
// of a loop from 0 or later to `count` (for i in 0 .. tile_count(t)), or its bounds say so.
static bool loopStaysInside(const ir::Expr& k, const ir::Expr& count) {
  auto holds = [](std::optional<bool> b) { return b == std::optional<bool>(true); };
  if (holds(ir::prove(ir::CmpKind::GE, k, ir::Expr::constant(0), ir::loopBounds)) &&
      holds(ir::prove(ir::CmpKind::LT, k, count, ir::loopBounds)))
    return true;
  const ir::Op* loop = k.kind() == ir::ExprKind::Var ? ir::loopOf(k.var()) : nullptr;
  if (!loop) return false;
  return holds(ir::prove(ir::CmpKind::GE, loop->get(ir::attr::lb), ir::Expr::constant(0), ir::loopBounds)) &&
         holds(ir::prove(ir::CmpKind::LE, loop->get(ir::attr::ub), count, ir::loopBounds));
}

// A step known only when the sequence runs (a loop variable, a runtime size) is checked
// then: by the TXN writer in every iteration, by the generated builder at dispatch.
void Lowerer::requireStep(const Val& tiler, const ir::Expr& k, const CallArgs& a) {
  const ir::Expr count = tiler.tiler->count();
  if (loopStaysInside(k, count)) return;
  const std::optional<int64_t> n = count.asConst();
  const std::string last = n ? std::to_string(*n - 1) : "tile_count(" + text(tiler.range) + ") - 1";
  const ir::Expr inside = ir::Expr::logicalAnd(ir::Expr::cmp(ir::CmpKind::GE, k, ir::Expr::constant(0)),
                                               ir::Expr::cmp(ir::CmpKind::LT, k, count));
  ir::OpBuilder builder(*block_);
  builder.setLoc(a.call.range);
  builder.create(ir::OpKind::SeqRequire, {},
                 {ir::attr::cond(inside),
                  ir::attr::message("tile_at(" + text(tiler.range) + ", " + text(a.pos(1).range) +
                                  ") asks for a step the tiler does not have; its steps are 0 to " + last)});
}

Val Lowerer::callTileCount(ir::OpKind, const CallArgs& a) {
  Val tiler = eval(a.pos(0));
  if (tiler.isPoison()) return Val::poison(a.call.range);
  if (tiler.kind != ValKind::Tiler) {
    error(Diag::WrongValueKind, tiler.range,
          "tile_count takes a tiler, but this is " + std::string(valKindName(tiler.kind)));
    return Val::poison(a.call.range);
  }
  return Val::integer(tiler.tiler->count(), a.call.range);
}

std::optional<std::vector<ir::Expr>> Lowerer::channelArgs(const CallArgs& a) {
  std::vector<ir::Expr> channel;
  bool ok = true;
  for (const char* key : {"column", "channel"}) {
    const ast::Expr* e = a.kw(key);
    if (!e) {
      error(Diag::BadPattern, a.call.range,
            quotedName(a.call.callee) + " needs its channel: add " + key + " = ... (a column and a channel number)");
      ok = false;
      continue;
    }
    std::optional<ir::Expr> x = asInt(eval(*e), key);
    if (x) channel.push_back(*x);
    else ok = false;
  }
  if (!ok) return std::nullopt;
  return channel;
}

// The descriptor options a transfer's source may fix, all compile-time numbers: its
// descriptor, packet header, burst length, completion token and the descriptors a split at
// dispatch may take. aie-legality checks them
// against the device.
bool Lowerer::transferOptions(const CallArgs& a, ir::AttrMap& attrs) {
  bool ok = true;
  auto number = [&](const char* key, const char* role) -> std::optional<int64_t> {
    const ast::Expr* e = a.kw(key);
    if (!e) return std::nullopt;
    std::optional<int64_t> n = constInt(eval(*e), role);
    ok = ok && n;
    return n;
  };
  if (std::optional<int64_t> bd = number("bd", "the descriptor id")) attrs["bd"] = *bd;
  if (std::optional<int64_t> burst = number("burst", "the burst length")) attrs["burst"] = *burst;
  if (std::optional<int64_t> split = number("split", "the number of descriptors")) attrs["split"] = *split;
  const std::optional<int64_t> id = number("packet", "the packet id");
  const std::optional<int64_t> type = number("packet_type", "the packet type");
  if (type && !id) {
    error(Diag::BadKeywordArg, a.keywords.at("packet_type")->range,
          "packet_type sets the type of a packet header, and this transfer has none; add packet = id");
    ok = false;
  }
  if (id) attrs["packet"] = std::vector<int64_t>{*id, type.value_or(0)};
  if (const ast::Expr* e = a.kw("token")) {
    std::optional<ir::Expr> b = asBool(eval(*e), "token");
    if (b && b->asConst()) attrs["token"] = *b->asConst() != 0;
    else if (b)
      error(Diag::NotConstant, e->range,
            "token must be a compile-time constant, but '" + text(e->range) + "' is only known at run time; use true or false");
    ok = ok && b && b->asConst();
  }
  return ok;
}

Val Lowerer::callTransfer(ir::OpKind kind, const CallArgs& a) {
  if (!inSequence(a)) return Val::poison(a.call.range);
  Val source = eval(a.pos(0));
  ir::Value* tensor = nullptr;
  std::optional<ir::AccessPattern> p = patternOf(source, tensor, "the data of a transfer");
  std::optional<std::vector<ir::Expr>> channel = channelArgs(a);
  if (!p || !channel) return Val::poison(a.call.range);
  if (kind == ir::OpKind::DmaDrain && !tensor->definingOp() &&
      fn_->paramDir(tensor->index()) == ir::ParamDir::In) {
    error(Diag::StoreToInput, source.range,
          quotedName(tensor->name()) + " is an input tensor and cannot be drained into; declare it out or inout")
        .notes.push_back({quotedName(tensor->name()) + " declared here", fn_->paramLoc(tensor->index())});
    return Val::poison(a.call.range);
  }
  ir::AttrMap attrs = {ir::attr::channel(*channel), ir::attr::offset(p->offset), ir::attr::sizes(p->sizes), ir::attr::strides(p->strides)};
  if (!transferOptions(a, attrs)) return Val::poison(a.call.range);
  ir::OpBuilder builder(*block_);
  builder.setLoc(a.call.range);
  auto made = builder.tryCreate(kind, {tensor}, std::move(attrs));
  if (const auto* err = std::get_if<ir::OpError>(&made)) {
    reportOpError(*err, {{tensor, source.range}}, a.call.range);
    return Val::poison(a.call.range);
  }
  return Val::make(ValKind::Void, a.call.range);
}

Val Lowerer::callWait(ir::OpKind kind, const CallArgs& a) {
  if (!inSequence(a)) return Val::poison(a.call.range);
  std::optional<std::vector<ir::Expr>> channel = channelArgs(a);
  if (!channel) return Val::poison(a.call.range);
  ir::OpBuilder builder(*block_);
  builder.setLoc(a.call.range);
  builder.create(kind, {}, {ir::attr::channel(*channel), ir::attr::drain(a.call.callee == "wait_drain")});
  return Val::make(ValKind::Void, a.call.range);
}

// A register-level operation of the target: integer arguments by position, a data list
// after the first for the ops that write a block.
Val Lowerer::callRaw(const ast::Call& c, const ir::RawOpDesc& desc) {
  std::string usage = std::string(desc.name) + "(";
  for (size_t i = 0; i < desc.args.size(); ++i) {
    usage += (i ? ", " : "") + std::string(i >= desc.required ? "[" : "") + desc.args[i] + (i >= desc.required ? "]" : "");
    if (i == 0 && desc.data) usage += ", [data words]";
  }
  usage += ")";
  const size_t dataAt = desc.data ? 1 : SIZE_MAX;
  const size_t given = c.args.size() - (desc.data && c.args.size() > 1 ? 1 : 0);
  bool ok = true;
  for (const ast::Arg& arg : c.args) ok = ok && arg.keyword.empty();
  if (!ok || given < desc.required || given > desc.args.size() || (desc.data && c.args.size() < 2) || c.typeArg) {
    error(Diag::BadPattern, c.range, quotedName(c.callee) + " is called as " + usage + ", with arguments by position");
    return Val::poison(c.range);
  }
  if (fn_->kind() != *target_.sequenceKind) {
    error(Diag::SequenceOnly, c.calleeRange, quotedName(c.callee) + " is a register operation of a runtime sequence, and kernel '" +
                                                 fn_->name() + "' is not one");
    return Val::poison(c.range);
  }
  std::vector<ir::Expr> args, data;
  ok = true;
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (i == dataAt) {
      std::optional<std::vector<ir::Expr>> words = intList(*c.args[i].value, "the data words");
      if (words) data = *words;
      else ok = false;
      continue;
    }
    std::optional<ir::Expr> x = asInt(eval(*c.args[i].value), "an argument of a register operation");
    if (x) args.push_back(*x);
    else ok = false;
  }
  if (!ok) return Val::poison(c.range);
  ir::AttrMap attrs = {ir::attr::op(std::string(desc.name)), ir::attr::args(args)};
  if (desc.data) attrs["data"] = data;
  ir::OpBuilder builder(*block_);
  builder.setLoc(c.range);
  builder.create(ir::OpKind::SeqRaw, {}, std::move(attrs));
  return Val::make(ValKind::Void, c.range);
}

}  // namespace tilec::frontend
