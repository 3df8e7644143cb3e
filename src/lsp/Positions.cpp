#include "lsp/Positions.h"

#include <algorithm>

namespace tilec::lsp {
namespace {

// The byte length of the UTF-8 sequence `lead` starts (1 for a byte no sequence starts with).
uint32_t sequenceLength(unsigned char lead) {
  if (lead >= 0xF0 && lead <= 0xF7) return 4;
  if (lead >= 0xE0) return lead <= 0xEF ? 3 : 1;
  if (lead >= 0xC0) return 2;
  return 1;
}

// Code points outside the Basic Multilingual Plane take two UTF-16 code units.
uint32_t unitsOf(uint32_t bytes, Encoding e) { return e == Encoding::Utf16 && bytes == 4 ? 2 : 1; }

}  // namespace

const char* encodingName(Encoding e) { return e == Encoding::Utf16 ? "utf-16" : "utf-32"; }

LineMap::LineMap(std::string_view text) : text_(text) {
  lineStarts_.push_back(0);
  for (uint32_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') lineStarts_.push_back(i + 1);
}

uint32_t LineMap::lineEnd(uint32_t line) const {
  uint32_t end = line + 1 < lineStarts_.size() ? lineStarts_[line + 1] - 1 : uint32_t(text_.size());
  if (end > lineStarts_[line] && text_[end - 1] == '\r') --end;  // a CRLF line ends before its CR
  return end;
}

Position LineMap::position(uint32_t offset, Encoding e) const {
  offset = std::min<uint32_t>(offset, uint32_t(text_.size()));
  const auto after = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  const uint32_t line = uint32_t(after - lineStarts_.begin()) - 1;
  uint32_t character = 0;
  for (uint32_t i = lineStarts_[line]; i < offset;) {
    const uint32_t bytes = std::min(sequenceLength(static_cast<unsigned char>(text_[i])), uint32_t(text_.size()) - i);
    character += unitsOf(bytes, e);
    i += bytes;
  }
  return {line, character};
}

uint32_t LineMap::offset(Position p, Encoding e) const {
  if (p.line >= lineStarts_.size()) return uint32_t(text_.size());
  const uint32_t end = lineEnd(p.line);
  uint32_t i = lineStarts_[p.line];
  for (uint32_t units = 0; i < end && units < p.character;) {
    const uint32_t bytes = std::min(sequenceLength(static_cast<unsigned char>(text_[i])), end - i);
    units += unitsOf(bytes, e);
    i += bytes;
  }
  return i;
}

}  // namespace tilec::lsp
