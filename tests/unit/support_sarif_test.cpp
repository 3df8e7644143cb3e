#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <sstream>

#include "support/Diagnostics.h"
#include "support/Sarif.h"

using namespace tilec;

namespace {

using Json = nlohmann::ordered_json;

SourceRange rangeOf(const SourceManager& sm, FileId f, const std::string& needle) {
  std::string_view text = sm.contents(f);
  uint32_t begin = static_cast<uint32_t>(text.find(needle));
  return SourceRange{f, begin, begin + static_cast<uint32_t>(needle.size())};
}

// One misspelled name with its note and fix, one located warning, one error without a place.
void reportSamples(DiagnosticEngine& diags, const SourceManager& sm, FileId f) {
  Diagnostic& d = diags.report(Diag::UnknownName, rangeOf(sm, f, "tiel"), "unknown name 'tiel'");
  d.notes.push_back({"did you mean 'tile'?", rangeOf(sm, f, "tile")});
  d.notes.push_back({"names are case-sensitive", {}});
  d.fixes.push_back({rangeOf(sm, f, "tiel"), "tile"});
  diags.report(Diag::UnusedResult, rangeOf(sm, f, "exp(t)"), "the result of 'exp' is discarded");
  diags.report(Diag::InputNotFound, {}, "cannot read input 'gone.tile'");
  diags.flush();
}

const char* const kKernel = "// é ü\nlet tile = 1;\nstore(y, [0], tiel);\nexp(t);\n";

Json logOf(const SourceManager& sm, const DiagnosticEngine& diags, const std::string& root = "/src") {
  return Json::parse(renderSarif(sm, diags.all(), {root, 1}));
}

}  // namespace

TEST_CASE("sarif: the same diagnostics give byte-identical logs") {
  std::string logs[2];
  for (std::string& log : logs) {
    SourceManager sm;
    FileId f = sm.addBuffer("k.tile", kKernel);
    DiagnosticEngine diags(sm);
    reportSamples(diags, sm, f);
    log = renderSarif(sm, diags.all(), {"/src", 1});
  }
  CHECK(logs[0] == logs[1]);
  CHECK(logs[0].find("\"results\"") != std::string::npos);
}

TEST_CASE("sarif: rules list every code of the table, in table order") {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  Json log = logOf(sm, diags);
  CHECK(log["version"] == "2.1.0");
  const Json& run = log["runs"][0];
  CHECK(run["results"] == Json::array());
  CHECK(run["columnKind"] == "unicodeCodePoints");
  CHECK(run["invocations"][0]["executionSuccessful"] == true);
  const Json& rules = run["tool"]["driver"]["rules"];
  REQUIRE(rules.size() == allDiags().size());
  const Json& unknown = rules[static_cast<size_t>(Diag::UnknownName)];
  CHECK(unknown["id"] == "E0701");
  CHECK(unknown["name"] == "UnknownName");
  CHECK(unknown["shortDescription"]["text"] == "name is not defined");
  CHECK(unknown["defaultConfiguration"]["level"] == "error");
  CHECK(rules[static_cast<size_t>(Diag::UnusedResult)]["defaultConfiguration"]["level"] == "warning");
}

TEST_CASE("sarif: results carry regions in code points, notes and fixes") {
  SourceManager sm;
  FileId f = sm.addBuffer("k.tile", kKernel);
  DiagnosticEngine diags(sm);
  reportSamples(diags, sm, f);
  const Json log = logOf(sm, diags);
  const Json& results = log["runs"][0]["results"];
  REQUIRE(results.size() == 3);

  const Json& unknown = results[0];
  CHECK(unknown["ruleId"] == "E0701");
  CHECK(unknown["ruleIndex"] == static_cast<size_t>(Diag::UnknownName));
  const Json& region = unknown["locations"][0]["physicalLocation"]["region"];
  CHECK(region["startLine"] == 3);
  CHECK(region["startColumn"] == 15);
  CHECK(region["endColumn"] == 19);
  // "// é ü\n" is 9 bytes but 7 code points; "let tile = 1;\n" 14 more.
  CHECK(region["charOffset"] == 7 + 14 + 14);
  CHECK(region["charLength"] == 4);
  CHECK(region["snippet"]["text"] == "tiel");
  const Json& related = unknown["relatedLocations"];
  CHECK(related[0]["id"] == 0);
  CHECK(related[0]["message"]["text"] == "did you mean 'tile'?");
  CHECK(related[0]["physicalLocation"]["region"]["startLine"] == 2);
  CHECK_FALSE(related[1].contains("physicalLocation"));
  const Json& fix = unknown["fixes"][0];
  CHECK(fix["description"]["text"] == "replace 'tiel' with 'tile'");
  const Json& replacement = fix["artifactChanges"][0]["replacements"][0];
  CHECK(replacement["insertedContent"]["text"] == "tile");
  CHECK(replacement["deletedRegion"]["charOffset"] == 35);
  CHECK_FALSE(replacement["deletedRegion"].contains("snippet"));

  CHECK(results[1]["level"] == "warning");
  CHECK_FALSE(results[1].contains("fixes"));
  CHECK(results[2]["ruleId"] == "E0001");
  CHECK_FALSE(results[2].contains("locations"));
}

TEST_CASE("sarif: -Werror reports warnings at level error") {
  SourceManager sm;
  FileId f = sm.addBuffer("k.tile", kKernel);
  DiagnosticEngine diags(sm);
  diags.setWarningsAsErrors(true);
  reportSamples(diags, sm, f);
  Json log = logOf(sm, diags);
  CHECK(log["runs"][0]["results"][1]["ruleId"] == "E0723");
  CHECK(log["runs"][0]["results"][1]["level"] == "error");
  // The rule keeps its default; only the result is raised.
  CHECK(log["runs"][0]["tool"]["driver"]["rules"][static_cast<size_t>(Diag::UnusedResult)]["defaultConfiguration"]
            ["level"] == "warning");
}

TEST_CASE("sarif: file names become percent-encoded URIs") {
  CHECK(percentEncodePath("a b/ké.tile") == "a%20b/k%C3%A9.tile");
  CHECK(percentEncodePath("x:y#z?%[]\\") == "x%3Ay%23z%3F%25%5B%5D%5C");
  CHECK(percentEncodePath("ok-._~!$&'()*+,;=@/") == "ok-._~!$&'()*+,;=@/");

  SourceManager sm;
  sm.addBuffer("./my kernels/ké rnel.tile", "");
  sm.addBuffer("/abs dir/k.tile", "");
  sm.addBuffer("../up/k.tile", "");
  sm.addBuffer("-", "");
  DiagnosticEngine diags(sm);
  const Json run = logOf(sm, diags, "/home/a user/proj")["runs"][0];
  CHECK(run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file:///home/a%20user/proj/");
  const Json& artifacts = run["artifacts"];
  REQUIRE(artifacts.size() == 4);
  CHECK(artifacts[0]["location"] == Json{{"uri", "my%20kernels/k%C3%A9%20rnel.tile"}, {"uriBaseId", "%SRCROOT%"}});
  CHECK(artifacts[1]["location"] == Json{{"uri", "file:///abs%20dir/k.tile"}});
  CHECK(artifacts[2]["location"] == Json{{"uri", "file:///home/a%20user/up/k.tile"}});
  CHECK(artifacts[3] == Json{{"description", {{"text", "<stdin>"}}}, {"length", 0}});
}

TEST_CASE("sarif: the engine writes one log when the run finishes, none before") {
  SourceManager sm;
  FileId f = sm.addBuffer("k.tile", kKernel);
  DiagnosticEngine diags(sm);
  std::ostringstream os;
  diags.setStream(&os);
  diags.setFormat(DiagFormat::Sarif);
  reportSamples(diags, sm, f);
  CHECK(os.str().empty());
  diags.finishRun(1);
  Json log = Json::parse(os.str());
  CHECK(log["runs"].size() == 1);
  CHECK(log["runs"][0]["results"].size() == 3);
  CHECK(log["runs"][0]["invocations"][0]["exitCode"] == 1);
}

TEST_CASE("sarif: JSON Lines show a fix, and no key for a diagnostic without one") {
  SourceManager sm;
  FileId f = sm.addBuffer("k.tile", kKernel);
  DiagnosticEngine diags(sm);
  reportSamples(diags, sm, f);
  Json withFix = Json::parse(diags.renderJson(diags.all()[0]));
  CHECK(withFix["fixes"] == Json::parse(R"([{"file":"k.tile","line_start":3,"column_start":15,"line_end":3,
      "column_end":19,"byte_start":37,"byte_end":41,"replacement":"tile"}])"));
  std::vector<std::string> keys;
  for (const auto& item : withFix.items()) keys.push_back(item.key());
  CHECK(keys[keys.size() - 2] == "fixes");  // after notes, before rendered (diagnostics-json.md)
  CHECK_FALSE(Json::parse(diags.renderJson(diags.all()[1])).contains("fixes"));
}

TEST_CASE("sarif: a range reaching past the end of its file is clipped to it") {
  SourceManager sm;
  FileId f = sm.addBuffer("k.tile", "ab\ncd");
  DiagnosticEngine diags(sm);
  diags.report(Diag::SyntaxError, SourceRange{f, 4, 40}, "m").fixes.push_back({SourceRange{f, 90, 99}, "x"});
  const Json log = logOf(sm, diags);
  const Json& result = log["runs"][0]["results"][0];
  const Json& region = result["locations"][0]["physicalLocation"]["region"];
  CHECK(region["charOffset"] == 4);
  CHECK(region["charLength"] == 1);
  CHECK(region["snippet"]["text"] == "d");
  CHECK(result["fixes"][0]["description"]["text"] == "insert 'x'");
}
