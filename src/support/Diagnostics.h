// Diagnostics: every user-facing problem is a Diagnostic with a stable code
// (see DiagCodes.def and docs/diagnostics.md), a primary range and optional notes.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
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
// The name as flags spell it, clang-style: "unused-result" for UnusedResult.
std::string diagFlagName(Diag d);
// The diagnostic a flag names by its code or its name, in any case, with or without
// dashes: E0723, e0723, UnusedResult, unused-result.
std::optional<Diag> findDiag(std::string_view codeOrName);

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

// What the command line makes of warnings, as clang's flags do (docs/cli.md, "Warnings").
// Only codes whose default level is warning are affected; errors stay errors.
enum class WarningState { Ignored, Warning, Error };
struct WarningPolicy {
  bool ignoreAll = false;    // -w: every warning, whatever else is given
  bool allAsErrors = false;  // -Werror (-Wno-error turns it off)
  std::map<Diag, WarningState> byCode;  // -Wno-X, -Wno-error=X, -Werror=X: the last for X
  // The level a diagnostic with this code is reported at; nullopt when it is not reported.
  std::optional<Level> levelOf(Diag id) const;
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
  // Text output: the line under the caret that shows a fix's replacement, as clang's
  // (-fno-diagnostics-fixit-info hides it), and clang's machine-readable lines
  // fix-it:"file":{l:c-l:c}:"text" after the diagnostic (-fdiagnostics-parseable-fixits).
  void setFixItLines(bool on) { fixItLines_ = on; }
  void setParseableFixIts(bool on) { parseableFixIts_ = on; }
  void setWarningPolicy(WarningPolicy policy) { policy_ = std::move(policy); }
  void setWarningsAsErrors(bool on) { policy_.allAsErrors = on; }
  // After `limit` errors (0: none), later diagnostics are not reported; the first one
  // held back is replaced by note E0013, which says how to raise the limit.
  void setErrorLimit(unsigned limit) { errorLimit_ = limit; }
  void setStream(std::ostream* os) { os_ = os; }  // nullptr: collect only

  Diagnostic& report(Diag id, SourceRange range, std::string message);
  // Reports a diagnostic and returns it for notes; emitted when the next report
  // arrives or flush() is called (so notes can still be attached). A diagnostic the
  // warning policy or the error limit holds back is returned too, but never emitted.
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
  bool fixItLines_ = true;
  bool parseableFixIts_ = false;
  WarningPolicy policy_;
  unsigned errorLimit_ = 0;
  bool limitReached_ = false;
  std::ostream* os_ = nullptr;
  std::vector<Diagnostic> all_;
  Diagnostic heldBack_;  // what report() returns for a diagnostic that is not reported
  size_t emitted_ = 0;
  unsigned errors_ = 0, warnings_ = 0;
};

}  // namespace tilec
