#include "cli/Driver.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <sstream>

#include "cli/Codecs.h"
#include "cli/TxnRun.h"
#include "frontend/Ast.h"
#include "frontend/Frontend.h"
#include "frontend/Imports.h"
#include "interp/RunKernel.h"
#include "interp/VerifySemantics.h"
#include "ir/IRText.h"
#include "passes/PassInstrumentations.h"
#include "report/PerfTrace.h"
#include "support/AtomicFile.h"
#include "support/DepFile.h"
#include "support/Wording.h"
#include "target/Registry.h"

namespace tilec::cli {

namespace {

void configureLogging(const std::string& level) {
  spdlog::drop("tilec");  // a second Driver in one process (the tests) makes its own
  auto logger = spdlog::stderr_logger_st("tilec");
  logger->set_pattern("tilec: [%l] %v");  // no timestamps: stderr stays comparable across runs
  logger->set_level(spdlog::level::from_str(level));
  spdlog::set_default_logger(logger);
}

class LoggingInstrumentation final : public PassInstrumentation {
 public:
  void runBeforePass(const Pass& pass, const ir::Module& m) override {
    spdlog::debug("running pass '{}'", pass.info().arg);
  }
  void runAfterPassFailed(const Pass& pass, const ir::Module& m) override {
    spdlog::debug("pass '{}' reported errors; stopping", pass.info().arg);
  }
};

std::string lowerFirst(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
  return s;
}

}  // namespace

Driver::Driver(Options options)
    : opts_(std::move(options)), diags_(sources_), passContext_{diags_, opts_.limits}, crash_(opts_, activity_) {
  configureLogging(opts_.logLevel);
  diags_.setStream(&std::cerr);
  diags_.setFormat(opts_.diagnosticsFormat);
  diags_.setWarningPolicy(opts_.warnings);
  diags_.setErrorLimit(opts_.errorLimit);
  diags_.setFixItLines(opts_.fixItLines);
  diags_.setParseableFixIts(opts_.parseableFixIts);
  diags_.setColor(opts_.diagnosticsFormat == DiagFormat::Text &&
                  shouldUseColor(opts_.color, ColorEnvironment::current()));
}

int Driver::run() {
  int code;
  {
    CrashReporter::SignalGuard guard(crash_);
    if (opts_.timePasses) PhaseTimes::setActive(&phaseTimes_);
    try {
      code = compile();
    } catch (const std::exception& e) {
      code = internalError(e.what());
    } catch (...) {
      code = internalError("unknown exception");
    }
  }
  if (opts_.timePasses) {
    PhaseTimes::setActive(nullptr);
    phaseTimes_.print(std::cerr, "tilec compile timing (wall clock)");
  }
  diags_.finishRun(code);  // every way out of compile() passes here: the SARIF log is written once
  return code;
}

int Driver::compile() {
  const DepFileOptions& dep = opts_.depfile;
  if (!dep.requested && (!dep.targets.empty() || !dep.quoted.empty() || dep.phonyTargets))
    diags_.report(Diag::DepOptionUnused, {},
                  "-MT, -MQ and -MP have no effect without a depfile; add -MD or -MF FILE");
  activity_.stage = "reading the input";
  if (!readInput()) return failure();
  if (!opts_.perfTrace.empty() && !readPerfTrace()) return failure();
  if (!opts_.txnStream.empty() && !(txnStream_ = readStreamFile(opts_.txnStream, sources_, diags_))) return failure();
  if (opts_.codec != CodecAction::None) {
    std::optional<std::string> converted = convertBinary(opts_.codec, sources_, file_, diags_);
    return converted ? finish(std::move(*converted)) : failure();
  }
  std::optional<InputKind> kind = resolveInputKind();
  if (!kind) return failure();
  spdlog::info("compiling '{}' as .{} for {}", sources_.name(file_),
               *kind == InputKind::Tile ? "tile" : "tir", opts_.target->name);

  if (*kind == InputKind::Tile) {
    FrontendResult built = buildFromTile();
    if (built.text) return finish(*built.text);
    module_ = std::move(built.module);
  } else {
    if (opts_.emit == EmitKind::Ast || opts_.emit == EmitKind::Tokens)
      return reportUsageError("--emit=ast and --emit=tokens need .tile input");
    module_ = buildFromTir();
  }
  if (!module_ || diags_.hasErrors()) return failure();
  if (!selectKernel(*module_)) return failure();
  if (opts_.blocks > 0)
    for (auto& f : module_->functions()) f->setBlocks(opts_.blocks), f->setSubblocks(opts_.subblocks);
  if (opts_.syntaxOnly) return finish("");

  PropSet initialProperties = *kind == InputKind::Tile ? PropSSA : 0;
  buildPipeline(initialProperties);
  // A pipeline chosen with --passes may not fit together: a usage error, found before
  // anything runs.
  bool toFormat = (opts_.emit == EmitKind::TargetFormat || opts_.emit == EmitKind::Report) && !opts_.run;
  std::string problem = passManager_->pipelineProblem(
      toFormat ? opts_.format->requiredProps : 0u,
      !toFormat ? std::string() : "--emit=" + std::string(opts_.emit == EmitKind::Report ? "report" : opts_.format->name));
  if (!problem.empty()) return reportUsageError("--passes: " + problem);
  if (!runPipeline(*module_)) return failure();
  if (opts_.run) {
    if (module_->functions().empty()) {
      diags_.report(Diag::NoKernel, {}, "'" + sources_.name(file_) + "' defines no kernel to run");
      return failure();
    }
    return runKernel(*module_->functions().front());
  }
  OutputBuffer output;
  if (!emit(*module_, output)) return failure();
  return finish(output);
}

namespace {

std::vector<std::string> kernelNames(const ir::Module& m) {
  std::vector<std::string> names;
  for (const auto& f : m.functions()) names.push_back(f->name());
  return names;
}

std::vector<std::string> kernelNames(const ast::Module& m) {
  std::vector<std::string> names;
  for (const ast::TopDecl& d : m.decls)
    if (const auto* k = std::get_if<std::unique_ptr<ast::Kernel>>(&d)) names.push_back((*k)->name);
  return names;
}

// The first names quoted, then how many more (a file may define thousands of kernels).
std::string kernelList(const std::vector<std::string>& names) {
  std::vector<std::string> quoted;
  for (size_t i = 0; i < names.size() && i < kListedItems; ++i) quoted.push_back("'" + names[i] + "'");
  return listText(quoted, "and", names.size());
}

}  // namespace

// Whether the kernel --kernel asks for is one of `names` (E0004 otherwise).
bool Driver::kernelNamed(const std::vector<std::string>& names) {
  if (std::find(names.begin(), names.end(), opts_.kernel) != names.end()) return true;
  diags_.report(Diag::NoKernel, {},
                "'" + sources_.name(file_) + "' defines no kernel named '" + opts_.kernel + "'; it defines " +
                    kernelList(names));
  return false;
}

// --kernel keeps one function. Without it, PTO output of a file with several kernels is
// an error: PTOAS takes one entry kernel per module.
bool Driver::selectKernel(ir::Module& m) {
  auto& fns = m.functions();
  if (opts_.kernel.empty()) {
    bool oneKernel = opts_.run || (opts_.emit == EmitKind::TargetFormat && opts_.format->oneKernel);
    if (!oneKernel || opts_.syntaxOnly || fns.size() <= 1) return true;
    std::string what = opts_.run ? std::string("--run runs one") : std::string("a ") + opts_.format->extension + " file holds one";
    // At the second kernel, where the file stops fitting in one output.
    diags_.report(Diag::SeveralKernels, fns[1]->loc(),
                  "'" + sources_.name(file_) + "' defines " + std::to_string(fns.size()) + " kernels (" +
                      kernelList(kernelNames(m)) + ") but " + what + "; choose it with --kernel=NAME")
        .notes.push_back({"the first kernel, '" + fns[0]->name() + "', is defined here", fns[0]->loc()});
    return false;
  }
  if (!kernelNamed(kernelNames(m))) return false;
  auto keep = std::find_if(fns.begin(), fns.end(), [&](const auto& f) { return f->name() == opts_.kernel; });
  std::unique_ptr<ir::Function> kept = std::move(*keep);
  fns.clear();
  fns.push_back(std::move(kept));
  return true;
}

// The output and the depfile must not be the input itself: a typo in a build rule
// (-o k.tile) would replace the kernel's source with PTO text.
bool Driver::writesElsewhere() {
  std::error_code ec;
  for (const std::string* out : {&opts_.output, &opts_.depfile.path}) {
    if (out->empty() || *out == "-" || opts_.syntaxOnly) continue;
    if (!std::filesystem::equivalent(*out, opts_.input, ec)) continue;
    diags_.report(Diag::OutputNotWritable, {},
                  "cannot write " + std::string(out == &opts_.output ? "output" : "depfile") + " '" + *out +
                      "': it is the input file; name another file");
    return false;
  }
  return true;
}

bool Driver::readInput() {
  ScopedPhase phase("read");
  std::string text;
  if (opts_.input == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::error_code ec;
    if (std::filesystem::is_directory(opts_.input, ec)) {
      diags_.report(Diag::InputNotFound, {},
                    "cannot read input '" + opts_.input + "': it is a directory; pass a .tile or .tir file");
      return false;
    }
    std::ifstream in(opts_.input, std::ios::binary);
    if (!in) {
      diags_.report(Diag::InputNotFound, {},
                    "cannot read input '" + opts_.input + "': " + lowerFirst(std::strerror(errno)) +
                        "; check the path");
      return false;
    }
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    dependencies_.push_back(opts_.input);
    if (!writesElsewhere()) return false;
  }
  file_ = sources_.addBuffer(opts_.input, std::move(text));
  crash_.prepareReproducer(sources_.contents(file_));
  return true;
}

// Read before the compile, so that a malformed trace costs no pipeline run. The trace joins
// the sources only when it is malformed, for its diagnostic: the report lists every source.
bool Driver::readPerfTrace() {
  const std::string& path = opts_.perfTrace;
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  if (std::filesystem::is_directory(path, ec) || !in) {
    diags_.report(Diag::InputNotFound, {},
                  "cannot read --perf-trace file '" + path + "': " +
                      (in ? std::string("it is a directory") : lowerFirst(std::strerror(errno))) +
                      "; name the JSON trace Perf-Sim wrote");
    return false;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  report::PerfTraceError error;
  perfTrace_ = report::readPerfTrace(text, error);
  if (perfTrace_) {
    dependencies_.push_back(path);
    return true;
  }
  const uint32_t at = uint32_t(std::min(error.offset, text.size()));
  const bool atByte = at < text.size();
  const FileId file = sources_.addBuffer(path, std::move(text));
  diags_.report(Diag::BadPerfTrace, {file, at, at + (atByte ? 1u : 0u)},
                "malformed Perf-Sim trace: " + error.message +
                    "; give the JSON trace Perf-Sim writes (perf_sim_output/<name>.json), an array of events");
  return false;
}

std::optional<InputKind> Driver::resolveInputKind() {
  if (opts_.inputKind) return opts_.inputKind;
  if (opts_.input == "-") return InputKind::Tile;
  std::string ext = std::filesystem::path(opts_.input).extension().string();
  if (ext == ".tile") return InputKind::Tile;
  if (ext == ".tir") return InputKind::Tir;
  diags_.report(Diag::UnknownInputKind, {},
                "input '" + opts_.input + "' is neither a .tile nor a .tir file; rename it or pass "
                "--input-kind=tile or --input-kind=tir");
  return std::nullopt;
}

Driver::FrontendResult Driver::buildFromTile() {
  std::ostringstream os;
  if (opts_.emit == EmitKind::Tokens) {
    activity_.stage = "lexing";
    frontend::dumpTokens(sources_, file_, os);
    return {nullptr, os.str()};
  }
  activity_.stage = "parsing";
  if (opts_.emit == EmitKind::Ast) {  // the input file's own tree: imports are listed, not read
    std::unique_ptr<ast::Module> ast = frontend::parse(sources_, file_, diags_);
    if (!ast) return {};
    activity_.stage = "printing the AST";
    frontend::printAst(*ast, sources_, os);
    return {nullptr, os.str()};
  }
  frontend::Defines defines;
  std::vector<std::unique_ptr<ast::Module>> defineDecls = frontend::parseDefines(sources_, opts_.defines, diags_, defines);
  std::vector<std::string> imported;
  std::unique_ptr<ast::Module> program =
      frontend::parseProgram(sources_, file_, diags_, frontend::ImportOptions{opts_.includeDirs, {}}, &imported);
  dependencies_.insert(dependencies_.end(), imported.begin(), imported.end());
  if (!program || diags_.hasErrors()) return {};
  // --kernel: the other kernels are not checked, so their errors do not stop this one.
  if (!opts_.kernel.empty() && !kernelNamed(kernelNames(*program))) return {};
  crash_.setInlinedInput(frontend::inlineProgram(sources_, *program));
  activity_.stage = "checking and lowering to IR";
  ScopedPhase phase("lower");
  return {frontend::lower(*program, diags_, *opts_.target->model, opts_.limits, defines, nullptr, opts_.kernel),
          std::nullopt};
}

std::unique_ptr<ir::Module> Driver::buildFromTir() {
  activity_.stage = "parsing IR";
  ScopedPhase phase("parse-ir");
  std::unique_ptr<ir::Module> module = ir::parseModule(sources_, file_, diags_, *opts_.target->model);
  if (module && opts_.syntaxOnly) {
    activity_.stage = "verifying IR";
    if (!ir::verifyModule(*module, diags_)) return nullptr;
  }
  return module;
}

void Driver::buildPipeline(PropSet initialProperties) {
  passManager_ = std::make_unique<PassManager>(passContext_, initialProperties, opts_.target->passes);
  passManager_->addPasses(opts_.pipeline);

  activity_.passes = passManager_.get();
  crash_.preparePassScripts(*passManager_);

  // "After" hooks run in reverse: verify-each sees the IR after it was printed, and
  // the timer, added last, measures only the pass itself.
  if (!opts_.debugCrashIn.empty())
    passManager_->addInstrumentation(
        std::make_unique<CrashInjectorInstrumentation>(opts_.debugCrashIn, opts_.debugCrashSignal));
  if (opts_.verifyEach) passManager_->addInstrumentation(std::make_unique<VerifyEachInstrumentation>(diags_));
  if (opts_.verifyRoundTrip) passManager_->addInstrumentation(std::make_unique<RoundTripInstrumentation>());
  if (opts_.verifySemantics)
    passManager_->addInstrumentation(std::make_unique<interp::SemanticsInstrumentation>(*opts_.verifySemantics, diags_, runLimits()));
  // Added after the semantics check, so its "after" hook breaks the IR before that check runs.
  if (!opts_.debugMutation.empty())
    passManager_->addInstrumentation(
        std::make_unique<MutationInstrumentation>(opts_.debugMutatePass, opts_.debugMutation));
  if (!opts_.printIrBefore.empty() || !opts_.printIrAfter.empty() || opts_.printIrAfterAll)
    passManager_->addInstrumentation(std::make_unique<IRPrinterInstrumentation>(
        std::set<std::string>(opts_.printIrBefore.begin(), opts_.printIrBefore.end()),
        std::set<std::string>(opts_.printIrAfter.begin(), opts_.printIrAfter.end()),
        opts_.printIrAfterAll, std::cerr));
  if (!opts_.printIrTreeDir.empty())
    passManager_->addInstrumentation(std::make_unique<IRTreeDirInstrumentation>(opts_.printIrTreeDir, diags_));
  passManager_->addInstrumentation(std::make_unique<LoggingInstrumentation>());
  if (opts_.timePasses) passManager_->addInstrumentation(std::make_unique<TimingInstrumentation>(phaseTimes_));
  if (opts_.emit == EmitKind::Report) {
    auto log = std::make_unique<report::PassLog>(opts_.timePasses);
    passLog_ = log.get();
    passManager_->addInstrumentation(std::move(log));
  }
}

bool Driver::runPipeline(ir::Module& m) {
  activity_.stage = "running passes";
  bool ok = passManager_->run(m);
  diags_.flush();
  return ok && !diags_.hasErrors();
}

bool Driver::emit(const ir::Module& m, OutputBuffer& os) {
  ScopedPhase phase("emit");
  if (opts_.emit == EmitKind::Ir) {
    activity_.stage = "printing IR";
    ir::printModule(m, os);
    return true;
  }
  const target::OutputFormat& format = *opts_.format;
  if (PropSet missing = format.requiredProps & ~passManager_->properties())
    throw InternalError("--emit=" + std::string(format.name) + " requires '" + propNames(missing) +
                        "', which the pipeline did not produce");
  if (opts_.emit == EmitKind::Report) {
    activity_.stage = "writing the report";
    report::writeReport(
        {m, diags_, opts_.target->name, passLog_->records(), opts_.target->reportSections, opts_.targetFlags,
         perfTrace_ ? &*perfTrace_ : nullptr},
        os);
    return true;
  }
  activity_.stage = "emitting " + std::string(format.name);
  activity_.emitting = &m;
  bool ok = format.emit(m, os, diags_, opts_.targetFlags);
  activity_.emitting = nullptr;
  return ok;
}

// --run: the kernel on the interpreter, with the parameters and outputs the flags name;
// txn-run: the stream on the executor in its place.
int Driver::runKernel(const ir::Function& f) {
  activity_.stage = txnStream_ ? "running the TXN stream" : "running the kernel";
  interp::RunRequest request{opts_.runArgs, opts_.runOutputs, opts_.randomInputs, runLimits(), {}};
  if (txnStream_) {
    if (!streamFitsTarget(*txnStream_, opts_.txnStream, module_->target(), diags_)) return failure();
    request.execute = [&](std::vector<interp::RtValue>& args, DiagnosticEngine& diags) {
      return runStream(*txnStream_, opts_.txnStream, f, args, diags);
    };
  }
  const interp::RunOutcome outcome = interp::runKernel(f, request, diags_, activity_.written);
  if (outcome.kind == interp::RunOutcome::Kind::Usage) return reportUsageError(outcome.usage);
  diags_.flush();
  return outcome.kind == interp::RunOutcome::Kind::Failed || diags_.hasErrors() ? kExitInputError : kExitOk;
}

int Driver::finish(std::string output) {
  OutputBuffer buffer(std::move(output));
  return finish(buffer);
}

int Driver::finish(const OutputBuffer& output) {
  diags_.flush();
  if (diags_.hasErrors()) return kExitInputError;
  if (opts_.syntaxOnly) return kExitOk;
  activity_.stage = "writing the output";
  ScopedPhase phase("write");
  std::string error;
  if (!writeFileAtomically(opts_.output, [&](int fd) { return output.writeTo(fd); }, error)) {
    diags_.report(Diag::OutputNotWritable, {},
                  "cannot write output '" + opts_.output + "': " + error +
                      (opts_.output == "-" ? "; let the reader take all of it, or write a file with -o FILE"
                                           : "; name a file in a directory that exists and is writable"));
    return failure();
  }
  if (opts_.output != "-") activity_.written.push_back(opts_.output);
  spdlog::debug("wrote {} bytes to '{}'", output.size(), opts_.output);
  if (!opts_.depfile.enabled) return kExitOk;

  DepFileContents dep;
  dep.targets = opts_.depfile.targets;
  for (const std::string& quoted : opts_.depfile.quoted) dep.targets.push_back(escapeDepPath(quoted));
  if (dep.targets.empty()) dep.targets.push_back(escapeDepPath(opts_.output));
  dep.deps = dependencies_;
  dep.phonyTargets = opts_.depfile.phonyTargets;
  if (!writeFileAtomically(opts_.depfile.path, renderDepFile(dep), error)) {
    if (opts_.output != "-") std::filesystem::remove(opts_.output);  // all or nothing
    diags_.report(Diag::OutputNotWritable, {},
                  "cannot write depfile '" + opts_.depfile.path + "': " + error +
                      "; check that the directory exists and is writable");
    return failure();
  }
  activity_.written.push_back(opts_.depfile.path);
  return kExitOk;
}

int Driver::failure() {
  diags_.flush();
  return kExitInputError;
}

int Driver::internalError(const std::string& what) {
  diags_.flush();
  return crash_.report(what);
}

}  // namespace tilec::cli
