// The textual IR (.tir): printer, parser, verifier. print(parse(print(m))) == print(m).
#pragma once
#include <iosfwd>
#include <memory>
#include <string>
#include <unordered_map>

#include "ir/IR.h"
#include "ir/ValueMap.h"
#include "support/Diagnostics.h"

namespace tilec::ir {

struct PrintOptions {
  bool locations = false;  // append `loc(file:line:col)` to ops (off for --emit-ir goldens)
  const SourceManager* sources = nullptr;  // resolves op ranges for `locations`
};

// The names the printer gives a function's values (without the '%'), assigned in
// program order: the name hint made unique with a `_N` suffix, or the next number
// for a value without a hint. Diagnostics use them to name values as printed.
class ValueNames {
 public:
  explicit ValueNames(const Function& f);
  const std::string& operator()(const Value* v) const;  // "?" for a value outside f

 private:
  void assign(const Value* v);
  std::string uniqueName(const Value* v);
  void assignBlock(const Block& b);
  struct Named {
    const Value* value = nullptr;  // ids repeat across functions: a value of another one is "?"
    std::string name;
  };
  ValueMap<Named> names_;
  std::unordered_map<std::string, unsigned> used_;  // name -> next `_N` suffix to try
  unsigned nextNumber_ = 0;
};
void printModule(const Module& m, std::ostream& os, const PrintOptions& opts = {});
void printFunction(const Function& f, std::ostream& os, const PrintOptions& opts = {});
std::string printToString(const Module& m, const PrintOptions& opts = {});

// Parses .tir text; every error is reported (code E0301) with its range in the file.
// Returns null when there were errors. Ops get source ranges inside the .tir file, so
// diagnostics of later passes point into it.
std::unique_ptr<Module> parseModule(const SourceManager& sm, FileId file, DiagnosticEngine& diags,
                                    const TargetModel& target);

// Structural and per-op verification (dominance, region shapes, terminators, types,
// verifyOp for every op). Reports E0302 diagnostics; returns true when the module is valid.
bool verifyModule(const Module& m, DiagnosticEngine& diags);

}  // namespace tilec::ir
