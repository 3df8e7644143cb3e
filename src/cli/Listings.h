// Reference listings printed by the CLI: --version, --list-targets, --list-passes,
// --list-diagnostics and --list-builtins.
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
// Every built-in function of .tile, one per line as it is called, sorted by name.
void printBuiltinList(std::ostream& os);

}  // namespace tilec::cli
