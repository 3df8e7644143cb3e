// How the report names what it shows: in the author's terms, never by the IR printer's names
// (`%acc_4`, `%tile_vec_copy`). A value goes by the source identifier it descends from (its
// let, var, parameter, loop variable or size: Value::origin, which passes keep on the values
// they make from another), or else by the source text of the expression that made it
// (`row_max(s)`); a value with no source of its own by what it is and the pass that made it.
// Where several values of a kernel share a name, each gets the qualifiers that tell them
// apart, tried in this order and each only where it still separates some of them: the line,
// the core section of a split kernel, which buffered iteration of a multi-buffered loop (or its
// left-over iterations) it belongs to, its memory space, its shape, the pass that made it,
// and, when nothing else does, its place among the rest in program order. Loops likewise.
// Linear in the values, plus a sort of the names.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/IR.h"
#include "ir/ValueMap.h"
#include "support/Source.h"

namespace tilec::report {

// The value ids a pass added to one function: the values in [before, after) are the pass's.
struct MadeIds {
  std::string function;
  uint32_t before = 0, after = 0;
};

struct PassRecord {
  std::string name;
  size_t opsAfter = 0;        // ops in the module once the pass ran
  double ms = -1;             // wall time, or negative when not measured (no --time-passes)
  std::vector<MadeIds> made;  // per function
};

class SourceNames {
 public:
  SourceNames(const ir::Function& f, const SourceManager& sources, const std::vector<PassRecord>& passes);

  // The name alone, for expressions and lists: "kt", "L", "row_max(s)".
  std::string base(const ir::Value* v) const;
  // The name with what tells it apart from the kernel's other values of that name:
  // "kt (j's 2nd of 2 buffered iterations)".
  std::string name(const ir::Value* v) const;
  // "loop j (line 23)", "loop j (line 23, the left-over iterations)".
  std::string loop(const ir::Op& loop) const;
  // The source a value comes from: its origin, else the op that made it.
  SourceRange where(const ir::Value* v) const;
  // The pass that made `v`, or "" for a value of the source.
  std::string madeBy(const ir::Value* v) const;

 private:
  struct Candidate {
    std::string base;
    std::vector<std::string> slots;  // qualifiers, in the order they are tried
    const ir::Value* value;          // or null for a loop
    const ir::Op* loop;
  };
  struct Context {
    std::string core, iteration;
  };
  void walkBlock(const ir::Block& b, const Context& context);
  void addValue(const ir::Value* v, const Context& context);
  void addLoop(const ir::Op& loop, const Context& context, const std::string& role);
  std::string baseOf(const ir::Value* v) const;
  const ir::Value* carriedFrom(const ir::Value* v, SourceRange origin) const;
  std::string lineText(SourceRange r) const;
  void qualify();

  const ir::Function& f_;
  const SourceManager& sources_;
  std::vector<std::pair<uint32_t, std::string>> made_;  // (first id, pass), ascending
  uint32_t sourceIds_ = UINT32_MAX;                     // ids below it are the frontend's
  std::vector<Candidate> candidates_;
  ir::ValueMap<std::string> bases_, names_;
  std::unordered_map<const ir::Op*, std::string> loops_;  // looked up only: no order leaks out
};

}  // namespace tilec::report
