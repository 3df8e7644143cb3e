// Source buffers and locations. Every AST node and IR op carries a SourceRange;
// line/column are computed lazily from a per-file line table.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

using FileId = uint32_t;
constexpr FileId kNoFile = ~FileId(0);

// Half-open byte range [begin, end) inside one file.
struct SourceRange {
  FileId file = kNoFile;
  uint32_t begin = 0;
  uint32_t end = 0;
  bool valid() const { return file != kNoFile; }
  bool operator==(const SourceRange& o) const { return file == o.file && begin == o.begin && end == o.end; }
  static SourceRange join(SourceRange a, SourceRange b);
};

struct LineCol {
  uint32_t line = 0;    // 1-based
  uint32_t column = 0;  // 1-based, in Unicode code points
};

// How a buffer that is no file is shown in diagnostics: as the one line `text`, in which
// the buffer's bytes from `from` on appear from `at` (a -D NAME=VALUE is parsed as
// `const NAME=VALUE;` but shown as it was typed).
struct ShownAs {
  std::string text;
  uint32_t from = 0;
  uint32_t at = 0;
};

class SourceManager {
 public:
  // `name` is the path as the user wrote it ("-" for stdin is shown as "<stdin>"); a
  // leading UTF-8 byte order mark is dropped from `contents`.
  FileId addBuffer(std::string name, std::string contents);
  // A buffer that is shown otherwise than it reads: lineCol and lineText describe `shown`.
  FileId addBuffer(std::string name, std::string contents, ShownAs shown);
  const std::string& name(FileId f) const;
  std::string_view contents(FileId f) const;
  LineCol lineCol(FileId f, uint32_t offset) const;
  // The text of 1-based line `line`, without its newline.
  std::string_view lineText(FileId f, uint32_t line) const;
  // Where byte `offset` of the contents is in the text lineText shows (the same offset
  // but in a buffer shown otherwise).
  uint32_t shownOffset(FileId f, uint32_t offset) const;
  // Byte offset of (1-based line, 0-based code-point column); used for lexer errors.
  uint32_t offsetOf(FileId f, uint32_t line, uint32_t codePointColumn) const;
  size_t fileCount() const { return files_.size(); }

 private:
  struct File {
    std::string name;
    std::string text;
    std::vector<uint32_t> lineStarts;
    std::optional<ShownAs> shown;
  };
  std::vector<std::unique_ptr<File>> files_;
};

}  // namespace tilec
