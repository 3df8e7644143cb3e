// The textual IR (.tir): printer, parser, verifier. print(parse(print(m))) == print(m).
#pragma once
#include <iosfwd>
#include <memory>
#include <string>

#include "ir/IR.h"
#include "support/Diagnostics.h"

namespace tilec::ir {

struct PrintOptions {
  bool locations = false;  // append `loc(file:line:col)` to ops (off for --emit-ir goldens)
};
void printModule(const Module& m, std::ostream& os, const PrintOptions& opts = {});
void printFunction(const Function& f, std::ostream& os, const PrintOptions& opts = {});
std::string printToString(const Module& m, const PrintOptions& opts = {});

// Parses .tir text; every error is reported (code E0301) with its range in the file.
// Returns null when there were errors. Ops get source ranges inside the .tir file, so
// diagnostics of later passes point into it.
std::unique_ptr<Module> parseModule(const SourceManager& sm, FileId file, DiagnosticEngine& diags,
                                    Target target);

// Structural and per-op verification (dominance, region shapes, terminators, types,
// verifyOp for every op). Reports E0302 diagnostics; returns true when the module is valid.
bool verifyModule(const Module& m, DiagnosticEngine& diags);

}  // namespace tilec::ir
