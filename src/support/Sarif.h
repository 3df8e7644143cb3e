// SARIF 2.1.0 logs (docs/sarif.md): all diagnostics of one tilec run as one log, for
// code-scanning services and SARIF viewers. The same diagnostics give the same bytes.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "support/Diagnostics.h"
#include "support/Source.h"

namespace tilec {

struct SarifRunInfo {
  // Absolute directory that relative file names are relative to (the working directory);
  // empty when it is not known.
  std::string sourceRoot;
  int exitCode = 0;
};

// The log as pretty-printed JSON, without a final newline.
std::string renderSarif(const SourceManager& sm, const std::vector<Diagnostic>& diags, const SarifRunInfo& run);

// A file path as a URI path: every byte but unreserved characters, sub-delimiters, '@' and
// '/' percent-encoded (RFC 3986), so spaces, ':' and UTF-8 sequences survive.
std::string percentEncodePath(std::string_view path);

}  // namespace tilec
