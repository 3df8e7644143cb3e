// Reference listings printed by the CLI: --version, --list-targets, --list-passes and
// --list-diagnostics.
// docs/diagnostics.md is the verbatim output of --list-diagnostics.
#pragma once
#include <iosfwd>

namespace tilec::target {
struct TargetDesc;
}

namespace tilec::cli {

void printVersion(std::ostream& os);
void printTargetList(std::ostream& os);
void printPassList(std::ostream& os, const target::TargetDesc& t);
void printDiagnosticList(std::ostream& os);

}  // namespace tilec::cli
