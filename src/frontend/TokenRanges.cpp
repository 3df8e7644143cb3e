#include "frontend/TokenRanges.h"

#include <algorithm>

#include <antlr4-runtime.h>

namespace tilec::frontend {

TokenRanges::TokenRanges(FileId file, std::string_view utf8) : file_(file), source_(utf8) {
  // In ASCII text (most sources) code points are bytes, and no table is needed.
  if (std::all_of(utf8.begin(), utf8.end(), [](char c) { return (uint8_t(c) & 0x80) == 0; })) return;
  byteOfCodePoint_.reserve(utf8.size() + 1);
  for (uint32_t i = 0; i < utf8.size(); ++i)
    if ((uint8_t(utf8[i]) & 0xC0) != 0x80) byteOfCodePoint_.push_back(i);  // skip continuation bytes
  byteOfCodePoint_.push_back(uint32_t(utf8.size()));
}

uint32_t TokenRanges::byteOf(size_t codePoint) const {
  if (byteOfCodePoint_.empty()) return uint32_t(std::min(codePoint, source_.size()));
  return codePoint < byteOfCodePoint_.size() ? byteOfCodePoint_[codePoint] : byteOfCodePoint_.back();
}

SourceRange TokenRanges::of(const antlr4::Token* t) const {
  if (!t) return {};
  size_t start = t->getStartIndex();
  if (t->getType() == antlr4::Token::EOF) return {file_, byteOf(start), byteOf(start)};
  size_t stop = t->getStopIndex();
  return {file_, byteOf(start), byteOf(stop < start ? start : stop + 1)};
}

std::string TokenRanges::text(const antlr4::Token* t) const {
  const SourceRange r = of(t);
  return std::string(source_.substr(r.begin, r.end - r.begin));
}

SourceRange TokenRanges::of(antlr4::ParserRuleContext* ctx) const {
  SourceRange begin = of(ctx->getStart());
  const antlr4::Token* stopToken = ctx->getStop();
  // An empty rule match has its stop token before its start token.
  if (!stopToken || stopToken->getTokenIndex() < ctx->getStart()->getTokenIndex()) return begin;
  return SourceRange::join(begin, of(stopToken));
}

SourceRange TokenRanges::after(const antlr4::Token* t) const {
  SourceRange r = of(t);
  return {file_, r.end, r.end};
}

}  // namespace tilec::frontend
