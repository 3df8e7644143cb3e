// Wall time and peak memory per phase of one compilation, for --time-passes: lexing,
// parsing, building the AST, lowering, each pass, emission and writing. Phases are recorded by ScopedPhase
// wherever they run (the frontend does not know about the driver) into the table the
// driver made active; with none active, a ScopedPhase costs one branch.
#pragma once
#include <chrono>
#include <initializer_list>
#include <iosfwd>
#include <string>
#include <vector>

namespace tilec {

class PhaseTimes {
 public:
  // Adds to the row `name`; rows keep the order in which they first appear, so phases
  // that run once per file (lex, parse, ast) sum over the input and its imports.
  void add(const std::string& name, double ms);
  // Records the process's peak memory so far, and the heap bytes in use now, against row
  // `name` (at the end of a phase that no other phase contains: reading them costs a
  // system call). The heap in use shows what a phase leaves behind; the peak, what it
  // touched on the way.
  void notePeak(const std::string& name);
  // "===-- title --===", a header, one row per phase with its share, the peak memory and
  // the heap in use when it ended, then the total.
  void print(std::ostream& os, const std::string& title) const;

  // Adds empty rows for phases not seen yet, so interleaved phases still list in
  // pipeline order; nothing when timing is off.
  static void listInOrder(std::initializer_list<const char*> names);

  // The table ScopedPhase records into; null when timing is off.
  static PhaseTimes* active();
  static void setActive(PhaseTimes* times);

 private:
  struct Row {
    std::string name;
    double ms;
    long peakKiB;  // -1 when not recorded
    long heapKiB;  // -1 when not recorded
  };
  std::vector<Row> rows_;
  size_t last_ = 0;  // the row add() found last
};

// Times its own lifetime as phase `name` of the active table. Phases nest: the time of
// one excludes the phases that run inside it (the parse excludes the lexing it drives).
class ScopedPhase {
 public:
  explicit ScopedPhase(const char* name);
  ~ScopedPhase();
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  void pause(std::chrono::steady_clock::time_point now);  // records the time since start_

  PhaseTimes* times_;
  const char* name_;
  std::chrono::steady_clock::time_point start_;
  ScopedPhase* outer_ = nullptr;
};

}  // namespace tilec
