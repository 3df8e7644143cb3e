// The canonical layout of .tile source (`tilec fmt`, the language server's formatting;
// docs/formatting.md states the rules). The formatter rewrites only the space between
// tokens: the tokens and the comments come out in their order and spelling, so the
// formatted file means what the original meant.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "support/Diagnostics.h"
#include "support/Source.h"

namespace tilec::frontend {

// The formatted text of `file`. A file that does not parse is not formatted: its
// syntax errors are reported (as parse() reports them) and the result is nullopt.
std::optional<std::string> formatTile(const SourceManager& sm, FileId file, DiagnosticEngine& diags);
// The same for a buffer (a leading byte order mark is dropped); nullopt on any error.
std::optional<std::string> formatTile(std::string_view text);

}  // namespace tilec::frontend
