#include "lsp/Analysis.h"

#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "frontend/Ast.h"
#include "frontend/Frontend.h"
#include "frontend/Imports.h"
#include "frontend/Lowering.h"
#include "ir/Describe.h"
#include "passes/PassManager.h"
#include "target/Registry.h"

namespace tilec::lsp {
namespace {

using frontend::BindKind;
using frontend::ValKind;
using RangeKey = std::tuple<FileId, uint32_t, uint32_t>;

RangeKey keyOf(SourceRange r) { return {r.file, r.begin, r.end}; }

bool contains(SourceRange r, FileId file, uint32_t offset) {
  // The end is included so that a cursor just after a name still finds it.
  return r.file == file && r.begin <= offset && offset <= r.end;
}

// An SSA value as the lowering made it. The passes rewrite the module in place, but one
// that replaces a value (unrolling, flattening) makes a new one; that is found by the op
// it comes from, whose source range the replacement keeps.
struct ValueRef {
  std::string function;
  uint32_t id = 0;
  SourceRange opLoc;  // invalid for a block argument
  ir::OpKind opKind{};
  unsigned result = 0;
  std::string lowered;  // its type before the passes
};

struct Snapshot {
  ValKind kind = ValKind::Poison;
  std::string text;  // the value of a constant, or what kind of value it is
  std::optional<ValueRef> ref;
};

bool isSsa(ValKind k) { return k == ValKind::Tile || k == ValKind::Scalar || k == ValKind::Tensor; }

Snapshot snapshot(const frontend::Val& v) {
  Snapshot s{v.kind, frontend::valKindName(v.kind), std::nullopt};
  if (v.kind == ValKind::Int || v.kind == ValKind::Bool) s.text = ir::exprText(v.expr);
  if (v.kind == ValKind::Float) s.text = ir::numberText(v.number);
  if (!isSsa(v.kind) || !v.value) return s;
  const ir::Op* def = v.value->definingOp();
  const ir::Function* fn = v.value->function();
  s.ref = ValueRef{fn->name(), v.value->id(), def ? def->loc() : SourceRange{}, def ? def->kind() : ir::OpKind{},
                   v.value->index(), ir::annotationText(v.value->type())};
  return s;
}

struct Use {
  SourceRange at;
  SourceRange decl;
  BindKind kind;
  std::string name;
  Snapshot value;
};

class Recorder final : public frontend::LowerObserver {
 public:
  void evaluated(const ast::Expr& e, const frontend::Val& v) override {
    exprs[keyOf(e.range)] = snapshot(v);
    if (e.kind == ast::ExprKind::Call) callees.insert(keyOf(static_cast<const ast::Call&>(e).calleeRange));
  }
  void resolved(SourceRange use, const frontend::Binding& b) override {
    uses.push_back({use, b.declRange, b.kind, b.name, snapshot(b.val)});
  }
  // The last evaluation of each range: the outermost expression when several share one.
  std::map<RangeKey, Snapshot> exprs;
  std::vector<Use> uses;
  std::set<RangeKey> callees;
};

// Every value of the module after the passes, by function and id, and by the op it comes from.
class LiveValues {
 public:
  explicit LiveValues(ir::Module& m) {
    for (const auto& fn : m.functions()) {
      for (unsigned i = 0; i < fn->numParams(); ++i) add(fn->name(), fn->param(i));
      for (auto& op : fn->body().ops())
        op->walk([&](ir::Op& o) {
          for (unsigned r = 0; r < o.numResults(); ++r) {
            add(fn->name(), o.result(r));
            byOp_.emplace(std::tuple_cat(keyOf(o.loc()), std::make_tuple(r)), o.result(r));
            byOpKind_.emplace(std::tuple_cat(keyOf(o.loc()), std::make_tuple(r, o.kind())), o.result(r));
          }
          for (unsigned g = 0; g < o.numRegions(); ++g)
            for (const auto& arg : o.body(g).args()) add(fn->name(), arg.get());
        });
    }
  }

  const ir::Value* find(const ValueRef& ref) const {
    if (auto it = byId_.find({ref.function, ref.id}); it != byId_.end()) return it->second;
    if (!ref.opLoc.valid()) return nullptr;
    // An op of the same kind first: a pass may put others at its place (the moves of its
    // operands), or copy it (multi-buffer).
    if (auto it = byOpKind_.find(std::tuple_cat(keyOf(ref.opLoc), std::make_tuple(ref.result, ref.opKind)));
        it != byOpKind_.end())
      return it->second;
    auto it = byOp_.find(std::tuple_cat(keyOf(ref.opLoc), std::make_tuple(ref.result)));
    return it == byOp_.end() ? nullptr : it->second;
  }

 private:
  void add(const std::string& fn, const ir::Value* v) { byId_.emplace(std::make_pair(fn, v->id()), v); }
  std::map<std::pair<std::string, uint32_t>, const ir::Value*> byId_;
  std::map<std::tuple<FileId, uint32_t, uint32_t, unsigned>, const ir::Value*> byOp_;  // first in program order
  std::map<std::tuple<FileId, uint32_t, uint32_t, unsigned, ir::OpKind>, const ir::Value*> byOpKind_;
};

const char* kindWord(BindKind k) {
  switch (k) {
    case BindKind::Const: return "const";
    case BindKind::Let: return "let";
    case BindKind::Var: return "var";
    case BindKind::LoopVar: return "loop variable";
    case BindKind::Param: return "param";
    case BindKind::Size: return "size";
  }
  return "";
}

// Builds the hover text of every declaration and name use.
class Indexer {
 public:
  Indexer(const SourceManager& sm, const Recorder& recorded, const LiveValues* live)
      : sm_(sm), recorded_(recorded), live_(live) {}

  std::vector<Analysis::Name> names(const ast::Module& program) {
    for (const ast::TopDecl& d : program.decls) {
      if (const auto* c = std::get_if<std::unique_ptr<ast::ConstDecl>>(&d)) stmt(**c, SourceRange{});
      if (const auto* k = std::get_if<std::unique_ptr<ast::Kernel>>(&d)) kernel(**k);
    }
    for (const Use& u : recorded_.uses) {
      auto decl = declHover_.find(keyOf(u.decl));
      const bool fixed = u.kind != BindKind::Let && u.kind != BindKind::Var;  // its declaration says it all
      names_.push_back({u.at, u.decl,
                        fixed && decl != declHover_.end() ? decl->second : binding(u.kind, u.name, u.value),
                        nameKind(u.kind)});
    }
    return std::move(names_);
  }

  // Every declaration, with where it may be used (after names()).
  std::vector<ScopedName> scoped() { return std::move(scoped_); }
  // The memory space of every tile binding without a written type (after names()).
  std::vector<SpaceHint> spaceHints() { return std::move(spaceHints_); }

  // Every expression that produced a tile, with its type.
  std::vector<Hover> tileExprs() const {
    std::vector<Hover> tiles;
    for (const auto& [key, value] : recorded_.exprs)
      if (value.kind == ValKind::Tile)
        tiles.push_back({current(value), {std::get<0>(key), std::get<1>(key), std::get<2>(key)}});
    return tiles;
  }

 private:
  std::string current(const Snapshot& s) const {
    if (!s.ref) return s.text;
    const ir::Value* v = live_ ? live_->find(*s.ref) : nullptr;
    return v ? ir::annotationText(v->type()) : s.ref->lowered;
  }

  std::string binding(BindKind kind, const std::string& name, const Snapshot& s) const {
    const std::string head = std::string(kindWord(kind)) + " " + name;
    if (s.kind == ValKind::Poison && kind != BindKind::LoopVar && kind != BindKind::Size) return head;  // not lowered
    if (kind == BindKind::LoopVar) return head + ": index";
    if (kind == BindKind::Size) return head + (s.kind == ValKind::Int && s.text != name ? " = " + s.text : ": dyn");
    if (s.kind == ValKind::Int || s.kind == ValKind::Bool || s.kind == ValKind::Float) return head + " = " + current(s);
    return head + ": " + current(s);
  }

  Snapshot evaluated(const ast::Expr& e) const {
    auto it = recorded_.exprs.find(keyOf(e.range));
    return it == recorded_.exprs.end() ? Snapshot{} : it->second;
  }

  static NameKind nameKind(BindKind k) {
    if (k == BindKind::Param) return NameKind::Parameter;
    return k == BindKind::Const || k == BindKind::Size ? NameKind::Constant : NameKind::Variable;
  }

  // A declaration at `at`, usable in `visible` (an invalid range: everywhere).
  void declare(SourceRange at, std::string hover, BindKind kind, SourceRange visible) {
    declHover_[keyOf(at)] = hover;
    scoped_.push_back({text(at), hover, nameKind(kind) == NameKind::Constant, visible});
    names_.push_back({at, at, std::move(hover), nameKind(kind)});
  }

  void hintSpace(SourceRange name, const Snapshot& s) {
    const ir::Value* v = s.kind == ValKind::Tile && s.ref && live_ ? live_->find(*s.ref) : nullptr;
    if (!v || !v->type().isTile() || v->type().space() == ir::kNoSpace) return;
    spaceHints_.push_back({name, v->type().spaceName(), ir::annotationText(v->type())});
  }

  // From the end of a declaration to the end of the block that holds it.
  static SourceRange after(SourceRange decl, SourceRange block) {
    return block.valid() ? SourceRange{decl.file, decl.end, block.end} : block;
  }

  std::string text(SourceRange r) const {
    return std::string(sm_.contents(r.file).substr(r.begin, r.end - r.begin));
  }

  void kernel(const ast::Kernel& k) {
    for (const ast::Param& p : k.params) declare(p.nameRange, "param " + text(p.range), BindKind::Param, k.range);
    for (const ast::SymbolDecl& s : k.symbols) declare(s.range, "size " + s.name + ": dyn", BindKind::Size, k.range);
    stmt(*k.body, k.body->range);
  }

  // `scope`: the block that holds the statement; invalid at file level.
  void stmt(const ast::Stmt& s, SourceRange scope) {
    switch (s.kind) {
      case ast::StmtKind::Block:
        for (const ast::StmtPtr& x : static_cast<const ast::Block&>(s).stmts) stmt(*x, s.range);
        break;
      case ast::StmtKind::Bind: {
        const auto& b = static_cast<const ast::Bind&>(s);
        const BindKind kind = b.isMutable ? BindKind::Var : BindKind::Let;
        declare(b.nameRange, binding(kind, b.name, evaluated(*b.init)), kind, after(b.range, scope));
        if (!b.type) hintSpace(b.nameRange, evaluated(*b.init));
        break;
      }
      case ast::StmtKind::Const: {
        const auto& c = static_cast<const ast::ConstDecl&>(s);
        declare(c.nameRange, binding(BindKind::Const, c.name, evaluated(*c.value)), BindKind::Const, after(c.range, scope));
        break;
      }
      case ast::StmtKind::For: {
        const auto& f = static_cast<const ast::For&>(s);
        declare(f.varRange, binding(BindKind::LoopVar, f.var, {}), BindKind::LoopVar, f.body->range);
        stmt(*f.body, f.body->range);
        break;
      }
      case ast::StmtKind::If: {
        const auto& i = static_cast<const ast::If&>(s);
        stmt(*i.thenBlock, i.thenBlock->range);
        if (i.elseStmt) stmt(*i.elseStmt, i.elseStmt->range);
        break;
      }
      case ast::StmtKind::Assign:
      case ast::StmtKind::Expr: break;
    }
  }

  const SourceManager& sm_;
  const Recorder& recorded_;
  const LiveValues* live_;
  std::map<RangeKey, std::string> declHover_;
  std::vector<Analysis::Name> names_;
  std::vector<ScopedName> scoped_;
  std::vector<SpaceHint> spaceHints_;
};

// The target's default pipeline, as `tilec FILE --target=T` runs it before emitting.
bool runPipeline(ir::Module& m, const target::TargetDesc& target, DiagnosticEngine& diags) {
  PassContext context{diags};
  PassManager passes(context, PropSSA, target.passes);
  passes.addPasses(target.pipeline);
  return passes.run(m);
}

}  // namespace

Analysis::Analysis(const std::string& path, std::string text, const FileReader& read, const AnalysisFlags& flags)
    : sources_(std::make_unique<SourceManager>()) {
  const target::TargetDesc& target = *flags.target;
  root_ = sources_->addBuffer(path, std::move(text));
  DiagnosticEngine diags(*sources_);
  frontend::Defines defines;
  const std::vector<std::unique_ptr<ast::Module>> defineDecls =
      frontend::parseDefines(*sources_, flags.defines, diags, defines);
  firstImport_ = static_cast<FileId>(sources_->fileCount());
  std::unique_ptr<ast::Module> program =
      frontend::parseProgram(*sources_, root_, diags, {flags.includeDirs, read});
  Recorder recorder;
  std::unique_ptr<ir::Module> module;
  if (program && !diags.hasErrors())
    module = frontend::lower(*program, diags, *target.model, defaultLimits(), defines, &recorder);
  lowered_ = module != nullptr;
  if (module) runPipeline(*module, target, diags);
  diagnostics_ = diags.all();

  if (!program) program = frontend::parse(*sources_, root_, diags);  // for the root's imports, if it parses
  if (!program) return;
  std::optional<LiveValues> live;
  if (module) live.emplace(*module);
  for (const RangeKey& k : recorder.callees)
    if (std::get<0>(k) == root_) builtinCalls_.push_back({std::get<0>(k), std::get<1>(k), std::get<2>(k)});
  Indexer indexer(*sources_, recorder, live ? &*live : nullptr);
  names_ = indexer.names(*program);
  scoped_ = indexer.scoped();
  spaceHints_ = indexer.spaceHints();
  indexed_ = true;
  tileExprs_ = indexer.tileExprs();
  for (const ast::Import& i : program->imports)
    if (i.range.file == root_) imports_.push_back({i.range, i.pathRange, i.resolved != kNoFile ? i.resolved : fileRead(i)});
  for (const ast::TopDecl& d : program->decls) {
    if (const auto* c = std::get_if<std::unique_ptr<ast::ConstDecl>>(&d); c && (*c)->range.file == root_)
      symbols_.push_back({(*c)->name, Symbol::Kind::Constant, "const", (*c)->range, (*c)->nameRange, {}});
    const auto* k = std::get_if<std::unique_ptr<ast::Kernel>>(&d);
    if (!k || (*k)->range.file != root_) continue;
    Symbol kernel{(*k)->name, Symbol::Kind::Kernel, "kernel", (*k)->range, (*k)->nameRange, {}};
    for (const ast::Param& p : (*k)->params)
      kernel.children.push_back({p.name, Symbol::Kind::Parameter,
                                 std::string(sources_->contents(root_).substr(p.range.begin, p.range.end - p.range.begin)),
                                 p.range, p.nameRange, {}});
    symbols_.push_back(std::move(kernel));
  }
}

// The file an import of the root read, when the program did not parse and so did not say.
FileId Analysis::fileRead(const ast::Import& i) const {
  const std::string path =
      (std::filesystem::path(sources_->name(root_)).parent_path() / i.path).lexically_normal().string();
  for (FileId f = 0; f < sources_->fileCount(); ++f)
    if (f != root_ && sources_->name(f) == path) return f;
  return kNoFile;
}

std::vector<std::string> Analysis::importedFiles() const {
  std::vector<std::string> files;
  for (FileId f = firstImport_; f < sources_->fileCount(); ++f) files.push_back(sources_->name(f));
  return files;
}

std::optional<Hover> Analysis::hoverAt(uint32_t offset) const {
  for (const Name& n : names_)
    if (contains(n.at, root_, offset)) return Hover{n.hover, n.at};
  const Hover* innermost = nullptr;
  for (const Hover& h : tileExprs_)
    if (contains(h.range, root_, offset) && (!innermost || h.range.end - h.range.begin < innermost->range.end - innermost->range.begin))
      innermost = &h;
  if (!innermost) return std::nullopt;
  return *innermost;
}

std::optional<SourceRange> Analysis::definitionAt(uint32_t offset) const {
  for (const Name& n : names_)
    if (contains(n.at, root_, offset)) return n.decl;
  for (const RootImport& i : imports_)
    if (contains(i.pathRange, root_, offset) && i.file != kNoFile) return SourceRange{i.file, 0, 0};
  return std::nullopt;
}

std::vector<SourceRange> Analysis::referencesAt(uint32_t offset) const {
  const Name* at = nullptr;
  for (const Name& n : names_)
    if (contains(n.at, root_, offset)) {
      at = &n;
      break;
    }
  if (!at) return {};
  std::set<RangeKey> uses;  // a use in an unrolled loop is resolved once per copy
  for (const Name& n : names_)
    if (keyOf(n.decl) == keyOf(at->decl) && keyOf(n.at) != keyOf(at->decl)) uses.insert(keyOf(n.at));
  std::vector<SourceRange> all{at->decl};
  for (const RangeKey& k : uses) all.push_back({std::get<0>(k), std::get<1>(k), std::get<2>(k)});
  return all;
}

std::vector<NameToken> Analysis::nameTokens() const {
  std::map<RangeKey, NameToken> tokens;  // ordered by place; a name resolved once per unrolled copy is one token
  for (const Name& n : names_) {
    if (n.at.file != root_) continue;
    const auto kind = n.kind == NameKind::Parameter ? NameToken::Kind::Parameter
                      : n.kind == NameKind::Constant ? NameToken::Kind::Constant
                                                     : NameToken::Kind::Variable;
    tokens[keyOf(n.at)] = {n.at, kind, keyOf(n.at) == keyOf(n.decl)};
  }
  for (const SourceRange& c : builtinCalls_) tokens[keyOf(c)] = {c, NameToken::Kind::Builtin, false};
  std::vector<NameToken> ordered;
  for (const auto& [key, token] : tokens) ordered.push_back(token);
  return ordered;
}

std::vector<ScopedName> Analysis::namesInScopeAt(uint32_t offset) const {
  std::map<std::string, const ScopedName*> innermost;
  auto width = [](const ScopedName* n) { return n->visible.valid() ? n->visible.end - n->visible.begin : ~0u; };
  for (const ScopedName& n : scoped_) {
    if (n.visible.valid() && !contains(n.visible, root_, offset)) continue;
    const ScopedName*& best = innermost[n.name];
    if (!best || width(&n) <= width(best)) best = &n;
  }
  std::vector<ScopedName> names;
  for (const auto& [name, n] : innermost) names.push_back(*n);
  return names;
}

// Files are read depth first, so the files an import brings in have the ids from its own
// up to the next import's.
SourceRange Analysis::importLeadingTo(FileId file) const {
  const RootImport* leading = nullptr;
  for (const RootImport& i : imports_)
    if (i.file != kNoFile && i.file <= file && (!leading || i.file > leading->file)) leading = &i;
  return leading ? leading->range : SourceRange{root_, 0, 0};
}

}  // namespace tilec::lsp
