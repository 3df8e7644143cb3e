#include "frontend/ChunkedParse.h"

#include <deque>

#include <antlr4-runtime.h>

#include "TileLexer.h"
#include "TileParser.h"
#include "frontend/AstBuilder.h"
#include "frontend/Nesting.h"
#include "support/PhaseTimes.h"

namespace tilec::frontend {
namespace {

using grammar::TileLexer;
using grammar::TileParser;

// Thrown when the file needs the whole-file parse (see parseChunked).
struct NeedsFullParse {};

// A token stream that lexes on demand and forgets the tokens of finished statements.
// Every token passes the checks the whole-file parse makes first: no lexical error
// (hidden-channel token) and nesting within the bound, which also bounds the recursion
// of the parser, since it never reaches a token this stream has not checked.
class WindowTokenStream final : public antlr4::TokenStream {
 public:
  explicit WindowTokenStream(TileLexer& lexer) : lexer_(lexer) {}

  antlr4::Token* LT(ssize_t k) override {
    if (k > 0) return at(p_ + size_t(k) - 1);
    const size_t back = size_t(-k);  // k == 0 is undefined; treat it as before the start
    return k < 0 && back <= p_ && p_ - back >= base_ ? get(p_ - back) : nullptr;
  }
  size_t LA(ssize_t i) override { return LT(i)->getType(); }
  void consume() override {
    if (LA(1) == antlr4::Token::EOF) throw antlr4::IllegalStateException("cannot consume EOF");
    ++p_;
  }
  // The window holds every token since the last forgetConsumed(), so marks cost nothing.
  ssize_t mark() override { return 0; }
  void release(ssize_t) override {}
  size_t index() override { return p_; }
  void seek(size_t index) override { p_ = index; }
  size_t size() override { return base_ + window_.size(); }
  std::string getSourceName() const override { return lexer_.getSourceName(); }
  antlr4::Token* get(size_t index) const override { return window_.at(index - base_).get(); }
  antlr4::TokenSource* getTokenSource() const override { return &lexer_; }
  // Texts are read from tokens, never from the stream: the bail-out strategy reports nothing.
  std::string getText(const antlr4::misc::Interval&) override { return {}; }
  std::string getText() override { return {}; }
  std::string getText(antlr4::RuleContext*) override { return {}; }
  std::string getText(antlr4::Token*, antlr4::Token*) override { return {}; }

  // Frees the tokens before the last consumed one; no parse tree may point at them.
  void forgetConsumed() {
    for (; base_ + 1 < p_ && !window_.empty(); ++base_) window_.pop_front();
  }

 private:
  antlr4::Token* at(size_t index) {
    while (index >= base_ + window_.size() && !sawEof_) fetch();
    return index < base_ + window_.size() ? get(index) : window_.back().get();
  }

  void fetch() {
    std::unique_ptr<antlr4::Token> t;
    {
      ScopedPhase phase("lex");
      t = lexer_.nextToken();
    }
    if (t->getChannel() != antlr4::Token::DEFAULT_CHANNEL) throw NeedsFullParse{};
    if (t->getType() == antlr4::Token::EOF) sawEof_ = true;
    else if (!nesting_.add(t->getType())) throw NeedsFullParse{};
    static_cast<antlr4::CommonToken&>(*t).setTokenIndex(base_ + window_.size());
    window_.push_back(std::move(t));
  }

  TileLexer& lexer_;
  std::deque<std::unique_ptr<antlr4::Token>> window_;
  size_t base_ = 0;  // the index of window_.front()
  size_t p_ = 0;     // the index of the next token to consume
  bool sawEof_ = false;
  NestingCounter nesting_;
};

class ChunkedParser {
 public:
  ChunkedParser(TileParser& parser, WindowTokenStream& tokens, AstBuilder& builder, const TokenRanges& ranges)
      : parser_(parser), tokens_(tokens), builder_(builder), ranges_(ranges) {}

  // The AST of the tree one rule call parsed, after which the tree and its tokens are
  // freed; the bail-out strategy throws on a syntax error, so a tree that records one is
  // never expected.
  template <class Build, class Context>
  auto built(Build build, Context* ctx) {
    if (!ctx || ctx->exception) throw NeedsFullParse{};
    auto node = [&] {
      ScopedPhase phase("ast");
      return build(ctx);
    }();
    reclaim();
    return node;
  }

  // A kernel or loop: its head's node, then its body block.
  template <class Build, class Context>
  auto withBody(Build build, Context* head) {
    auto node = built(build, head);
    node->body = block();
    node->range = SourceRange::join(node->range, node->body->range);
    return node;
  }

  std::unique_ptr<ast::Module> module() {
    std::unique_ptr<ast::Module> m = builder_.emptyModule();
    while (tokens_.LA(1) != antlr4::Token::EOF) {
      switch (tokens_.LA(1)) {
        case TileParser::KERNEL: case TileParser::INCORE: case TileParser::AIC: case TileParser::AIV:
        case TileParser::SEQUENCE:
          m->decls.emplace_back(kernel());
          break;
        default:
          built([&](TileParser::TopDeclContext* d) { builder_.topDecl(d, *m); return 0; }, parser_.topDecl());
      }
    }
    return m;
  }

 private:
  void reclaim() {
    parser_.getTreeTracker().reset();
    tokens_.forgetConsumed();
  }

  SourceRange expect(size_t type) {
    if (tokens_.LA(1) != type) throw NeedsFullParse{};
    const SourceRange r = ranges_.of(tokens_.LT(1));
    tokens_.consume();
    return r;
  }

  std::unique_ptr<ast::Kernel> kernel() {
    return withBody([&](auto* h) { return builder_.kernelHead(h); }, parser_.kernelHead());
  }

  std::unique_ptr<ast::Block> block() {
    auto b = std::make_unique<ast::Block>();
    b->range = expect(TileParser::LBRACE);
    while (tokens_.LA(1) != TileParser::RBRACE)
      if (ast::StmtPtr s = stmt()) b->stmts.push_back(std::move(s));
    b->range = SourceRange::join(b->range, expect(TileParser::RBRACE));
    return b;
  }

  ast::StmtPtr stmt() {
    switch (tokens_.LA(1)) {
      case TileParser::FOR: case TileParser::UNROLL: case TileParser::PARALLEL:
        return forStmt();
      case TileParser::IF:
        return ifStmt();
      case TileParser::LBRACE:
        return block();
      case antlr4::Token::EOF:
        throw NeedsFullParse{};
      default:
        return built([&](auto* c) { return builder_.stmt(c); }, parser_.stmt());
    }
  }

  std::unique_ptr<ast::For> forStmt() {
    return withBody([&](auto* h) { return builder_.forHead(h); }, parser_.forHead());
  }

  std::unique_ptr<ast::If> ifStmt() {
    std::unique_ptr<ast::If> i = built([&](auto* h) { return builder_.ifHead(h); }, parser_.ifHead());
    i->thenBlock = block();
    SourceRange end = i->thenBlock->range;
    if (tokens_.LA(1) == TileParser::ELSE) {
      expect(TileParser::ELSE);
      if (tokens_.LA(1) == TileParser::IF) i->elseStmt = ifStmt();
      else i->elseStmt = block();
      end = i->elseStmt->range;
    }
    i->range = SourceRange::join(i->range, end);
    return i;
  }

  TileParser& parser_;
  WindowTokenStream& tokens_;
  AstBuilder& builder_;
  const TokenRanges& ranges_;
};

}  // namespace

std::unique_ptr<ast::Module> parseChunked(const SourceManager& sm, std::string_view text,
                                          const TokenRanges& ranges) {
  PhaseTimes::listInOrder({"lex", "parse", "ast"});  // they interleave here
  ScopedPhase phase("parse");
  try {
    antlr4::ANTLRInputStream input{std::string(text)};
    TileLexer lexer(&input);
    lexer.removeErrorListeners();
    WindowTokenStream tokens(lexer);
    TileParser parser(&tokens);
    parser.removeErrorListeners();
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::SLL);
    parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
    DiagnosticEngine noted(sm);  // collects what the AST builder reports; any report means the full parse
    AstBuilder builder(ranges, noted);
    std::unique_ptr<ast::Module> m = ChunkedParser(parser, tokens, builder, ranges).module();
    if (noted.errorCount() || noted.warningCount()) return nullptr;
    return m;
  } catch (const NeedsFullParse&) {
  } catch (const antlr4::ParseCancellationException&) {
  } catch (const std::range_error&) {  // not UTF-8, which the caller checked first
  }
  return nullptr;
}

}  // namespace tilec::frontend
