#include "cli/Options.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>

#include "cli/Listings.h"
#include "cli/WarningFlags.h"
#include "passes/Pass.h"
#include "passes/PassInstrumentations.h"
#include "target/Registry.h"
#include "support/ArgvCompat.h"
#include "support/Wording.h"

namespace tilec::cli {

namespace {

// An environment switch is on when set to anything but "" or "0".
bool envFlag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::string(v) != "0";
}

const char* const kFinalIr = "@final";  // --emit-ir without a pass name
const char* const kDefaultSeed = "1";    // --verify-semantics without a seed
constexpr int64_t kMaxBlocks = 4096;     // --blocks: far above any chip's cores

int usageError(const std::string& message) { return reportUsageError(message); }



DiagFormat diagFormat(const std::string& name) {
  return name == "json" ? DiagFormat::Json : name == "sarif" ? DiagFormat::Sarif : DiagFormat::Text;
}

// Usage errors follow --diagnostics-format=json (as diagnostic E0014), which is looked for
// before the options are parsed, since the parse itself may fail.
DiagFormat usageErrorFormat = DiagFormat::Text;

DiagFormat requestedFormat(const std::vector<std::string>& args) {
  const std::string option = "--diagnostics-format";
  DiagFormat format = DiagFormat::Text;
  for (size_t i = 0; i < args.size() && args[i] != "--"; ++i) {
    if (args[i] == option && i + 1 < args.size()) format = diagFormat(args[i + 1]);
    else if (args[i].compare(0, option.size() + 1, option + "=") == 0) format = diagFormat(args[i].substr(option.size() + 1));
  }
  return format;
}


// Options spelled with one dash, as compilers do; rewriteArgsForCli11 maps them to CLI11's.
const std::set<std::string> kSingleDashOptions = {"fsyntax-only", "ferror-limit", "fno-diagnostics-fixit-info",
                                                   "fdiagnostics-parseable-fixits", "MD", "MF", "MT", "MQ", "MP"};
// clang's: the most errors shown (-ferror-limit) when none is given.
constexpr int64_t kDefaultErrorLimit = 19;

// The raw values CLI11 fills; resolve() turns them into Options.
struct RawOptions {
  std::string input, output, inputKind, target, emit, emitIr, diagnosticsFormat = "text";
  std::string color = "auto", logLevel = "warn", depfile, printIrTreeDir, debugCrashIn, passes, kernel;
  std::string verifySemantics, debugMutateAfter, randomInputs, stopAfter, shuffleBlocks, perfTrace, stream;
  std::string optLevel;  // accepted for build systems' sake: every level runs the same pipeline
  int64_t blocks = 0, subblocks = 0;
  std::vector<std::string> runArgs, runOutputs, defines, includeDirs, targetFlags;
  std::vector<std::string> warningFlags;  // the values of -W, in order
  int64_t errorLimit = kDefaultErrorLimit;
  Limits limits;
  bool run = false, decode = false, encode = false, txnRun = false;
  std::vector<std::string> printIrBefore, printIrAfter, depTargets, depQuoted;
  bool passesGiven = false, syntaxOnly = false, noWarnings = false, md = false, mp = false;
  bool noFixItLines = false, parseableFixIts = false;
  bool verbose = false, printIrAfterAll = false, verifyEach = false, verifyRoundTrip = false, timePasses = false, debugCrashSignal = false;
  bool version = false, listPasses = false, listDiagnostics = false, listTargets = false,
       listBuiltins = false;
};

void declareOptions(CLI::App& app, RawOptions& raw) {
  app.add_option("input", raw.input, "input file (.tile or .tir); '-' reads standard input");
  app.add_option("-o", raw.output, "write the output to <file>; '-' writes standard output")
      ->type_name("<file>");
  app.add_option("--input-kind", raw.inputKind, "input language when it cannot be told from the name")
      ->check(CLI::IsMember({"tile", "tir"}))
      ->type_name("<tile|tir>");
  app.add_option("-D", raw.defines,
                 "set the file constant NAME, or make the 'dyn' size NAME a constant: -D NAME=VALUE, VALUE a "
                 "constant expression (repeatable)")
      ->type_name("NAME=VALUE");
  app.add_option("-I", raw.includeDirs,
                 "look for imported files in DIR after the importing file's own directory (repeatable, in order)")
      ->type_name("DIR");
  app.add_option("--target-flag", raw.targetFlags, "set a flag of the target's output: NAME=true|false (tilec --list-targets lists them)")
      ->type_name("NAME=BOOL");
  app.add_option("--target", raw.target, "the target to compile for (default: the first of --list-targets)")
      ->type_name("<name>");
  app.add_option("--kernel", raw.kernel, "compile only this kernel of the file (PTO output holds one)")
      ->type_name("<name>");
  app.add_option("--emit", raw.emit, "what to write: one of the target's formats (default: its first), report (an HTML page of the compile), ir, ast or tokens")
      ->type_name("<format>");
  app.add_flag(std::string("--emit-ir{") + kFinalIr + "}", raw.emitIr,
               "write the final IR; with =<pass>, stop after <pass> and write its IR");
  app.add_option("--perf-trace", raw.perfTrace,
                 "with --emit=report: draw the pipe timeline from this Perf-Sim JSON trace instead of the estimate")
      ->type_name("<file>");
  app.add_option("-O", raw.optLevel,
                 "optimization level, as compilers take it: -O0 to -O3, -Os, -Oz, -Ofast (all run the same "
                 "pipeline today: every pass is needed for the target)")
      ->check(CLI::IsMember({"0", "1", "2", "3", "s", "z", "fast"}))
      ->type_name("<level>");
  app.add_flag("--fsyntax-only", raw.syntaxOnly, "check the input only; write nothing");
  app.add_option("-W", raw.warningFlags,
                 "warnings as clang takes them: -Werror (every warning is an error; also --Werror), -Wno-error, "
                 "-Werror=CODE (this warning is an error), -Wno-error=CODE (this one stays a warning), -Wno-CODE "
                 "(suppress it); CODE is a warning's code or name (E0723, unused-result); the last flag for a "
                 "code wins (tilec --list-diagnostics lists them)")
      ->allow_extra_args(false)
      ->type_name("<rule>");
  app.add_flag("-w", raw.noWarnings, "suppress every warning (over any -W flag, as in clang)");
  app.add_option("--ferror-limit", raw.errorLimit,
                 "show at most <n> errors, then a note (E0013) that the rest are held back; 0 shows all "
                 "(default " + std::to_string(kDefaultErrorLimit) + ", as clang's)")
      ->check(CLI::Range(int64_t(0), int64_t(1) << 31).description(""))
      ->type_name("<n>");
  app.add_option("--diagnostics-format", raw.diagnosticsFormat,
                 "diagnostics as text (default), JSON Lines, or one SARIF 2.1.0 log at the end; also rustc's "
                 "--error-format=human|json")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->type_name("<text|json|sarif>");
  app.add_flag("--fno-diagnostics-fixit-info", raw.noFixItLines,
               "text diagnostics: no line under the caret showing a fix's replacement");
  app.add_flag("--fdiagnostics-parseable-fixits", raw.parseableFixIts,
               "text diagnostics: after each, its fixes as clang's machine-readable fix-it lines");
  app.add_option("--color", raw.color,
                 "color diagnostics (default auto: on a terminal, unless NO_COLOR); also clang's "
                 "-f[no-]diagnostics-color[=V] and -f[no-]color-diagnostics")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->type_name("<auto|always|never>");
  app.add_flag("--MD", raw.md, "write a make depfile next to the output (<output>.d)");
  app.add_option("--MF,--depfile", raw.depfile, "write the depfile to <file>; implies -MD")->type_name("<file>");
  app.add_option("--MT", raw.depTargets, "depfile target, verbatim")->type_name("<target>");
  app.add_option("--MQ", raw.depQuoted, "depfile target, quoted for make")->type_name("<target>");
  app.add_flag("--MP", raw.mp, "add an empty rule for every dependency but the input");
  app.add_flag("--version", raw.version, "print the version and exit");
  app.add_flag("-v", raw.verbose, "verbose log on stderr (same as --log-level=debug)");
  app.add_option("--log-level", raw.logLevel, "log detail on stderr (default warn)")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
      ->type_name("<level>");
  app.add_option("--passes", raw.passes, "run these passes instead of the default pipeline; "
                 "--passes= runs none")->type_name("<pass>,...");
  app.add_option("--stop-after", raw.stopAfter, "run the pipeline up to and including this pass")
      ->type_name("<pass>");
  app.add_flag("--run", raw.run,
               "run the kernel on the host after the pipeline (the reference interpreter) instead of "
               "writing output; inputs from --arg, results to --out");
  app.add_option("--arg", raw.runArgs, "with --run: a parameter's value, NAME=FILE.npy for a tensor, "
                 "NAME=NUMBER for a size or scalar")
      ->type_name("<name>=<value>");
  app.add_option("--out", raw.runOutputs, "with --run: write this tensor parameter to FILE.npy afterwards")
      ->type_name("<name>=<file>");
  app.add_flag(std::string("--random-inputs{") + kDefaultSeed + "}", raw.randomInputs,
               "with --run: fill the parameters no --arg gives from SEED (sizes too)");
  app.add_option("--blocks", raw.blocks,
                 "launch every kernel as <n> blocks (PTO targets): what the output declares and --run and "
                 "--verify-semantics run; by default distribute-blocks chooses")
      ->check(CLI::Range(int64_t(1), kMaxBlocks).description(""))
      ->type_name("<n>");
  app.add_option("--subblocks", raw.subblocks,
                 "with --blocks: each block as <n> sub-blocks (the vector cores of an AI core, for vector kernels)")
      ->check(CLI::Range(int64_t(1), int64_t(2)).description(""))
      ->type_name("<n>");
  app.add_flag(std::string("--shuffle-blocks{") + kDefaultSeed + "}", raw.shuffleBlocks,
               "with --run or --verify-semantics: run the blocks in an order drawn from SEED, not ascending");
  app.add_option("--stream", raw.stream,
                 "with txn-run: the TXN stream to run (a .bin, txn-text words or a --decode listing)")
      ->type_name("<file>");
  app.add_flag("--decode", raw.decode,
               "print a readable listing of a binary the backends write (an AIE TXN stream) instead of compiling");
  app.add_flag("--encode", raw.encode, "turn a --decode listing back into the binary (needs -o)");
  app.add_flag("--list-targets", raw.listTargets, "list the targets and their output formats, then exit");
  app.add_flag("--list-passes", raw.listPasses, "list the target's passes and their contracts, then exit");
  app.add_flag("--list-diagnostics", raw.listDiagnostics, "list the diagnostic codes (Markdown), then exit");
  app.add_flag("--list-builtins", raw.listBuiltins, "list the built-in functions of .tile, each as it is called, then exit");
  app.add_option("--print-ir-before", raw.printIrBefore, "print the IR before these passes")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->type_name("<pass>,...");
  app.add_option("--print-ir-after", raw.printIrAfter, "print the IR after these passes")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->type_name("<pass>,...");
  app.add_flag("--print-ir-after-all", raw.printIrAfterAll, "print the IR after every pass");
  app.add_option("--print-ir-tree-dir", raw.printIrTreeDir, "write <dir>/NN_<pass>.tir after every pass")
      ->type_name("<dir>");
  app.add_flag("--verify-each", raw.verifyEach, "run the IR verifier after every pass");
  app.add_flag("--verify-roundtrip", raw.verifyRoundTrip,
               "print, parse and print the IR after every pass; any difference is an internal error");
  app.add_flag("--time-passes", raw.timePasses, "print the wall time of every pass on stderr");
  auto limit = [&](const char* name, int64_t& value, const std::string& what) {
    app.add_option(name, value, what + " (default " + std::to_string(value) + ")")
        ->check(CLI::Range(int64_t(1), int64_t(1) << 40).description(""))
        ->type_name("<n>");
  };
  limit("--max-ops", raw.limits.maxOps, "the most IR ops a kernel may grow to when batches are unrolled");
  limit("--max-unroll", raw.limits.maxUnroll, "the most pages one batched matmul or N-D transpose unrolls into");
  limit("--max-tensor-rank", raw.limits.maxTensorRank, "the most dims a tensor parameter may have");
  limit("--max-tile-elements", raw.limits.maxTileElements,
        "the most elements of one tile the host interpreter holds (--run, --verify-semantics)");
  app.add_flag(std::string("--verify-semantics{") + kDefaultSeed + "}", raw.verifySemantics,
               "run the kernel on random inputs (from SEED) before the pipeline and after every pass, and "
               "fail naming the first pass that changes a result");
  app.add_option("--debug-crash-in", raw.debugCrashIn)->group("");  // hidden: tests exit code 4
  app.add_flag("--debug-crash-signal", raw.debugCrashSignal)->group("");  // hidden: ... by a signal
  app.add_option("--debug-mutate-after", raw.debugMutateAfter)->group("");  // hidden: tests --verify-semantics
  // A single-valued option given twice takes the last value, as gcc and clang do (a build
  // system's flags come before the user's); repeatable ones (-D, -I, --arg) keep them all.
  for (CLI::Option* opt : app.get_options())
    if (opt->get_expected_max() == 1 && opt->get_name() != "input")
      opt->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

// Help in the style of clang's: each option as it is typed (-fsyntax-only, -MF <file>,
// --target=<a2a3|a5>), not as CLI11 declares it after the argv rewrite.
class HelpFormatter final : public CLI::FormatterBase {
 public:
  std::string make_help(const CLI::App* app, std::string, CLI::AppFormatMode) const override {
    std::string out = "OVERVIEW: " + app->get_description() + "\n\n";
    out += "USAGE: tilec [options] <input>\n\n  <input> is a .tile or .tir file; '-' reads standard input\n\n";
    out += "       tilec txn-run <input> --stream <file> [--arg ...] [--out ...]\n\n"
           "  runs an AIE TXN stream on .npy host buffers, named and shaped by <input>'s kernel\n\n";
    out += "       tilec fmt [--check] <file>...\n\n"
           "  rewrites .tile files in the canonical layout (--check: only says which are not)\n\n";
    out += "OPTIONS:\n";
    for (const CLI::Option* opt : app->get_options()) {
      if (opt->get_group().empty() || opt->get_positional()) continue;
      std::string spelling = spellingOf(*opt);
      out += "  " + spelling;
      if (spelling.size() + 2 >= kColumn - 2) out += "\n" + std::string(kColumn, ' ');
      else out += std::string(kColumn - 2 - spelling.size(), ' ');
      out += opt->get_description() + "\n";
    }
    return out;
  }

 private:
  static constexpr size_t kColumn = 30;

  static std::string spellingOf(const CLI::Option& opt) {
    std::vector<std::string> names;
    for (const std::string& s : opt.get_snames()) names.push_back("-" + s);
    const std::vector<std::string>& longNames = opt.get_lnames();
    for (size_t i = 0; i < longNames.size(); ++i)  // the first as typed, aliases (--depfile) with two dashes
      names.push_back((i == 0 && kSingleDashOptions.count(longNames[i]) ? "-" : "--") + longNames[i]);
    std::string spelling;
    for (const std::string& n : names) spelling += (spelling.empty() ? "" : ", ") + n;
    if (!longNames.empty() && longNames[0] == "emit-ir") return spelling + "[=<pass>]";
    if (spelling == "-O") return "-O<level>";  // joined, as compilers write it
    if (spelling == "-W") return "-W<rule>";
    if (!longNames.empty() && (longNames[0] == "verify-semantics" || longNames[0] == "random-inputs" ||
                               longNames[0] == "shuffle-blocks"))
      return spelling + "[=<seed>]";
    std::string value = opt.get_type_name();
    value = value.substr(0, value.find(":{"));  // IsMember appends the choices; <a|b> names them
    if (value.empty()) return spelling;         // a flag
    bool joined = spelling.rfind("--", 0) == 0 || spelling.rfind("-f", 0) == 0;  // --x=V, -fx=V
    return spelling + (joined ? "=" : " ") + value;
  }
};

std::optional<int> checkPassNames(const std::vector<std::string>& names, const std::string& flag,
                                  const target::TargetDesc& t) {
  for (const std::string& name : names)
    if (!t.passes.create(name))
      return usageError("unknown pass '" + name + "' in " + flag + " for target " + t.name +
                        "; see tilec --list-passes");
  return std::nullopt;
}

std::vector<std::string> splitList(const std::string& list) {
  std::vector<std::string> items;
  size_t begin = 0;
  while (begin < list.size()) {
    size_t comma = std::min(list.find(',', begin), list.size());
    if (comma > begin) items.push_back(list.substr(begin, comma - begin));
    begin = comma + 1;
  }
  return items;
}

std::string defaultOutput(const std::string& input, const Options& o) {
  if (input == "-" || (o.emit != EmitKind::TargetFormat && o.emit != EmitKind::Report)) return "-";
  return std::filesystem::path(input).stem().string() + (o.emit == EmitKind::Report ? ".html" : o.format->extension);
}

// Each resolver fills part of Options and returns an exit code on a usage error.
using UsageCheck = std::optional<int>;

std::string formatNames(const target::TargetDesc& t) {
  std::string out;
  for (const target::OutputFormat& f : t.formats) out += std::string(f.name) + ", ";
  return out + "report, ir, ast or tokens";
}

UsageCheck resolveEmit(const RawOptions& raw, Options& o) {
  static const std::pair<const char*, EmitKind> kGeneric[] = {
      {"ir", EmitKind::Ir}, {"ast", EmitKind::Ast}, {"tokens", EmitKind::Tokens}, {"report", EmitKind::Report}};
  o.format = &o.target->formats.front();  // a report shows the compile to the default format
  if (!raw.emit.empty()) {
    o.emit = EmitKind::TargetFormat;
    for (const auto& [name, kind] : kGeneric)
      if (raw.emit == name) o.emit = kind;
    if (o.emit == EmitKind::TargetFormat && !(o.format = o.target->format(raw.emit)))
      return usageError("--emit=" + raw.emit + " is no output of target " + o.target->name + "; use " +
                        formatNames(*o.target));
  }
  if (!raw.emitIr.empty()) {
    if (!raw.emit.empty() && o.emit != EmitKind::Ir) return usageError("--emit-ir conflicts with --emit=" + raw.emit);
    o.emit = EmitKind::Ir;
  }
  o.syntaxOnly = raw.syntaxOnly;
  if (!raw.perfTrace.empty() && o.emit != EmitKind::Report)
    return usageError("--perf-trace goes with --emit=report, whose pipe timeline draws it");
  o.perfTrace = raw.perfTrace;
  if (!o.syntaxOnly) o.output = raw.output.empty() ? defaultOutput(raw.input, o) : raw.output;
  return std::nullopt;
}

UsageCheck resolvePipeline(const RawOptions& raw, Options& o) {
  std::vector<std::string> passes = splitList(raw.passes);
  const target::TargetDesc& t = *o.target;
  if (auto bad = checkPassNames(passes, "--passes", t)) return bad;
  if (auto bad = checkPassNames(raw.printIrBefore, "--print-ir-before", t)) return bad;
  if (auto bad = checkPassNames(raw.printIrAfter, "--print-ir-after", t)) return bad;
  if (!raw.debugCrashIn.empty())
    if (auto bad = checkPassNames({raw.debugCrashIn}, "--debug-crash-in", t)) return bad;
  o.pipeline = raw.passesGiven ? passes : t.pipeline;
  if (!raw.stopAfter.empty()) {
    auto stop = std::find(o.pipeline.begin(), o.pipeline.end(), raw.stopAfter);
    if (stop == o.pipeline.end())
      return usageError("--stop-after=" + raw.stopAfter + " names a pass that is not in the pipeline; see tilec --list-passes");
    o.pipeline.erase(stop + 1, o.pipeline.end());
  }
  if (!raw.emitIr.empty() && raw.emitIr != kFinalIr) {
    auto stop = std::find(o.pipeline.begin(), o.pipeline.end(), raw.emitIr);
    if (stop == o.pipeline.end())
      return usageError("--emit-ir=" + raw.emitIr +
                        " names a pass that is not in the pipeline; see tilec --list-passes");
    o.pipeline.erase(stop + 1, o.pipeline.end());
  }
  o.printIrBefore = raw.printIrBefore;
  o.printIrAfter = raw.printIrAfter;
  o.printIrAfterAll = raw.printIrAfterAll;
  o.printIrTreeDir = raw.printIrTreeDir;
  // The test suite sets these for every run, so each test also checks the IR between passes.
  o.verifyEach = raw.verifyEach || envFlag("TILEC_VERIFY_EACH");
  o.verifyRoundTrip = raw.verifyRoundTrip || envFlag("TILEC_VERIFY_ROUNDTRIP");
  std::string seed = !raw.verifySemantics.empty() ? raw.verifySemantics
                     : envFlag("TILEC_VERIFY_SEMANTICS") ? std::string(kDefaultSeed) : std::string();
  if (!seed.empty()) {
    if (seed.find_first_not_of("0123456789") != std::string::npos || seed.size() > 19)
      return usageError("--verify-semantics=" + seed + " is no seed; give a non-negative integer");
    o.verifySemantics = std::stoull(seed);
  }
  o.timePasses = raw.timePasses;
  o.limits = raw.limits;
  if (raw.subblocks && !raw.blocks) return usageError("--subblocks goes with --blocks");
  if (raw.blocks && !t.model->hasBlocks())
    return usageError(std::string("--blocks: ") + t.name + " kernels run as one program, not as blocks; "
                      "drop --blocks or compile for a2a3 or a5");
  o.blocks = raw.blocks;
  o.subblocks = std::max<int64_t>(raw.subblocks, 1);
  if (!raw.shuffleBlocks.empty()) {
    if (raw.shuffleBlocks.find_first_not_of("0123456789") != std::string::npos || raw.shuffleBlocks.size() > 19)
      return usageError("--shuffle-blocks=" + raw.shuffleBlocks + " is no seed; give a non-negative integer");
    o.shuffleBlocks = std::stoull(raw.shuffleBlocks);
  }
  o.debugCrashIn = raw.debugCrashIn;
  o.debugCrashSignal = raw.debugCrashSignal;
  if (!raw.debugMutateAfter.empty()) {
    size_t colon = raw.debugMutateAfter.find(':');
    o.debugMutatePass = raw.debugMutateAfter.substr(0, colon);
    o.debugMutation = colon == std::string::npos ? "" : raw.debugMutateAfter.substr(colon + 1);
    if (auto bad = checkPassNames({o.debugMutatePass}, "--debug-mutate-after", t)) return bad;
    if (!MutationInstrumentation::known(o.debugMutation))
      return usageError("--debug-mutate-after=" + raw.debugMutateAfter + " names no mutation");
  }
  return std::nullopt;
}

// "NAME=VALUE" pairs of --arg and --out.
std::optional<int> splitPairs(const std::vector<std::string>& items, const char* flag,
                              std::vector<std::pair<std::string, std::string>>& out) {
  for (const std::string& item : items) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      return usageError(std::string(flag) + " " + item + " is not NAME=VALUE");
    out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  return std::nullopt;
}

// The inputs and outputs of a run on the host (--run, txn-run): --arg, --out, --random-inputs.
UsageCheck resolveRunData(const RawOptions& raw, Options& o) {
  if (auto bad = splitPairs(raw.runArgs, "--arg", o.runArgs)) return bad;
  if (auto bad = splitPairs(raw.runOutputs, "--out", o.runOutputs)) return bad;
  if (!raw.randomInputs.empty()) {
    if (raw.randomInputs.find_first_not_of("0123456789") != std::string::npos || raw.randomInputs.size() > 19)
      return usageError("--random-inputs=" + raw.randomInputs + " is no seed; give a non-negative integer");
    o.randomInputs = std::stoull(raw.randomInputs);
  }
  return std::nullopt;
}

UsageCheck resolveRun(const RawOptions& raw, Options& o) {
  o.run = raw.run;
  bool runOnly = !raw.runArgs.empty() || !raw.runOutputs.empty() || !raw.randomInputs.empty();
  if (runOnly && !o.run) return usageError("--arg, --out and --random-inputs go with --run");
  if (!o.run) return std::nullopt;
  if (o.syntaxOnly || !raw.emit.empty() || !raw.emitIr.empty())
    return usageError("--run executes the kernel and writes no compiled output; drop --emit, --emit-ir and -fsyntax-only");
  if (auto bad = resolveRunData(raw, o)) return bad;
  o.output.clear();
  return std::nullopt;
}

UsageCheck resolveDepfile(const RawOptions& raw, Options& o) {
  DepFileOptions& dep = o.depfile;
  dep.requested = raw.md || !raw.depfile.empty();
  dep.enabled = dep.requested && !o.syntaxOnly && !o.run;
  dep.targets = raw.depTargets;
  dep.quoted = raw.depQuoted;
  dep.phonyTargets = raw.mp;
  dep.path = raw.depfile;
  if (dep.enabled && o.output == "-") {
    if (dep.path.empty()) return usageError("-MD needs -MF FILE when the output is standard output");
    if (dep.targets.empty() && dep.quoted.empty())
      return usageError("-MD needs -MT TARGET when the output is standard output");
  }
  if (dep.enabled && dep.path.empty()) dep.path = o.output + ".d";
  return std::nullopt;
}

// The flags txn-run refuses, with whether they were given: it compiles nothing and writes
// only --out files.
std::vector<std::pair<bool, const char*>> compileOnlyFlags(const RawOptions& raw) {
  return {{raw.run, "--run"},
          {!raw.emit.empty() || !raw.emitIr.empty(), "--emit"},
          {raw.syntaxOnly, "-fsyntax-only"},
          {!raw.output.empty(), "-o"},
          {raw.md || !raw.depfile.empty(), "-MD"},
          {!raw.passes.empty() || raw.passesGiven || !raw.stopAfter.empty(), "--passes"},
          {!raw.printIrBefore.empty() || !raw.printIrAfter.empty() || raw.printIrAfterAll ||
               !raw.printIrTreeDir.empty(), "--print-ir"},
          {!raw.verifySemantics.empty(), "--verify-semantics"},
          {raw.blocks != 0 || raw.subblocks != 0 || !raw.shuffleBlocks.empty(), "--blocks"},
          {!raw.perfTrace.empty(), "--perf-trace"},
          {raw.decode || raw.encode, "--decode"}};
}

// tilec txn-run KERNEL --stream FILE: the kernel is only read, for its parameters; no pass
// runs. The target defaults to the first AIE one.
UsageCheck resolveTxnRun(const RawOptions& raw, Options& o) {
  for (const auto& [given, flag] : compileOnlyFlags(raw))
    if (given)
      return usageError(std::string("txn-run runs a stream and compiles nothing, so it takes no ") + flag +
                        "; inputs come from --arg and results go to --out");
  if (raw.stream.empty())
    return usageError("txn-run needs the stream to run: --stream FILE (a .bin, txn-text words or a --decode listing)");
  std::vector<std::string> aie;
  for (const target::TargetDesc* t : target::allTargets())
    if (t->format("txn")) aie.push_back(t->name);
  if (raw.target.empty() && !aie.empty()) o.target = target::findTarget(aie.front());
  if (!o.target->format("txn"))
    return usageError(std::string("txn-run: --target=") + o.target->name +
                      " writes no TXN streams; give the AIE target the stream is for, such as " +
                      (aie.empty() ? std::string("npu1") : aie.front()) + " (tilec --list-targets lists them)");
  o.format = &o.target->formats.front();
  o.txnStream = raw.stream;
  o.run = true;
  o.limits = raw.limits;
  o.pipeline.clear();
  if (auto bad = resolveRunData(raw, o)) return bad;
  return std::nullopt;
}

// --decode FILE [-o LISTING] and --encode LISTING -o FILE take no compile options.
ParseResult resolveCodec(const RawOptions& raw, Options o) {
  if (raw.decode && raw.encode) return usageError("--decode and --encode are two directions; give one");
  const bool compiling = !raw.emit.empty() || !raw.emitIr.empty() || raw.run || raw.syntaxOnly || raw.md ||
                         !raw.depfile.empty() || !raw.passes.empty() || !raw.target.empty() || !raw.kernel.empty();
  if (compiling)
    return usageError(std::string(raw.decode ? "--decode" : "--encode") +
                      " converts a file and compiles nothing; drop --emit, --emit-ir, --run, --target, --kernel, "
                      "--passes, -fsyntax-only and the depfile options");
  o.codec = raw.decode ? CodecAction::Decode : CodecAction::Encode;
  if (raw.encode && raw.output.empty()) return usageError("--encode writes a binary; name the file with -o");
  o.output = raw.output.empty() ? "-" : raw.output;
  o.target = &target::defaultTarget();
  o.diagnosticsFormat = diagFormat(raw.diagnosticsFormat);
  o.color = *parseColorMode(raw.color);
  o.logLevel = raw.verbose ? "debug" : raw.logLevel;
  return o;
}

ParseResult resolve(const RawOptions& raw, std::vector<std::string> commandLine) {
  if (raw.input.empty()) return usageError("no input file");
  Options o;
  o.commandLine = std::move(commandLine);
  o.input = raw.input;
  std::variant<WarningPolicy, std::string> warnings = parseWarningFlags(raw.warningFlags, raw.noWarnings);
  if (const std::string* problem = std::get_if<std::string>(&warnings)) return usageError(*problem);
  o.warnings = std::get<WarningPolicy>(std::move(warnings));
  o.errorLimit = static_cast<unsigned>(raw.errorLimit);
  o.fixItLines = !raw.noFixItLines;
  o.parseableFixIts = raw.parseableFixIts;
  if (raw.decode || raw.encode) return resolveCodec(raw, std::move(o));
  if (!raw.inputKind.empty()) o.inputKind = raw.inputKind == "tir" ? InputKind::Tir : InputKind::Tile;
  o.target = raw.target.empty() ? &target::defaultTarget() : target::findTarget(raw.target);
  if (!o.target)
    return usageError("--target=" + raw.target + " names no target; the targets are " + target::targetNames() +
                      " (see tilec --list-targets)");
  o.kernel = raw.kernel;
  o.diagnosticsFormat = diagFormat(raw.diagnosticsFormat);
  o.color = *parseColorMode(raw.color);
  o.logLevel = raw.verbose ? "debug" : raw.logLevel;
  o.targetFlags = target::defaultFlags(*o.target);
  for (const std::string& flag : raw.targetFlags) {
    const size_t eq = flag.find('=');
    const std::string name = flag.substr(0, eq), value = eq == std::string::npos ? "" : flag.substr(eq + 1);
    if (!o.targetFlags.count(name)) {
      std::vector<std::string> names;
      for (const target::TargetFlag& f : o.target->flags) names.push_back(f.name);
      return usageError("--target-flag " + flag + ": target " + o.target->name + " has no flag '" + name + "'" +
                        (names.empty() ? std::string("; it has none") : "; its flags are " + listText(names)));
    }
    if (value != "true" && value != "false")
      return usageError("--target-flag " + flag + ": the value is true or false");
    o.targetFlags[name] = value == "true";
  }
  for (const std::string& d : raw.defines) {
    const std::string name = d.substr(0, d.find('='));
    const bool identifier = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                            std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    if (!identifier || name.size() == d.size())
      return usageError("-D " + d + " is not NAME=VALUE with NAME an identifier; write e.g. -D M=256");
  }
  o.defines = raw.defines;
  o.includeDirs = raw.includeDirs;
  if (raw.txnRun) {
    if (UsageCheck bad = resolveTxnRun(raw, o)) return *bad;
    return o;
  }
  if (!raw.stream.empty()) return usageError("--stream goes with txn-run: tilec txn-run KERNEL --stream FILE ...");
  for (auto resolver : {resolveEmit, resolvePipeline, resolveRun, resolveDepfile})
    if (UsageCheck bad = resolver(raw, o)) return *bad;
  return o;
}

// Every option as it is typed: -o, --target, -fsyntax-only (help's spellings).
std::vector<std::string> optionSpellings(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_group().empty()) continue;  // hidden
    for (const std::string& s : opt->get_snames()) names.push_back("-" + s);
    for (const std::string& l : opt->get_lnames()) names.push_back((kSingleDashOptions.count(l) ? "-" : "--") + l);
  }
  for (const std::string& alias : aliasSpellings()) names.push_back(alias);
  return names;
}

// The first argument CLI11 did not take: an unknown option, with the one it most likely
// meant, or a second input.
std::string unexpectedArgument(const CLI::App& app, const CLI::ExtrasError& e) {
  const std::vector<std::string> extras = app.remaining();
  if (extras.empty()) return e.what();
  const std::string& arg = extras.front();
  if (arg.size() < 2 || arg[0] != '-')
    return "a second input '" + arg + "': tilec compiles one input file at a time";
  const std::string name = arg.substr(0, arg.find('='));
  const std::optional<std::string> near = closestName(name, optionSpellings(app));
  return "unknown option '" + name + "'" + (near ? "; did you mean '" + *near + "'?" : "");
}

}  // namespace

int reportUsageError(const std::string& message) {
  if (usageErrorFormat == DiagFormat::Json) {
    const SourceManager noSources;
    const Diagnostic d{Level::Error, Diag::UsageError,
                       "usage error: " + message + "; run 'tilec --help' for the list of options", {}, {}, {}};
    std::cerr << DiagnosticEngine(noSources).renderJson(d) << '\n';
    return kExitUsage;
  }
  std::cerr << "tilec: usage error: " << message << "\nrun 'tilec --help' for the list of options\n";
  return kExitUsage;
}

ParseResult parseOptions(int argc, const char* const* argv) {
  std::vector<std::string> commandLine(argv, argv + argc);
  // `tilec txn-run ...` is the compiler's command line with one more flag; the word only
  // says how to read it.
  const bool txnRun = argc > 1 && std::string(argv[1]) == "txn-run";
  ArgvRewrite rewritten =
      rewriteArgsForCli11(std::vector<std::string>(commandLine.begin() + (txnRun ? 2 : 1), commandLine.end()));
  usageErrorFormat = requestedFormat(rewritten.args);
  if (!rewritten.usageError.empty()) return usageError(rewritten.usageError);
  std::vector<std::string> args = std::move(rewritten.args);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last-first

  CLI::App app{"tilec, an ahead-of-time compiler from .tile kernels to PTO assembly", "tilec"};
  app.formatter(std::make_shared<HelpFormatter>());
  app.set_help_flag("-h,--help", "print this help and exit");
  RawOptions raw;
  declareOptions(app, raw);
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    return usageError(unexpectedArgument(app, e));
  } catch (const CLI::ParseError& e) {
    return usageError(e.what());
  }
  raw.passesGiven = app.count("--passes") > 0;
  raw.txnRun = txnRun;
  if (raw.version) {
    printVersion(std::cout);
    return 0;
  }
  const target::TargetDesc* listed = raw.target.empty() ? &target::defaultTarget() : target::findTarget(raw.target);
  if (!listed && (raw.listPasses || raw.listTargets))
    return usageError("--target=" + raw.target + " names no target; the targets are " + target::targetNames());
  if (raw.listTargets) printTargetList(std::cout);
  if (raw.listPasses) printPassList(std::cout, *listed);
  if (raw.listDiagnostics) printDiagnosticList(std::cout);
  if (raw.listBuiltins) printBuiltinList(std::cout);
  if (raw.listPasses || raw.listDiagnostics || raw.listTargets || raw.listBuiltins) return 0;
  return resolve(raw, std::move(commandLine));
}

}  // namespace tilec::cli
