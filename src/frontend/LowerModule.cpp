// Module-level lowering: file constants, kernels, parameters and symbolic sizes,
// plus the scope table and the small helpers every part of the lowering uses.
#include <algorithm>
#include <cctype>

#include "frontend/Frontend.h"
#include "frontend/Lowering.h"
#include "ir/Builder.h"
#include "ir/Describe.h"
#include "support/Wording.h"

namespace tilec::frontend {

// ---------------------------------------------------------------- values

const char* valKindName(ValKind k) {
  switch (k) {
    case ValKind::Poison: return "an invalid value";
    case ValKind::Void: return "nothing (store has no result)";
    case ValKind::Int: return "an integer";
    case ValKind::Bool: return "a boolean";
    case ValKind::Float: return "a float constant";
    case ValKind::Scalar: return "a float scalar";
    case ValKind::Tile: return "a tile";
    case ValKind::Tensor: return "a tensor";
    case ValKind::List: return "a list";
    case ValKind::Pattern: return "an access pattern";
    case ValKind::Tiler: return "a tiler";
    case ValKind::PartView: return "a partition view";
    case ValKind::TileArray: return "a tile array";
  }
  return "";
}

Val Val::make(ValKind k, SourceRange r) {
  Val v;
  v.kind = k;
  v.range = r;
  return v;
}

Val Val::integer(ir::Expr e, SourceRange r) {
  Val v = make(ValKind::Int, r);
  v.expr = std::move(e);
  return v;
}

Val Val::boolean(ir::Expr e, SourceRange r) {
  Val v = make(ValKind::Bool, r);
  v.expr = std::move(e);
  return v;
}

Val Val::floating(double d, SourceRange r) {
  Val v = make(ValKind::Float, r);
  v.number = d;
  return v;
}

Val Val::ssa(ValKind k, ir::Value* value, SourceRange r) {
  Val v = make(k, r);
  v.value = value;
  return v;
}

std::optional<int64_t> Val::constInt() const {
  if (kind != ValKind::Int) return std::nullopt;
  return expr.asConst();
}

// ---------------------------------------------------------------- scopes

void Scopes::pop() {
  for (const auto& b : frames_.back()) {
    auto it = visible_.find(b->name);
    it->second.pop_back();
    if (it->second.empty()) visible_.erase(it);
  }
  frames_.pop_back();
}

Binding* Scopes::lookup(const std::string& name) {
  auto it = visible_.find(name);
  return it == visible_.end() ? nullptr : it->second.back().binding;
}

Binding* Scopes::lookupInCurrent(const std::string& name) {
  auto it = visible_.find(name);
  if (it == visible_.end() || it->second.back().frame + 1 != frames_.size()) return nullptr;
  return it->second.back().binding;
}

Binding& Scopes::define(Binding b) {
  if (Binding* existing = lookupInCurrent(b.name)) {  // a redefinition, already reported
    *existing = std::move(b);
    return *existing;
  }
  frames_.back().push_back(std::make_unique<Binding>(std::move(b)));
  Binding* added = frames_.back().back().get();
  visible_[added->name].push_back({added, frames_.size() - 1});
  return *added;
}

std::vector<std::string> Scopes::visibleNames() const {
  std::vector<std::string> names;
  names.reserve(visible_.size());
  for (const auto& entry : visible_) names.push_back(entry.first);
  return names;  // in hash order: closestName breaks ties by name, so suggestions stay deterministic
}

// ---------------------------------------------------------------- helpers

Diagnostic& Lowerer::error(Diag id, SourceRange at, std::string message) {
  Diagnostic& d = diags_.report(id, at, std::move(message));
  noteDefinesIn(at, d);
  return d;
}

namespace {

bool identifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

// An error in source that names a constant or size a -D set may be the -D's doing (-D N=0
// makes a dim zero): each such name gets a note that shows the -D as it was typed, the
// caret under its value.
void Lowerer::noteDefinesIn(SourceRange at, Diagnostic& d) {
  if (definedValues_.empty() || !at.valid()) return;
  const std::string source = text(at);
  std::set<std::string> noted;
  for (size_t i = 0; i < source.size();) {
    size_t end = i;
    while (end < source.size() && identifierChar(source[end])) ++end;
    const std::string name = source.substr(i, end - i);
    i = end == i ? i + 1 : end;
    const auto define = defines_.find(name);
    const auto declared = definable_.find(name);
    const Binding* bound = define != defines_.end() && definedValues_.count(name) ? scopes_.lookup(name) : nullptr;
    if (!bound || declared == definable_.end() || !(bound->declRange == declared->second)) continue;  // shadowed
    const SourceRange value = define->second->value->range;
    if (value.file == at.file || !noted.insert(name).second) continue;
    d.notes.push_back({quotedName(name) + " is " + text(value) + " here, from " +
                           std::string(diags_.sources().lineText(value.file, 1)) + " on the command line",
                       value});
  }
}

// A -D that sets nothing: a name that differs from one it could set only in case is an
// error (the compile would go on with that one unset, and mean something else than asked);
// any other is a warning, with the likeliest name meant.
void Lowerer::reportUnusedDefines() {
  std::vector<std::string> names;
  for (const auto& [name, at] : definable_) names.push_back(name);
  for (const std::string& size : skippedSizes_) names.push_back(size);
  auto folded = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  for (const auto& [name, decl] : defines_) {
    if (definedValues_.count(name) || skippedSizes_.count(name)) continue;
    const std::string wanted = folded(name);  // C++17 lambdas cannot capture a structured binding
    auto sameButCase = std::find_if(names.begin(), names.end(), [&](const std::string& n) { return folded(n) == wanted; });
    if (sameButCase != names.end()) {
      Diagnostic& d = diags_.report(Diag::DefineCase, decl->nameRange,
                                    "-D " + name + " sets nothing, and " + quotedName(*sameButCase) +
                                        " differs from it only in case; names are case-sensitive: write -D " +
                                        *sameButCase + "=" + text(decl->value->range));
      if (auto at = definable_.find(*sameButCase); at != definable_.end())
        d.notes.push_back({quotedName(*sameButCase) + " declared here", at->second});
      continue;
    }
    const std::optional<std::string> near = closestName(name, names);
    diags_.report(Diag::UnusedDefine, decl->nameRange,
                  "-D " + name + " names no constant of the program and no 'dyn' size of any kernel; " +
                      (near ? "did you mean '" + *near + "'?" : std::string("check the spelling, or drop it")));
  }
}

std::string Lowerer::text(SourceRange r) const {
  if (!r.valid()) return {};
  std::string_view all = diags_.sources().contents(r.file);
  return std::string(all.substr(r.begin, r.end - r.begin));
}

std::string Lowerer::typeText(const ir::Type& t) const { return ir::typeText(t); }

void Lowerer::nameValue(ir::Value* v, const std::string& name, SourceRange at) {
  v->setName(name);
  v->setOrigin(at);
}

void Lowerer::define(const std::string& name, BindKind kind, SourceRange at, Val v) {
  if (Binding* previous = scopes_.lookupInCurrent(name)) {
    error(Diag::Redefinition, at, quotedName(name) + " is already defined in this scope; choose another name")
        .notes.push_back({quotedName(name) + " first defined here", previous->declRange});
  }
  // Even a redefinition binds: later uses most likely mean the newer one.
  scopes_.define(Binding{name, kind, at, std::move(v), SourceRange{}});
}

// ---------------------------------------------------------------- module

std::unique_ptr<ir::Module> Lowerer::lowerModule(const ast::Module& m) {
  auto module = std::make_unique<ir::Module>(target_);
  unsigned errorsBefore = diags_.errorCount();
  scopes_.push();  // file constants
  // Constants first, in order, so kernels may use a constant declared below them.
  for (const ast::TopDecl& d : m.decls)
    if (const auto* c = std::get_if<std::unique_ptr<ast::ConstDecl>>(&d)) lowerConst(**c, true);
  for (const ast::TopDecl& d : m.decls) {
    const auto* k = std::get_if<std::unique_ptr<ast::Kernel>>(&d);
    if (!k) continue;
    if (kernel_.empty() || (*k)->name == kernel_) {
      lowerKernel(**k, *module);
      continue;
    }
    // Another kernel than the one asked for is not checked; a -D of one of its sizes is
    // still no typo.
    for (const ast::SymbolDecl& size : (*k)->symbols) skippedSizes_.insert(size.name);
  }
  scopes_.pop();
  reportUnusedDefines();
  if (diags_.errorCount() > errorsBefore) return nullptr;
  return module;
}

// A file constant takes the value of its -D, if there is one; a constant in a kernel does not.
void Lowerer::lowerConst(const ast::ConstDecl& c, bool fileScope) {
  Val v = constantValue(c);
  if (fileScope)
    if (std::optional<Val> defined = definedValue(c.name, v.kind, c.nameRange)) v = *defined;
  define(c.name, BindKind::Const, c.nameRange, v);
}

Val Lowerer::constantValue(const ast::ConstDecl& c) {
  Val v = eval(*c.value);
  if (v.kind == ValKind::Int && !v.expr.isConst()) {
    error(Diag::NotConstant, c.value->range,
          "the value of constant " + quotedName(c.name) + " is not known at compile time; use only literals and other constants");
    return Val::poison(v.range);
  }
  if (!v.isPoison() && v.kind != ValKind::Int && v.kind != ValKind::Float) {
    error(Diag::WrongValueKind, c.value->range,
          "constant " + quotedName(c.name) + " must be an integer or a float, but this is " + valKindName(v.kind) +
              "; use let for other values");
    return Val::poison(v.range);
  }
  return v;
}

// The value -D gives `name`, checked against the kind the program declares for it (an
// integer stands for a float, not the other way round); nullopt when no -D names it.
std::optional<Val> Lowerer::definedValue(const std::string& name, ValKind declared, SourceRange declaredAt) {
  definable_.emplace(name, declaredAt);
  auto define = defines_.find(name);
  if (define == defines_.end()) return std::nullopt;
  auto [cached, fresh] = definedValues_.try_emplace(name);
  if (fresh) cached->second = constantValue(*define->second);
  const Val& v = cached->second;
  if (v.isPoison() || declared == ValKind::Poison || v.kind == declared) return v;
  if (declared == ValKind::Float && v.kind == ValKind::Int) return Val::floating(double(*v.constInt()), v.range);
  error(Diag::DefineKind, define->second->value->range,
        "-D " + name + " is " + valKindName(v.kind) + ", but " + quotedName(name) + " is " + valKindName(declared) +
            "; give -D " + name + " " + valKindName(declared) + " value")
      .notes.push_back({quotedName(name) + " declared here", declaredAt});
  return Val::poison(v.range);
}

void Lowerer::lowerKernel(const ast::Kernel& k, ir::Module& module) {
  auto [it, fresh] = kernelNames_.emplace(k.name, k.nameRange);
  if (!fresh) {
    error(Diag::Redefinition, k.nameRange, "kernel " + quotedName(k.name) + " is defined twice; rename one of them")
        .notes.push_back({quotedName(k.name) + " first defined here", it->second});
  }
  std::optional<ir::KernelKind> kind = k.kind.empty() ? ir::KernelKind(0) : target_.parseKernelKind(k.kind);
  if (!kind) {
    error(Diag::BadKeywordValue, k.kindRange,
          "target " + std::string(target_.name) + " has no " + quotedName(k.kind) + " kernels; " +
              useOneOf(target_.kernelKindNames(), "kernel kind") + ", or leave the kind out");
    kind = 0;
  }
  ir::Function& fn = module.addFunction(k.name, *kind);
  fn.setLoc(k.range);
  fn_ = &fn;
  block_ = &fn.body();
  scopes_.push();  // parameters and sizes
  defineParams(k, fn);
  lowerBlock(*k.body);
  scopes_.pop();
  fn_ = nullptr;
  block_ = nullptr;
}

// Declared parameters come first, then one index parameter per `where` size.
// Tensor dims may name sizes, so tensor types are set once the sizes exist.
void Lowerer::defineParams(const ast::Kernel& k, ir::Function& fn) {
  std::vector<ir::Value*> values;
  for (const ast::Param& p : k.params) {
    if (p.isTensor && p.dir == ir::ParamDir::None)
      error(Diag::BadParam, p.range,
            "tensor parameter " + quotedName(p.name) + " has no direction; write '" + p.name + ": in " +
                ir::dtypeName(p.dtype) + "[...]' (in, out or inout)");
    if (!p.isTensor && p.dir != ir::ParamDir::None)
      error(Diag::BadParam, p.range,
            "scalar parameter " + quotedName(p.name) + " cannot have a direction; remove '" + ir::paramDirName(p.dir) +
                "' or give it dims to make it a tensor");
    if (p.isTensor && p.dims.empty())
      error(Diag::BadParam, p.range, "tensor parameter " + quotedName(p.name) + " has no dims; write at least one, e.g. [16]");
    if (p.isTensor && int64_t(p.dims.size()) > limits_.maxTensorRank)
      error(Diag::TensorRankLimit, p.range,
            "tensor parameter " + quotedName(p.name) + " has " + std::to_string(p.dims.size()) + " dims, more than the limit of " +
                std::to_string(limits_.maxTensorRank) +
                " (--max-tensor-rank); merge adjacent dims, or raise the limit");
    ir::Type type = p.isTensor ? ir::Type() : ir::Type::scalar(p.dtype);
    ir::Value* v = fn.addParam(type, p.name, p.isTensor ? p.dir : ir::ParamDir::None, p.range);
    v->setOrigin(p.nameRange);
    values.push_back(v);
    Val val;
    if (p.isTensor)
      val = Val::ssa(ValKind::Tensor, v, p.nameRange);
    else if (p.dtype == ir::DType::Bool)
      val = Val::boolean(ir::Expr::var(v), p.nameRange);
    else if (ir::isInteger(p.dtype))
      val = Val::integer(ir::Expr::var(v), p.nameRange);
    else
      val = Val::ssa(ValKind::Scalar, v, p.nameRange);
    define(p.name, BindKind::Param, p.nameRange, val);
  }
  for (const ast::SymbolDecl& s : k.symbols) {
    if (std::optional<Val> defined = definedValue(s.name, ValKind::Int, s.range)) {
      define(s.name, BindKind::Size, s.range, *defined);
      continue;
    }
    ir::Value* v = fn.addParam(ir::Type::index(), s.name, ir::ParamDir::None, s.range);
    v->setOrigin(s.range);
    define(s.name, BindKind::Size, s.range, Val::integer(ir::Expr::var(v), s.range));
  }
  std::vector<ir::Expr> required;  // runtime dims already checked
  for (size_t i = 0; i < k.params.size(); ++i) {
    const ast::Param& p = k.params[i];
    if (!p.isTensor) continue;
    std::vector<ir::Expr> dims;
    for (const ast::ExprPtr& d : p.dims) {
      std::optional<ir::Expr> e = asInt(eval(*d), "a tensor dim");
      if (!e) {
        dims.push_back(ir::Expr::constant(1));
        continue;
      }
      if (std::optional<int64_t> c = e->asConst(); c && *c <= 0) {
        error(Diag::BadShapeList, d->range, "tensor dims must be positive, but this one is " + std::to_string(*c) +
                                                "; use a positive size");
        dims.push_back(ir::Expr::constant(1));  // the body is still checked, against a sane shape
        continue;
      }
      if (!e->asConst()) requirePositive(fn, p, dims.size(), *e, d->range, required);
      dims.push_back(*e);
    }
    values[i]->setType(ir::Type::tensor(p.dtype, std::move(dims)));
  }
}

// A runtime sequence checks its runtime tensor dims when it runs, as the compiler checks
// the constant ones: by the TXN writer for -D sizes, by the builder at dispatch.
void Lowerer::requirePositive(const ir::Function& fn, const ast::Param& p, size_t axis, const ir::Expr& dim,
                              SourceRange at, std::vector<ir::Expr>& required) {
  if (!target_.sequenceKind || fn.kind() != *target_.sequenceKind) return;
  for (const ir::Expr& r : required)
    if (ir::provablyEqual(r, dim)) return;
  required.push_back(dim);
  ir::OpBuilder builder(*block_);
  builder.setLoc(at);
  builder.create(ir::OpKind::SeqRequire, {},
                 {ir::attr::cond(ir::Expr::cmp(ir::CmpKind::GE, dim, ir::Expr::constant(1))),
                  ir::attr::message("tensor " + quotedName(p.name) + " dim " + std::to_string(axis) + " (" + text(at) +
                                  ") must be positive")});
}

// ---------------------------------------------------------------- entry point

std::unique_ptr<ir::Module> lower(const ast::Module& m, DiagnosticEngine& diags, const ir::TargetModel& target,
                                  const Limits& limits, const Defines& defines, LowerObserver* observer,
                                  const std::string& kernel) {
  return Lowerer(diags, target, limits, defines, observer, kernel).lowerModule(m);
}

}  // namespace tilec::frontend
