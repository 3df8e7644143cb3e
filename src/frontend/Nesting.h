// The bound on how deeply an expression may nest, checked on the token stream before
// the parser sees it: the parser and the tree walks recurse once per level, and this
// bound keeps them far inside the compiler thread's stack (see src/cli/main.cpp), and
// the parse tree small, whatever the input. A level is a bracket, a prefix operator, or
// a binary operator: `1 + 1 + ... + 1` is a tree as deep as it has operators.
#pragma once
#include <cstddef>
#include <vector>

namespace tilec::frontend {

constexpr unsigned kMaxNesting = 4096;

class NestingCounter {
 public:
  // Counts the next token of the default channel; false once the nesting there passes
  // kMaxNesting.
  bool add(size_t tokenType);

 private:
  unsigned brackets_ = 0, prefixRun_ = 0, chained_ = 0;
  std::vector<unsigned> chains_{0};  // binary operators since the last separator, per bracket depth
  bool afterOperand_ = false;        // a '-' after an operand subtracts, elsewhere it negates
};

}  // namespace tilec::frontend
