// The .tir parser: a lexer that keeps byte offsets, then hand-written recursive
// descent over the token vector. The format is line-oriented (one op per line,
// a region's ops between `{` at the end of its header and a `}` line), which is
// what error recovery relies on: a broken op is skipped up to the next line (or
// past its region), its results are poisoned so their uses do not report again,
// and parsing goes on. Every error is E0301 at the range of the offending token.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_set>

#include "ir/Describe.h"
#include "ir/IRText.h"
#include "ir/OpDefs.h"
#include "support/Wording.h"

namespace tilec::ir {
namespace {

// ---- tokens ----

enum class Tok : uint8_t {
  End, Ident, ValueName, Symbol, Int, Float, String,
  LParen, RParen, LBracket, RBracket, LBrace, RBrace, Less, Greater, LessEq, GreaterEq,
  EqEq, NotEq, Assign, Comma, Colon, Plus, Minus, Star, Slash, Percent, AndAnd, OrOr, Bang, Arrow,
};

struct Token {
  Tok kind = Tok::End;
  uint32_t begin = 0, end = 0;
  bool lineStart = false;  // first token on its line
  std::string_view text;
};

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }
bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }

struct LexError {
  SourceRange range;
  std::string message;
};

class Lexer {
 public:
  Lexer(std::string_view text, FileId file, std::vector<LexError>& errors)
      : text_(text), file_(file), errors_(errors) {}

  // Tokenizes everything; a character that cannot be lexed is recorded and dropped.
  void run(std::vector<Token>& out) {
    bool lineStart = true;
    while (true) {
      while (i_ < text_.size() && (std::isspace(static_cast<unsigned char>(text_[i_])) || startsComment())) {
        if (startsComment())
          while (i_ < text_.size() && text_[i_] != '\n') ++i_;
        else if (text_[i_++] == '\n')
          lineStart = true;
      }
      if (i_ >= text_.size()) break;
      Token t;
      t.begin = uint32_t(i_);
      t.lineStart = lineStart;
      lineStart = false;
      if (!lexOne(t)) continue;
      t.end = uint32_t(i_);
      t.text = text_.substr(t.begin, t.end - t.begin);
      out.push_back(t);
    }
    Token end;
    end.kind = Tok::End;
    end.begin = end.end = uint32_t(text_.size());
    end.lineStart = true;
    out.push_back(end);
  }

 private:
  bool startsComment() const { return text_.compare(i_, 2, "//") == 0; }

  bool lexOne(Token& t) {
    char c = text_[i_];
    if (isIdentStart(c)) {
      while (i_ < text_.size() && isIdentChar(text_[i_])) ++i_;
      t.kind = Tok::Ident;
      return true;
    }
    // `%name` is a value and `@name` a function; a lone `%` is the modulo operator.
    bool named = i_ + 1 < text_.size() && isNameChar(text_[i_ + 1]);
    if (c == '@' || (c == '%' && named)) {
      size_t start = i_++;
      while (i_ < text_.size() && isNameChar(text_[i_])) ++i_;
      if (i_ == start + 1) return fail(start, "expected a function name after '@'");
      t.kind = c == '%' ? Tok::ValueName : Tok::Symbol;
      return true;
    }
    if (isDigit(c)) return lexNumber(t);
    if (c == '"') return lexString(t);
    return lexPunct(t);
  }

  bool lexNumber(Token& t) {
    while (i_ < text_.size() && isDigit(text_[i_])) ++i_;
    t.kind = Tok::Int;
    if (i_ < text_.size() && text_[i_] == '.') {
      ++i_;
      while (i_ < text_.size() && isDigit(text_[i_])) ++i_;
      t.kind = Tok::Float;
    }
    if (i_ < text_.size() && (text_[i_] == 'e' || text_[i_] == 'E')) {
      size_t j = i_ + 1;
      if (j < text_.size() && (text_[j] == '+' || text_[j] == '-')) ++j;
      if (j < text_.size() && isDigit(text_[j])) {
        i_ = j;
        while (i_ < text_.size() && isDigit(text_[i_])) ++i_;
        t.kind = Tok::Float;
      }
    }
    return true;
  }

  bool lexString(Token& t) {
    size_t start = i_++;
    while (i_ < text_.size() && text_[i_] != '"' && text_[i_] != '\n') i_ += text_[i_] == '\\' ? 2 : 1;
    if (i_ >= text_.size() || text_[i_] != '"') return fail(start, "string is not closed; end it with '\"'");
    ++i_;
    t.kind = Tok::String;
    return true;
  }

  bool lexPunct(Token& t) {
    struct P {
      const char* text;
      Tok kind;
    };
    static const P kPuncts[] = {
        {"->", Tok::Arrow}, {"==", Tok::EqEq}, {"!=", Tok::NotEq}, {"<=", Tok::LessEq},
        {">=", Tok::GreaterEq}, {"&&", Tok::AndAnd}, {"||", Tok::OrOr}, {"(", Tok::LParen},
        {")", Tok::RParen}, {"[", Tok::LBracket}, {"]", Tok::RBracket}, {"{", Tok::LBrace},
        {"}", Tok::RBrace}, {"<", Tok::Less}, {">", Tok::Greater}, {"=", Tok::Assign},
        {",", Tok::Comma}, {":", Tok::Colon}, {"+", Tok::Plus}, {"-", Tok::Minus},
        {"*", Tok::Star}, {"/", Tok::Slash}, {"%", Tok::Percent}, {"!", Tok::Bang},
    };
    for (const P& p : kPuncts) {
      size_t n = std::char_traits<char>::length(p.text);
      if (text_.compare(i_, n, p.text) == 0) {
        i_ += n;
        t.kind = p.kind;
        return true;
      }
    }
    size_t start = i_;
    // Skip the whole UTF-8 sequence so the message shows one character.
    do ++i_;
    while (i_ < text_.size() && (static_cast<unsigned char>(text_[i_]) & 0xC0) == 0x80);
    return fail(start, "unexpected character '" + std::string(text_.substr(start, i_ - start)) +
                           "' in IR text; remove it");
  }

  bool fail(size_t at, std::string message) {
    errors_.push_back({SourceRange{file_, uint32_t(at), uint32_t(std::max(i_, at + 1))}, std::move(message)});
    return false;
  }

  std::string_view text_;
  FileId file_;
  std::vector<LexError>& errors_;
  size_t i_ = 0;
};

// ---- parser ----

std::string describe(const Token& t) {
  if (t.kind == Tok::End) return "the end of the input";
  return "'" + std::string(t.text) + "'";
}

// `%acc_1` -> "acc_1"; numbered names carry no hint.
std::string hintOf(const Token& t) {
  std::string_view s = t.text.substr(1);
  bool numeric = std::all_of(s.begin(), s.end(), [](char c) { return isDigit(c); });
  return numeric ? std::string() : std::string(s);
}

class Parser {
 public:
  Parser(const SourceManager& sm, FileId file, DiagnosticEngine& diags, const TargetModel& target)
      : sm_(sm), file_(file), diags_(diags), target_(target) {}

  std::unique_ptr<Module> run() {
    Lexer(sm_.contents(file_), file_, lexErrors_).run(toks_);
    if (!checkBraceDepth()) return nullptr;
    module_ = std::make_unique<Module>(target_);
    while (!at(Tok::End)) {
      if (atIdent("func")) {
        if (!parseFunction()) recoverToFunction();
      } else {
        error(tok(), "expected 'func' to start a function, found " + describe(tok()) +
                         "; a .tir file is a list of functions");
        recoverToFunction();
      }
    }
    reportLexErrorsBefore(UINT32_MAX);
    if (failed_) return nullptr;
    return std::move(module_);
  }

 private:
  // ---- token access ----
  const Token& tok() const { return toks_[pos_]; }
  const Token& peek(size_t n) const { return toks_[std::min(pos_ + n, toks_.size() - 1)]; }
  bool at(Tok k) const { return tok().kind == k; }
  bool atIdent(std::string_view s) const { return at(Tok::Ident) && tok().text == s; }
  // The next token continues the current op's line.
  bool onLine() const { return !at(Tok::End) && !tok().lineStart; }
  const Token& advance() { return toks_[at(Tok::End) ? pos_ : pos_++]; }
  bool consume(Tok k) {
    if (!at(k)) return false;
    ++pos_;
    return true;
  }

  SourceRange range(const Token& t) const { return {file_, t.begin, std::max(t.end, t.begin + 1)}; }
  // From token `first` to the last consumed token.
  SourceRange rangeFrom(size_t first) const {
    uint32_t end = pos_ > first ? toks_[pos_ - 1].end : toks_[first].end;
    return {file_, toks_[first].begin, end};
  }

  bool error(const Token& t, std::string message) { return error(range(t), std::move(message)); }
  bool error(SourceRange r, std::string message) {
    reportLexErrorsBefore(r.begin);
    diags_.report(Diag::IRSyntax, r, std::move(message));
    failed_ = true;
    return false;
  }

  // Lexer errors are reported in file order among the parser's.
  void reportLexErrorsBefore(uint32_t offset) {
    for (; nextLexError_ < lexErrors_.size() && lexErrors_[nextLexError_].range.begin <= offset; ++nextLexError_) {
      diags_.report(Diag::IRSyntax, lexErrors_[nextLexError_].range, lexErrors_[nextLexError_].message);
      failed_ = true;
    }
  }

  bool expect(Tok k, const char* what) {
    if (consume(k)) return true;
    return error(tok(), std::string("expected ") + what + ", found " + describe(tok()));
  }
  bool expectIdent(std::string_view word, const char* context) {
    if (atIdent(word)) {
      advance();
      return true;
    }
    return error(tok(), "expected '" + std::string(word) + "' " + context + ", found " + describe(tok()));
  }

  // ---- recovery ----

  // Skips the rest of the op that started at token `first`, including a region it
  // opened. Rescans from `first` so braces opened before the error are counted.
  void recoverOp(size_t first) {
    pos_ = first;
    int depth = 0;
    while (!at(Tok::End)) {
      if (pos_ > first && tok().lineStart && depth == 0) return;
      if (at(Tok::LBrace)) {
        ++depth;
      } else if (at(Tok::RBrace)) {
        if (depth == 0) return;
        --depth;
      }
      ++pos_;
    }
  }

  void recoverToFunction() {
    do advance();
    while (!at(Tok::End) && !(atIdent("func") && tok().lineStart));
  }

  // ---- names ----

  // Names are unique per function; a null value marks a definition that failed to
  // parse, whose uses then fail without another report.
  bool define(const Token& name, Value* v) {
    std::string key(name.text);
    auto [it, inserted] = definedAt_.emplace(key, range(name));
    if (!inserted) {
      reportLexErrorsBefore(name.begin);
      Diagnostic& d = diags_.report(Diag::IRSyntax, range(name),
                                    "value '" + key + "' is defined twice; give it another name");
      d.notes.push_back({"'" + key + "' first defined here", it->second});
      failed_ = true;
      return false;
    }
    if (v) v->setOrigin(range(name));  // messages name it as written: '%x'
    makeVisible(key, v);
    return true;
  }

  // Names are unique per function, so one map holds every visible value; each scope
  // remembers its names to hide them again when it ends. Lookups are O(1) at any depth.
  void makeVisible(const std::string& key, Value* v) {
    visible_[key] = v;
    scopeNames_.back().push_back(key);
  }

  void poison(const std::vector<Token>& names) {
    for (const Token& n : names)
      if (definedAt_.emplace(std::string(n.text), range(n)).second) makeVisible(std::string(n.text), nullptr);
  }

  // Resolves a value use; false (reported, or silent for a poisoned name) if it fails.
  bool parseValueUse(Value*& out) {
    if (!at(Tok::ValueName)) return error(tok(), "expected a value like %x, found " + describe(tok()));
    const Token& t = advance();
    std::string key(t.text);
    if (auto it = visible_.find(key); it != visible_.end()) {
      out = it->second;
      return out != nullptr;
    }
    if (definedAt_.count(key))
      return error(t, "value '" + key + "' is not visible here; it is defined inside a region that has ended");
    return error(t, "use of undefined value '" + key + "'; define it before this use");
  }

  // ---- literals ----

  // An optionally negative integer literal; the sign is part of the literal so that
  // INT64_MIN is expressible.
  bool parseInt(int64_t& out, const char* what) {
    bool negative = at(Tok::Minus) && peek(1).kind == Tok::Int;
    if (negative) advance();
    if (!at(Tok::Int)) return error(tok(), std::string("expected ") + what + ", found " + describe(tok()));
    const Token& t = advance();
    uint64_t magnitude = 0;
    auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), magnitude);
    uint64_t limit = negative ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX);
    if (ec != std::errc() || p != t.text.data() + t.text.size() || magnitude > limit)
      return error(t, "integer " + std::string(negative ? "-" : "") + std::string(t.text) +
                          " does not fit in 64 bits; use a smaller value");
    out = negative ? int64_t(0 - magnitude) : int64_t(magnitude);
    return true;
  }

  // A number attribute. Integer literals stay integral unless `floatOnly`; float
  // literals, inf and nan are doubles.
  bool parseNumber(AttrValue& out, bool floatOnly) {
    bool negative = at(Tok::Minus);
    const Token& t = peek(negative ? 1 : 0);
    if (t.kind == Tok::Int && !floatOnly) {
      int64_t v;
      if (!parseInt(v, "a number")) return false;
      out = v;
      return true;
    }
    bool special = t.kind == Tok::Ident && (t.text == "inf" || t.text == "nan");
    if (t.kind != Tok::Int && t.kind != Tok::Float && !special)
      return error(t, "expected a number, found " + describe(t));
    if (negative) advance();
    advance();
    double d = t.text == "inf" ? INFINITY : t.text == "nan" ? NAN : std::strtod(std::string(t.text).c_str(), nullptr);
    out = negative ? -d : d;
    return true;
  }

  static std::string unescape(std::string_view quoted) {
    std::string s;
    for (size_t i = 1; i + 1 < quoted.size(); ++i) {
      if (quoted[i] == '\\' && i + 2 < quoted.size()) ++i;
      s += quoted[i];
    }
    return s;
  }

  // ---- expressions (precedence: || < && < comparison < + - < * / % < unary) ----

  bool parseExpr(Expr& out) { return parseOr(out); }

  bool parseOr(Expr& out) {
    if (!parseAnd(out)) return false;
    while (consume(Tok::OrOr)) {
      Expr rhs;
      if (!parseAnd(rhs)) return false;
      out = Expr::logicalOr(out, rhs);
    }
    return true;
  }

  bool parseAnd(Expr& out) {
    if (!parseCmp(out)) return false;
    while (consume(Tok::AndAnd)) {
      Expr rhs;
      if (!parseCmp(rhs)) return false;
      out = Expr::logicalAnd(out, rhs);
    }
    return true;
  }

  std::optional<CmpKind> cmpAt() const {
    switch (tok().kind) {
      case Tok::EqEq: return CmpKind::EQ;
      case Tok::NotEq: return CmpKind::NE;
      case Tok::Less: return CmpKind::LT;
      case Tok::LessEq: return CmpKind::LE;
      case Tok::Greater: return CmpKind::GT;
      case Tok::GreaterEq: return CmpKind::GE;
      default: return std::nullopt;
    }
  }

  bool parseCmp(Expr& out) {
    if (!parseAdd(out)) return false;
    auto k = cmpAt();
    if (!k) return true;
    advance();
    Expr rhs;
    if (!parseAdd(rhs)) return false;
    if (cmpAt()) return error(tok(), "comparisons do not chain; parenthesize one of them");
    out = Expr::cmp(*k, out, rhs);
    return true;
  }

  bool parseAdd(Expr& out) {
    if (!parseMul(out)) return false;
    while (at(Tok::Plus) || at(Tok::Minus)) {
      bool minus = advance().kind == Tok::Minus;
      Expr rhs;
      if (!parseMul(rhs)) return false;
      out = minus ? Expr::sub(out, rhs) : Expr::add(out, rhs);
    }
    return true;
  }

  bool parseMul(Expr& out) {
    if (!parseUnary(out)) return false;
    while (at(Tok::Star) || at(Tok::Slash) || at(Tok::Percent)) {
      Tok op = advance().kind;
      Expr rhs;
      if (!parseUnary(rhs)) return false;
      out = op == Tok::Star ? Expr::mul(out, rhs) : op == Tok::Slash ? Expr::floorDiv(out, rhs) : Expr::mod(out, rhs);
    }
    return true;
  }

  // Regions nested deeper than this are rejected up front: parsing, every pass and the
  // printer recurse once per level, and printed indentation grows with the depth.
  static constexpr unsigned kMaxBraceDepth = 4096;

  bool checkBraceDepth() {
    unsigned depth = 0;
    for (const Token& t : toks_) {
      if (t.kind == Tok::RBrace && depth) --depth;
      if (t.kind != Tok::LBrace || ++depth <= kMaxBraceDepth) continue;
      return error(t, "regions are nested more than " + std::to_string(kMaxBraceDepth) +
                          " levels deep here; split the function");
    }
    return true;
  }

  // Every nesting level (a parenthesis, a call argument, a prefix operator) passes here;
  // the bound keeps the recursion far inside the stack whatever the input.
  static constexpr unsigned kMaxExprDepth = 4096;

  bool parseUnary(Expr& out) {
    struct Depth {
      unsigned& d;
      explicit Depth(unsigned& d) : d(++d) {}
      ~Depth() { --d; }
    } depth(exprDepth_);
    if (exprDepth_ > kMaxExprDepth)
      return error(tok(), "expression nested more than " + std::to_string(kMaxExprDepth) +
                              " levels deep; bind parts of it to values first");
    if (at(Tok::Minus) && peek(1).kind == Tok::Int) {  // a literal, so INT64_MIN is expressible
      int64_t v;
      if (!parseInt(v, "an integer")) return false;
      out = Expr::constant(v);
      return true;
    }
    if (consume(Tok::Minus)) {
      if (!parseUnary(out)) return false;
      out = Expr::neg(out);
      return true;
    }
    if (consume(Tok::Bang)) {
      if (!parseUnary(out)) return false;
      out = Expr::logicalNot(out);
      return true;
    }
    return parsePrimary(out);
  }

  bool parseCallArgs(std::vector<Expr>& args, const Token& fn, size_t min, size_t max) {
    if (!expect(Tok::LParen, "'(' after the function name")) return false;
    do {
      Expr e;
      if (!parseExpr(e)) return false;
      args.push_back(e);
    } while (consume(Tok::Comma));
    if (!expect(Tok::RParen, "')' to close the argument list")) return false;
    if (args.size() < min || args.size() > max)
      return error(fn, std::string(fn.text) + " takes " +
                           (min == max ? std::to_string(min) : "at least " + std::to_string(min)) +
                           " arguments but has " + std::to_string(args.size()) + "; fix the call");
    return true;
  }

  bool parsePrimary(Expr& out) {
    const Token& t = tok();
    switch (t.kind) {
      case Tok::Int: {
        int64_t v;
        if (!parseInt(v, "an integer")) return false;
        out = Expr::constant(v);
        return true;
      }
      case Tok::ValueName: return parseExprVar(out);
      case Tok::LParen:
        advance();
        if (!parseExpr(out)) return false;
        return expect(Tok::RParen, "')' to close the parenthesis");
      case Tok::Ident: return parseExprCall(out);
      default:
        return error(t, "expected an expression, found " + describe(t));
    }
  }

  bool parseExprVar(Expr& out) {
    const Token& t = tok();
    Value* v = nullptr;
    if (!parseValueUse(v)) return false;
    const Type& ty = v->type();
    // A parameter may be used in an earlier parameter's type, before its own is parsed.
    bool ok = ty.isNone() || (ty.isScalar() && !isFloat(ty.dtype()));
    if (!ok)
      return error(t, "'" + std::string(t.text) + "' is " + typeText(ty) + ", but only index, integer and bool values can appear in an expression; "
                          "use an integer value");
    out = Expr::var(v);
    return true;
  }

  bool parseExprCall(Expr& out) {
    const Token& fn = advance();
    if (fn.text == "true" || fn.text == "false") {  // `v != 0` folds to a boolean constant
      out = Expr::cmp(CmpKind::NE, Expr::constant(fn.text == "true" ? 1 : 0), Expr::constant(0));
      return true;
    }
    std::vector<Expr> args;
    if (fn.text == "min" || fn.text == "max") {
      if (!parseCallArgs(args, fn, 2, SIZE_MAX)) return false;
      out = args[0];
      for (size_t i = 1; i < args.size(); ++i) out = fn.text == "min" ? Expr::min(out, args[i]) : Expr::max(out, args[i]);
      return true;
    }
    if (fn.text == "ceildiv") {
      if (!parseCallArgs(args, fn, 2, 2)) return false;
      out = Expr::ceilDiv(args[0], args[1]);
      return true;
    }
    if (fn.text == "select") {
      if (!parseCallArgs(args, fn, 3, 3)) return false;
      out = Expr::select(args[0], args[1], args[2]);
      return true;
    }
    return error(fn, "unknown expression function '" + std::string(fn.text) +
                         "'; use min, max, ceildiv or select");
  }

  bool parseExprList(std::vector<Expr>& out) {
    if (!expect(Tok::LBracket, "'[' to start a list")) return false;
    if (consume(Tok::RBracket)) return true;
    do {
      Expr e;
      if (!parseExpr(e)) return false;
      out.push_back(e);
    } while (consume(Tok::Comma));
    return expect(Tok::RBracket, "']' to close the list");
  }

  bool parseIntList(std::vector<int64_t>& out) {
    if (!expect(Tok::LBracket, "'[' to start a list")) return false;
    if (consume(Tok::RBracket)) return true;
    do {
      int64_t v;
      if (!parseInt(v, "an integer")) return false;
      out.push_back(v);
    } while (consume(Tok::Comma));
    return expect(Tok::RBracket, "']' to close the list");
  }

  // ---- types ----

  bool parseDTypeName(DType& out) {
    if (at(Tok::Ident))
      if (auto d = parseDType(tok().text)) {
        advance();
        out = *d;
        return true;
      }
    return error(tok(), "expected a dtype (bool, i8, i16, i32, i64, u8, u16, u32, f16, bf16, f32, index), found " +
                            describe(tok()));
  }

  bool parseType(Type& out) {
    if (atIdent("tensor")) return parseTensorType(out);
    if (atIdent("tile")) return parseTileType(out);
    if (at(Tok::Ident) && parseDType(tok().text)) {
      out = Type::scalar(*parseDType(advance().text));
      return true;
    }
    return error(tok(), "expected a type (a dtype, tensor<...> or tile<...>), found " + describe(tok()));
  }

  bool parseTensorType(Type& out) {
    advance();
    DType d = DType::F32;  // set by parseDTypeName before any use
    std::vector<Expr> dims;
    if (!expect(Tok::Less, "'<' after 'tensor'") || !parseDTypeName(d) ||
        !expect(Tok::Comma, "',' after the dtype") || !parseExprList(dims) ||
        !expect(Tok::Greater, "'>' to close the tensor type"))
      return false;
    out = Type::tensor(d, std::move(dims));
    return true;
  }

  bool parseTileType(Type& out) {
    advance();
    DType d = DType::F32;  // set by parseDTypeName before any use
    if (!expect(Tok::Less, "'<' after 'tile'") || !parseDTypeName(d) || !expect(Tok::Comma, "',' after the dtype"))
      return false;
    const Token& shapeTok = tok();
    std::vector<int64_t> shape;
    if (!parseIntList(shape)) return false;
    for (int64_t x : shape)
      if (x <= 0) return error(SourceRange::join(range(shapeTok), range(toks_[pos_ - 1])),
                               "tile dimensions must be positive, but the shape is " + shapeText(shape) +
                                   "; put a runtime extent in valid=[...]");
    std::vector<Expr> valid;
    SpaceId space = kNoSpace;
    std::optional<TileLayout> layout;
    while (consume(Tok::Comma)) {
      if (atIdent("valid")) {
        const Token& v = advance();
        if (!expect(Tok::Assign, "'=' after 'valid'") || !parseExprList(valid)) return false;
        if (valid.size() != shape.size())
          return error(v, "valid shape has " + std::to_string(valid.size()) + " extents but the tile has rank " +
                              std::to_string(shape.size()) + "; give one extent per axis");
      } else if (atIdent("layout")) {
        if (!parseLayout(layout)) return false;
      } else if (at(Tok::Ident) && target_.parseSpace(tok().text)) {
        space = *target_.parseSpace(advance().text);
      } else {
        return error(tok(), "expected valid=[...], a memory space or layout=... in the tile type, found " +
                                describe(tok()));
      }
    }
    if (!expect(Tok::Greater, "'>' to close the tile type")) return false;
    out = Type::tile(d, std::move(shape), std::move(valid), space, layout, &target_);
    return true;
  }

  // layout=<blayout>/<slayout>/<fractal>/pad<N>, or layout=cube_m16|cube_m32|cube_n8
  bool parseLayout(std::optional<TileLayout>& out) {
    advance();
    if (!expect(Tok::Assign, "'=' after 'layout'")) return false;
    if (auto cube = at(Tok::Ident) ? namedLayout(tok().text) : std::nullopt; cube && cube->cells != CubeCells::None) {
      advance();
      out = cube;
      return true;
    }
    TileLayout l;
    auto b = at(Tok::Ident) ? parseBLayout(tok().text) : std::nullopt;
    if (!b) return error(tok(), "expected row_major or col_major, found " + describe(tok()));
    advance();
    l.blayout = *b;
    if (!expect(Tok::Slash, "'/' between the layout parts")) return false;
    auto s = at(Tok::Ident) ? parseSLayout(tok().text) : std::nullopt;
    if (!s) return error(tok(), "expected none_box, row_major or col_major, found " + describe(tok()));
    advance();
    l.slayout = *s;
    int64_t fractal;
    if (!expect(Tok::Slash, "'/' between the layout parts") || !parseInt(fractal, "the fractal size") ||
        !expect(Tok::Slash, "'/' between the layout parts"))
      return false;
    l.fractal = int(fractal);
    std::string_view pad = at(Tok::Ident) ? tok().text : std::string_view();
    if (pad.size() != 4 || pad.substr(0, 3) != "pad" || pad[3] < '0' || pad[3] > '3')
      return error(tok(), "expected pad0, pad1, pad2 or pad3, found " + describe(tok()));
    advance();
    l.pad = PadValue(pad[3] - '0');
    out = l;
    return true;
  }

  bool parseTypeList(std::vector<Type>& out) {
    do {
      Type t;
      if (!parseType(t)) return false;
      out.push_back(t);
    } while (consume(Tok::Comma));
    return true;
  }

  // ---- attributes ----

  bool parseAttrValue(AttrKind kind, AttrValue& out) {
    switch (kind) {
      case AttrKind::Int: {
        int64_t v;
        if (!parseInt(v, "an integer")) return false;
        out = v;
        return true;
      }
      case AttrKind::Float: return parseNumber(out, true);
      case AttrKind::IntOrFloat: return parseNumber(out, false);
      case AttrKind::Bool:
        if (!atIdent("true") && !atIdent("false"))
          return error(tok(), "expected true or false, found " + describe(tok()));
        out = advance().text == "true";
        return true;
      case AttrKind::String:
        if (!at(Tok::String)) return error(tok(), "expected a quoted string, found " + describe(tok()));
        out = unescape(advance().text);
        return true;
      case AttrKind::Expr: {
        Expr e;
        if (!parseExpr(e)) return false;
        out = e;
        return true;
      }
      case AttrKind::ExprList: {
        std::vector<Expr> es;
        if (!parseExprList(es)) return false;
        out = std::move(es);
        return true;
      }
      case AttrKind::IntList: {
        std::vector<int64_t> xs;
        if (!parseIntList(xs)) return false;
        out = std::move(xs);
        return true;
      }
      case AttrKind::Type: {
        Type t;
        if (!parseType(t)) return false;
        out = t;
        return true;
      }
      case AttrKind::LoopMode:
        return parseEnum(out, parseLoopMode);
      case AttrKind::RoundMode:
        return parseEnum(out, parseRoundMode);
      case AttrKind::RegionPhase:
        return parseEnum(out, parseRegionPhase);
      case AttrKind::Cmp:
        return parseEnum(out, parseCmpKind);
      case AttrKind::Scan:
        return parseEnum(out, parseScanKind);
    }
    return false;
  }

  // An enumerated value, written as its quoted name. A name the enum lacks is kept as a
  // string: the verifier rejects it, listing the names there are.
  template <class Parse>
  bool parseEnum(AttrValue& out, Parse parse) {
    if (!at(Tok::String)) return error(tok(), "expected a quoted name, found " + describe(tok()));
    std::string name = unescape(advance().text);
    if (auto e = parse(name)) out = *e;
    else out = std::move(name);
    return true;
  }

  bool parseAttrDict(OpKind kind, AttrMap& attrs) {
    advance();  // '{'
    if (consume(Tok::RBrace)) return true;
    do {
      if (!at(Tok::Ident)) return error(tok(), "expected an attribute name, found " + describe(tok()));
      const Token& key = advance();
      const AttrSpec* spec = findAttrSpec(kind, key.text);
      if (!spec) return error(key, std::string(opInfo(kind).name) + " has no attribute '" +
                                       std::string(key.text) + "'; remove it (see docs/ir.md)");
      if (attrs.count(std::string(key.text)))
        return error(key, "attribute '" + std::string(key.text) + "' is given twice; keep one");
      AttrValue v;
      if (!expect(Tok::Assign, "'=' after the attribute name") || !parseAttrValue(spec->kind, v)) return false;
      attrs[std::string(key.text)] = std::move(v);
    } while (consume(Tok::Comma));
    return expect(Tok::RBrace, "'}' to close the attributes");
  }

  // ` loc("file":line:col)`: points the op at that place when the file is loaded.
  bool parseLoc(SourceRange& loc) {
    advance();
    int64_t line = 0, col = 0;
    if (!expect(Tok::LParen, "'(' after 'loc'")) return false;
    if (!at(Tok::String)) return error(tok(), "expected a quoted file name, found " + describe(tok()));
    std::string file = unescape(advance().text);
    if (!expect(Tok::Colon, "':' after the file name") || !parseInt(line, "a line number") ||
        !expect(Tok::Colon, "':' after the line number") || !parseInt(col, "a column number") ||
        !expect(Tok::RParen, "')' to close the location"))
      return false;
    for (FileId f = 0; f < sm_.fileCount(); ++f)
      if (sm_.name(f) == file && line > 0 && col > 0) {
        uint32_t off = sm_.offsetOf(f, uint32_t(line), uint32_t(col - 1));
        loc = SourceRange{f, off, off + 1};
        break;
      }
    return true;
  }

  // Trailing `{attrs}` and `loc(...)`, then the end of the line.
  bool parseOpTail(OpKind kind, AttrMap& attrs, SourceRange& loc) {
    if (onLine() && at(Tok::LBrace) && !parseAttrDict(kind, attrs)) return false;
    if (onLine() && atIdent("loc") && !parseLoc(loc)) return false;
    if (onLine() && !at(Tok::RBrace))
      return error(tok(), "expected the end of the op, found " + describe(tok()) + "; put each op on its own line");
    return true;
  }

  // ---- ops ----

  // Ops up to the closing '}'. A `func` starting a line means that '}' is missing.
  void parseOps(Block& b) {
    while (!at(Tok::RBrace) && !at(Tok::End) && !(atIdent("func") && tok().lineStart)) {
      size_t first = pos_;
      if (!parseOp(b)) recoverOp(first);
    }
  }

  bool parseOp(Block& b) {
    size_t first = pos_;
    std::vector<Token> results;
    if (at(Tok::ValueName)) {
      do {
        if (!at(Tok::ValueName)) return error(tok(), "expected a result name like %x, found " + describe(tok()));
        results.push_back(advance());
      } while (consume(Tok::Comma));
      if (!expect(Tok::Assign, "'=' after the result names")) {
        poison(results);
        return false;
      }
    }
    if (!at(Tok::Ident)) {
      poison(results);
      return error(tok(), "expected an op name, found " + describe(tok()));
    }
    const Token& name = advance();
    auto kind = opKindByName(name.text);
    bool ok = false;
    if (!kind)
      ok = error(name, "unknown op '" + std::string(name.text) + "'; see docs/ir.md for the op list");
    else if (*kind == OpKind::For)
      ok = parseFor(b, first, results);
    else if (*kind == OpKind::If)
      ok = parseIf(b, first, results);
    else if (opInfo(*kind).numRegions == 1 && results.empty())
      ok = parseSection(b, *kind, first);
    else
      ok = parseGeneric(b, *kind, first, name, results);
    if (!ok) poison(results);
    return ok;
  }

  bool checkCounts(const Token& name, OpKind kind, size_t operands, size_t results, size_t types) {
    const OpInfo& info = opInfo(kind);
    if (operands < info.minOperands() || operands > info.maxOperands())
      return error(name, std::string(info.name) + " takes " + info.operandCountText() +
                             " operand(s) but has " + std::to_string(operands) + "; pass exactly that many");
    if (info.numResults >= 0 && results != size_t(info.numResults))
      return error(name, std::string(info.name) + " produces " + std::to_string(info.numResults) +
                             " result(s) but " + std::to_string(results) + " are named; name exactly that many");
    if (results != types)
      return error(name, std::string(info.name) + " names " + std::to_string(results) + " result(s) but gives " +
                             std::to_string(types) + " type(s); give one type per result after ':'");
    return true;
  }

  bool parseGeneric(Block& b, OpKind kind, size_t first, const Token& name, const std::vector<Token>& results) {
    std::vector<Value*> operands;
    if (onLine() && at(Tok::ValueName)) {
      do {
        Value* v = nullptr;
        if (!parseValueUse(v)) return false;
        operands.push_back(v);
      } while (consume(Tok::Comma));
    }
    AttrMap attrs;
    if (onLine() && at(Tok::LBrace) && !parseAttrDict(kind, attrs)) return false;
    std::vector<Type> types;
    if (onLine() && consume(Tok::Colon) && !parseTypeList(types)) return false;
    SourceRange loc = rangeFrom(first);
    if (onLine() && atIdent("loc") && !parseLoc(loc)) return false;
    if (onLine())
      return error(tok(), "expected the end of the op, found " + describe(tok()) + "; put each op on its own line");
    if (!checkCounts(name, kind, operands.size(), results.size(), types.size())) return false;
    Op* op = b.create(kind, loc);
    for (Value* v : operands) op->addOperand(v);
    op->attrs() = std::move(attrs);
    for (size_t i = 0; i < results.size(); ++i) define(results[i], op->addResult(types[i], hintOf(results[i])));
    return true;
  }

  // A region `{ ops }`; an operand-less scf.yield is implied when the body has no terminator.
  void parseRegion(Block& body) {
    if (!at(Tok::LBrace)) {
      error(tok(), "expected '{' to open the region, found " + describe(tok()));
      return;
    }
    advance();
    parseOps(body);
    const Token& close = tok();
    if (!expect(Tok::RBrace, "'}' to close the region")) return;
    if (!body.terminator()) body.create(OpKind::Yield, range(close));
  }

  void pushScope() { scopeNames_.emplace_back(); }
  void popScope() {
    for (const std::string& key : scopeNames_.back()) visible_.erase(key);
    scopeNames_.pop_back();
  }

  // [%r, ... =] scf.for [unroll|parallel] %iv = lb to ub step s
  //     [iter_args(%a = %init, ...) -> (types)] { body } [{attrs}]
  bool parseFor(Block& b, size_t first, const std::vector<Token>& results) {
    std::optional<LoopMode> mode;
    if (at(Tok::Ident))
      if ((mode = parseLoopMode(tok().text))) advance();
    if (!at(Tok::ValueName)) return error(tok(), "expected the induction variable like %i, found " + describe(tok()));
    Token iv = advance();
    Expr lb, ub, step;
    if (!expect(Tok::Assign, "'=' after the induction variable") || !parseExpr(lb) ||
        !expectIdent("to", "after the lower bound") || !parseExpr(ub) ||
        !expectIdent("step", "after the upper bound") || !parseExpr(step))
      return false;
    std::vector<Token> args;
    std::vector<Value*> inits;
    std::vector<Type> types;
    if (atIdent("iter_args") && !parseIterArgs(args, inits, types)) return false;
    if (results.size() != args.size())
      return error(toks_[first], "scf.for carries " + std::to_string(args.size()) + " value(s) but names " +
                                     std::to_string(results.size()) + " result(s); name one result per iter_arg");
    SourceRange loc = rangeFrom(first);
    Op* op = b.create(OpKind::For, loc);
    op->set(attr::lb, lb);
    op->set(attr::ub, ub);
    op->set(attr::step, step);
    if (mode) op->set(attr::mode, *mode);
    for (Value* v : inits) op->addOperand(v);
    std::vector<Value*> resultValues;
    for (size_t i = 0; i < results.size(); ++i) resultValues.push_back(op->addResult(types[i], hintOf(results[i])));
    Block& body = op->addRegion().block();
    pushScope();
    define(iv, body.addArg(Type::index(), hintOf(iv)));
    for (size_t i = 0; i < args.size(); ++i) define(args[i], body.addArg(types[i], hintOf(args[i])));
    parseRegion(body);
    popScope();
    for (size_t i = 0; i < results.size(); ++i) define(results[i], resultValues[i]);
    SourceRange tailLoc = op->loc();
    if (!parseOpTail(OpKind::For, op->attrs(), tailLoc)) recoverOp(pos_);
    op->setLoc(tailLoc);
    return true;
  }

  bool parseIterArgs(std::vector<Token>& args, std::vector<Value*>& inits, std::vector<Type>& types) {
    advance();
    if (!expect(Tok::LParen, "'(' after 'iter_args'")) return false;
    std::vector<Token> initToks;
    do {
      if (!at(Tok::ValueName)) return error(tok(), "expected a loop-carried value like %acc, found " + describe(tok()));
      args.push_back(advance());
      Value* init = nullptr;
      if (!expect(Tok::Assign, "'=' after the iter_arg name")) return false;
      initToks.push_back(tok());
      if (!parseValueUse(init)) return false;
      inits.push_back(init);
    } while (consume(Tok::Comma));
    if (!expect(Tok::RParen, "')' to close iter_args") || !expect(Tok::Arrow, "'->' before the result types") ||
        !expect(Tok::LParen, "'(' before the result types") || !parseTypeList(types) ||
        !expect(Tok::RParen, "')' after the result types"))
      return false;
    if (types.size() != args.size())
      return error(args[0], "scf.for has " + std::to_string(args.size()) + " iter_args but " +
                                std::to_string(types.size()) + " result types; give one type per iter_arg");
    for (size_t i = 0; i < args.size(); ++i)
      if (inits[i]->type() != types[i])
        return error(initToks[i], "initial value " + std::string(initToks[i].text) + " of iter_arg " +
                                      std::string(args[i].text) + " has type " + typeText(inits[i]->type()) +
                                      " but the loop carries " + typeText(types[i]) + "; make the types equal");
    return true;
  }

  std::string typeText(const Type& t) const {
    return t.str([](const Value* v) { return "%" + (v->name().empty() ? std::to_string(v->id()) : v->name()); });
  }

  // core.cube { ops } [{attrs}]: a region without arguments, results or terminator.
  bool parseSection(Block& b, OpKind kind, size_t first) {
    Op* op = b.create(kind, rangeFrom(first));
    Block& body = op->addRegion().block();
    if (!expect(Tok::LBrace, "'{' to open the section")) return false;
    pushScope();
    parseOps(body);
    popScope();
    if (!expect(Tok::RBrace, "'}' to close the section")) return false;
    SourceRange tailLoc = op->loc();
    if (!parseOpTail(kind, op->attrs(), tailLoc)) recoverOp(pos_);
    op->setLoc(tailLoc);
    return true;
  }

  // [%r, ... =] scf.if cond [-> (types)] { then } [else { else }] [{attrs}]
  bool parseIf(Block& b, size_t first, const std::vector<Token>& results) {
    Expr cond;
    if (!parseExpr(cond)) return false;
    std::vector<Type> types;
    if (consume(Tok::Arrow)) {
      if (!expect(Tok::LParen, "'(' before the result types") || !parseTypeList(types) ||
          !expect(Tok::RParen, "')' after the result types"))
        return false;
    }
    if (results.size() != types.size())
      return error(toks_[first], "scf.if names " + std::to_string(results.size()) + " result(s) but declares " +
                                     std::to_string(types.size()) + " type(s); give one type per result in -> (...)");
    Op* op = b.create(OpKind::If, rangeFrom(first));
    op->set(attr::cond, cond);
    std::vector<Value*> resultValues;
    for (size_t i = 0; i < results.size(); ++i) resultValues.push_back(op->addResult(types[i], hintOf(results[i])));
    Block& thenBlock = op->addRegion().block();
    Block& elseBlock = op->addRegion().block();
    pushScope();
    parseRegion(thenBlock);
    popScope();
    if (onLine() && atIdent("else")) {
      advance();
      pushScope();
      parseRegion(elseBlock);
      popScope();
    } else {
      elseBlock.create(OpKind::Yield, op->loc());
    }
    for (size_t i = 0; i < results.size(); ++i) define(results[i], resultValues[i]);
    SourceRange tailLoc = op->loc();
    if (!parseOpTail(OpKind::If, op->attrs(), tailLoc)) recoverOp(pos_);
    op->setLoc(tailLoc);
    return true;
  }

  // ---- functions ----

  struct ParamSpan {
    Token name;
    size_t typeBegin = 0, typeEnd = 0;  // token indices of the type
    ParamDir dir = ParamDir::None;
  };

  static std::optional<ParamDir> dirOf(const Token& t) {
    if (t.kind != Tok::Ident) return std::nullopt;
    if (t.text == "in") return ParamDir::In;
    if (t.text == "out") return ParamDir::Out;
    if (t.text == "inout") return ParamDir::InOut;
    return std::nullopt;
  }

  // Finds where each parameter's type ends: at a ',' or ')' outside any bracket.
  // '<'/'>' count only outside '[...]' and '(...)', where they cannot be comparisons.
  bool scanParam(ParamSpan& p) {
    p.typeBegin = pos_;
    int nest = 0, angle = 0;
    while (!at(Tok::End) && !at(Tok::LBrace)) {
      if (nest == 0 && angle == 0 && (at(Tok::Comma) || at(Tok::RParen))) break;
      if (at(Tok::LBracket) || at(Tok::LParen)) ++nest;
      if (at(Tok::RBracket) || at(Tok::RParen)) --nest;
      if (nest == 0 && at(Tok::Less)) ++angle;
      if (nest == 0 && at(Tok::Greater)) --angle;
      ++pos_;
    }
    if (!at(Tok::Comma) && !at(Tok::RParen))
      return error(tok(), "expected ',' or ')' after the parameter, found " + describe(tok()));
    p.typeEnd = pos_;
    if (p.typeEnd > p.typeBegin)
      if (auto d = dirOf(toks_[p.typeEnd - 1])) {
        p.dir = *d;
        --p.typeEnd;
      }
    return true;
  }

  // Parameters may name later parameters in their types (`tensor<f32, [%S]>`, `%S: index`),
  // so all are declared before any type is parsed.
  bool parseParams(Function& f) {
    if (!expect(Tok::LParen, "'(' to start the parameter list")) return false;
    std::vector<ParamSpan> params;
    if (!at(Tok::RParen)) {
      do {
        if (!at(Tok::ValueName)) return error(tok(), "expected a parameter like %x, found " + describe(tok()));
        ParamSpan p;
        p.name = advance();
        if (!expect(Tok::Colon, "':' after the parameter name") || !scanParam(p)) return false;
        params.push_back(p);
      } while (consume(Tok::Comma));
    }
    size_t close = pos_;
    if (!expect(Tok::RParen, "')' to close the parameter list")) return false;
    std::vector<Value*> values;
    for (const ParamSpan& p : params) {
      SourceRange r{file_, p.name.begin, toks_[std::max(p.typeEnd, p.typeBegin + 1) - 1].end};
      values.push_back(f.addParam(Type(), hintOf(p.name), p.dir, r));
      if (!define(p.name, values.back())) return false;
    }
    for (size_t i = 0; i < params.size(); ++i) {
      pos_ = params[i].typeBegin;
      Type t;
      if (!parseType(t)) return false;
      if (pos_ != params[i].typeEnd)
        return error(tok(), "expected in, out, inout or the end of the parameter, found " + describe(tok()));
      values[i]->setType(t);
    }
    pos_ = close + 1;
    return true;
  }

  // blocks(N [, S]): the launch's blocks and sub-blocks per block.
  bool parseLaunch(Function& f) {
    advance();  // 'blocks'
    int64_t blocks = 0, subblocks = 1;
    if (!expect(Tok::LParen, "'(' after 'blocks'") || !parseInt(blocks, "a block count")) return false;
    if (at(Tok::Comma)) {
      advance();
      if (!parseInt(subblocks, "a sub-block count")) return false;
    }
    const Token& close = tok();
    if (!expect(Tok::RParen, "')' to close the launch")) return false;
    if (blocks < 1 || subblocks < 1)
      return error(close, "a launch has at least one block and one sub-block per block; write positive counts");
    f.setBlocks(blocks);
    f.setSubblocks(subblocks);
    return true;
  }

  bool parseFunction() {
    size_t first = pos_;
    advance();  // 'func'
    if (!at(Tok::Symbol)) return error(tok(), "expected a function name like @kernel, found " + describe(tok()));
    const Token& name = advance();
    std::string fname(name.text.substr(1));
    if (module_->lookup(fname)) return error(name, "function '" + std::string(name.text) + "' is defined twice; rename one");
    Function& f = module_->addFunction(fname);
    f.setLoc(rangeFrom(first));
    visible_.clear();
    scopeNames_.assign(1, {});
    definedAt_.clear();
    if (!parseParams(f)) return false;
    auto kind = at(Tok::Ident) ? target_.parseKernelKind(tok().text) : std::nullopt;
    if (!kind)
      return error(tok(), "expected the function kind (" + listText(target_.kernelKindNames(), "or") + "), found " +
                              describe(tok()));
    advance();
    f.setKind(*kind);
    if (atIdent("blocks") && !parseLaunch(f)) return false;
    if (!expect(Tok::LBrace, "'{' to open the function body")) return false;
    parseOps(f.body());
    // Without its '}' the function still ends at the next `func`, which parses normally.
    if (atIdent("func")) {
      error(tok(), "expected '}' to close the function body, found 'func'");
      return true;
    }
    return expect(Tok::RBrace, "'}' to close the function body");
  }

  const SourceManager& sm_;
  FileId file_;
  DiagnosticEngine& diags_;
  const TargetModel& target_;
  std::vector<Token> toks_;
  std::vector<LexError> lexErrors_;
  size_t nextLexError_ = 0;
  size_t pos_ = 0;
  bool failed_ = false;
  unsigned exprDepth_ = 0;  // see parseUnary
  std::unique_ptr<Module> module_;
  std::unordered_map<std::string, Value*> visible_;  // lookup only, never iterated
  std::vector<std::vector<std::string>> scopeNames_;
  std::unordered_map<std::string, SourceRange> definedAt_;
};

}  // namespace

std::unique_ptr<Module> parseModule(const SourceManager& sm, FileId file, DiagnosticEngine& diags,
                                    const TargetModel& target) {
  return Parser(sm, file, diags, target).run();
}

}  // namespace tilec::ir
