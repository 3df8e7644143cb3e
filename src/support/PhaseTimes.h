// Wall time per phase of one compilation, for --time-passes: lexing, parsing, building
// the AST, lowering, each pass, emission and writing. Phases are recorded by ScopedPhase
// wherever they run (the frontend does not know about the driver) into the table the
// driver made active; with none active, a ScopedPhase costs one branch.
#pragma once
#include <chrono>
#include <iosfwd>
#include <string>
#include <vector>

namespace tilec {

class PhaseTimes {
 public:
  // Adds to the row `name`; rows keep the order in which they first appear, so phases
  // that run once per file (lex, parse, ast) sum over the input and its imports.
  void add(const std::string& name, double ms);
  // "===-- title --===", a header, one row per phase with its share, then the total.
  void print(std::ostream& os, const std::string& title) const;

  // The table ScopedPhase records into; null when timing is off.
  static PhaseTimes* active();
  static void setActive(PhaseTimes* times);

 private:
  struct Row {
    std::string name;
    double ms;
  };
  std::vector<Row> rows_;
};

// Times its own lifetime as phase `name` of the active table.
class ScopedPhase {
 public:
  explicit ScopedPhase(const char* name);
  ~ScopedPhase();
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  PhaseTimes* times_;
  const char* name_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace tilec
