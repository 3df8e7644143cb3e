#include "support/Sarif.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

namespace tilec {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kSchema = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr const char* kSourceRoot = "%SRCROOT%";

bool unreservedOrSubDelim(unsigned char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("-._~!$&'()*+,;=@").find(static_cast<char>(c)) != std::string_view::npos;
}

// Buffers that are not files ("<stdin>", "<command line>") have no URI.
bool isFileName(const std::string& name) { return !name.empty() && name.front() != '<'; }

Json text(std::string s) { return Json{{"text", std::move(s)}}; }

// The diagnostics.md installed with this tilec: found from where the running binary is
// (<prefix>/bin/tilec reads <prefix>/share/doc/tilec/diagnostics.md, by the install's own
// relative layout), so a moved prefix or the .deb's /usr names its own copy; a binary that
// is not installed (the build tree) names the configured prefix's.
std::string informationUri() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path doc = (exe.parent_path() / TILEC_DOC_FROM_BINDIR / "diagnostics.md").lexically_normal();
    if (std::filesystem::is_regular_file(doc, ec)) return "file://" + percentEncodePath(doc.generic_string());
  }
  return TILEC_DOC_URI;
}

class SarifWriter {
 public:
  SarifWriter(const SourceManager& sm, const SarifRunInfo& info) : sm_(sm), info_(info) {
    for (FileId f = 0; f < sm_.fileCount(); ++f)
      locations_.push_back(isFileName(sm_.name(f)) ? location(sm_.name(f)) : Json());
  }

  Json log(const std::vector<Diagnostic>& diags) {
    Json run;
    run["tool"] = Json{{"driver", driver()}};
    run["invocations"] = Json::array({invocation()});
    if (usesSourceRoot_ && !info_.sourceRoot.empty())
      run["originalUriBaseIds"] = Json{{kSourceRoot, Json{{"uri", directoryUri(info_.sourceRoot)}}}};
    run["artifacts"] = artifacts();
    Json results = Json::array();
    for (const Diagnostic& d : diags) results.push_back(result(d));
    run["results"] = std::move(results);
    run["columnKind"] = "unicodeCodePoints";
    Json log;
    log["$schema"] = kSchema;
    log["version"] = "2.1.0";
    log["runs"] = Json::array({std::move(run)});
    return log;
  }

 private:
  static Json driver() {
    Json d;
    d["name"] = "tilec";
    d["version"] = TILEC_VERSION;
    d["semanticVersion"] = TILEC_VERSION;
    d["informationUri"] = informationUri();
    Json rules = Json::array();
    for (Diag id : allDiags()) rules.push_back(rule(id));
    d["rules"] = std::move(rules);
    return d;
  }

  static Json rule(Diag id) {
    const std::string summary = diagSummary(id);
    Json r;
    r["id"] = diagCode(id);
    r["name"] = diagName(id);
    const std::string more = summary + ". Each result's message names the broken rule and the fix; " +
                             "docs/diagnostics.md lists every code.";
    r["shortDescription"] = text(summary);
    r["fullDescription"] = text(more);
    r["help"] = text(more);
    r["defaultConfiguration"] = Json{{"level", levelName(diagDefaultLevel(id))}};
    return r;
  }

  // Exit codes 0 and 1 are runs that did their work (1: the input has errors).
  Json invocation() const {
    return Json{{"executionSuccessful", info_.exitCode == 0 || info_.exitCode == 1}, {"exitCode", info_.exitCode}};
  }

  static std::string directoryUri(const std::string& dir) {
    std::string uri = "file://" + percentEncodePath(dir);
    return uri.back() == '/' ? uri : uri + "/";
  }

  // A file inside the source root is named relative to it (what code-scanning services
  // match against the repository); any other by an absolute file URI.
  Json location(const std::string& name) {
    namespace fs = std::filesystem;
    fs::path path = fs::path(name).lexically_normal();
    const bool escapes = !path.empty() && *path.begin() == "..";
    if (path.is_relative() && (!escapes || info_.sourceRoot.empty())) {
      usesSourceRoot_ = true;
      return Json{{"uri", percentEncodePath(path.generic_string())}, {"uriBaseId", kSourceRoot}};
    }
    if (path.is_relative()) path = (fs::path(info_.sourceRoot) / path).lexically_normal();
    return Json{{"uri", "file://" + percentEncodePath(path.generic_string())}};
  }

  Json artifacts() const {
    Json list = Json::array();
    for (FileId f = 0; f < sm_.fileCount(); ++f) {
      Json artifact = locations_[f].is_null() ? Json{{"description", text(sm_.name(f))}}
                                              : Json{{"location", locations_[f]}};
      artifact["length"] = sm_.contents(f).size();
      list.push_back(std::move(artifact));
    }
    return list;
  }

  // Results name the file by URI as well as by index: code-scanning services read the URI.
  Json artifactLocation(FileId f) const {
    Json at = locations_[f].is_null() ? Json::object() : locations_[f];
    at["index"] = f;
    return at;
  }

  // Code points before each line's start: charOffset counts code points, like columns.
  const std::vector<uint32_t>& lineStartChars(FileId f) {
    auto [it, fresh] = lineStartChars_.try_emplace(f);
    if (!fresh) return it->second;
    std::string_view t = sm_.contents(f);
    uint32_t chars = 0;
    it->second.push_back(0);
    for (char c : t) {
      chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      if (c == '\n') it->second.push_back(chars);
    }
    return it->second;
  }

  uint32_t charOffset(FileId f, LineCol lc) { return lineStartChars(f)[lc.line - 1] + lc.column - 1; }

  // The source text of `range`, clipped to its file.
  std::string_view rangeText(SourceRange range) const {
    const std::string_view contents = sm_.contents(range.file);
    const size_t begin = std::min<size_t>(range.begin, contents.size());
    return contents.substr(begin, std::max(range.end, range.begin) - begin);
  }

  Json region(SourceRange range, bool withSnippet) {
    const uint32_t endOffset = std::max(range.end, range.begin);
    const LineCol begin = sm_.lineCol(range.file, range.begin), end = sm_.lineCol(range.file, endOffset);
    Json r;
    r["startLine"] = begin.line;
    r["startColumn"] = begin.column;
    r["endLine"] = end.line;
    r["endColumn"] = end.column;
    const uint32_t first = charOffset(range.file, begin);
    r["charOffset"] = first;
    r["charLength"] = charOffset(range.file, end) - first;
    // A snippet of one line at most: a range over a whole kernel would repeat the file.
    if (withSnippet && begin.line == end.line && !rangeText(range).empty()) r["snippet"] = text(std::string(rangeText(range)));
    return r;
  }

  Json physicalLocation(SourceRange range) {
    return Json{{"artifactLocation", artifactLocation(range.file)}, {"region", region(range, true)}};
  }

  Json result(const Diagnostic& d) {
    Json r;
    r["ruleId"] = diagCode(d.id);
    r["ruleIndex"] = static_cast<size_t>(d.id);
    r["level"] = levelName(d.level);
    r["message"] = text(d.message);
    if (d.range.valid()) r["locations"] = Json::array({Json{{"physicalLocation", physicalLocation(d.range)}}});
    if (!d.notes.empty()) {
      Json related = Json::array();
      for (const DiagNote& note : d.notes) {
        Json at{{"id", related.size()}};
        if (note.range.valid()) at["physicalLocation"] = physicalLocation(note.range);
        at["message"] = text(note.message);
        related.push_back(std::move(at));
      }
      r["relatedLocations"] = std::move(related);
    }
    if (!d.fixes.empty()) r["fixes"] = Json::array({fix(d.fixes)});
    return r;
  }

  // One SARIF fix: the edits of a diagnostic are applied together. Changes are grouped by
  // file in the order the files first appear.
  Json fix(const std::vector<FixIt>& edits) {
    std::vector<FileId> files;
    std::string description;
    for (const FixIt& edit : edits) {
      if (std::find(files.begin(), files.end(), edit.range.file) == files.end()) files.push_back(edit.range.file);
      const std::string_view old = rangeText(edit.range);
      description += (description.empty() ? "" : "; ") +
                     (old.empty() ? "insert '" + edit.replacement + "'"
                                  : "replace '" + std::string(old) + "' with '" + edit.replacement + "'");
    }
    Json changes = Json::array();
    for (FileId f : files) {
      Json replacements = Json::array();
      for (const FixIt& edit : edits)
        if (edit.range.file == f)
          replacements.push_back(Json{{"deletedRegion", region(edit.range, false)}, {"insertedContent", text(edit.replacement)}});
      changes.push_back(Json{{"artifactLocation", artifactLocation(f)}, {"replacements", std::move(replacements)}});
    }
    return Json{{"description", text(description)}, {"artifactChanges", std::move(changes)}};
  }

  const SourceManager& sm_;
  const SarifRunInfo& info_;
  bool usesSourceRoot_ = false;
  std::vector<Json> locations_;  // per file; null for a buffer that is no file
  std::map<FileId, std::vector<uint32_t>> lineStartChars_;
};

}  // namespace

std::string percentEncodePath(std::string_view path) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '/' || unreservedOrSubDelim(c)) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string renderSarif(const SourceManager& sm, const std::vector<Diagnostic>& diags, const SarifRunInfo& run) {
  // Source text need not be valid UTF-8; replace bad bytes rather than throw.
  return SarifWriter(sm, run).log(diags).dump(2, ' ', false, Json::error_handler_t::replace);
}

}  // namespace tilec
