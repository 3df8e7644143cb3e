// Builds the typed AST from a parse tree that has no syntax errors. Each rule has
// one typed helper returning its node; nothing travels through antlrcpp::Any.
// Reports reserved syntax (E0103) and out-of-range integer literals (E0104).
#pragma once
#include <memory>

#include "TileParser.h"
#include "frontend/Ast.h"
#include "frontend/TokenRanges.h"
#include "support/Diagnostics.h"

namespace tilec::frontend {

class AstBuilder {
 public:
  AstBuilder(const TokenRanges& ranges, DiagnosticEngine& diags) : ranges_(ranges), diags_(diags) {}
  std::unique_ptr<ast::Module> build(grammar::TileParser::ModuleContext* ctx);

  // The pieces a chunked parse (ChunkedParse.h) builds a module from. A head's node
  // has no body yet, and its range covers the head only.
  using P = grammar::TileParser;
  std::unique_ptr<ast::Module> emptyModule() const;
  void topDecl(P::TopDeclContext* ctx, ast::Module& m);
  std::unique_ptr<ast::Kernel> kernelHead(P::KernelHeadContext* ctx);
  std::unique_ptr<ast::For> forHead(P::ForHeadContext* ctx);
  std::unique_ptr<ast::If> ifHead(P::IfHeadContext* ctx);
  ast::StmtPtr stmt(P::StmtContext* ctx);  // null for reserved syntax (reported)

 private:
  std::unique_ptr<ast::ConstDecl> constDecl(P::ConstDeclContext* ctx);
  std::unique_ptr<ast::Kernel> kernel(P::KernelDeclContext* ctx);
  ast::Param param(P::ParamContext* ctx);
  std::unique_ptr<ast::Block> block(P::BlockContext* ctx);
  ast::StmtPtr bind(P::BindStmtContext* ctx);
  ast::StmtPtr assign(P::AssignStmtContext* ctx);
  ast::StmtPtr forStmt(P::ForStmtContext* ctx);
  std::unique_ptr<ast::If> ifStmt(P::IfStmtContext* ctx);
  std::unique_ptr<ast::TypeAnn> typeAnn(P::TypeAnnContext* ctx);
  ast::ExprPtr expr(P::ExprContext* ctx);
  ast::ExprPtr primary(P::PrimaryContext* ctx);
  ast::ExprPtr intLiteral(antlr4::Token* tok);
  ast::ExprPtr call(P::CallContext* ctx);
  std::vector<ast::ExprPtr> exprList(P::ExprListContext* ctx);  // null ctx: empty list
  std::vector<ast::Arg> argList(P::ArgListContext* ctx);
  void reserved(SourceRange at, const std::string& construct, const std::string& fix);
  void reservedStmt(P::ReservedStmtContext* ctx);

  SourceRange range(antlr4::ParserRuleContext* ctx) const { return ranges_.of(ctx); }
  SourceRange range(const antlr4::Token* t) const { return ranges_.of(t); }
  SourceRange range(antlr4::tree::TerminalNode* n) const { return ranges_.of(n->getSymbol()); }
  std::string text(const antlr4::Token* t) const { return ranges_.text(t); }
  std::string text(antlr4::tree::TerminalNode* n) const { return ranges_.text(n->getSymbol()); }

  const TokenRanges& ranges_;
  DiagnosticEngine& diags_;
};

}  // namespace tilec::frontend
