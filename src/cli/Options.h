// tilec's command line: every flag, parsed and checked into one Options value, so
// the driver never sees an inconsistent combination.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "support/Color.h"
#include "support/Diagnostics.h"
#include "support/Limits.h"

namespace tilec::target {
struct TargetDesc;
struct OutputFormat;
}  // namespace tilec::target

namespace tilec::cli {

// tilec's exit codes (docs/cli.md, "Exit codes").
enum ExitCode : int { kExitOk = 0, kExitInputError = 1, kExitUsage = 2, kExitInternalError = 4 };

// What to write: one of the target's output formats, or the IR, AST or tokens.
enum class EmitKind { TargetFormat, Ir, Ast, Tokens, Report };
enum class InputKind { Tile, Tir };
// --decode and --encode turn a backend's binary into a listing and back instead of compiling.
enum class CodecAction { None, Decode, Encode };

struct DepFileOptions {
  bool requested = false;             // -MD, -MF or --depfile was given
  bool enabled = false;               // requested, and there is an output to describe
  std::string path;                   // -MF / --depfile, else "<output>.d"
  std::vector<std::string> targets;   // -MT, verbatim
  std::vector<std::string> quoted;    // -MQ, escaped for make
  bool phonyTargets = false;          // -MP
};

struct Options {
  std::string input;   // "-" is stdin
  CodecAction codec = CodecAction::None;
  std::optional<InputKind> inputKind;  // unset: decided by the driver from the extension
  std::string output;  // resolved: "-" is stdout; empty only with -fsyntax-only
  const target::TargetDesc* target = nullptr;  // from the registry (--target, or the default)
  EmitKind emit = EmitKind::TargetFormat;
  const target::OutputFormat* format = nullptr;  // the target's, when emit is TargetFormat
  std::string kernel;  // --kernel: the one function to keep; empty keeps all
  std::vector<std::string> pipeline;  // resolved: --passes or the default, cut at --emit-ir=<pass>
  bool syntaxOnly = false;
  WarningPolicy warnings;  // -w, -W...
  unsigned errorLimit = 0;  // -ferror-limit: 0 shows every error
  bool fixItLines = true;        // -fno-diagnostics-fixit-info turns off
  bool parseableFixIts = false;  // -fdiagnostics-parseable-fixits
  DiagFormat diagnosticsFormat = DiagFormat::Text;
  ColorMode color = ColorMode::Auto;
  DepFileOptions depfile;
  std::string logLevel = "warn";
  std::vector<std::string> printIrBefore, printIrAfter;
  bool printIrAfterAll = false;
  std::string printIrTreeDir;
  bool verifyEach = false;
  bool verifyRoundTrip = false;
  std::optional<uint64_t> verifySemantics;  // --verify-semantics[=SEED]
  // --run: execute the kernel after the pipeline instead of writing output.
  bool run = false;
  std::vector<std::pair<std::string, std::string>> runArgs;     // --arg NAME=VALUE
  std::vector<std::pair<std::string, std::string>> runOutputs;  // --out NAME=FILE
  std::optional<uint64_t> randomInputs;                          // --random-inputs[=SEED]
  std::string txnStream;  // tilec txn-run: the stream --stream names, run in place of the interpreter
  int64_t blocks = 0;     // --blocks: the launch of every kernel; 0 lets distribute-blocks choose
  int64_t subblocks = 1;  // --subblocks
  std::optional<uint64_t> shuffleBlocks;  // --shuffle-blocks[=SEED]
  bool timePasses = false;
  std::string perfTrace;  // --perf-trace: a Perf-Sim trace for the report's pipe timeline
  std::vector<std::string> defines;       // -D NAME=VALUE, NAME an identifier, in order
  std::vector<std::string> includeDirs;   // -I DIR: where imports are looked for, in order
  std::map<std::string, bool> targetFlags; // every flag of the target: --target-flag or its default
  Limits limits;  // --max-ops, --max-unroll, --max-tensor-rank, --max-tile-elements
  std::string debugCrashIn;
  bool debugCrashSignal = false;  // --debug-crash-in raises SIGSEGV instead of throwing
  std::string debugMutatePass, debugMutation;  // --debug-mutate-after=PASS:MUTATION (tests)
  std::vector<std::string> commandLine;  // argv as typed, for the crash reproducer
};

// What the command line asks for: a compilation, or an immediate exit with this code
// (0 after --help/--version/--list-*, 2 after a usage error, already printed).
using ParseResult = std::variant<Options, int>;
ParseResult parseOptions(int argc, const char* const* argv);

// Prints a usage error the way parseOptions does and returns its exit code (2).
int reportUsageError(const std::string& message);

}  // namespace tilec::cli
