// The .tile frontend: lexing, parsing, checking and lowering to IR, then the verifier;
// and the chunked parse against the whole-file parse: where the fast path builds a
// module, the whole-file parse builds the same one without errors.
#include <sstream>

#include "FuzzSupport.h"
#include "frontend/Ast.h"

namespace {

std::string printed(const tilec::ast::Module& m, const tilec::SourceManager& sm) {
  std::ostringstream os;
  tilec::frontend::printAst(m, sm, os);
  return os.str();
}

void compareParses(const std::string& text) {
  tilec::SourceManager sm;
  tilec::DiagnosticEngine diags(sm);
  const tilec::FileId file = sm.addBuffer("fuzz.tile", text);
  std::unique_ptr<tilec::ast::Module> fast = tilec::frontend::parse(sm, file, diags);
  if (!fast || diags.hasErrors()) return;
  tilec::DiagnosticEngine wholeDiags(sm);
  std::unique_ptr<tilec::ast::Module> whole = tilec::frontend::parseWholeFile(sm, file, wholeDiags);
  if (!whole || wholeDiags.hasErrors() || printed(*fast, sm) != printed(*whole, sm))
    tilec::fuzz::bug("the chunked parse and the whole-file parse disagree");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return tilec::fuzz::fuzzText(data, size, [](const std::string& text) {
    tilec::SourceManager sm;
    tilec::DiagnosticEngine diags(sm);
    tilec::fuzz::lowerTile(text, sm, diags);
    compareParses(text);
  });
}
