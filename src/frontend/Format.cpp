// The formatter: one pass over the token stream, deciding what goes between each two
// neighbours (tokens and comments). The lexer skips comments, so they are read from the
// text between tokens, which holds nothing else in a file that lexes cleanly. The
// formatter runs only on files that parse, and the grammar makes every decision local:
// a `-` negates exactly when the token before it ends no operand, a `<` opens a type
// argument exactly when a dtype follows it, and statements end at `;`, `{` and `}`.
#include "frontend/Format.h"

#include <antlr4-runtime.h>

#include <memory>
#include <vector>

#include "TileLexer.h"
#include "frontend/Ast.h"
#include "frontend/Frontend.h"
#include "frontend/TokenRanges.h"

namespace tilec::frontend {
namespace {

using grammar::TileLexer;

constexpr unsigned kIndent = 2;        // per block
constexpr unsigned kContinuation = 4;  // a statement's later lines: outside brackets, or in one that ends its line

struct Comment {
  std::string_view text;    // a line comment without its trailing blanks
  unsigned newlinesBefore;  // since the token or comment before it
  bool isLine;
};

enum class Role { Plain, Prefix, AngleOpen, AngleClose };

// A token, with the comments and line breaks between it and the token before it.
struct Token {
  size_t type;  // antlr4::Token::EOF for the end of the file
  std::string_view text;
  std::vector<Comment> commentsBefore;
  unsigned newlinesBefore = 0;  // since the last comment before it, or the previous token
  Role role = Role::Plain;
};

std::string_view trimRight(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Splits the text between two tokens into its comments; returns the line breaks after the last.
unsigned scanGap(std::string_view gap, std::vector<Comment>& comments) {
  unsigned newlines = 0;
  for (size_t i = 0; i < gap.size();) {
    const bool line = gap.compare(i, 2, "//") == 0, block = gap.compare(i, 2, "/*") == 0;
    if (!line && !block) {  // a line ends at \n, \r\n or a lone \r
      newlines += gap[i] == '\n' || (gap[i] == '\r' && gap.compare(i + 1, 1, "\n") != 0);
      ++i;
      continue;
    }
    size_t end = line ? gap.find_first_of("\r\n", i) : gap.find("*/", i + 2);
    end = end == std::string_view::npos ? gap.size() : line ? end : end + 2;
    std::string_view text = gap.substr(i, end - i);
    comments.push_back({line ? trimRight(text) : text, newlines, line});
    newlines = 0;
    i = end;
  }
  return newlines;
}

bool endsOperand(size_t type) {
  switch (type) {
    case TileLexer::INT: case TileLexer::FLOAT: case TileLexer::TRUE: case TileLexer::FALSE:
    case TileLexer::ID: case TileLexer::RPAREN: case TileLexer::RBRACK:
      return true;
    default: return false;
  }
}

// Marks prefix operators and the angle brackets of `full<f32>(...)` and `tile<f32, ...>`.
// A type's closing `>` is the first `>` outside the brackets nested in it (its options hold
// expressions only inside brackets).
void assignRoles(std::vector<Token>& tokens) {
  std::vector<unsigned> openAngles;  // the bracket depth of each open type argument list
  unsigned depth = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    Token& t = tokens[i];
    switch (t.type) {
      case TileLexer::LPAREN: case TileLexer::LBRACK: ++depth; break;
      case TileLexer::RPAREN: case TileLexer::RBRACK: depth -= depth > 0; break;
      case TileLexer::NOT: case TileLexer::TILDE: t.role = Role::Prefix; break;
      case TileLexer::MINUS:
        if (i == 0 || !endsOperand(tokens[i - 1].type)) t.role = Role::Prefix;
        break;
      case TileLexer::LT:
        if (i + 1 < tokens.size() && tokens[i + 1].type == TileLexer::DTYPE) {
          t.role = Role::AngleOpen;
          openAngles.push_back(depth);
        }
        break;
      case TileLexer::GT:
        if (!openAngles.empty() && openAngles.back() == depth) {
          t.role = Role::AngleClose;
          openAngles.pop_back();
        }
        break;
      default: break;
    }
  }
}

bool opens(const Token& t) {
  return t.type == TileLexer::LPAREN || t.type == TileLexer::LBRACK || t.role == Role::AngleOpen;
}
bool closes(const Token& t) {
  return t.type == TileLexer::RPAREN || t.type == TileLexer::RBRACK || t.role == Role::AngleClose;
}

// Tokens that sit against what is before them: `a, b`, `f(x)`, `x: f32`, `full<f32>`.
bool hugsLeft(const Token& t) {
  return closes(t) || t.type == TileLexer::COMMA || t.type == TileLexer::SEMI || t.type == TileLexer::COLON;
}

// Whether two tokens on one line have a space between them.
bool spaced(const Token& a, const Token& b) {
  if (hugsLeft(b) || opens(a) || a.role == Role::Prefix || b.role == Role::AngleOpen) return false;
  if (a.type == TileLexer::LBRACE && b.type == TileLexer::RBRACE) return false;  // an empty block: {}
  if (b.type == TileLexer::LPAREN)  // calls, the kernel's parameters, `parallel(cyclic)`, `buffers(2)`
    return !(a.type == TileLexer::ID || a.type == TileLexer::WHERE || a.type == TileLexer::PARALLEL ||
             a.type == TileLexer::REGION || a.role == Role::AngleClose);
  if (b.type == TileLexer::LBRACK) return !(a.type == TileLexer::ID || a.type == TileLexer::DTYPE);  // x[i], f32[M]
  return true;
}

// How two neighbouring tokens are separated.
enum class Boundary {
  Start,      // before the first token
  Statement,  // a line break; blank lines kept
  Glued,      // one line whatever the source: `} else`, `{}`, `for ... {`
  Inline,     // within a statement: a line break only where the source has one
  End,        // after the last token
};

Boundary boundary(const Token* a, const Token& b) {
  if (!a) return Boundary::Start;
  if (b.type == antlr4::Token::EOF) return Boundary::End;
  if ((a->type == TileLexer::LBRACE && b.type == TileLexer::RBRACE && b.commentsBefore.empty()) ||
      (a->type == TileLexer::RBRACE && b.type == TileLexer::ELSE))
    return Boundary::Glued;
  if (a->type == TileLexer::SEMI || a->type == TileLexer::LBRACE || a->type == TileLexer::RBRACE ||
      b.type == TileLexer::RBRACE)
    return Boundary::Statement;
  if (b.type == TileLexer::LBRACE) return Boundary::Glued;  // a head's block starts on its line
  return Boundary::Inline;
}

unsigned codePoints(std::string_view s) {
  unsigned n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// An open bracket: where the lines it continues start.
struct Bracket {
  unsigned aligned;     // the column after the bracket
  unsigned lineIndent;  // the indent of the line the bracket is on
  bool hasToken = false;
  bool hanging = false;  // a line break right after the bracket: its lines indent from the line instead
  unsigned contentIndent() const { return hanging ? lineIndent + kContinuation : aligned; }
  unsigned closerIndent() const { return hanging ? lineIndent : aligned; }
};

class Layout {
 public:
  std::string run(const std::vector<Token>& tokens) {
    const Token* previous = nullptr;
    for (const Token& t : tokens) {
      const Boundary b = boundary(previous, t);
      for (const Comment& c : t.commentsBefore) comment(c, previous, b);
      if (t.type == TileLexer::RBRACE) --depth_;
      if (t.type == antlr4::Token::EOF) break;
      separate(previous, t, b);
      token(t);
      previous = &t;
    }
    if (!out_.empty()) out_ += '\n';
    return std::move(out_);
  }

 private:
  enum class Last { Nothing, Token, BlockComment, LineComment };

  static bool keepsBlankLines(const Token* a, Boundary b) {
    return (b == Boundary::Start || b == Boundary::Statement || b == Boundary::End) &&
           !(a && a->type == TileLexer::LBRACE);
  }

  void comment(const Comment& c, const Token* a, Boundary b) {
    const bool afterOpener = last_ == Last::Token && opens(*a);
    if (last_ == Last::LineComment || (last_ != Last::Nothing && c.newlinesBefore > 0)) {
      newline(c.newlinesBefore > 1 && keepsBlankLines(a, b), indent(b, nullptr));
    } else if (last_ != Last::Nothing && (c.isLine || !afterOpener)) {
      out_ += ' ';
      ++column_;
    }
    write(c.text);
    last_ = c.isLine ? Last::LineComment : Last::BlockComment;
  }

  void separate(const Token* a, const Token& t, Boundary b) {
    if (last_ == Last::Nothing) return;
    const bool kept = t.newlinesBefore > 0 && (b == Boundary::Inline || b == Boundary::Start);
    if (b == Boundary::Statement || kept || last_ == Last::LineComment) {
      const bool blank = t.newlinesBefore > 1 && keepsBlankLines(a, b) && t.type != TileLexer::RBRACE;
      newline(blank, indent(b, &t));
    } else if (last_ == Last::BlockComment ? !hugsLeft(t) : spaced(*a, t)) {
      out_ += ' ';
      ++column_;
    }
  }

  // The indent of a line that starts with `t` (a comment when null). A line break before
  // the first token in a bracket makes the bracket hanging.
  unsigned indent(Boundary b, const Token* t) {
    if (b != Boundary::Inline && b != Boundary::Glued) return depth_ * kIndent;
    if (brackets_.empty()) return depth_ * kIndent + kContinuation;
    Bracket& open = brackets_.back();
    if (!open.hasToken) open.hanging = true;
    return t && closes(*t) ? open.closerIndent() : open.contentIndent();
  }

  void token(const Token& t) {
    if (!brackets_.empty()) brackets_.back().hasToken = true;
    write(t.text);
    if (closes(t) && !brackets_.empty()) brackets_.pop_back();
    if (opens(t)) brackets_.push_back({column_, lineIndent_});
    if (t.type == TileLexer::LBRACE) ++depth_;
    last_ = Last::Token;
  }

  void newline(bool blank, unsigned indent) {
    out_ += blank ? "\n\n" : "\n";
    out_.append(indent, ' ');
    column_ = lineIndent_ = indent;
  }

  void write(std::string_view text) {
    out_ += text;
    const size_t lastBreak = text.rfind('\n');
    column_ = lastBreak == std::string_view::npos ? column_ + codePoints(text) : codePoints(text.substr(lastBreak + 1));
  }

  std::string out_;
  unsigned column_ = 0, lineIndent_ = 0, depth_ = 0;
  std::vector<Bracket> brackets_;
  Last last_ = Last::Nothing;
};

// The tokens of a file that parses (so lexes without error), with the comments between them.
std::vector<Token> tokenize(std::string_view text, FileId file) {
  antlr4::ANTLRInputStream input{std::string(text)};
  TileLexer lexer(&input);
  lexer.removeErrorListeners();
  antlr4::CommonTokenStream stream(&lexer);
  stream.fill();
  const TokenRanges ranges(file, text);
  std::vector<Token> tokens;
  uint32_t end = 0;
  for (antlr4::Token* t : stream.getTokens()) {
    if (t->getChannel() != antlr4::Token::DEFAULT_CHANNEL) continue;
    const bool eof = t->getType() == antlr4::Token::EOF;
    const SourceRange r = eof ? SourceRange{file, uint32_t(text.size()), uint32_t(text.size())} : ranges.of(t);
    Token token{t->getType(), text.substr(r.begin, r.end - r.begin), {}};
    token.newlinesBefore = scanGap(text.substr(end, r.begin - end), token.commentsBefore);
    tokens.push_back(std::move(token));
    end = r.end;
  }
  assignRoles(tokens);
  return tokens;
}

}  // namespace

std::optional<std::string> formatTile(const SourceManager& sm, FileId file, DiagnosticEngine& diags) {
  if (!parse(sm, file, diags)) return std::nullopt;
  return Layout().run(tokenize(sm.contents(file), file));
}

std::optional<std::string> formatTile(std::string_view text) {
  SourceManager sm;
  const FileId file = sm.addBuffer("<buffer>", std::string(text));
  DiagnosticEngine diags(sm);
  return formatTile(sm, file, diags);
}

}  // namespace tilec::frontend
