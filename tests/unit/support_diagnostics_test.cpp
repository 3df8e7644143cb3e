#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <sstream>

#include "support/Diagnostics.h"

using namespace tilec;

namespace {

SourceRange rangeOf(const SourceManager& sm, FileId f, const std::string& needle) {
  std::string_view text = sm.contents(f);
  uint32_t begin = static_cast<uint32_t>(text.find(needle));
  return SourceRange{f, begin, begin + static_cast<uint32_t>(needle.size())};
}

}  // namespace

TEST_CASE("diagnostics: text has location, code, source line and caret") {
  SourceManager sm;
  FileId f = sm.addBuffer("k.tile", "kernel k() {\n  let x = foo + 1;\n}\n");
  DiagnosticEngine diags(sm);
  Diagnostic& d = diags.report(Diag::UnknownName, rangeOf(sm, f, "foo"), "unknown name 'foo'");
  CHECK(diags.renderText(d) ==
        "k.tile:2:11: error[E0701]: unknown name 'foo'\n"
        "    2 |   let x = foo + 1;\n"
        "      |           ^~~\n");
}

TEST_CASE("diagnostics: a long line shows a window around the range") {
  SourceManager sm;
  std::string filler(200, 'a');
  FileId f = sm.addBuffer("k.tile", "let x = " + filler + " + foo + " + filler + ";\n");
  DiagnosticEngine diags(sm);
  Diagnostic& d = diags.report(Diag::UnknownName, rangeOf(sm, f, "foo"), "unknown name 'foo'");
  CHECK(diags.renderText(d) == "k.tile:1:212: error[E0701]: unknown name 'foo'\n"
                               "    1 | ..." + std::string(37, 'a') + " + foo + " +
                                   std::string(74, 'a') + "...\n"
                               "      | " + std::string(43, ' ') + "^~~\n");
}

TEST_CASE("diagnostics: notes render with their own snippet or without location") {
  SourceManager sm;
  FileId f = sm.addBuffer("k.tile", "let acc = 1;\nlet acc = 2;\n");
  DiagnosticEngine diags(sm);
  Diagnostic& d = diags.report(Diag::Redefinition, SourceRange{f, 17, 20}, "'acc' is defined twice");
  d.notes.push_back({"'acc' first defined here", SourceRange{f, 4, 7}});
  d.notes.push_back({"rename one of them", {}});
  CHECK(diags.renderText(d) ==
        "k.tile:2:5: error[E0702]: 'acc' is defined twice\n"
        "    2 | let acc = 2;\n"
        "      |     ^~~\n"
        "k.tile:1:5: note: 'acc' first defined here\n"
        "    1 | let acc = 1;\n"
        "      |     ^~~\n"
        "note: rename one of them\n");
}

TEST_CASE("diagnostics: caret placement keeps tabs, counts code points, clips to the line") {
  SourceManager sm;
  FileId f = sm.addBuffer("t.tile", "\té = bad\nnext\n");
  DiagnosticEngine diags(sm);
  uint32_t bad = static_cast<uint32_t>(std::string_view(sm.contents(f)).find("bad"));
  Diagnostic& d = diags.report(Diag::SyntaxError, SourceRange{f, bad, bad + 7}, "m");
  CHECK(diags.renderText(d) ==
        "t.tile:1:6: error[E0101]: m\n"
        "    1 | \té = bad\n"
        "      | \t    ^~~\n");
  Diagnostic& empty = diags.report(Diag::SyntaxError, SourceRange{f, 1, 1}, "m");
  CHECK(diags.renderText(empty) ==
        "t.tile:1:2: error[E0101]: m\n"
        "    1 | \té = bad\n"
        "      | \t^\n");
}

TEST_CASE("diagnostics: the gutter widens for long files") {
  std::string text;
  for (int i = 0; i < 12345; ++i) text += "x\n";
  SourceManager sm;
  FileId f = sm.addBuffer("big.tile", text);
  DiagnosticEngine diags(sm);
  Diagnostic& d = diags.report(Diag::SyntaxError, SourceRange{f, 2 * 12344, 2 * 12344 + 1}, "m");
  CHECK(diags.renderText(d) ==
        "big.tile:12345:1: error[E0101]: m\n"
        " 12345 | x\n"
        "       | ^\n");
}

TEST_CASE("diagnostics: a diagnostic without a range names the tool") {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  Diagnostic& d = diags.report(Diag::InputNotFound, {}, "cannot read input 'x.tile'");
  CHECK(diags.renderText(d) == "tilec: error[E0001]: cannot read input 'x.tile'\n");
}

TEST_CASE("diagnostics: colors only when enabled") {
  SourceManager sm;
  FileId f = sm.addBuffer("k.tile", "abc\n");
  DiagnosticEngine diags(sm);
  Diagnostic& d = diags.report(Diag::SyntaxError, SourceRange{f, 0, 1}, "m");
  CHECK(diags.renderText(d).find('\033') == std::string::npos);
  diags.setColor(true);
  std::string colored = diags.renderText(d);
  CHECK(colored.find("\033[1;31merror[E0101]:\033[0m") != std::string::npos);
  CHECK(colored.find("\033[1mk.tile:1:1:\033[0m") != std::string::npos);
}

TEST_CASE("diagnostics: report streams the previous diagnostic, flush the last one") {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  std::ostringstream os;
  diags.setStream(&os);
  Diagnostic& first = diags.report(Diag::InputNotFound, {}, "first");
  first.notes.push_back({"attached before the next report", {}});
  CHECK(os.str().empty());
  diags.report(Diag::OutputNotWritable, {}, "second");
  CHECK(os.str() == "tilec: error[E0001]: first\nnote: attached before the next report\n");
  diags.flush();
  CHECK(os.str().find("error[E0002]: second") != std::string::npos);
  CHECK(diags.errorCount() == 2);
  CHECK(diags.all().size() == 2);
}

TEST_CASE("diagnostics: -Werror reports warnings as errors with the same code") {
  REQUIRE(diagDefaultLevel(Diag::DepOptionUnused) == Level::Warning);
  SourceManager sm;
  DiagnosticEngine plain(sm), strict(sm);
  strict.setWarningsAsErrors(true);
  Diagnostic& w = plain.report(Diag::DepOptionUnused, {}, "w");
  CHECK(w.level == Level::Warning);
  CHECK(plain.renderText(w) == "tilec: warning[E0005]: w\n");
  CHECK(plain.warningCount() == 1);
  CHECK_FALSE(plain.hasErrors());
  Diagnostic& e = strict.report(Diag::DepOptionUnused, {}, "w");
  CHECK(e.level == Level::Error);
  CHECK(strict.errorCount() == 1);
  CHECK(strict.warningCount() == 0);
  CHECK(strict.renderText(e) == "tilec: error[E0005]: w\n");
}

TEST_CASE("diagnostics: JSON has ordered keys, 1-based spans and the rendered text") {
  SourceManager sm;
  FileId f = sm.addBuffer("k.tile", "let é = foo;\n");
  DiagnosticEngine diags(sm);
  Diagnostic& d = diags.report(Diag::UnknownName, rangeOf(sm, f, "foo"), "unknown name 'foo'");
  d.notes.push_back({"declared here", rangeOf(sm, f, "é")});
  d.notes.push_back({"no location", {}});
  std::string line = diags.renderJson(d);
  CHECK(line.find('\n') == std::string::npos);
  CHECK(line.rfind("{\"$message_type\":\"diagnostic\",\"level\":\"error\",\"code\":\"E0701\",", 0) == 0);
  auto j = nlohmann::ordered_json::parse(line);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"$message_type", "level", "code", "message", "file",
                                         "line_start", "column_start", "line_end", "column_end",
                                         "byte_start", "byte_end", "notes", "rendered"});
  CHECK(j["file"] == "k.tile");
  CHECK(j["line_start"] == 1);
  CHECK(j["column_start"] == 9);  // "é" is one column
  CHECK(j["column_end"] == 12);
  CHECK(j["byte_start"] == 9);
  CHECK(j["byte_end"] == 12);
  CHECK(j["notes"][0]["message"] == "declared here");
  CHECK(j["notes"][0]["column_start"] == 5);
  CHECK(j["notes"][0]["column_end"] == 6);
  CHECK(j["notes"][1]["file"].is_null());
  CHECK(j["notes"][1]["line_start"].is_null());
  CHECK(j["rendered"] == diags.renderText(d));
}

TEST_CASE("diagnostics: JSON for a diagnostic without range has null spans") {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  auto j = nlohmann::json::parse(diags.renderJson(diags.report(Diag::InputNotFound, {}, "m")));
  CHECK(j["file"].is_null());
  CHECK(j["byte_end"].is_null());
  CHECK(j["notes"].empty());
}

TEST_CASE("diagnostics: JSON stream has one object per line and survives invalid UTF-8") {
  SourceManager sm;
  FileId f = sm.addBuffer("bad.tile", std::string("x \xff y\n"));
  DiagnosticEngine diags(sm);
  std::ostringstream os;
  diags.setStream(&os);
  diags.setFormat(DiagFormat::Json);
  diags.report(Diag::BadToken, SourceRange{f, 2, 3}, "character not valid");
  diags.report(Diag::BadToken, SourceRange{f, 4, 5}, "second");
  diags.flush();
  std::istringstream lines(os.str());
  int count = 0;
  for (std::string line; std::getline(lines, line); ++count) CHECK(nlohmann::json::accept(line));
  CHECK(count == 2);
}

TEST_CASE("diagnostics: code table is consistent") {
  std::vector<Diag> all = allDiags();
  REQUIRE_FALSE(all.empty());
  std::string previous;
  for (Diag d : all) {
    std::string code = diagCode(d);
    CHECK(code.size() == 5);
    CHECK(code[0] == 'E');
    CHECK(code > previous);  // unique and ascending within the table
    previous = code;
    CHECK(std::string(diagSummary(d)).size() > 0);
  }
}
