#include "backend/pto/FunctionEmitter.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <ostream>
#include <stdexcept>

#include "backend/pto/AssembleForm.h"
#include "backend/pto/PtoOps.h"
#include "ir/Describe.h"
#include "ir/OpDefs.h"

namespace tilec::pto {
using namespace ir;

namespace {

bool isViewValue(const Value* v) {
  const Op* def = v->definingOp();
  return def && isView(def->kind());
}

std::string join(const std::vector<std::string>& xs) {
  std::string s;
  for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + xs[i];
  return s;
}

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::vector<const Value*> operandsOf(const Op& op) { return {op.operands().begin(), op.operands().end()}; }

std::string hintOr(const Value* v, const char* fallback) {
  return v->name().empty() ? fallback : v->name();
}

// Row-major strides of a tensor with extents `dims`.
std::vector<Expr> rowMajorStrides(const std::vector<Expr>& dims) {
  std::vector<Expr> strides(dims.size(), Expr::constant(1));
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

}  // namespace

// ---- setup ----

void FunctionEmitter::fail(const Op& op, const std::string& message) {
  diags_.report(Diag::PtoNotEmittable, op.loc(), message + "; run the PTO pass pipeline first");
  ok_ = false;
}

bool FunctionEmitter::prepare() {
  if (!plan_.build(f_)) {
    const Value* v = plan_.missing();
    fail(*v->definingOp(), "the result of " + describe(*v->definingOp(), diags_.sources()) + " has no buffer id");
    return false;
  }
  buffers_.resize(plan_.numBuffers());
  for (const auto& op : f_.body().ops()) {
    if (op->kind() == OpKind::CoreCube || op->kind() == OpKind::CoreVector)
      findPushes(op->body(), op->kind() == OpKind::CoreCube ? Section::Cube : Section::Vector);
    if (op->kind() == OpKind::PipeInit) {
      pipeSlotOffset_[op->get(attr::pipe)] = blockSlotWords_;
      blockSlotWords_ += op->get(attr::slots) * op->get(attr::slot_bytes) / int64_t(sizeof(float));
    }
  }
  return true;
}

std::string FunctionEmitter::signature() {
  std::vector<const Value*> tensors, scalars;
  for (unsigned i = 0; i < f_.numParams(); ++i)
    (f_.param(i)->type().isTensor() ? tensors : scalars).push_back(f_.param(i));
  unsigned n = 0;
  for (const Value* t : tensors) {
    std::string name = "%arg" + std::to_string(n++);
    names_.claim(name);
    params_.push_back(name + ": !pto.ptr<" + elementType(t->type().dtype()) + ">");
    tensors_[t].ptr = name;
  }
  for (const Value* s : scalars) {
    std::string name = "%arg" + std::to_string(n++);
    names_.claim(name);
    params_.push_back(name + ": " + scalarType(s->type().dtype()));
    scalars_.bind(s, name);
  }
  if (section_ != Section::Whole && target_ == Arch::A2A3) {
    pipeSlots_ = "%arg" + std::to_string(n++);
    names_.claim(pipeSlots_);
    params_.push_back(pipeSlots_ + ": !pto.ptr<f32>");
  }
  std::vector<std::string> attrs;
  if (Kernel(f_.kind()) == Kernel::Aic || section_ == Section::Cube)
    attrs.push_back("pto.kernel_kind = #pto.kernel_kind<cube>");
  if (Kernel(f_.kind()) == Kernel::Aiv || section_ == Section::Vector)
    attrs.push_back("pto.kernel_kind = #pto.kernel_kind<vector>");
  // The launch a host starts (docs/pto-backend.md): PTOAS keeps attributes of other dialects.
  attrs.push_back("tilec.launch_blocks = " + std::to_string(std::max<int64_t>(f_.blocks(), 1)) + " : i64");
  if (f_.subblocks() != 1) attrs.push_back("tilec.launch_subblocks = " + std::to_string(f_.subblocks()) + " : i64");
  return "  func.func @" + functionName(section_) + "(" + join(params_) + ") attributes {" + join(attrs) + "} {\n";
}

void FunctionEmitter::findPushes(const Block& b, Section s) {
  for (const auto& op : b.ops()) {
    if (op->kind() == OpKind::PipePush) producers_[op->get(attr::pipe)] = s;
    for (unsigned r = 0; r < op->numRegions(); ++r) findPushes(op->body(r), s);
  }
}

std::string FunctionEmitter::functionName(Section s) const {
  switch (s) {
    case Section::Whole: return f_.name();
    case Section::Cube: return f_.name() + "_aic";
    case Section::Vector: return f_.name() + "_aiv";
  }
  return f_.name();
}

bool FunctionEmitter::emit(OutputBuffer& os) {
  if (!prepare()) return false;
  os << signature();
  // Constants are found while the body is written; they go in front of it.
  const OutputBuffer::Placeholder constants = os.placeholder();
  body_.attach(os);
  scalars_.pushScope();
  for (unsigned i = 0; i < f_.numParams(); ++i) {
    const Value* p = f_.param(i);
    if (p->type().isTensor()) emitTensorView(p, tensors_[p].ptr, hintOr(p, "tensor"));
  }
  emitBlock(f_.body());
  body_.line("return");
  if (!ok_) return false;
  os.fill(constants, scalars_.constants());
  os << "  }\n";
  return true;
}

void FunctionEmitter::emitTensorView(const Value* tensor, const std::string& ptr,
                                     const std::string& hint) {
  const Type& t = tensor->type();
  std::vector<std::string> shape = indices(t.dims());
  std::vector<std::string> strides = indices(rowMajorStrides(t.dims()));
  std::string view = names_.fresh(hint + "_view");
  body_.line(view + " = pto.make_tensor_view " + ptr + ", shape = [" + join(shape) +
             "], strides = [" + join(strides) + "] : " + tensorViewType(t.rank(), t.dtype()));
  tensors_[tensor] = {view, ptr};
}

std::vector<std::string> FunctionEmitter::indices(const std::vector<Expr>& es) {
  std::vector<std::string> out;
  for (const Expr& e : es) out.push_back(scalars_.index(e));
  return out;
}

// ---- blocks and buffers ----

void FunctionEmitter::emitBlock(const Block& b) {
  scalars_.pushScope();
  for (const auto& op : b.ops()) {
    emitAllocs(*op);
    emitOp(*op);
  }
  scalars_.popScope();
}

void FunctionEmitter::emitAllocs(const Op& op) {
  plan_.forEachAllocBefore(&op, [&](size_t index) {
    const BufferInfo& info = plan_.buffer(index);
    if (info.first->definingOp()->kind() == OpKind::PipePop) return;  // its slot in the pipe is its buffer
    const TileBuf tileBuf = info.type();
    const std::vector<Expr>& valid = info.first->type().valid();
    std::string operands;
    if (addresses_) operands += " addr = " + scalars_.constant(DType::I64, AttrValue(info.address));
    if (!tileBuf.validRows) operands += " valid_row = " + scalars_.index(valid[0]);
    if (!tileBuf.validCols) operands += " valid_col = " + scalars_.index(valid[1]);
    std::string name = names_.fresh(hintOr(info.first, "tile"));
    const std::string& type = interned(tileBufType(tileBuf));
    body_.start() << name << " = pto.alloc_tile" << operands << " : " << type << '\n';
    buffers_[index] = {std::move(name), &type};
  });
}

const std::string& FunctionEmitter::interned(std::string typeText) {
  return *typeTexts_.insert(std::move(typeText)).first;
}

// A tile is named by its view, or by its buffer; a result updated in place (matmul_acc
// into a window of an accumulator) is named by what it updates.
FunctionEmitter::Operand FunctionEmitter::operand(const Value* v) {
  if (!v->type().isTile()) return {scalars_.value(v), &interned(scalarType(v->type().dtype()))};
  const Value* updated = updatedValue(v);
  if (isViewValue(updated)) return views_.at(updated);
  const Operand& buffer = buffers_.at(size_t(plan_.bufferOf(v)));
  if (!buffer.type) throw std::out_of_range("a tile whose buffer has no alloc");
  return buffer;
}

// PTOAS takes integer and float scalars with tiles but not `index`: an index operand (a loop
// variable in IR text) is converted to the tile's element type.
FunctionEmitter::Operand FunctionEmitter::elementScalar(const Value* v, DType element) {
  return {scalars_.castAtUse(scalars_.value(v), element), &interned(scalarType(element))};
}

// ---- ops ----

// Written piece by piece: most lines of a large kernel are these.
void FunctionEmitter::dps(const std::string& name, const std::vector<const Value*>& ins,
                          const Value* out, const std::string& attrs) {
  std::vector<Operand> operands;
  operands.reserve(ins.size());
  for (const Value* v : ins) operands.push_back(v->type().isIndex() ? elementScalar(v, out->type().dtype()) : operand(v));
  const Operand dst = operand(out);
  std::ostream& os = body_.start();
  os << "pto." << name << " ins(";
  for (size_t i = 0; i < operands.size(); ++i) os << (i ? ", " : "") << operands[i].name;
  os << attrs << " : ";
  for (size_t i = 0; i < operands.size(); ++i) os << (i ? ", " : "") << *operands[i].type;
  os << ") outs(" << dst.name << " : " << *dst.type << ")\n";
}

// Through the op's row in the op table: a plain ins/outs op by its mnemonic, the others by
// their own writer. An op without a row is of a group PTO does not compile.
void FunctionEmitter::emitOp(const Op& op) {
  const PtoOpInfo* row = ptoOp(op.kind());
  if (!row) return fail(op, describe(op, diags_.sources()) + " has no PTO form");
  switch (row->form) {
    case PtoForm::Dps:
      return dps(row->mnemonic, operandsOf(op), op.result());
    case PtoForm::Own:
    case PtoForm::Scalar:
    case PtoForm::Control:
      return (this->*row->emit)(op);
    case PtoForm::Alloc:
      return;  // the buffer's pto.alloc_tile is all there is
    case PtoForm::Lowered:
      return fail(op, describe(op, diags_.sources()) + " has no PTO form");
  }
}

void FunctionEmitter::emitTensorViewOp(const Op& op) {
  auto it = tensors_.find(op.operand(0));
  if (it == tensors_.end()) return fail(op, "tensor.view of a tensor without a view");
  emitTensorView(op.result(), it->second.ptr, hintOr(op.result(), "tensor"));
}

void FunctionEmitter::emitLoad(const Op& op) { emitTransfer(op, op.result(), op.operand(0), /*load=*/true); }
void FunctionEmitter::emitStore(const Op& op) { emitTransfer(op, op.operand(0), op.operand(1), /*load=*/false); }

void FunctionEmitter::emitCast(const Op& op) {
  const auto* mode = op.find(attr::rmode);
  std::string attrs = mode ? " {rmode = #pto<round_mode " + upper(roundModeName(*mode)) + ">}" : "";
  dps(ptoOp(op.kind())->mnemonic, operandsOf(op), op.result(), attrs);
}

// tci's direction is an attribute written inside ins(...), after the start.
void FunctionEmitter::emitIota(const Op& op) {
  const bool* down = op.find(attr::descending);
  dps(ptoOp(op.kind())->mnemonic, operandsOf(op), op.result(), down && *down ? " {descending = true}" : "");
}

// The element at its row-major position from the tensor's GM pointer, on the scalar unit,
// then as the index the offsets that name it compute with.
void FunctionEmitter::emitTensorRead(const Op& op) {
  auto it = tensors_.find(op.operand(0));
  const auto* at = op.find(attr::offsets);
  if (it == tensors_.end() || !at) return fail(op, describe(op, diags_.sources()) + " has no tensor to read");
  const Type& t = op.operand(0)->type();
  const std::vector<Expr> strides = rowMajorStrides(t.dims());
  Expr position = Expr::constant(0);
  for (size_t i = 0; i < strides.size(); ++i) position = position + (*at)[i] * strides[i];
  const std::string element = scalarType(t.dtype());
  const std::string hint = hintOr(op.result(), "elem");
  const std::string raw = names_.fresh(hint + "_" + element);
  body_.line(raw + " = pto.load_scalar " + it->second.ptr + "[" + scalars_.index(position) + "] : !pto.ptr<" +
             element + "> -> " + element);
  const std::string index = names_.fresh(hint);
  body_.line(index + " = arith.index_cast " + raw + " : " + element + " to index");
  scalars_.bind(op.result(), index);
}

// PTO's block queries give an i64; the offsets that use it compute with an index.
void FunctionEmitter::emitLaunchQuery(const Op& op) {
  const std::string raw = names_.fresh(hintOr(op.result(), "launch") + "_i64");
  body_.line(raw + " = pto." + ptoOp(op.kind())->mnemonic);
  const std::string index = names_.fresh(hintOr(op.result(), "launch"));
  body_.line(index + " = arith.index_cast " + raw + " : i64 to index");
  scalars_.bind(op.result(), index);
}

void FunctionEmitter::emitCompare(const Op& op) {
  dps(ptoOp(op.kind())->mnemonic, operandsOf(op), op.result(),
      std::string(" {cmpMode = #pto<cmp ") + cmpKindName(op.get(attr::cmp)) + ">}");
}

void FunctionEmitter::emitTri(const Op& op) {
  const bool upper = op.find(attr::upper) && op.get(attr::upper);
  dps(ptoOp(op.kind())->mnemonic, operandsOf(op), op.result(), upper ? " {upperOrLower = 1 : i32}" : "");
}

// A pair tile's values are its even 4-byte slots, its indices the odd ones: tgather's
// mask patterns P0101 and P1010 keep those, packed, row after row.
void FunctionEmitter::emitPairField(const Op& op) {
  const char* pattern = op.kind() == OpKind::PairIndices ? "P1010" : "P0101";
  dps(ptoOp(op.kind())->mnemonic, operandsOf(op), op.result(),
      std::string(", {maskPattern = #pto.mask_pattern<") + pattern + ">}");
}

void FunctionEmitter::emitWithScratch(const Op& op) {
  if (op.numOperands() <= unsigned(opInfo(op.kind()).scratchOperand))
    throw std::logic_error(std::string(op.name()) + " reached the emitter without its scratch tile");
  dps(ptoOp(op.kind())->mnemonic, operandsOf(op), op.result());
}

void FunctionEmitter::emitScalar(const Op& op) {
  const Value* r = op.result();
  DType d = r->type().dtype();
  if (op.kind() == OpKind::Const) {
    const AttrValue* value = op.find(attr::value);
    if (!value) return fail(op, "arith.const has no value");
    return scalars_.bind(r, scalars_.constant(d, *value));
  }
  const Expr* value = op.find(attr::expr);
  if (!value) return fail(op, "arith.index has no value");
  std::string hint = hintOr(r, "");
  if (d == DType::Bool) return scalars_.bind(r, scalars_.boolean(*value, hint));
  if (d == DType::Index) return scalars_.bind(r, scalars_.index(*value, hint));
  std::string index = scalars_.index(*value);
  scalars_.bind(r, scalars_.cast(index, d, hint));
}

void FunctionEmitter::emitTransfer(const Op& op, const Value* tile, const Value* tensor,
                                   bool load) {
  auto view = tensors_.find(tensor);
  const auto* offsets = op.find(attr::offsets);
  if (view == tensors_.end() || !offsets) return fail(op, describe(op, diags_.sources()) + " has no window");
  const Type& tt = tensor->type();
  std::vector<Expr> sizes;
  if (const auto* window = op.find(attr::window)) {
    sizes = *window;
  } else {
    sizes.assign(tt.rank() - std::min(tt.rank(), tile->type().rank()), Expr::constant(1));
    sizes.insert(sizes.end(), tile->type().valid().begin(), tile->type().valid().end());
  }
  std::vector<std::string> offsetNames = indices(*offsets);
  std::vector<std::string> sizeNames = indices(sizes);
  std::vector<std::optional<int64_t>> staticSizes;
  for (const Expr& s : sizes) staticSizes.push_back(s.asConst());
  std::string part = partitionType(staticSizes, tt.dtype());
  std::string pview = names_.fresh(hintOr(tensor, "tensor") + "_pview");
  body_.line(pview + " = pto.partition_view " + view->second.view + ", offsets = [" +
             join(offsetNames) + "], sizes = [" + join(sizeNames) + "] : " +
             tensorViewType(tt.rank(), tt.dtype()) + " -> " + part);
  Operand t = operand(tile);
  if (load)
    body_.line("pto.tload ins(" + pview + " : " + part + ") outs(" + t.name + " : " + *t.type + ")");
  else
    body_.line("pto.tstore ins(" + t.name + " : " + *t.type + ") outs(" + pview + " : " + part + ")");
}

// init: literal true starts the accumulation, false/absent continues it, and a
// runtime condition chooses between the two.
void FunctionEmitter::emitMatmulAcc(const Op& op) {
  std::vector<const Value*> lhsRhs = {op.operand(1), op.operand(2)};
  std::vector<const Value*> all = {op.operand(0), op.operand(1), op.operand(2)};
  const Expr* init = op.find(attr::init);
  std::optional<int64_t> known = init ? init->asConst() : std::optional<int64_t>(0);
  if (known) return *known ? dps("tmatmul", lhsRhs, op.result()) : dps("tmatmul.acc", all, op.result());
  std::string cond = scalars_.boolean(*init);
  body_.line("scf.if " + cond + " {");
  body_.indent();
  dps("tmatmul", lhsRhs, op.result());
  body_.dedent();
  body_.line("} else {");
  body_.indent();
  dps("tmatmul.acc", all, op.result());
  body_.dedent();
  body_.line("}");
}

// ---- views ----

void FunctionEmitter::emitView(const Op& op) {
  const Value* r = op.result();
  std::string type = tileBufType(tileBufOf(r->type()));
  std::string name = names_.fresh(hintOr(r, "view"));
  Operand src = operand(op.operand(0));
  if (op.kind() == OpKind::Slice) {
    const auto* offsets = op.find(attr::offsets);
    if (!offsets) return fail(op, "tile.slice has no offsets");
    emitSubview(name, src, *offsets, r->type(), type);
  } else if (op.kind() == OpKind::ReinterpretView && op.operand(0)->type().shape() == r->type().shape()) {
    body_.line(name + " = pto.bitcast " + src.name + " : " + *src.type + " -> " + type);
  } else {
    views_[r] = reshapeView(src, r->type(), std::move(name));
    return;
  }
  views_[r] = {name, &interned(type)};
}

void FunctionEmitter::emitSubview(const std::string& name, const Operand& parent,
                                  const std::vector<Expr>& offsets, const Type& part,
                                  const std::string& partType) {
  std::vector<std::string> offsetNames = indices(offsets);
  std::string valid;
  if (!part.hasFullValid()) valid = " valid [" + join(indices(part.valid())) + "]";
  body_.line(name + " = pto.subview " + parent.name + "[" + join(offsetNames) + "] sizes [" +
             std::to_string(part.shape()[0]) + ", " + std::to_string(part.shape()[1]) + "]" +
             valid + " : " + *parent.type + " -> " + partType);
}

// The tile `tile` seen as `view`: a pto.treshape alias of the same bytes, named `name`.
// When one of the view's valid extents is dynamic, PTOAS does not carry it through the
// treshape (it keeps the source's extents, or a dynamic one unset: a store of the view
// then writes one column), so the view is typed with both dynamic (what
// pto.set_validshape requires) and they are set.
FunctionEmitter::Operand FunctionEmitter::reshapeView(const Operand& tile, const Type& view, std::string name) {
  TileBuf buf = tileBufOf(view);
  const bool dynamic = !buf.validRows || !buf.validCols;
  if (dynamic) buf.validRows = buf.validCols = std::nullopt;
  const std::string& type = interned(tileBufType(buf));
  body_.line(name + " = pto.treshape " + tile.name + " : " + *tile.type + " -> " + type);
  if (dynamic) body_.line("pto.set_validshape " + name + ", " + join(indices(view.valid())) + " : " + type);
  return {std::move(name), &type};
}

// The tile `tile` seen as `view`, its row-major transpose.
FunctionEmitter::Operand FunctionEmitter::rowView(const Operand& tile, const Type& view, const std::string& hint) {
  return reshapeView(tile, view, names_.fresh(hint + "_rows"));
}

// The form was chosen for the target (assembleWrite) and checked by pto-legality: a tmov
// into a subview of the target's buffer (which the result shares), a tinsert at the offsets,
// or adding 0 into the subview; column vectors PTOAS would widen are written in their
// row-major views.
void FunctionEmitter::emitAssemble(const Op& op) {
  const Value* target = op.operand(0);
  const Value* source = op.operand(1);
  if (!op.find(attr::offsets)) return fail(op, "tile.assemble has no offsets");
  if (isWriteBack(op)) return;  // the source was updated in place, in the target's window
  const AssembleWrite w = assembleWrite(op, target_);
  if (w.form == AssembleForm::None)
    return fail(op, std::string("tile.assemble has no form on ") + archName(target_));
  Operand dst = operand(target), src = operand(source);
  if (w.rowViews) {
    dst = rowView(dst, w.target, dst.name.substr(1));
    src = rowView(src, w.source, src.name.substr(1));
  }
  if (w.form == AssembleForm::Insert) {
    body_.line("pto.tinsert ins(" + src.name + ", " + join(indices(w.offsets)) + " : " + *src.type +
               ", index, index) outs(" + dst.name + " : " + *dst.type + ")");
    return;
  }
  TileBuf region = tileBufOf(w.source);
  region.space = w.target.space();
  region.layout = w.target.layout();
  const std::string& type = interned(tileBufType(region));
  std::string name = names_.fresh(hintOr(target, "tile") + "_part");
  emitSubview(name, dst, w.offsets, w.source, type);
  if (w.form == AssembleForm::AddZero) {
    const DType d = w.source.dtype();
    std::string zero = scalars_.constant(d, int64_t(0));
    body_.line("pto.tadds ins(" + src.name + ", " + zero + " : " + *src.type + ", " + scalarType(d) + ") outs(" +
               name + " : " + type + ")");
    return;
  }
  body_.line("pto.tmov ins(" + src.name + " : " + *src.type + ") outs(" + name + " : " + type + ")");
}

// A move out of a window of a mat tile reads the window with textract at its offsets into
// the parent: PTOAS gives a mat subview its parent's shape, and a mat-source tmov needs
// equal shapes.
void FunctionEmitter::emitMove(const Op& op) {
  const Value* src = op.operand(0);
  std::vector<Expr> offsets;
  const Value* parent = src;
  while (parent->definingOp() && parent->definingOp()->kind() == OpKind::Slice) {
    const auto* at = parent->definingOp()->find(attr::offsets);
    if (!at || at->size() != 2) return fail(op, "tile.slice has no 2-D offsets");
    offsets = offsets.empty() ? *at : std::vector<Expr>{offsets[0] + (*at)[0], offsets[1] + (*at)[1]};
    parent = parent->definingOp()->operand(0);
  }
  if (parent == src || src->type().space() != Space::Mat)
    return dps(ptoOp(op.kind())->mnemonic, {src}, op.result());
  Operand from = operand(parent), to = operand(op.result());
  body_.line("pto.textract ins(" + from.name + ", " + join(indices(offsets)) + " : " + *from.type +
             ", index, index) outs(" + to.name + " : " + *to.type + ")");
}

void FunctionEmitter::emitSetValidShape(const Op& op) {
  std::vector<std::string> valid = indices(op.result()->type().valid());
  Operand t = operand(op.result());
  body_.line("pto.set_validshape " + t.name + ", " + join(valid) + " : " + *t.type);
}

// ---- control flow ----

std::string FunctionEmitter::bindScalarResults(const Op& op, std::string& types) {
  std::vector<const Value*> results;
  for (const Value* r : op.results())
    if (!r->type().isTile()) results.push_back(r);
  if (results.empty()) return "";
  std::string group = names_.fresh(hintOr(results[0], "r"));
  std::vector<std::string> typeNames;
  for (size_t i = 0; i < results.size(); ++i) {
    scalars_.bind(results[i], results.size() == 1 ? group : group + "#" + std::to_string(i));
    typeNames.push_back(scalarType(results[i]->type().dtype()));
  }
  types = join(typeNames);
  return results.size() == 1 ? group + " = " : group + ":" + std::to_string(results.size()) + " = ";
}

void FunctionEmitter::emitFor(const Op& op) {
  const Expr* lb = op.find(attr::lb);
  const Expr* ub = op.find(attr::ub);
  const Expr* step = op.find(attr::step);
  const Block& body = op.body();
  if (!lb || !ub || !step || body.numArgs() < 1) return fail(op, "scf.for has no bounds");
  std::string lower = scalars_.index(*lb);
  std::string upperBound = scalars_.index(*ub);
  std::string stride = scalars_.index(*step);
  std::vector<std::string> iterArgs;
  for (unsigned i = 0; i < op.numOperands() && i + 1 < body.numArgs(); ++i) {
    const Value* arg = body.arg(i + 1);
    if (arg->type().isTile()) continue;
    std::string name = names_.fresh(hintOr(arg, ""));
    iterArgs.push_back(name + " = " + scalars_.value(op.operand(i)));
    scalars_.bind(arg, name);
  }
  std::string types;
  std::string results = bindScalarResults(op, types);
  std::string iv = names_.fresh(hintOr(body.arg(0), "i"));
  scalars_.bind(body.arg(0), iv);
  std::string carried =
      iterArgs.empty() ? "" : " iter_args(" + join(iterArgs) + ") -> (" + types + ")";
  body_.line(results + "scf.for " + iv + " = " + lower + " to " + upperBound + " step " + stride +
             carried + " {");
  body_.indent();
  emitBlock(body);
  body_.dedent();
  body_.line("}");
}

void FunctionEmitter::emitIf(const Op& op) {
  const Expr* cond = op.find(attr::cond);
  if (!cond || op.numRegions() != 2) return fail(op, "scf.if has no condition");
  std::string c = scalars_.boolean(*cond);
  std::string types;
  std::string results = bindScalarResults(op, types);
  body_.line(results + "scf.if " + c + (types.empty() ? "" : " -> (" + types + ")") + " {");
  body_.indent();
  emitBlock(op.body(0));
  body_.dedent();
  const Block& otherwise = op.body(1);
  bool emptyElse = types.empty() && std::all_of(otherwise.ops().begin(), otherwise.ops().end(),
                                                [](const auto& o) { return o->kind() == OpKind::Yield; });
  if (!emptyElse) {
    body_.line("} else {");
    body_.indent();
    emitBlock(otherwise);
    body_.dedent();
  }
  body_.line("}");
}

// Tiles flow through loops and branches in their shared buffers; only scalars are yielded.
void FunctionEmitter::emitYield(const Op& op) {
  std::vector<std::string> names, types;
  for (const Value* v : op.operands()) {
    if (v->type().isTile()) continue;
    names.push_back(scalars_.value(v));
    types.push_back(scalarType(v->type().dtype()));
  }
  if (!names.empty()) body_.line("scf.yield " + join(names) + " : " + join(types));
}

}  // namespace tilec::pto

namespace tilec::pto {

// ---- a kernel split between the cores ----

void FunctionEmitter::emitSection(const Op& op) {
  if ((op.kind() == OpKind::CoreCube) == (section_ == Section::Cube)) emitBlock(op.body());
}

std::string FunctionEmitter::pipeAttrs(const Op& op) {
  return "{id = " + std::to_string(op.get(attr::pipe)) + ", split = 0}";
}

// The consumer reserves the pipe's slots in its local memory (vec for the vector core, mat
// for the cube), the producer imports their address; on a2a3 the tiles travel through the
// GM slots of the kernel's last argument.
void FunctionEmitter::emitPipeInit(const Op& op) {
  const int64_t id = op.get(attr::pipe), slots = op.get(attr::slots), bytes = op.get(attr::slot_bytes);
  const Section producer = producers_.count(id) ? producers_.at(id) : Section::Cube;
  const Section consumer = producer == Section::Cube ? Section::Vector : Section::Cube;
  const bool toVector = producer == Section::Cube;
  const std::string buffer = f_.name() + "_pipe" + std::to_string(id);
  const std::string local = names_.fresh(buffer);
  if (section_ == consumer)
    body_.line(local + " = pto.reserve_buffer {name = \"" + buffer + "\", size = " + std::to_string(slots * bytes) +
               ", location = #pto.address_space<" + (toVector ? "vec" : "mat") + ">, auto = true} -> i32");
  else
    body_.line(local + " = pto.import_reserved_buffer {name = \"" + buffer + "\", peer_func = @" + functionName(consumer) +
               "} -> i32");
  const std::string none = scalars_.constant(DType::I32, AttrValue(int64_t(0)));
  std::string operands;
  if (!pipeSlots_.empty()) operands += "gm_slot_buffer = " + gmSlots(id) + " : !pto.ptr<f32>, ";
  operands += "c2v_consumer_buf = " + (toVector ? local : none) + " : i32, v2c_consumer_buf = " + (toVector ? none : local) + " : i32";
  body_.line(std::string("pto.") + (section_ == Section::Cube ? "aic" : "aiv") + "_initialize_pipe {id = " +
             std::to_string(id) + ", dir_mask = " + (toVector ? "1" : "2") + ", slot_size = " + std::to_string(bytes) +
             ", slot_num = " + std::to_string(slots) + "} (" + operands + ")");
}

// a2a3's GM slots: block b's pipes at b times one block's words, each pipe after the ones
// before it, so that no two blocks, and no two pipes, write the same slot.
std::string FunctionEmitter::gmSlots(int64_t pipe) {
  if (blockSlots_.empty()) {
    const std::string raw = names_.fresh("slots_block_i64");
    body_.line(raw + " = pto.get_block_idx");
    const std::string block = names_.fresh("slots_block");
    body_.line(block + " = arith.index_cast " + raw + " : i64 to index");
    const std::string words = names_.fresh("slots_offset");
    body_.line(words + " = arith.muli " + block + ", " + scalars_.constant(DType::Index, AttrValue(blockSlotWords_)) +
               " : index");
    blockSlots_ = names_.fresh("slots");
    body_.line(blockSlots_ + " = pto.addptr " + pipeSlots_ + ", " + words + " : !pto.ptr<f32> -> !pto.ptr<f32>");
  }
  const int64_t offset = pipeSlotOffset_.at(pipe);
  if (offset == 0) return blockSlots_;
  const std::string at = names_.fresh("slots_pipe" + std::to_string(pipe));
  body_.line(at + " = pto.addptr " + blockSlots_ + ", " + scalars_.constant(DType::Index, AttrValue(offset)) +
             " : !pto.ptr<f32> -> !pto.ptr<f32>");
  return at;
}

void FunctionEmitter::emitPush(const Op& op) {
  const Operand t = operand(op.operand(0));
  body_.line(std::string("pto.tpush_to_") + (section_ == Section::Cube ? "aiv" : "aic") + "(" + t.name + " : " + *t.type +
             ") " + pipeAttrs(op));
}

void FunctionEmitter::emitPop(const Op& op) {
  const std::string name = names_.fresh(hintOr(op.result(), "popped"));
  const std::string& type = interned(tileBufType(plan_.buffer(size_t(plan_.bufferOf(op.result()))).type()));
  body_.line(name + " = pto.tpop_from_" + (section_ == Section::Cube ? "aiv " : "aic ") + pipeAttrs(op) + " -> " + type);
  buffers_[size_t(plan_.bufferOf(op.result()))] = {name, &type};
}

void FunctionEmitter::emitFree(const Op& op) {
  body_.line(std::string("pto.tfree_from_") + (section_ == Section::Cube ? "aiv " : "aic ") + pipeAttrs(op));
}

}  // namespace tilec::pto
