#include "frontend/AstBuilder.h"

#include <cstdlib>
#include "support/Wording.h"

namespace tilec::frontend {
namespace {

using P = grammar::TileParser;

ir::DType dtypeOf(antlr4::tree::TerminalNode* n) {
  // The DTYPE token only matches names parseDType knows.
  return *ir::parseDType(n->getText());
}

ast::BinaryOp binaryOpOf(size_t tokenType) {
  switch (tokenType) {
    case P::PLUS: case P::PLUS_ASSIGN: return ast::BinaryOp::Add;
    case P::MINUS: case P::MINUS_ASSIGN: return ast::BinaryOp::Sub;
    case P::STAR: case P::STAR_ASSIGN: return ast::BinaryOp::Mul;
    case P::SLASH: case P::SLASH_ASSIGN: return ast::BinaryOp::Div;
    case P::PERCENT: return ast::BinaryOp::Mod;
    case P::EQ: return ast::BinaryOp::Eq;
    case P::NE: return ast::BinaryOp::Ne;
    case P::LT: return ast::BinaryOp::Lt;
    case P::LE: return ast::BinaryOp::Le;
    case P::GT: return ast::BinaryOp::Gt;
    case P::GE: return ast::BinaryOp::Ge;
    case P::AND: return ast::BinaryOp::And;
    case P::AMP: return ast::BinaryOp::BitAnd;
    case P::PIPE: return ast::BinaryOp::BitOr;
    case P::CARET: return ast::BinaryOp::BitXor;
    case P::SHL: return ast::BinaryOp::Shl;
    case P::SHR: return ast::BinaryOp::Shr;
    default: return ast::BinaryOp::Or;
  }
}

// Parses a decimal or 0x-hexadecimal literal; nullopt when it exceeds int64.
std::optional<int64_t> parseIntLiteral(const std::string& text) {
  bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  uint64_t base = hex ? 16 : 10;
  uint64_t value = 0;
  for (size_t i = hex ? 2 : 0; i < text.size(); ++i) {
    char c = text[i];
    uint64_t digit = c <= '9' ? uint64_t(c - '0') : uint64_t((c | 0x20) - 'a' + 10);
    if (__builtin_mul_overflow(value, base, &value) || __builtin_add_overflow(value, digit, &value))
      return std::nullopt;
  }
  if (value > uint64_t(INT64_MAX)) return std::nullopt;
  return int64_t(value);
}

// The lexer's STRING admits `\c` for any c; it stands for c itself.
std::string unquote(const std::string& quoted) {
  std::string text;
  for (size_t i = 1; i + 1 < quoted.size(); ++i) text += quoted[i] == '\\' ? quoted[++i] : quoted[i];
  return text;
}

}  // namespace

std::unique_ptr<ast::Module> AstBuilder::emptyModule() const {
  auto m = std::make_unique<ast::Module>();
  m->file = ranges_.file();
  m->files = {m->file};
  return m;
}

std::unique_ptr<ast::Module> AstBuilder::build(P::ModuleContext* ctx) {
  std::unique_ptr<ast::Module> m = emptyModule();
  for (P::TopDeclContext* d : ctx->topDecl()) topDecl(d, *m);
  return m;
}

void AstBuilder::topDecl(P::TopDeclContext* ctx, ast::Module& m) {
  if (auto* c = ctx->constDecl()) {
    m.decls.emplace_back(constDecl(c));
  } else if (auto* k = ctx->kernelDecl()) {
    m.decls.emplace_back(kernel(k));
  } else if (auto* i = ctx->importDecl()) {
    ast::Import imported;
    imported.range = range(i);
    imported.pathRange = range(i->STRING());
    imported.path = unquote(text(i->STRING()));
    m.imports.push_back(std::move(imported));
  } else {
    reservedStmt(ctx->reservedStmt());
  }
}

void AstBuilder::reserved(SourceRange at, const std::string& construct, const std::string& fix) {
  diags_.report(Diag::ReservedSyntax, at, construct + " is reserved for a later version; " + fix);
}

void AstBuilder::reservedStmt(P::ReservedStmtContext* ctx) {
  std::string kw = text(ctx->kw);
  if (kw == "pattern")
    reserved(range(ctx), "'pattern'", "build access patterns with tap, slice or a tiler's tile_at");
  else
    reserved(range(ctx), "'region'", "borrow slots with partview(tile, [R, C]) and build tiles with tile_array");
}

std::unique_ptr<ast::ConstDecl> AstBuilder::constDecl(P::ConstDeclContext* ctx) {
  auto c = std::make_unique<ast::ConstDecl>();
  c->range = range(ctx);
  c->name = text(ctx->ID());
  c->nameRange = range(ctx->ID());
  c->value = expr(ctx->expr());
  return c;
}

std::unique_ptr<ast::Kernel> AstBuilder::kernel(P::KernelDeclContext* ctx) {
  std::unique_ptr<ast::Kernel> k = kernelHead(ctx->kernelHead());
  k->range = range(ctx);
  k->body = block(ctx->block());
  return k;
}

std::unique_ptr<ast::Kernel> AstBuilder::kernelHead(P::KernelHeadContext* ctx) {
  auto k = std::make_unique<ast::Kernel>();
  k->range = range(ctx);
  if (P::KernelKindContext* kind = ctx->kernelKind()) {
    k->kind = kind->getText();
    k->kindRange = range(kind);
  }
  k->name = text(ctx->ID());
  k->nameRange = range(ctx->ID());
  if (P::ParamListContext* params = ctx->paramList())
    for (P::ParamContext* p : params->param()) k->params.push_back(param(p));
  if (P::WhereClauseContext* where = ctx->whereClause()) {
    for (P::SymbolDeclContext* s : where->symbolDecl()) {
      ast::SymbolDecl sym;
      sym.range = range(s->ID());
      sym.name = text(s->ID());
      k->symbols.push_back(std::move(sym));
    }
  }
  return k;
}

ast::Param AstBuilder::param(P::ParamContext* ctx) {
  ast::Param p;
  p.range = range(ctx);
  p.name = text(ctx->ID());
  p.nameRange = range(ctx->ID());
  if (P::DirectionContext* dir = ctx->direction())
    p.dir = dir->IN() ? ir::ParamDir::In : dir->OUT() ? ir::ParamDir::Out : ir::ParamDir::InOut;
  p.dtype = dtypeOf(ctx->DTYPE());
  p.isTensor = ctx->LBRACK() != nullptr;
  p.dims = exprList(ctx->exprList());
  return p;
}

std::unique_ptr<ast::Block> AstBuilder::block(P::BlockContext* ctx) {
  auto b = std::make_unique<ast::Block>();
  b->range = range(ctx);
  for (P::StmtContext* s : ctx->stmt())
    if (ast::StmtPtr st = stmt(s)) b->stmts.push_back(std::move(st));
  return b;
}

ast::StmtPtr AstBuilder::stmt(P::StmtContext* ctx) {
  if (auto* s = ctx->bindStmt()) return bind(s);
  if (auto* s = ctx->assignStmt()) return assign(s);
  if (auto* s = ctx->forStmt()) return forStmt(s);
  if (auto* s = ctx->ifStmt()) return ifStmt(s);
  if (auto* s = ctx->constDecl()) return constDecl(s);
  if (auto* s = ctx->block()) return block(s);
  if (auto* s = ctx->exprStmt()) {
    auto e = std::make_unique<ast::ExprStmt>();
    e->range = range(s);
    e->expr = expr(s->expr());
    return e;
  }
  reservedStmt(ctx->reservedStmt());
  return nullptr;
}

ast::StmtPtr AstBuilder::bind(P::BindStmtContext* ctx) {
  auto b = std::make_unique<ast::Bind>();
  b->range = range(ctx);
  b->isMutable = ctx->VAR() != nullptr;
  b->name = text(ctx->ID());
  b->nameRange = range(ctx->ID());
  if (P::TypeAnnContext* t = ctx->typeAnn()) b->type = typeAnn(t);
  b->init = expr(ctx->expr());
  return b;
}

ast::StmtPtr AstBuilder::assign(P::AssignStmtContext* ctx) {
  auto a = std::make_unique<ast::Assign>();
  a->range = range(ctx);
  a->name = text(ctx->ID());
  a->nameRange = range(ctx->ID());
  a->opRange = range(ctx->op);
  if (ctx->exprList()) a->indices = exprList(ctx->exprList());
  if (ctx->op->getType() != P::ASSIGN) a->compound = binaryOpOf(ctx->op->getType());
  a->value = expr(ctx->expr());
  return a;
}

ast::StmtPtr AstBuilder::forStmt(P::ForStmtContext* ctx) {
  std::unique_ptr<ast::For> f = forHead(ctx->forHead());
  f->range = range(ctx);
  f->body = block(ctx->block());
  return f;
}

std::unique_ptr<ast::For> AstBuilder::forHead(P::ForHeadContext* ctx) {
  auto f = std::make_unique<ast::For>();
  f->range = range(ctx);
  if (ctx->UNROLL()) f->mode = ast::LoopMode::Unroll;
  if (ctx->PARALLEL()) f->mode = ast::LoopMode::Parallel;
  if (ctx->schedule) {
    f->schedule = text(ctx->schedule);
    f->scheduleRange = range(ctx->schedule);
  }
  f->var = text(ctx->var);
  f->varRange = range(ctx->var);
  f->lb = expr(ctx->expr(0));
  f->ub = expr(ctx->expr(1));
  if (ctx->STEP()) f->step = expr(ctx->expr(2));
  if (ctx->clause) {
    f->clause = text(ctx->clause);
    f->clauseRange = range(ctx->clause);
    f->clauseValue = expr(ctx->clauseValue);
  }
  return f;
}

std::unique_ptr<ast::If> AstBuilder::ifStmt(P::IfStmtContext* ctx) {
  std::unique_ptr<ast::If> i = ifHead(ctx->ifHead());
  i->range = range(ctx);
  i->thenBlock = block(ctx->block(0));
  if (P::IfStmtContext* elseIf = ctx->ifStmt())
    i->elseStmt = ifStmt(elseIf);
  else if (ctx->block().size() > 1)
    i->elseStmt = block(ctx->block(1));
  return i;
}

std::unique_ptr<ast::If> AstBuilder::ifHead(P::IfHeadContext* ctx) {
  auto i = std::make_unique<ast::If>();
  i->range = range(ctx);
  i->cond = expr(ctx->expr());
  return i;
}

std::unique_ptr<ast::TypeAnn> AstBuilder::typeAnn(P::TypeAnnContext* ctx) {
  auto t = std::make_unique<ast::TypeAnn>();
  t->range = range(ctx);
  if (auto* s = dynamic_cast<P::ScalarTypeAnnContext*>(ctx)) {
    t->dtype = dtypeOf(s->DTYPE());
    return t;
  }
  if (auto* n = dynamic_cast<P::NamedTypeAnnContext*>(ctx)) {
    if (text(n->ID()) != "index") {
      diags_.report(Diag::UnknownTypeName, range(n),
                    "unknown type " + quotedName(text(n->ID())) + "; use a dtype, 'index' or 'tile<...>'");
    }
    t->kind = ast::TypeAnn::Kind::Index;
    return t;
  }
  auto* tile = static_cast<P::TileTypeAnnContext*>(ctx);
  if (text(tile->ID()) != "tile") {
    diags_.report(Diag::UnknownTypeName, range(tile->ID()),
                  "unknown type " + quotedName(text(tile->ID())) + "; write 'tile<dtype, [shape], ...>'");
  }
  t->kind = ast::TypeAnn::Kind::Tile;
  t->dtype = dtypeOf(tile->DTYPE());
  t->shape = exprList(tile->exprList());
  for (P::TileTypeOptContext* opt : tile->tileTypeOpt()) {
    std::string key = text(opt->ID());
    if (opt->ASSIGN() && key == "valid") {
      t->valid = exprList(opt->exprList());
    } else if (!opt->ASSIGN() && !t->space) {
      t->space = key;
      t->spaceRange = range(opt->ID());
    } else {
      diags_.report(Diag::UnknownTypeName, range(opt),
                    "unexpected '" + opt->getText() +
                        "' in a tile type; write one memory space and at most one 'valid = [...]'");
    }
  }
  return t;
}

std::vector<ast::ExprPtr> AstBuilder::exprList(P::ExprListContext* ctx) {
  std::vector<ast::ExprPtr> out;
  if (!ctx) return out;
  for (P::ExprContext* e : ctx->expr()) out.push_back(expr(e));
  return out;
}

std::vector<ast::Arg> AstBuilder::argList(P::ArgListContext* ctx) {
  std::vector<ast::Arg> out;
  if (!ctx) return out;
  for (P::ArgContext* a : ctx->arg()) {
    ast::Arg arg;
    arg.range = range(a);
    if (a->ID()) {
      arg.keyword = text(a->ID());
      arg.keywordRange = range(a->ID());
    }
    arg.value = expr(a->expr());
    out.push_back(std::move(arg));
  }
  return out;
}

ast::ExprPtr AstBuilder::expr(P::ExprContext* ctx) {
  if (auto* p = dynamic_cast<P::PrimaryExprContext*>(ctx)) return primary(p->primary());
  if (auto* u = dynamic_cast<P::UnaryExprContext*>(ctx)) {
    auto n = std::make_unique<ast::Unary>();
    n->range = range(u);
    const size_t t = u->op->getType();
    n->op = t == P::MINUS ? ast::UnaryOp::Neg : t == P::NOT ? ast::UnaryOp::Not : ast::UnaryOp::BitNot;
    n->operand = expr(u->expr());
    return n;
  }
  auto* b = static_cast<P::BinaryExprContext*>(ctx);
  auto n = std::make_unique<ast::Binary>();
  n->range = range(b);
  n->op = binaryOpOf(b->op->getType());
  n->opRange = range(b->op);
  n->lhs = expr(b->expr(0));
  n->rhs = expr(b->expr(1));
  return n;
}

ast::ExprPtr AstBuilder::intLiteral(antlr4::Token* tok) {
  auto n = std::make_unique<ast::IntLit>();
  n->range = range(tok);
  if (std::optional<int64_t> v = parseIntLiteral(text(tok)))
    n->value = *v;
  else
    diags_.report(Diag::IntLiteralRange, n->range,
                  "integer literal " + text(tok) + " does not fit in 64 bits; use a value below 2^63");
  return n;
}

ast::ExprPtr AstBuilder::primary(P::PrimaryContext* ctx) {
  if (auto* i = dynamic_cast<P::IntLitContext*>(ctx)) return intLiteral(i->INT()->getSymbol());
  if (auto* f = dynamic_cast<P::FloatLitContext*>(ctx)) {
    auto n = std::make_unique<ast::FloatLit>();
    n->range = range(f);
    n->text = text(f->FLOAT());
    n->value = std::strtod(n->text.c_str(), nullptr);
    return n;
  }
  if (auto* b = dynamic_cast<P::BoolLitContext*>(ctx)) {
    auto n = std::make_unique<ast::BoolLit>();
    n->range = range(b);
    n->value = b->TRUE() != nullptr;
    return n;
  }
  if (auto* c = dynamic_cast<P::CallContext*>(ctx)) return call(c);
  if (auto* x = dynamic_cast<P::IndexExprContext*>(ctx)) {
    auto ix = std::make_unique<ast::Index>();
    ix->range = range(x);
    ix->name = text(x->ID());
    ix->nameRange = range(x->ID());
    ix->indices = exprList(x->exprList());
    return ix;
  }
  if (auto* n = dynamic_cast<P::NameRefContext*>(ctx)) {
    auto ref = std::make_unique<ast::NameRef>();
    ref->range = range(n);
    ref->name = text(n->ID());
    return ref;
  }
  if (auto* p = dynamic_cast<P::ParenExprContext*>(ctx)) {
    ast::ExprPtr inner = expr(p->expr());
    inner->range = range(p);  // diagnostics then cover the parentheses too
    return inner;
  }
  auto* l = static_cast<P::ListExprContext*>(ctx);
  auto list = std::make_unique<ast::List>();
  list->range = range(l);
  list->elements = exprList(l->exprList());
  return list;
}

ast::ExprPtr AstBuilder::call(P::CallContext* ctx) {
  auto c = std::make_unique<ast::Call>();
  c->range = range(ctx);
  c->callee = text(ctx->callee);  // `where` is a keyword of the kernel header and a built-in
  c->calleeRange = range(ctx->callee);
  if (ctx->DTYPE()) {
    c->typeArg = dtypeOf(ctx->DTYPE());
    c->typeArgRange = range(ctx->DTYPE());
  }
  c->args = argList(ctx->argList());
  return c;
}

}  // namespace tilec::frontend
