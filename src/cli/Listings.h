// Reference listings printed by the CLI: --list-passes and --list-diagnostics.
// docs/diagnostics.md is the verbatim output of --list-diagnostics.
#pragma once
#include <iosfwd>

namespace tilec::cli {

void printPassList(std::ostream& os);
void printDiagnosticList(std::ostream& os);

}  // namespace tilec::cli
