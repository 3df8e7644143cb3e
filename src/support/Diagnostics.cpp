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
  TextRenderer(const SourceManager& sm, bool color, bool fixItLines)
      : sm_(sm), color_(color), fixItLines_(fixItLines) {}

  std::string render(const Diagnostic& d) {
    gutterWidth_ = std::max(4u, digits(maxLine(d)));
    std::string tag = std::string(levelName(d.level)) + "[" + diagCode(d.id) + "]";
    fixes_ = fixItLines_ ? &d.fixes : nullptr;
    header(d.range, tag, levelColor(d.level), d.message, /*boldMessage=*/true);
    fixes_ = nullptr;  // a fix is shown under the diagnostic's own line, not a note's
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
    // In the coordinates of the shown line (a -D is shown as typed, not as parsed).
    uint32_t lineStart = sm_.shownOffset(range.file, sm_.offsetOf(range.file, begin.line, 0));
    uint32_t lineEnd = lineStart + static_cast<uint32_t>(line.size());
    // Underline [begin, end) clipped to this line; an empty range still gets a caret.
    uint32_t caretOffset = std::min(sm_.shownOffset(range.file, range.begin), lineEnd);
    uint32_t end = std::min(std::max(sm_.shownOffset(range.file, range.end), caretOffset), lineEnd);
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
    const Window window{line, lineStart, from, lead.size()};
    out_ << ' ' << std::string(gutterWidth_, ' ') << " | " << padTo(window, caretOffset);
    styled(ansi::boldGreen, "^" + std::string(width > 1 ? width - 1 : 0, '~'));
    out_ << '\n';
    if (fixes_) fixItLine(range.file, window, to);
  }

  // The part of a line a snippet shows: `line` starts at offset `start`; the shown text
  // starts at `from`, after `lead` columns of "...".
  struct Window {
    std::string_view line;
    uint32_t start, from;
    size_t lead;
  };

  // Blanks up to `offset`, tabs kept so that what follows lines up with the text above.
  static std::string padTo(const Window& w, uint32_t offset) {
    std::string pad(w.lead, ' ');
    for (uint32_t i = w.from; i < offset; ++i) {
      char c = w.line[i - w.start];
      if (continuationByte(c)) continue;
      pad += c == '\t' ? '\t' : ' ';
    }
    return pad;
  }

  // As clang: each replacement that falls in the shown part of the line, written under
  // the text it replaces (an insertion at its place), in one line below the caret.
  void fixItLine(FileId file, const Window& w, uint32_t to) {
    std::vector<const FixIt*> here;
    for (const FixIt& fix : *fixes_) {
      const uint32_t at = fix.range.file == file ? sm_.shownOffset(file, fix.range.begin) : UINT32_MAX;
      if (at >= w.from && at <= to && sm_.lineCol(file, fix.range.begin).line == sm_.lineCol(file, w.start).line &&
          fix.replacement.find('\n') == std::string::npos)
        here.push_back(&fix);
    }
    if (here.empty()) return;
    std::sort(here.begin(), here.end(), [](const FixIt* a, const FixIt* b) { return a->range.begin < b->range.begin; });
    std::string text;
    size_t columns = 0;  // of `text`, tabs counted as one like the pad
    for (const FixIt* fix : here) {
      std::string pad = padTo(w, sm_.shownOffset(file, fix->range.begin));
      if (pad.size() < columns) continue;  // would overlap the previous replacement
      text += pad.substr(columns) + fix->replacement;
      columns = pad.size() + fix->replacement.size();
    }
    out_ << ' ' << std::string(gutterWidth_, ' ') << " | ";
    styled(ansi::boldGreen, text);
    out_ << '\n';
  }

  const SourceManager& sm_;
  bool color_;
  bool fixItLines_;
  const std::vector<FixIt>* fixes_ = nullptr;  // while the primary entry is rendered
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

namespace {

bool isUpper(char c) { return c >= 'A' && c <= 'Z'; }
char lower(char c) { return isUpper(c) ? static_cast<char>(c - 'A' + 'a') : c; }

// Lower case without separators, so every accepted spelling of a name compares equal.
std::string folded(std::string_view name) {
  std::string out;
  for (char c : name)
    if (c != '-' && c != '_') out += lower(c);
  return out;
}

}  // namespace

std::string diagFlagName(Diag d) {
  const std::string_view name = diagName(d);
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    // A word starts at a capital after a small letter, or at the last capital of a run
    // followed by a small letter (IRSyntax: ir-syntax).
    const bool wordStart = i > 0 && isUpper(name[i]) &&
                           (!isUpper(name[i - 1]) || (i + 1 < name.size() && !isUpper(name[i + 1])));
    if (wordStart) out += '-';
    out += lower(name[i]);
  }
  return out;
}

std::optional<Diag> findDiag(std::string_view codeOrName) {
  const std::string wanted = folded(codeOrName);
  for (Diag d : allDiags())
    if (wanted == folded(diagCode(d)) || wanted == folded(diagName(d))) return d;
  return std::nullopt;
}

std::optional<Level> WarningPolicy::levelOf(Diag id) const {
  const Level byDefault = diagDefaultLevel(id);
  if (byDefault != Level::Warning) return byDefault;
  if (ignoreAll) return std::nullopt;  // as clang's -w: even over -Werror=X
  auto given = byCode.find(id);
  const WarningState state =
      given != byCode.end() ? given->second : allAsErrors ? WarningState::Error : WarningState::Warning;
  switch (state) {
    case WarningState::Ignored: return std::nullopt;
    case WarningState::Warning: return Level::Warning;
    case WarningState::Error: return Level::Error;
  }
  return byDefault;
}

Diagnostic& DiagnosticEngine::report(Diag id, SourceRange range, std::string message) {
  flush();
  const std::optional<Level> level = policy_.levelOf(id);
  if (!level) {
    heldBack_ = Diagnostic{};
    return heldBack_;
  }
  // Counted even when held back: a stage tells its own failure by the error count.
  if (*level == Level::Error) ++errors_;
  if (*level == Level::Warning) ++warnings_;
  if (!limitReached_ && *level == Level::Error && errorLimit_ > 0 && errors_ > errorLimit_) {
    limitReached_ = true;
    all_.push_back({Level::Note, Diag::ErrorLimit,
                    "the first " + std::to_string(errorLimit_) + " errors are shown and the rest held back "
                    "(-ferror-limit=" + std::to_string(errorLimit_) + "); raise the limit with -ferror-limit=N, "
                    "or -ferror-limit=0 for none",
                    {}, {}, {}});
  }
  if (limitReached_) {
    heldBack_ = Diagnostic{};
    return heldBack_;
  }
  Diagnostic d;
  d.id = id;
  d.level = *level;
  d.range = range;
  d.message = std::move(message);
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

namespace {

// clang's -fdiagnostics-parseable-fixits: fix-it:"FILE":{L:C-L:C}:"TEXT", columns in
// bytes from 1 and the end exclusive, strings escaped as clang escapes them.
std::string parseableFixIts(const SourceManager& sm, const std::vector<FixIt>& fixes) {
  auto escaped = [](std::string_view text) {
    std::string out;
    for (char c : text) {
      const unsigned char u = static_cast<unsigned char>(c);
      if (c == '\\' || c == '"') out += '\\', out += c;
      else if (c == '\n') out += "\\n";
      else if (c == '\t') out += "\\t";
      else if (u < 0x20 || u == 0x7F) out += "\\" + std::to_string(u / 64) + std::to_string(u / 8 % 8) + std::to_string(u % 8);
      else out += c;
    }
    return out;
  };
  auto position = [&](FileId file, uint32_t offset) {
    const uint32_t line = sm.lineCol(file, offset).line;
    return std::to_string(line) + ":" + std::to_string(offset - sm.offsetOf(file, line, 0) + 1);
  };
  std::string out;
  for (const FixIt& fix : fixes) {
    if (!fix.range.valid()) continue;
    out += "fix-it:\"" + escaped(sm.name(fix.range.file)) + "\":{" + position(fix.range.file, fix.range.begin) + "-" +
           position(fix.range.file, std::max(fix.range.end, fix.range.begin)) + "}:\"" + escaped(fix.replacement) + "\"\n";
  }
  return out;
}

}  // namespace

std::string DiagnosticEngine::renderText(const Diagnostic& d) const {
  std::string text = TextRenderer(sm_, color_, fixItLines_).render(d);
  return parseableFixIts_ ? text + parseableFixIts(sm_, d.fixes) : text;
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
  j["rendered"] = TextRenderer(sm_, /*color=*/false, fixItLines_).render(d);
  // Source text need not be valid UTF-8; replace bad bytes rather than throw.
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace tilec
