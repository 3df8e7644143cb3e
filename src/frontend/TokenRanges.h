// ANTLR positions are code-point indices; SourceRange is in bytes. This maps one
// to the other for a single file so every token and parse-tree node gets an exact
// byte range even after non-ASCII text in comments.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/Source.h"

namespace antlr4 {
class Token;
class ParserRuleContext;
}  // namespace antlr4

namespace tilec::frontend {

class TokenRanges {
 public:
  TokenRanges(FileId file, std::string_view utf8);
  FileId file() const { return file_; }
  SourceRange of(const antlr4::Token* t) const;
  SourceRange of(antlr4::ParserRuleContext* ctx) const;
  // The token's text, read from the UTF-8 source (ANTLR's own getText converts from UTF-32).
  std::string text(const antlr4::Token* t) const;
  // The empty range just after token `t` (where a missing token belongs).
  SourceRange after(const antlr4::Token* t) const;

 private:
  uint32_t byteOf(size_t codePoint) const;
  FileId file_;
  std::string_view source_;  // owned by the SourceManager
  std::vector<uint32_t> byteOfCodePoint_;  // one entry per code point, plus the end; empty for ASCII
};

}  // namespace tilec::frontend
