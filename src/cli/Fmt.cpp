#include "cli/Fmt.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "cli/Options.h"
#include "frontend/Format.h"
#include "support/AtomicFile.h"
#include "support/Color.h"
#include "support/Diagnostics.h"

namespace tilec::cli {
namespace {

const char* const kUsage =
    "usage: tilec fmt [--check] FILE...\n"
    "       tilec fmt -            (standard input to standard output)\n"
    "Rewrites each .tile FILE in the canonical layout (docs/formatting.md). With --check,\n"
    "writes nothing and exits 1 naming each file that is not formatted.\n";

struct FmtOptions {
  bool check = false;
  std::vector<std::string> files;
};

std::string reason(int error) {
  std::string s = std::strerror(error);
  if (!s.empty()) s[0] = char(std::tolower(static_cast<unsigned char>(s[0])));
  return s;
}

std::optional<std::string> readSource(const std::string& path, DiagnosticEngine& diags) {
  if (path == "-") return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    diags.report(Diag::InputNotFound, {}, "cannot read input '" + path + "': it is a directory; pass .tile files");
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.report(Diag::InputNotFound, {}, "cannot read input '" + path + "': " + reason(errno) + "; check the path");
    return std::nullopt;
  }
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// E0012 at the first byte where `original` and its formatted text part, with the line
// as it reads formatted (the two agree up to there, so that line starts at the same place).
void reportUnformatted(const SourceManager& sm, FileId file, const std::string& path, const std::string& original,
                       const std::string& formatted, DiagnosticEngine& diags) {
  size_t at = 0;
  while (at < original.size() && at < formatted.size() && original[at] == formatted[at]) ++at;
  const size_t lineStart = at == 0 ? 0 : formatted.rfind('\n', at - 1) + 1;
  const size_t lineEnd = std::min(formatted.find('\n', at), formatted.size());
  size_t shown = std::min<size_t>(lineEnd - lineStart, 120);  // a message quotes a bounded piece of source
  while (lineStart + shown < lineEnd && (static_cast<unsigned char>(formatted[lineStart + shown]) & 0xC0) == 0x80)
    --shown;  // not inside a character
  const std::string wanted = formatted.substr(lineStart, shown) + (lineStart + shown < lineEnd ? "..." : "");
  const uint32_t offset = uint32_t(std::min(at, sm.contents(file).size()));
  diags.report(Diag::NotFormatted, {file, offset, offset},
               "'" + sm.name(file) + "' is not formatted: formatted, this line reads '" + wanted +
                   "'; run 'tilec fmt " + path + "' to rewrite it");
}

// Formats one file; false when it fails or (with --check) is not formatted.
bool formatOne(const std::string& path, bool check, SourceManager& sm, DiagnosticEngine& diags) {
  std::optional<std::string> original = readSource(path, diags);
  if (!original) return false;
  const FileId file = sm.addBuffer(path, *original);
  std::optional<std::string> formatted = frontend::formatTile(sm, file, diags);
  if (!formatted) return false;
  if (check) {
    if (*formatted == *original) return true;
    reportUnformatted(sm, file, path, *original, *formatted, diags);
    return false;
  }
  if (*formatted == *original && path != "-") return true;  // untouched: no new inode, no new time stamp
  std::string error;
  if (writeFileAtomically(path, *formatted, error)) return true;
  diags.report(Diag::OutputNotWritable, {}, "cannot write '" + path + "': " + error);
  return false;
}

std::optional<FmtOptions> parseFmtOptions(int argc, char** argv, int& exitCode) {
  FmtOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      exitCode = kExitOk;
      return std::nullopt;
    }
    if (arg == "--check") o.check = true;
    else if (arg.size() > 1 && arg[0] == '-') {
      exitCode = reportUsageError("tilec fmt takes no option '" + arg + "'; it takes --check and files");
      return std::nullopt;
    } else o.files.push_back(arg);
  }
  if (o.files.empty()) {
    exitCode = reportUsageError("tilec fmt needs the files to format: tilec fmt FILE... (or - for standard input)");
    return std::nullopt;
  }
  return o;
}

}  // namespace

int runFmt(int argc, char** argv) {
  int exitCode = kExitOk;
  std::optional<FmtOptions> o = parseFmtOptions(argc, argv, exitCode);
  if (!o) return exitCode;
  SourceManager sm;
  DiagnosticEngine diags(sm);
  diags.setStream(&std::cerr);
  diags.setColor(shouldUseColor(ColorMode::Auto, ColorEnvironment::current()));
  bool ok = true;
  for (const std::string& path : o->files) ok = formatOne(path, o->check, sm, diags) && ok;
  diags.finishRun(ok ? kExitOk : kExitInputError);
  return ok ? kExitOk : kExitInputError;
}

}  // namespace tilec::cli
