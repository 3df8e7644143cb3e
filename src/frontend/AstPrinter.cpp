// --emit=ast: one node per line, children indented by two spaces, each line
// `Kind details @line:col`. Deterministic: it only walks vectors in order.
#include <ostream>

#include "frontend/Ast.h"
#include "frontend/Frontend.h"

namespace tilec {
namespace ast {

const char* spelling(UnaryOp op) {
  static const char* const names[] = {"-", "!", "~"};
  return names[size_t(op)];
}

const char* spelling(BinaryOp op) {
  static const char* const names[] = {"+",  "-",  "*", "/", "%", "==", "!=", "<", "<=", ">",
                                      ">=", "&&", "||", "&", "|", "^",  "<<", ">>"};
  return names[size_t(op)];
}


}  // namespace ast

namespace frontend {
namespace {

class AstPrinter {
 public:
  AstPrinter(const SourceManager& sm, std::ostream& os) : sm_(sm), os_(os) {}

  void module(const ast::Module& m) {
    os_ << "Module\n";
    for (const ast::Import& i : m.imports) line(1, "Import \"" + i.path + "\"", i.range);
    for (const ast::TopDecl& d : m.decls) {
      if (const auto* c = std::get_if<std::unique_ptr<ast::ConstDecl>>(&d))
        stmt(**c, 1);
      else
        kernel(*std::get<std::unique_ptr<ast::Kernel>>(d), 1);
    }
  }

 private:
  void line(int depth, const std::string& text, SourceRange r) {
    os_ << std::string(size_t(depth) * 2, ' ') << text;
    if (r.valid()) {
      LineCol lc = sm_.lineCol(r.file, r.begin);
      os_ << " @" << lc.line << ':' << lc.column;
    }
    os_ << '\n';
  }

  void kernel(const ast::Kernel& k, int depth) {
    line(depth, "Kernel " + k.name + (k.kind.empty() ? "" : " " + k.kind), k.range);
    for (const ast::Param& p : k.params) {
      std::string text = "Param " + p.name;
      if (p.dir != ir::ParamDir::None) text += std::string(" ") + ir::paramDirName(p.dir);
      text += std::string(" ") + ir::dtypeName(p.dtype);
      if (p.isTensor) text += " tensor";
      line(depth + 1, text, p.range);
      for (const ast::ExprPtr& d : p.dims) expr(*d, depth + 2);
    }
    for (const ast::SymbolDecl& s : k.symbols) line(depth + 1, "Symbol " + s.name + " dyn", s.range);
    stmt(*k.body, depth + 1);
  }

  void typeAnn(const ast::TypeAnn& t, int depth) {
    switch (t.kind) {
      case ast::TypeAnn::Kind::Scalar: line(depth, std::string("Type ") + ir::dtypeName(t.dtype), t.range); return;
      case ast::TypeAnn::Kind::Index: line(depth, "Type index", t.range); return;
      case ast::TypeAnn::Kind::Tile: break;
    }
    std::string text = std::string("Type tile ") + ir::dtypeName(t.dtype);
    if (t.space) text += " " + *t.space;
    line(depth, text, t.range);
    line(depth + 1, "Shape", {});
    for (const ast::ExprPtr& e : t.shape) expr(*e, depth + 2);
    if (!t.valid.empty()) {
      line(depth + 1, "Valid", {});
      for (const ast::ExprPtr& e : t.valid) expr(*e, depth + 2);
    }
  }

  void stmt(const ast::Stmt& s, int depth) {
    switch (s.kind) {
      case ast::StmtKind::Block:
        line(depth, "Block", s.range);
        for (const ast::StmtPtr& c : static_cast<const ast::Block&>(s).stmts) stmt(*c, depth + 1);
        return;
      case ast::StmtKind::Bind: {
        const auto& b = static_cast<const ast::Bind&>(s);
        line(depth, std::string(b.isMutable ? "Var " : "Let ") + b.name, s.range);
        if (b.type) typeAnn(*b.type, depth + 1);
        expr(*b.init, depth + 1);
        return;
      }
      case ast::StmtKind::Assign: {
        const auto& a = static_cast<const ast::Assign&>(s);
        std::string op = a.compound ? std::string(ast::spelling(*a.compound)) + "=" : "=";
        line(depth, "Assign " + a.name + (a.indices.empty() ? "" : "[]") + " " + op, s.range);
        for (const ast::ExprPtr& x : a.indices) expr(*x, depth + 1);
        expr(*a.value, depth + 1);
        return;
      }
      case ast::StmtKind::Expr:
        line(depth, "ExprStmt", s.range);
        expr(*static_cast<const ast::ExprStmt&>(s).expr, depth + 1);
        return;
      case ast::StmtKind::For: {
        const auto& f = static_cast<const ast::For&>(s);
        line(depth, "For " + f.var + " " + ir::loopModeName(f.mode), s.range);
        expr(*f.lb, depth + 1);
        expr(*f.ub, depth + 1);
        if (f.step) expr(*f.step, depth + 1);
        stmt(*f.body, depth + 1);
        return;
      }
      case ast::StmtKind::If: {
        const auto& i = static_cast<const ast::If&>(s);
        line(depth, "If", s.range);
        expr(*i.cond, depth + 1);
        stmt(*i.thenBlock, depth + 1);
        if (i.elseStmt) {
          line(depth + 1, "Else", {});
          stmt(*i.elseStmt, depth + 2);
        }
        return;
      }
      case ast::StmtKind::Const: {
        const auto& c = static_cast<const ast::ConstDecl&>(s);
        line(depth, "Const " + c.name, s.range);
        expr(*c.value, depth + 1);
        return;
      }
    }
  }

  void expr(const ast::Expr& e, int depth) {
    switch (e.kind) {
      case ast::ExprKind::Int:
        line(depth, "Int " + std::to_string(static_cast<const ast::IntLit&>(e).value), e.range);
        return;
      case ast::ExprKind::Float:
        line(depth, "Float " + static_cast<const ast::FloatLit&>(e).text, e.range);
        return;
      case ast::ExprKind::Bool:
        line(depth, static_cast<const ast::BoolLit&>(e).value ? "Bool true" : "Bool false", e.range);
        return;
      case ast::ExprKind::Name:
        line(depth, "Name " + static_cast<const ast::NameRef&>(e).name, e.range);
        return;
      case ast::ExprKind::Unary: {
        const auto& u = static_cast<const ast::Unary&>(e);
        line(depth, std::string("Unary ") + ast::spelling(u.op), e.range);
        expr(*u.operand, depth + 1);
        return;
      }
      case ast::ExprKind::Binary: {
        const auto& b = static_cast<const ast::Binary&>(e);
        line(depth, std::string("Binary ") + ast::spelling(b.op), e.range);
        expr(*b.lhs, depth + 1);
        expr(*b.rhs, depth + 1);
        return;
      }
      case ast::ExprKind::Call: {
        const auto& c = static_cast<const ast::Call&>(e);
        std::string text = "Call " + c.callee;
        if (c.typeArg) text += std::string("<") + ir::dtypeName(*c.typeArg) + ">";
        line(depth, text, e.range);
        for (const ast::Arg& a : c.args) {
          if (a.keyword.empty()) {
            expr(*a.value, depth + 1);
          } else {
            line(depth + 1, "Keyword " + a.keyword, a.range);
            expr(*a.value, depth + 2);
          }
        }
        return;
      }
      case ast::ExprKind::Index: {
        const auto& x = static_cast<const ast::Index&>(e);
        line(depth, "Index " + x.name, e.range);
        for (const ast::ExprPtr& i : x.indices) expr(*i, depth + 1);
        return;
      }
      case ast::ExprKind::List:
        line(depth, "List", e.range);
        for (const ast::ExprPtr& x : static_cast<const ast::List&>(e).elements) expr(*x, depth + 1);
        return;
    }
  }

  const SourceManager& sm_;
  std::ostream& os_;
};

}  // namespace

void printAst(const ast::Module& m, const SourceManager& sm, std::ostream& os) { AstPrinter(sm, os).module(m); }

}  // namespace frontend
}  // namespace tilec
