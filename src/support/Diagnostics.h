// Diagnostics: every user-facing problem is a Diagnostic with a stable code
// (see DiagCodes.def and docs/diagnostics.md), a primary range and optional notes.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "support/Source.h"

namespace tilec {

enum class Level { Note, Warning, Error };
const char* levelName(Level l);  // "note", "warning", "error" (SARIF's names too)

// Stable diagnostic codes. One X-macro table; each area owns a block of numbers.
enum class Diag : uint16_t {
#define TILEC_DIAG(ID, CODE, LEVEL, SUMMARY) ID,
#include "support/DiagCodes.def"
#undef TILEC_DIAG
};
const char* diagCode(Diag d);        // "E0201"
const char* diagName(Diag d);        // "DTypeMismatch", the table's identifier
Level diagDefaultLevel(Diag d);
const char* diagSummary(Diag d);     // one line, for docs and SARIF rule tables
std::vector<Diag> allDiags();

struct DiagNote {
  std::string message;
  SourceRange range;  // may be invalid (a note without location)
};

// An edit that resolves the diagnostic: replace the text of `range` with `replacement`.
struct FixIt {
  SourceRange range;
  std::string replacement;
};

struct Diagnostic {
  Level level = Level::Error;
  Diag id{};
  std::string message;  // names the rule and, where there is one, the fix
  SourceRange range;
  std::vector<DiagNote> notes;
  std::vector<FixIt> fixes;  // applied together; empty when no edit is certain enough
};

// Text and JSON Lines stream each diagnostic as it is reported; SARIF collects them
// into one log that finishRun() writes.
enum class DiagFormat { Text, Json, Sarif };

// Collects diagnostics; rendering happens as they are reported so output streams.
class DiagnosticEngine {
 public:
  explicit DiagnosticEngine(const SourceManager& sm) : sm_(sm) {}
  void setFormat(DiagFormat f) { format_ = f; }
  void setColor(bool on) { color_ = on; }
  void setWarningsAsErrors(bool on) { werror_ = on; }
  void setStream(std::ostream* os) { os_ = os; }  // nullptr: collect only

  Diagnostic& report(Diag id, SourceRange range, std::string message);
  // Reports a diagnostic and returns it for notes; emitted when the next report
  // arrives or flush() is called (so notes can still be attached).
  void flush();
  // Ends the run: flushes, and in SARIF format writes the log of every diagnostic.
  void finishRun(int exitCode);

  unsigned errorCount() const { return errors_; }
  unsigned warningCount() const { return warnings_; }
  bool hasErrors() const { return errors_ > 0; }
  const std::vector<Diagnostic>& all() const { return all_; }
  const SourceManager& sources() const { return sm_; }

  // Rendering (also used by tests).
  std::string renderText(const Diagnostic& d) const;
  std::string renderJson(const Diagnostic& d) const;  // one line, no newline

 private:
  const SourceManager& sm_;
  DiagFormat format_ = DiagFormat::Text;
  bool color_ = false;
  bool werror_ = false;
  std::ostream* os_ = nullptr;
  std::vector<Diagnostic> all_;
  size_t emitted_ = 0;
  unsigned errors_ = 0, warnings_ = 0;
};

}  // namespace tilec
