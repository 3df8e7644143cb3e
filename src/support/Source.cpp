#include "support/Source.h"

#include <algorithm>

namespace tilec {

namespace {

bool isUtf8Continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Code points in text[begin, end): every byte that does not continue a sequence starts one.
uint32_t countCodePoints(std::string_view text, size_t begin, size_t end) {
  uint32_t n = 0;
  for (size_t i = begin; i < end; ++i) n += !isUtf8Continuation(static_cast<unsigned char>(text[i]));
  return n;
}

std::vector<uint32_t> computeLineStarts(std::string_view text) {
  std::vector<uint32_t> starts{0};
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') starts.push_back(static_cast<uint32_t>(i + 1));
  return starts;
}

}  // namespace

SourceRange SourceRange::join(SourceRange a, SourceRange b) {
  if (!a.valid()) return b;
  if (!b.valid() || a.file != b.file) return a;
  return SourceRange{a.file, std::min(a.begin, b.begin), std::max(a.end, b.end)};
}

FileId SourceManager::addBuffer(std::string name, std::string contents) {
  auto file = std::make_unique<File>();
  file->name = name == "-" ? "<stdin>" : std::move(name);
  // A UTF-8 byte order mark is no text: editors show none and count no column for it.
  if (contents.compare(0, 3, "\xEF\xBB\xBF") == 0) contents.erase(0, 3);
  file->text = std::move(contents);
  file->lineStarts = computeLineStarts(file->text);
  files_.push_back(std::move(file));
  return static_cast<FileId>(files_.size() - 1);
}

FileId SourceManager::addBuffer(std::string name, std::string contents, ShownAs shown) {
  const FileId f = addBuffer(std::move(name), std::move(contents));
  files_[f]->shown = std::move(shown);
  return f;
}

uint32_t SourceManager::shownOffset(FileId f, uint32_t offset) const {
  const std::optional<ShownAs>& shown = files_.at(f)->shown;
  if (!shown) return offset;
  const uint32_t past = offset > shown->from ? offset - shown->from : 0;
  return std::min<uint32_t>(shown->at + past, static_cast<uint32_t>(shown->text.size()));
}

const std::string& SourceManager::name(FileId f) const { return files_.at(f)->name; }

std::string_view SourceManager::contents(FileId f) const { return files_.at(f)->text; }

LineCol SourceManager::lineCol(FileId f, uint32_t offset) const {
  const File& file = *files_.at(f);
  if (file.shown) return LineCol{1, countCodePoints(file.shown->text, 0, shownOffset(f, offset)) + 1};
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(file.text.size()));
  // The last line start that is <= offset (binary search: line tables can be long).
  auto it = std::upper_bound(file.lineStarts.begin(), file.lineStarts.end(), offset);
  uint32_t lineIndex = static_cast<uint32_t>(it - file.lineStarts.begin()) - 1;
  uint32_t lineStart = file.lineStarts[lineIndex];
  return LineCol{lineIndex + 1, countCodePoints(file.text, lineStart, offset) + 1};
}

std::string_view SourceManager::lineText(FileId f, uint32_t line) const {
  const File& file = *files_.at(f);
  if (file.shown) return line == 1 ? std::string_view(file.shown->text) : std::string_view();
  if (line == 0 || line > file.lineStarts.size()) return {};
  size_t begin = file.lineStarts[line - 1];
  size_t end = line < file.lineStarts.size() ? file.lineStarts[line] - 1 : file.text.size();
  std::string_view text(file.text);
  text = text.substr(begin, end - begin);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return text;
}

uint32_t SourceManager::offsetOf(FileId f, uint32_t line, uint32_t codePointColumn) const {
  const File& file = *files_.at(f);
  if (line == 0) return 0;
  if (line > file.lineStarts.size()) return static_cast<uint32_t>(file.text.size());
  size_t pos = file.lineStarts[line - 1];
  size_t lineEnd = line < file.lineStarts.size() ? file.lineStarts[line] - 1 : file.text.size();
  // Advance one code point at a time: step over the lead byte, then its continuations.
  for (uint32_t col = 0; col < codePointColumn && pos < lineEnd; ++col) {
    ++pos;
    while (pos < lineEnd && isUtf8Continuation(static_cast<unsigned char>(file.text[pos]))) ++pos;
  }
  return static_cast<uint32_t>(pos);
}

}  // namespace tilec
