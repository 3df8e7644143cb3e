// Test harness for the PTO passes and the PTO emitter: parses .tir text, runs
// passes by name, and shows the results as printed IR, PTO text, or
// diagnostics in the form "line:col: E0401: message" (notes as
// "  note line:col: message").
#pragma once
#include <doctest/doctest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "backend/pto/PtoEmitter.h"
#include "ir/IRText.h"
#include "passes/Pass.h"

namespace tilec::testing {

// Diagnostic lines; a type of its own so failed CHECKs print them one per line.
struct Lines : std::vector<std::string> {
  using std::vector<std::string>::vector;
};
inline std::ostream& operator<<(std::ostream& os, const Lines& lines) {
  os << "{\n";
  for (const std::string& l : lines) os << "  \"" << l << "\"\n";
  return os << "}";
}

// The passes that run before `pto-legality` in the default pipeline, by stage.
inline std::vector<std::string> pipelineUpTo(const std::string& last) {
  std::vector<std::string> out;
  for (const std::string& p : defaultPtoPipeline()) {
    out.push_back(p);
    if (p == last) break;
  }
  return out;
}

struct Harness {
  explicit Harness(const std::string& text, ir::Target target = ir::Target::A2A3) {
    FileId file = sources.addBuffer("t.tir", text);
    module = ir::parseModule(sources, file, diags, target);
    REQUIRE_MESSAGE(module, text);
    ctx.target = target;
  }

  // Runs the passes in order, stopping at the first that fails.
  bool run(const std::vector<std::string>& passes) {
    for (const std::string& name : passes) {
      std::unique_ptr<Pass> pass = createPassByName(name);
      REQUIRE_MESSAGE(pass, name);
      if (!pass->run(*module, ctx) || diags.hasErrors()) return false;
    }
    return true;
  }
  bool runUpTo(const std::string& last) { return run(pipelineUpTo(last)); }

  std::string ir() const { return ir::printToString(*module); }

  std::string pto() {
    std::ostringstream os;
    CHECK(pto::emitModule(*module, os, diags));
    return os.str();
  }

  std::string where(SourceRange r) const {
    if (!r.valid()) return "-";
    LineCol lc = sources.lineCol(r.file, r.begin);
    return std::to_string(lc.line) + ":" + std::to_string(lc.column);
  }

  Lines diagnostics() const {
    Lines out;
    for (const Diagnostic& d : diags.all()) {
      out.push_back(where(d.range) + ": " + diagCode(d.id) + ": " + d.message);
      for (const DiagNote& n : d.notes) out.push_back("  note " + where(n.range) + ": " + n.message);
    }
    return out;
  }

  // "line:col: E0401" of every diagnostic, without messages or notes.
  Lines codes() const {
    Lines out;
    for (const Diagnostic& d : diags.all()) out.push_back(where(d.range) + ": " + diagCode(d.id));
    return out;
  }

  SourceManager sources;
  DiagnosticEngine diags{sources};
  PassContext ctx{diags};
  std::unique_ptr<ir::Module> module;
};

}  // namespace tilec::testing
