// Shared unit-test harnesses: .tir text parsed into a module with its diagnostics
// shown as "line:col: E0401: message" (notes as "  note line:col: message"), and,
// for the passes and the PTO emitter, a harness that runs passes by name and shows
// the result as printed IR or PTO text.
#pragma once
#include <doctest/doctest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "backend/pto/PtoEmitter.h"
#include "backend/pto/PtoTargets.h"
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
  for (const std::string& p : pto::a2a3Target().pipeline) {
    out.push_back(p);
    if (p == last) break;
  }
  return out;
}

// The i-th op of a block.
inline ir::Op& nth(ir::Block& b, size_t i) { return **std::next(b.ops().begin(), long(i)); }

// .tir text parsed into a module (null when the text has errors).
struct ParsedTir {
  ParsedTir(const std::string& name, const std::string& text, const ir::TargetModel& target = pto::ptoModel(pto::Arch::A2A3)) {
    module = ir::parseModule(sources, sources.addBuffer(name, text), diags, target);
  }
  ParsedTir(const ParsedTir&) = delete;  // diags refers to sources

  std::string where(SourceRange r) const {
    if (!r.valid()) return "-";
    LineCol lc = sources.lineCol(r.file, r.begin);
    return std::to_string(lc.line) + ":" + std::to_string(lc.column);
  }

  Lines diagnostics(bool withNotes = true) const {
    Lines out;
    for (const Diagnostic& d : diags.all()) {
      out.push_back(where(d.range) + ": " + diagCode(d.id) + ": " + d.message);
      if (withNotes)
        for (const DiagNote& n : d.notes) out.push_back("  note " + where(n.range) + ": " + n.message);
    }
    return out;
  }

  SourceManager sources;
  DiagnosticEngine diags{sources};
  std::unique_ptr<ir::Module> module;
};

struct Harness : ParsedTir {
  explicit Harness(const std::string& text, const ir::TargetModel& target = pto::ptoModel(pto::Arch::A2A3))
      : ParsedTir("t.tir", text, target) {
    REQUIRE_MESSAGE(module, text);
  }

  // Runs the passes in order, stopping at the first that fails.
  bool run(const std::vector<std::string>& passes) {
    for (const std::string& name : passes) {
      std::unique_ptr<Pass> pass = pto::ptoTarget(pto::archOf(module->target())).passes.create(name);
      REQUIRE_MESSAGE(pass, name);
      if (!pass->run(*module, ctx) || diags.hasErrors()) return false;
    }
    return true;
  }
  bool runUpTo(const std::string& last) { return run(pipelineUpTo(last)); }

  std::string ir() const { return ir::printToString(*module); }

  std::string pto() {
    OutputBuffer os;
    CHECK(pto::emitModule(*module, os, diags, /*fixedAddresses=*/true));
    return os.str();
  }

  // "line:col: E0401" of every diagnostic, without messages or notes.
  Lines codes() const {
    Lines out;
    for (const Diagnostic& d : diags.all()) out.push_back(where(d.range) + ": " + diagCode(d.id));
    return out;
  }

  PassContext ctx{diags};
};

}  // namespace tilec::testing
