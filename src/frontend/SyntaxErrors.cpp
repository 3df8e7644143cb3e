#include "frontend/SyntaxErrors.h"

#include <algorithm>
#include <cctype>

#include "TileParser.h"
#include "support/Wording.h"

namespace tilec::frontend {
namespace {

using grammar::TileParser;
using antlr4::misc::IntervalSet;

// Token groups that read better as one word than as a list of alternatives.
struct TokenGroup {
  const char* phrase;
  std::vector<size_t> witnesses;  // all present: the group applies
  std::vector<size_t> members;    // removed from the set when it applies
};

const std::vector<TokenGroup>& tokenGroups() {
  static const std::vector<TokenGroup> groups = {
      {"a declaration",
       {TileParser::CONST, TileParser::KERNEL},
       {TileParser::CONST, TileParser::KERNEL, TileParser::INCORE, TileParser::AIC, TileParser::AIV,
        TileParser::SEQUENCE, TileParser::IMPORT, TileParser::PATTERN, TileParser::REGION}},
      {"a statement",
       {TileParser::LET, TileParser::VAR, TileParser::FOR},
       {TileParser::LET, TileParser::VAR, TileParser::FOR, TileParser::UNROLL, TileParser::PARALLEL,
        TileParser::IF, TileParser::CONST, TileParser::LBRACE, TileParser::PATTERN,
        TileParser::REGION, TileParser::INT, TileParser::FLOAT, TileParser::TRUE, TileParser::FALSE,
        TileParser::ID, TileParser::WHERE, TileParser::LPAREN, TileParser::LBRACK, TileParser::MINUS,
        TileParser::NOT, TileParser::TILDE}},
      {"an expression",
       {TileParser::INT, TileParser::ID, TileParser::LPAREN},
       {TileParser::INT, TileParser::FLOAT, TileParser::TRUE, TileParser::FALSE, TileParser::ID,
        TileParser::WHERE,  // the where(...) call
        TileParser::LPAREN, TileParser::LBRACK, TileParser::MINUS, TileParser::NOT, TileParser::TILDE}},
      {"an operator",
       {TileParser::PLUS, TileParser::STAR, TileParser::EQ},
       {TileParser::PLUS, TileParser::MINUS, TileParser::STAR, TileParser::SLASH, TileParser::PERCENT,
        TileParser::EQ, TileParser::NE, TileParser::LT, TileParser::LE, TileParser::GT, TileParser::GE,
        TileParser::AND, TileParser::OR, TileParser::AMP, TileParser::PIPE, TileParser::CARET, TileParser::SHL,
        TileParser::SHR}},
      {"a parameter direction or dtype",
       {TileParser::IN, TileParser::OUT, TileParser::INOUT, TileParser::DTYPE},
       {TileParser::IN, TileParser::OUT, TileParser::INOUT, TileParser::DTYPE}},
      {"a kernel kind",
       {TileParser::INCORE, TileParser::AIC, TileParser::AIV},
       {TileParser::INCORE, TileParser::AIC, TileParser::AIV}},
  };
  return groups;
}

std::string tokenPhrase(size_t type, const antlr4::dfa::Vocabulary& voc) {
  switch (type) {
    case antlr4::Token::EOF: return "end of file";
    case TileParser::ID: return "a name";
    case TileParser::INT: return "an integer";
    case TileParser::FLOAT: return "a number";
    case TileParser::DTYPE: return "a dtype";
    case TileParser::STRING: return "a string";
    default: return voc.getLiteralName(type);  // already quoted: "';'"
  }
}

std::string joinAlternatives(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " or " : ", ";
    out += items[i];
  }
  return out;
}

// "before ')'" / "at end of file".
std::string where(const antlr4::Token* t) {
  if (!t || t->getType() == antlr4::Token::EOF) return "at end of file";
  return "before " + quotedName(t->getText());
}

bool isKeyword(size_t type, const antlr4::dfa::Vocabulary& voc) {
  if (type == TileParser::DTYPE) return true;  // one token for all dtype names
  std::string lit = voc.getLiteralName(type);
  return lit.size() > 2 && std::isalpha(static_cast<unsigned char>(lit[1]));
}

// Statements end in ';' and so do file-level declarations; say which one it is.
std::string semicolonContext(const antlr4::ParserRuleContext* ctx) {
  for (; ctx; ctx = dynamic_cast<const antlr4::ParserRuleContext*>(ctx->parent)) {
    if (dynamic_cast<const TileParser::TopDeclContext*>(ctx)) return "the declaration";
    if (dynamic_cast<const TileParser::StmtContext*>(ctx)) return "the statement";
  }
  return "the statement";
}

}  // namespace

std::string describeExpected(const IntervalSet& expected, const antlr4::dfa::Vocabulary& voc) {
  std::vector<ssize_t> remaining = expected.toList();
  std::vector<std::string> items;
  for (const TokenGroup& g : tokenGroups()) {
    bool applies = std::all_of(g.witnesses.begin(), g.witnesses.end(), [&](size_t t) {
      return std::find(remaining.begin(), remaining.end(), ssize_t(t)) != remaining.end();
    });
    if (!applies) continue;
    items.push_back(g.phrase);
    remaining.erase(std::remove_if(remaining.begin(), remaining.end(),
                                   [&](ssize_t t) {
                                     return std::find(g.members.begin(), g.members.end(), size_t(t)) !=
                                            g.members.end();
                                   }),
                    remaining.end());
  }
  for (ssize_t t : remaining) items.push_back(tokenPhrase(size_t(t), voc));
  if (items.empty() || items.size() > 4) return {};
  return joinAlternatives(items);
}

void SyntaxErrorCollector::add(SourceRange range, std::string message) {
  errors_.push_back({Diag::SyntaxError, range, std::move(message)});
}

void SyntaxErrorCollector::syntaxError(antlr4::Recognizer*, antlr4::Token* offending, size_t, size_t,
                                       const std::string& msg, std::exception_ptr) {
  add(ranges_.of(offending), msg);
}

// `16x16` lexes as INT '16' then ID 'x16': the shape syntax of other tools.
bool looksLikeXShape(antlr4::Parser* p, const antlr4::Token* offending) {
  const antlr4::Token* previous = p->getTokenStream()->LT(-1);
  if (!offending || !previous || offending->getType() != TileParser::ID || previous->getType() != TileParser::INT)
    return false;
  std::string text = offending->getText();
  return text.size() > 1 && text[0] == 'x' && std::isdigit(static_cast<unsigned char>(text[1])) &&
         previous->getStopIndex() + 1 == offending->getStartIndex();
}

void HouseErrorStrategy::reportExpected(antlr4::Parser* p, antlr4::Token* offending,
                                        const IntervalSet& expected) {
  const auto& voc = p->getVocabulary();
  if (expected.contains(size_t(TileParser::ID)) && offending && isKeyword(offending->getType(), voc)) {
    sink_.add(ranges_.of(offending), "'" + offending->getText() +
                                         "' is a keyword and cannot be used as a name; choose another name");
    return;
  }
  if (looksLikeXShape(p, offending)) {
    sink_.add(ranges_.of(offending), "shapes are lists of dims; write [16, 16] instead of 16x16");
    return;
  }
  std::string what = describeExpected(expected, voc);
  if (what.empty()) {
    std::string found = offending && offending->getType() != antlr4::Token::EOF
                            ? quotedName(offending->getText())
                            : std::string("end of file");
    sink_.add(ranges_.of(offending), "unexpected " + found + "; check the syntax near here");
    return;
  }
  sink_.add(ranges_.of(offending), "expected " + what + " " + where(offending));
}

void HouseErrorStrategy::reportNoViableAlternative(antlr4::Parser* p, const antlr4::NoViableAltException& e) {
  reportExpected(p, e.getOffendingToken(), e.getExpectedTokens());
}

void HouseErrorStrategy::reportInputMismatch(antlr4::Parser* p, const antlr4::InputMismatchException& e) {
  reportExpected(p, e.getOffendingToken(), e.getExpectedTokens());
}

void HouseErrorStrategy::reportUnwantedToken(antlr4::Parser* p) {
  if (inErrorRecoveryMode(p)) return;
  beginErrorCondition(p);
  antlr4::Token* t = p->getCurrentToken();
  // ANTLR resynchronizes by dropping this token; when what it wanted instead is
  // a single kind of thing, naming it is the clearer message.
  std::string what = describeExpected(getExpectedTokens(p), p->getVocabulary());
  bool single = !what.empty() && what.find(" or ") == std::string::npos;
  if (looksLikeXShape(p, t))
    sink_.add(ranges_.of(t), "shapes are lists of dims; write [16, 16] instead of 16x16");
  else if (t->getType() == antlr4::Token::EOF)
    sink_.add(ranges_.of(t), "expected " + (what.empty() ? std::string("more input") : what) + " at end of file");
  else if (single)
    sink_.add(ranges_.of(t), "expected " + what + " " + where(t));
  else
    sink_.add(ranges_.of(t), "unexpected " + quotedName(t->getText()) + "; remove it");
}

antlr4::Token* HouseErrorStrategy::recoverInline(antlr4::Parser* p) {
  antlr4::Token* t = p->getCurrentToken();
  IntervalSet expected = getExpectedTokens(p);
  if (!expected.contains(size_t(TileParser::ID)) || !isKeyword(t->getType(), p->getVocabulary()))
    return DefaultErrorStrategy::recoverInline(p);
  if (!inErrorRecoveryMode(p)) {
    beginErrorCondition(p);
    sink_.add(ranges_.of(t), quotedName(t->getText()) + " is a keyword and cannot be used as a name; choose another name");
  }
  p->consume();
  reportMatch(p);
  return t;
}

void HouseErrorStrategy::reportMissingToken(antlr4::Parser* p) {
  if (inErrorRecoveryMode(p)) return;
  beginErrorCondition(p);
  IntervalSet expected = getExpectedTokens(p);
  const antlr4::Token* previous = p->getTokenStream()->LT(-1);
  const auto& voc = p->getVocabulary();
  std::string what = describeExpected(expected, voc);
  if (what.empty()) what = "more input";
  std::string after = expected.contains(size_t(TileParser::SEMI)) && expected.size() == 1
                          ? semicolonContext(p->getContext())
                          : previous ? quotedName(previous->getText()) : std::string("this");
  SourceRange at = previous ? ranges_.after(previous) : ranges_.of(p->getCurrentToken());
  sink_.add(at, "expected " + what + " after " + after);
}

}  // namespace tilec::frontend
