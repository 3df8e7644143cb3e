#include "support/Diagnostics.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "support/Color.h"
#include "support/Sarif.h"

namespace tilec {

namespace {

struct DiagRow {
  const char* name;
  const char* code;
  Level level;
  const char* summary;
};

const DiagRow kDiagTable[] = {
#define TILEC_DIAG(ID, CODE, LEVEL, SUMMARY) {#ID, CODE, Level::LEVEL, SUMMARY},
#include "support/DiagCodes.def"
#undef TILEC_DIAG
};

const DiagRow& row(Diag d) { return kDiagTable[static_cast<size_t>(d)]; }

std::string_view levelColor(Level l) {
  switch (l) {
    case Level::Note: return ansi::boldCyan;
    case Level::Warning: return ansi::boldMagenta;
    case Level::Error: return ansi::boldRed;
  }
  return ansi::boldRed;
}

unsigned digits(uint32_t n) {
  unsigned d = 1;
  while (n >= 10) n /= 10, ++d;
  return d;
}

// Renders one diagnostic as text: a header per entry (primary, then notes) and,
// for located entries, the source line with a caret line under the range.
class TextRenderer {
 public:
  TextRenderer(const SourceManager& sm, bool color) : sm_(sm), color_(color) {}

  std::string render(const Diagnostic& d) {
    gutterWidth_ = std::max(4u, digits(maxLine(d)));
    std::string tag = std::string(levelName(d.level)) + "[" + diagCode(d.id) + "]";
    header(d.range, tag, levelColor(d.level), d.message, /*boldMessage=*/true);
    for (const DiagNote& note : d.notes)
      header(note.range, "note", levelColor(Level::Note), note.message, /*boldMessage=*/false);
    return out_.str();
  }

 private:
  uint32_t maxLine(const Diagnostic& d) const {
    uint32_t line = d.range.valid() ? sm_.lineCol(d.range.file, d.range.begin).line : 0;
    for (const DiagNote& note : d.notes)
      if (note.range.valid()) line = std::max(line, sm_.lineCol(note.range.file, note.range.begin).line);
    return line;
  }

  void styled(std::string_view style, std::string_view text) {
    if (color_) out_ << style << text << ansi::reset;
    else out_ << text;
  }

  void header(SourceRange range, const std::string& tag, std::string_view tagColor,
              const std::string& message, bool boldMessage) {
    if (range.valid()) {
      LineCol lc = sm_.lineCol(range.file, range.begin);
      styled(ansi::bold, sm_.name(range.file) + ":" + std::to_string(lc.line) + ":" +
                             std::to_string(lc.column) + ":");
      out_ << ' ';
    } else if (tag != "note") {
      styled(ansi::bold, "tilec:");
      out_ << ' ';
    }
    styled(tagColor, tag + ":");
    out_ << ' ';
    if (boldMessage) styled(ansi::bold, message);
    else out_ << message;
    out_ << '\n';
    if (range.valid()) snippet(range);
  }

  // A longer line shows a window of about this many bytes around the range, marked "...".
  static constexpr uint32_t kMaxShown = 120;
  static constexpr uint32_t kContextBefore = 40;

  static bool continuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

  void snippet(SourceRange range) {
    LineCol begin = sm_.lineCol(range.file, range.begin);
    std::string_view line = sm_.lineText(range.file, begin.line);
    uint32_t lineStart = sm_.offsetOf(range.file, begin.line, 0);
    uint32_t lineEnd = lineStart + static_cast<uint32_t>(line.size());
    // Underline [begin, end) clipped to this line; an empty range still gets a caret.
    uint32_t caretOffset = std::min(range.begin, lineEnd);
    uint32_t end = std::min(std::max(range.end, range.begin), lineEnd);
    uint32_t from = lineStart, to = lineEnd;
    if (line.size() > kMaxShown) {
      from = caretOffset > lineStart + kContextBefore ? caretOffset - kContextBefore : lineStart;
      while (from > lineStart && continuationByte(line[from - lineStart])) --from;
      to = std::min(lineEnd, from + kMaxShown);
      while (to < lineEnd && continuationByte(line[to - lineStart])) ++to;
      end = std::min(end, to);
    }
    const std::string lead = from > lineStart ? "..." : "";
    std::string number = std::to_string(begin.line);
    out_ << ' ' << std::string(gutterWidth_ - number.size(), ' ') << number << " | " << lead
         << line.substr(from - lineStart, to - from) << (to < lineEnd ? "..." : "") << '\n';

    uint32_t width = 0;
    for (uint32_t i = caretOffset; i < end; ++i) width += !continuationByte(line[i - lineStart]);
    std::string pad(lead.size(), ' ');
    for (uint32_t i = from; i < caretOffset; ++i) {
      char c = line[i - lineStart];
      if (continuationByte(c)) continue;
      pad += c == '\t' ? '\t' : ' ';  // keep tabs so the caret lines up with the text above
    }
    out_ << ' ' << std::string(gutterWidth_, ' ') << " | " << pad;
    styled(ansi::boldGreen, "^" + std::string(width > 1 ? width - 1 : 0, '~'));
    out_ << '\n';
  }

  const SourceManager& sm_;
  bool color_;
  unsigned gutterWidth_ = 4;
  std::ostringstream out_;
};

using Json = nlohmann::ordered_json;

void addSpan(Json& j, const SourceManager& sm, SourceRange range) {
  if (!range.valid()) {
    for (const char* key : {"file", "line_start", "column_start", "line_end", "column_end",
                            "byte_start", "byte_end"})
      j[key] = nullptr;
    return;
  }
  LineCol begin = sm.lineCol(range.file, range.begin);
  LineCol end = sm.lineCol(range.file, std::max(range.end, range.begin));
  j["file"] = sm.name(range.file);
  j["line_start"] = begin.line;
  j["column_start"] = begin.column;
  j["line_end"] = end.line;
  j["column_end"] = end.column;
  j["byte_start"] = range.begin;
  j["byte_end"] = std::max(range.end, range.begin);
}

}  // namespace

const char* levelName(Level l) {
  switch (l) {
    case Level::Note: return "note";
    case Level::Warning: return "warning";
    case Level::Error: return "error";
  }
  return "error";
}

const char* diagCode(Diag d) { return row(d).code; }
const char* diagName(Diag d) { return row(d).name; }
Level diagDefaultLevel(Diag d) { return row(d).level; }
const char* diagSummary(Diag d) { return row(d).summary; }

std::vector<Diag> allDiags() {
  std::vector<Diag> all;
  for (size_t i = 0; i < std::size(kDiagTable); ++i) all.push_back(static_cast<Diag>(i));
  return all;
}

Diagnostic& DiagnosticEngine::report(Diag id, SourceRange range, std::string message) {
  flush();
  Diagnostic d;
  d.id = id;
  d.level = diagDefaultLevel(id);
  if (werror_ && d.level == Level::Warning) d.level = Level::Error;
  d.range = range;
  d.message = std::move(message);
  if (d.level == Level::Error) ++errors_;
  if (d.level == Level::Warning) ++warnings_;
  all_.push_back(std::move(d));
  return all_.back();
}

void DiagnosticEngine::flush() {
  for (; emitted_ < all_.size(); ++emitted_) {
    if (!os_ || format_ == DiagFormat::Sarif) continue;
    const Diagnostic& d = all_[emitted_];
    if (format_ == DiagFormat::Json) *os_ << renderJson(d) << '\n';
    else *os_ << renderText(d);
    os_->flush();
  }
}

void DiagnosticEngine::finishRun(int exitCode) {
  flush();
  if (!os_ || format_ != DiagFormat::Sarif) return;
  std::error_code ec;
  std::string cwd = std::filesystem::current_path(ec).string();
  *os_ << renderSarif(sm_, all_, {ec ? std::string() : cwd, exitCode}) << '\n';
  os_->flush();
}

std::string DiagnosticEngine::renderText(const Diagnostic& d) const {
  return TextRenderer(sm_, color_).render(d);
}

std::string DiagnosticEngine::renderJson(const Diagnostic& d) const {
  Json j;
  j["$message_type"] = "diagnostic";
  j["level"] = levelName(d.level);
  j["code"] = diagCode(d.id);
  j["message"] = d.message;
  addSpan(j, sm_, d.range);
  Json notes = Json::array();
  for (const DiagNote& note : d.notes) {
    Json n;
    n["message"] = note.message;
    addSpan(n, sm_, note.range);
    notes.push_back(std::move(n));
  }
  j["notes"] = std::move(notes);
  if (!d.fixes.empty()) {
    Json fixes = Json::array();
    for (const FixIt& fix : d.fixes) {
      Json f;
      addSpan(f, sm_, fix.range);
      f["replacement"] = fix.replacement;
      fixes.push_back(std::move(f));
    }
    j["fixes"] = std::move(fixes);
  }
  j["rendered"] = TextRenderer(sm_, /*color=*/false).render(d);
  // Source text need not be valid UTF-8; replace bad bytes rather than throw.
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace tilec
