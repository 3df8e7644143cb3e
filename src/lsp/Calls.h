// Which call a cursor is in, read from the text itself: signature help is asked for while
// a call is being typed, when the file does not parse.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec::lsp {

struct CallSite {
  std::string callee;    // the name before the innermost open `(` (past a `<dtype>`)
  unsigned argument = 0;  // the argument the cursor is in, from 0
  std::string keyword;   // the argument's `name =`, when it has one
};

// The innermost call whose parentheses are open at `offset` (comments and strings are
// skipped; brackets inside the argument list nest), or nullopt outside any call.
std::optional<CallSite> callAt(std::string_view text, uint32_t offset);

struct UsageParameter {
  std::string text;
  uint32_t begin, end;  // its place in the usage line
};

// The parameters of a built-in's usage line: `load(tensor, [offsets], [shape], space = ...)`
// gives `tensor`, `[offsets]`, `[shape]`, `space = ...`.
std::vector<UsageParameter> usageParameters(const std::string& usage);

// The parameter a call's argument fills: a keyword's own, else the positional one (the
// last when there are more arguments than parameters); nullopt when there is none.
std::optional<unsigned> activeParameter(const std::vector<UsageParameter>& parameters, const CallSite& site);

}  // namespace tilec::lsp
