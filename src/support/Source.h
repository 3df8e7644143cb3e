// Source buffers and locations. Every AST node and IR op carries a SourceRange;
// line/column are computed lazily from a per-file line table.
#pragma once
#include <cstdint>
#include <memory>
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

class SourceManager {
 public:
  // `name` is the path as the user wrote it ("-" for stdin is shown as "<stdin>"); a
  // leading UTF-8 byte order mark is dropped from `contents`.
  FileId addBuffer(std::string name, std::string contents);
  const std::string& name(FileId f) const;
  std::string_view contents(FileId f) const;
  LineCol lineCol(FileId f, uint32_t offset) const;
  // The text of 1-based line `line`, without its newline.
  std::string_view lineText(FileId f, uint32_t line) const;
  // Byte offset of (1-based line, 0-based code-point column); used for lexer errors.
  uint32_t offsetOf(FileId f, uint32_t line, uint32_t codePointColumn) const;
  size_t fileCount() const { return files_.size(); }

 private:
  struct File {
    std::string name;
    std::string text;
    std::vector<uint32_t> lineStarts;
  };
  std::vector<std::unique_ptr<File>> files_;
};

}  // namespace tilec
