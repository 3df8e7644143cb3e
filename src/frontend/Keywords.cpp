#include "frontend/Keywords.h"

#include <algorithm>

#include "TileLexer.h"

namespace tilec::frontend {
namespace {

bool isWord(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

std::vector<std::string> lexerWords() {
  antlr4::ANTLRInputStream input("");
  grammar::TileLexer lexer(&input);
  const antlr4::dfa::Vocabulary& vocabulary = lexer.getVocabulary();
  std::vector<std::string> words;
  for (size_t t = 0; t <= vocabulary.getMaxTokenType(); ++t) {
    const std::string literal = vocabulary.getLiteralName(t);  // "'kernel'", or empty
    if (literal.size() > 2 && isWord(literal.substr(1, literal.size() - 2))) words.push_back(literal.substr(1, literal.size() - 2));
  }
  std::sort(words.begin(), words.end());
  return words;
}

}  // namespace

const std::vector<std::string>& keywords() {
  static const std::vector<std::string> words = lexerWords();
  return words;
}

}  // namespace tilec::frontend
