// Syntax error reporting in house style. ANTLR's recovery (DefaultErrorStrategy)
// decides where an error is and how to resynchronize; this strategy only replaces
// its wording ("mismatched input ')' expecting {...}") with messages that name
// what was expected in words ("expected an expression before ')'") and places
// missing-token errors right after the token they should follow.
#pragma once
#include <string>
#include <vector>

#include <antlr4-runtime.h>

#include "frontend/TokenRanges.h"
#include "support/Diagnostics.h"

namespace tilec::frontend {

// A diagnostic not yet given to the engine, so lexical and syntax errors can be
// reported in source order.
struct PendingDiag {
  Diag id;
  SourceRange range;
  std::string message;
};

// The parser's error listener: everything it hears becomes a PendingDiag.
class SyntaxErrorCollector : public antlr4::BaseErrorListener {
 public:
  explicit SyntaxErrorCollector(const TokenRanges& ranges) : ranges_(ranges) {}
  void add(SourceRange range, std::string message);
  // Reached only by paths the strategy does not reword (kept so no error is lost).
  void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offending, size_t line,
                   size_t charPositionInLine, const std::string& msg, std::exception_ptr e) override;
  std::vector<PendingDiag>& errors() { return errors_; }

 private:
  const TokenRanges& ranges_;
  std::vector<PendingDiag> errors_;
};

class HouseErrorStrategy : public antlr4::DefaultErrorStrategy {
 public:
  HouseErrorStrategy(SyntaxErrorCollector& sink, const TokenRanges& ranges)
      : sink_(sink), ranges_(ranges) {}

 protected:
  void reportNoViableAlternative(antlr4::Parser* p, const antlr4::NoViableAltException& e) override;
  void reportInputMismatch(antlr4::Parser* p, const antlr4::InputMismatchException& e) override;
  void reportUnwantedToken(antlr4::Parser* p) override;
  void reportMissingToken(antlr4::Parser* p) override;
  // A keyword where a name belongs is reported once and then taken as the name,
  // so the rest of the statement parses normally.
  antlr4::Token* recoverInline(antlr4::Parser* p) override;

 private:
  void reportExpected(antlr4::Parser* p, antlr4::Token* offending, const antlr4::misc::IntervalSet& expected);
  SyntaxErrorCollector& sink_;
  const TokenRanges& ranges_;
};

// "';'", "a name", "an expression or ']'" ... for a set of token types; empty when
// the set is too large to name usefully.
std::string describeExpected(const antlr4::misc::IntervalSet& expected, const antlr4::dfa::Vocabulary& voc);

}  // namespace tilec::frontend
