// The .tile frontend: lexing, parsing, checking and lowering to IR, then the verifier;
// the chunked parse against the whole-file parse: where the fast path builds a module,
// the whole-file parse builds the same one without errors; and the formatter: what it
// formats parses, formats to itself, and keeps every token and comment (the text without
// white space is the same).
#include <algorithm>
#include <optional>
#include <sstream>
#include <string_view>

#include "FuzzSupport.h"
#include "frontend/Ast.h"
#include "frontend/Format.h"

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

std::string withoutSpace(std::string_view text) {
  std::string out(text);
  out.erase(std::remove_if(out.begin(), out.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }),
            out.end());
  return out;
}

std::string tokensOf(const std::string& text) {
  tilec::SourceManager sm;
  std::ostringstream os;
  tilec::frontend::dumpTokens(sm, sm.addBuffer("fuzz.tile", text), os);
  std::string out;
  std::istringstream lines(os.str());
  for (std::string line; std::getline(lines, line);) out += line.substr(line.find(' ') + 1) + "\n";  // no position
  return out;
}

void checkFormat(const std::string& text) {
  tilec::SourceManager sm;
  tilec::DiagnosticEngine diags(sm);
  const tilec::FileId file = sm.addBuffer("fuzz.tile", text);
  std::optional<std::string> formatted = tilec::frontend::formatTile(sm, file, diags);
  if (!formatted) return;
  std::optional<std::string> again = tilec::frontend::formatTile(*formatted);
  if (!again) tilec::fuzz::bug("the formatted text does not parse");
  if (*again != *formatted) tilec::fuzz::bug("formatting the formatted text changes it");
  if (withoutSpace(*formatted) != withoutSpace(sm.contents(file)))
    tilec::fuzz::bug("formatting changed more than white space");
  if (tokensOf(*formatted) != tokensOf(std::string(sm.contents(file))))
    tilec::fuzz::bug("formatting changed the tokens");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return tilec::fuzz::fuzzText(data, size, [](const std::string& text) {
    tilec::SourceManager sm;
    tilec::DiagnosticEngine diags(sm);
    tilec::fuzz::lowerTile(text, sm, diags);
    compareParses(text);
    checkFormat(text);
  });
}
