// LSP positions: a 0-based line and a column counted in the negotiated unit (UTF-16 code
// units by default, or code points with `utf-32`), while tilec ranges are byte offsets.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilec::lsp {

enum class Encoding { Utf16, Utf32 };
const char* encodingName(Encoding e);  // "utf-16", "utf-32"

struct Position {
  uint32_t line = 0;
  uint32_t character = 0;
  bool operator==(const Position& o) const { return line == o.line && character == o.character; }
};

// Converts between byte offsets and positions in one text. Malformed UTF-8 counts one
// unit per byte, so every offset still has a position.
class LineMap {
 public:
  explicit LineMap(std::string_view text);
  Position position(uint32_t offset, Encoding e) const;
  // A position past the end of its line means the line's end; past the last line, the text's end.
  uint32_t offset(Position p, Encoding e) const;

 private:
  uint32_t lineEnd(uint32_t line) const;  // the offset of its newline (or the text's end)
  std::string_view text_;
  std::vector<uint32_t> lineStarts_;
};

}  // namespace tilec::lsp
