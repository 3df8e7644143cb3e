// The ANTLR side of the frontend: the chunked fast path (ChunkedParse.h) for files
// without errors; for the rest, lexing, the two-stage parse (SLL with bail-out, then LL
// with recovery on failure), lexical error reporting; and --emit=tokens.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <ostream>

#include <antlr4-runtime.h>

#include "TileLexer.h"
#include "TileParser.h"
#include "frontend/AstBuilder.h"
#include "frontend/ChunkedParse.h"
#include "frontend/Frontend.h"
#include "frontend/Nesting.h"
#include "support/PhaseTimes.h"
#include "frontend/SyntaxErrors.h"
#include "frontend/TokenRanges.h"
#include "support/Wording.h"

namespace tilec::frontend {
namespace {

using grammar::TileLexer;
using grammar::TileParser;

// Owns the character stream, lexer and token stream of one file.
struct Lexed {
  explicit Lexed(std::string_view text) : input(std::string(text)), lexer(&input), tokens(&lexer) {
    lexer.removeErrorListeners();  // BAD_CHAR catches every character the grammar rejects
    tokens.fill();
  }
  antlr4::ANTLRInputStream input;
  TileLexer lexer;
  antlr4::CommonTokenStream tokens;
};

std::string describeChar(const std::string& text) {
  unsigned char c = static_cast<unsigned char>(text.empty() ? 0 : text[0]);
  if (c >= 0x20 && c < 0x7F) return quotedName(text);
  char buf[32];
  if (c < 0x80) {
    std::snprintf(buf, sizeof buf, "U+%04X", unsigned(c));
    return buf;
  }
  return quotedName(text);
}

std::optional<PendingDiag> nestingError(antlr4::CommonTokenStream& tokens, const TokenRanges& ranges) {
  NestingCounter nesting;
  for (antlr4::Token* t : tokens.getTokens()) {
    if (t->getChannel() != antlr4::Token::DEFAULT_CHANNEL || nesting.add(t->getType())) continue;
    return PendingDiag{Diag::NestingTooDeep, ranges.of(t),
                       "the expression is nested more than " + std::to_string(kMaxNesting) +
                           " levels deep here (each bracket, prefix operator and binary operator is a "
                           "level); split it with let bindings"};
  }
  return std::nullopt;
}

// Lexical errors are hidden-channel tokens (see the end of Tile.g4).
std::vector<PendingDiag> lexicalErrors(antlr4::CommonTokenStream& tokens, const TokenRanges& ranges) {
  std::vector<PendingDiag> out;
  for (antlr4::Token* t : tokens.getTokens()) {
    SourceRange r = ranges.of(t);
    switch (t->getType()) {
      case TileLexer::BAD_CHAR:
        out.push_back({Diag::BadToken, r,
                       "character " + describeChar(t->getText()) + " is not valid in .tile source; remove it"});
        break;
      case TileLexer::UNTERMINATED_COMMENT:
        out.push_back({Diag::UnterminatedToken, {r.file, r.begin, r.begin + 2},
                       "block comment is not closed; end it with '*/'"});
        break;
      case TileLexer::UNTERMINATED_STRING:
        out.push_back({Diag::UnterminatedToken, r, "string is not closed; end it with '\"' on the same line"});
        break;
      default: break;
    }
  }
  return out;
}

// Syntax errors that a lexical error explains: the parser never sees a bad
// character, so the token after it often looks out of place; and an unclosed
// comment or string swallows everything after it.
struct LexicalShadow {
  std::vector<uint32_t> afterBadChar;  // sorted token offsets
  uint32_t swallowedFrom = UINT32_MAX;
  bool explains(const PendingDiag& d) const {
    return d.range.begin >= swallowedFrom ||
           std::binary_search(afterBadChar.begin(), afterBadChar.end(), d.range.begin);
  }
};

LexicalShadow lexicalShadow(antlr4::CommonTokenStream& tokens, const TokenRanges& ranges) {
  LexicalShadow shadow;
  bool afterBadChar = false;
  for (antlr4::Token* t : tokens.getTokens()) {
    size_t type = t->getType();
    if (type == TileLexer::UNTERMINATED_COMMENT || type == TileLexer::UNTERMINATED_STRING) {
      shadow.swallowedFrom = ranges.of(t).begin;
      break;
    }
    if (type == TileLexer::BAD_CHAR) {
      afterBadChar = true;
    } else if (afterBadChar) {
      shadow.afterBadChar.push_back(ranges.of(t).begin);
      afterBadChar = false;
    }
  }
  return shadow;
}

// SLL with BailErrorStrategy decides almost every valid file quickly; only on a
// failure is the file reparsed with full LL and error recovery, which reports
// every syntax error through `sink`.
TileParser::ModuleContext* parseTwoStage(TileParser& parser, antlr4::CommonTokenStream& tokens,
                                         const TokenRanges& ranges, SyntaxErrorCollector& sink) {
  auto* sim = parser.getInterpreter<antlr4::atn::ParserATNSimulator>();
  parser.removeErrorListeners();
  sim->setPredictionMode(antlr4::atn::PredictionMode::SLL);
  parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  try {
    return parser.module();
  } catch (const antlr4::ParseCancellationException&) {
    tokens.seek(0);
    parser.reset();
    sim->setPredictionMode(antlr4::atn::PredictionMode::LL);
    parser.setErrorHandler(std::make_shared<HouseErrorStrategy>(sink, ranges));
    parser.addErrorListener(&sink);
    return parser.module();
  }
}

void reportInOrder(std::vector<PendingDiag> pending, DiagnosticEngine& diags) {
  std::stable_sort(pending.begin(), pending.end(),
                   [](const PendingDiag& a, const PendingDiag& b) { return a.range.begin < b.range.begin; });
  for (PendingDiag& d : pending) diags.report(d.id, d.range, std::move(d.message));
}

std::string escapeTokenText(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c == '\\') out += "\\\\";
    else if (c == '\'') out += "\\'";
    else out += c;
  }
  return out;
}

// The offset of the first byte that does not start a well-formed UTF-8 sequence (an
// overlong form, a surrogate, a code point past U+10FFFF, a truncated or stray byte).
std::optional<uint32_t> firstInvalidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return uint32_t(i);
    uint32_t cp = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
    for (size_t k = 1; k < n; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c >> 6) != 0x2) return uint32_t(i);
      cp = (cp << 6) | (c & 0x3F);
    }
    const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return uint32_t(i);
    i += n;
  }
  return std::nullopt;
}

}  // namespace

namespace {

// Reports the first byte of `text` that is not UTF-8; false if there is one.
bool checkUtf8(std::string_view text, FileId file, DiagnosticEngine& diags) {
  std::optional<uint32_t> bad = firstInvalidUtf8(text);
  if (!bad) return true;
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", unsigned(static_cast<unsigned char>(text[*bad])));
  diags.report(Diag::BadToken, {file, *bad, *bad + 1},
               std::string("source is not valid UTF-8: byte ") + hex +
                   " starts no well-formed character; save the file as UTF-8");
  return false;
}

}  // namespace

std::unique_ptr<ast::Module> parse(const SourceManager& sm, FileId file, DiagnosticEngine& diags) {
  std::string_view text = sm.contents(file);
  if (!checkUtf8(text, file, diags)) return nullptr;
  if (std::unique_ptr<ast::Module> m = parseChunked(sm, text, TokenRanges(file, text))) return m;
  return parseWholeFile(sm, file, diags);
}

std::unique_ptr<ast::Module> parseWholeFile(const SourceManager& sm, FileId file, DiagnosticEngine& diags) {
  std::string_view text = sm.contents(file);
  if (!checkUtf8(text, file, diags)) return nullptr;
  TokenRanges ranges(file, text);
  std::unique_ptr<Lexed> lexed;
  try {
    ScopedPhase phase("lex");
    lexed = std::make_unique<Lexed>(text);
  } catch (const std::range_error&) {  // the checks above leave nothing the decoder rejects
    diags.report(Diag::BadToken, {file, 0, 0}, "source is not valid UTF-8; save the file as UTF-8");
    return nullptr;
  }
  SyntaxErrorCollector sink(ranges);
  std::vector<PendingDiag> pending = lexicalErrors(lexed->tokens, ranges);
  if (std::optional<PendingDiag> deep = nestingError(lexed->tokens, ranges)) {
    pending.push_back(std::move(*deep));
    reportInOrder(std::move(pending), diags);
    return nullptr;
  }
  TileParser parser(&lexed->tokens);
  TileParser::ModuleContext* tree;
  {
    ScopedPhase phase("parse");
    tree = parseTwoStage(parser, lexed->tokens, ranges, sink);
  }
  LexicalShadow shadow = lexicalShadow(lexed->tokens, ranges);
  for (PendingDiag& d : sink.errors())
    if (!shadow.explains(d)) pending.push_back(std::move(d));
  if (!pending.empty()) {
    reportInOrder(std::move(pending), diags);
    return nullptr;
  }
  unsigned before = diags.errorCount();
  ScopedPhase phase("ast");
  std::unique_ptr<ast::Module> m = AstBuilder(ranges, diags).build(tree);
  return diags.errorCount() > before ? nullptr : std::move(m);
}

std::vector<std::unique_ptr<ast::Module>> parseDefines(SourceManager& sm, const std::vector<std::string>& nameValues,
                                                       DiagnosticEngine& diags, Defines& defines) {
  std::vector<std::unique_ptr<ast::Module>> modules;
  for (const std::string& nameValue : nameValues) {
    // Parsed as `const NAME=VALUE;`, shown as typed: "-D NAME=VALUE".
    const std::string declaration = "const " + nameValue + ";";
    const uint32_t typedAt = 6, shownAt = 3;
    const FileId file = sm.addBuffer("<command line>", declaration, ShownAs{"-D " + nameValue, typedAt, shownAt});
    DiagnosticEngine syntax(sm);  // a value that does not parse is E0729 below, not E0101 on pasted text
    std::unique_ptr<ast::Module> m = parse(sm, file, syntax);
    const auto* constant = m && m->decls.size() == 1 && m->imports.empty()
                               ? std::get_if<std::unique_ptr<ast::ConstDecl>>(&m->decls[0])
                               : nullptr;
    if (!constant) {
      const uint32_t value = typedAt + uint32_t(nameValue.find('=')) + 1;
      diags.report(Diag::DefineNotExpression, {file, value, typedAt + uint32_t(nameValue.size())},
                   "-D " + nameValue + " is not NAME=VALUE with VALUE one expression; write e.g. -D M=256");
      continue;
    }
    defines[(*constant)->name] = constant->get();
    modules.push_back(std::move(m));
  }
  return modules;
}

void dumpTokens(const SourceManager& sm, FileId file, std::ostream& os) {
  std::unique_ptr<Lexed> lexed;
  try {
    lexed = std::make_unique<Lexed>(sm.contents(file));
  } catch (const std::range_error&) {
    return;  // nothing to show; parse() reports the encoding error
  }
  const antlr4::dfa::Vocabulary& voc = lexed->lexer.getVocabulary();
  for (antlr4::Token* t : lexed->tokens.getTokens()) {
    std::string kind = t->getType() == antlr4::Token::EOF ? "EOF" : voc.getSymbolicName(t->getType());
    std::string text = t->getType() == antlr4::Token::EOF ? "" : t->getText();
    os << t->getLine() << ':' << t->getCharPositionInLine() + 1 << ' ' << kind << " '" << escapeTokenText(text)
       << "'\n";
  }
}

}  // namespace tilec::frontend
