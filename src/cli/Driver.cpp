#include "cli/Driver.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "frontend/Ast.h"
#include "frontend/Frontend.h"
#include "frontend/Imports.h"
#include "interp/Npy.h"
#include "interp/VerifySemantics.h"
#include "ir/IRText.h"
#include "ir/NdShape.h"
#include "passes/PassInstrumentations.h"
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

std::string shellQuote(const std::string& arg) {
  if (!arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789-_./=,:@+%") == std::string::npos)
    return arg;
  std::string quoted = "'";
  for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

Driver* gCrashDriver = nullptr;  // the driver a fatal signal reports on

constexpr const char* kReportHint =
    "  this is a bug in tilec; please report it with the lines above and the files of the reproducer "
    "directory (its command.sh reruns the compilation)\n";

const char* signalDescription(int signal) {
  switch (signal) {
    case SIGSEGV: return "segmentation fault";
    case SIGABRT: return "aborted (a failed assertion?)";
    case SIGFPE: return "arithmetic exception";
    case SIGILL: return "illegal instruction";
    case SIGBUS: return "bus error";
  }
  return "fatal signal";
}

void writeRaw(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n <= 0) return;
    text.remove_prefix(static_cast<size_t>(n));
  }
}

// Async-signal-safe (open, write, close), so a fatal-signal handler may call it.
bool writeRawFile(const char* path, std::string_view text) {
  int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return false;
  writeRaw(fd, text);
  ::close(fd);
  return true;
}

std::string lowerFirst(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
  return s;
}

}  // namespace

Driver::Driver(Options options)
    : opts_(std::move(options)), diags_(sources_), passContext_{diags_, opts_.limits} {
  configureLogging(opts_.logLevel);
  diags_.setStream(&std::cerr);
  diags_.setFormat(opts_.diagnosticsFormat);
  diags_.setWarningsAsErrors(opts_.warningsAsErrors);
  diags_.setColor(opts_.diagnosticsFormat == DiagFormat::Text &&
                  shouldUseColor(opts_.color, ColorEnvironment::current()));

  std::error_code ec;
  std::string command;
  for (const std::string& arg : opts_.commandLine) command += (command.empty() ? "" : " ") + shellQuote(arg);
  reproduceCommand_ = "cd " + shellQuote(std::filesystem::current_path(ec).string()) + " && " + command;
  // Named by process so that a signal handler needs no call that allocates to make it.
  crashDir_ = std::filesystem::temp_directory_path(ec).string() + "/tilec-crash-" + std::to_string(::getpid());
}

int Driver::run() {
  stack_t previous = installFatalSignalHandlers(this);
  if (opts_.timePasses) PhaseTimes::setActive(&phaseTimes_);
  int code;
  try {
    code = compile();
  } catch (const std::exception& e) {
    code = internalError(e.what());
  } catch (...) {
    code = internalError("unknown exception");
  }
  uninstallFatalSignalHandlers(previous);
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
  stage_ = "reading the input";
  if (!readInput()) return failure();
  if (opts_.codec != CodecAction::None) return convert();
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

int Driver::convert() {
  const std::string text(sources_.contents(file_));
  if (opts_.codec == CodecAction::Decode) {
    const std::vector<uint8_t> bytes(text.begin(), text.end());
    for (const target::BinaryCodec* codec : target::allCodecs()) {
      if (!codec->recognizes(bytes)) continue;
      std::string listing, error;
      size_t offset = 0;
      if (codec->decode(bytes, listing, error, offset)) return finish(listing);
      diags_.report(Diag::BadBinary, {},
                    "'" + sources_.name(file_) + "' at byte " + std::to_string(offset) + ": " + error +
                        "; it does not decode as " + codec->summary);
      return failure();
    }
    std::vector<std::string> summaries;
    for (const target::BinaryCodec* codec : target::allCodecs()) summaries.push_back(codec->summary);
    const std::string names = listText(summaries, "or");
    diags_.report(Diag::BadBinary, {},
                  "'" + sources_.name(file_) + "' starts like none of the binaries tilec reads (" + names + ")");
    return failure();
  }
  const size_t first = text.find_first_not_of(" \t\r\n");
  const std::string name = first == std::string::npos ? "" : text.substr(first, text.find_first_of(" \t\r\n", first) - first);
  const target::BinaryCodec* codec = target::findCodec(name);
  std::string error;
  size_t line = 0;
  std::vector<uint8_t> bytes;
  if (!codec) {
    error = "a listing starts with the name of its format, such as 'txn'";
    line = 1;
  } else if (codec->encode(text, bytes, error, line)) {
    return finish(std::string(bytes.begin(), bytes.end()));
  }
  SourceRange at;
  if (line > 0) {
    const uint32_t begin = sources_.offsetOf(file_, uint32_t(line), 0);
    at = {file_, begin, begin + uint32_t(sources_.lineText(file_, uint32_t(line)).size())};
  }
  diags_.report(Diag::BadListing, at, error);
  return failure();
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
  prepareCrashReproducer();
  return true;
}

// command.sh reruns the failing command on the copy of the input beside it (its imports
// inlined once they are read), with the same tilec binary.
void Driver::prepareCrashReproducer() {
  const std::string copy = opts_.input == "-" ? std::string("stdin.tile")
                                               : std::filesystem::path(opts_.input).filename().string();
  crashInputPath_ = crashDir_ + "/" + copy;
  crashInput_ = std::string(sources_.contents(file_));
  std::error_code ec;
  std::string exe = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  std::vector<std::string> args = opts_.commandLine;
  auto input = std::find(args.rbegin(), args.rend() - 1, opts_.input);
  if (input != args.rend() - 1) *input = copy;
  else args.push_back(copy);  // stdin
  std::string tilec = shellQuote(ec || exe.empty() ? args[0] : exe);
  std::string rerun = tilec;
  for (size_t i = 1; i < args.size(); ++i) rerun += " " + shellQuote(args[i]);
  crashRerun_ = tilec + " " + shellQuote(copy) + " --target=" + shellQuote(opts_.target->name);
  if (opts_.inputKind) crashRerun_ += opts_.inputKind == InputKind::Tir ? " --input-kind=tir" : " --input-kind=tile";
  if (!opts_.kernel.empty()) crashRerun_ += " --kernel=" + shellQuote(opts_.kernel);
  for (const std::string& d : opts_.defines) crashRerun_ += " -D " + shellQuote(d);
  crashRerun_ += " --max-ops=" + std::to_string(opts_.limits.maxOps) +
                 " --max-unroll=" + std::to_string(opts_.limits.maxUnroll) +
                 " --max-tensor-rank=" + std::to_string(opts_.limits.maxTensorRank);
  crashCommand_ = "#!/bin/sh\n# tilec failed with an internal error on:\n#   " + reproduceCommand_ +
                  "\n# This reruns it on " + copy + ", the input with every file it imports inlined.\n" +
                  "cd \"$(dirname \"$0\")\" && " + rerun + "\n";
}

void Driver::prepareIrBeforeScripts() {
  std::string passesBefore;
  for (size_t i = 0; i < passManager_->numPasses(); ++i) {
    const Pass* pass = passManager_->pass(i);
    const std::string name = pass->info().arg;
    irBeforeScripts_.push_back(
        {pass, "#!/bin/sh\n# Writes before-" + name + ".tir: the IR that pass '" + name +
                   "' failed on, made by running the passes ahead of it again.\n"
                   "cd \"$(dirname \"$0\")\" && " + crashRerun_ + " --passes=" + passesBefore +
                   " --emit-ir -o before-" + name + ".tir\n"});
    passesBefore += (passesBefore.empty() ? "" : ",") + name;
  }
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
    stage_ = "lexing";
    frontend::dumpTokens(sources_, file_, os);
    return {nullptr, os.str()};
  }
  stage_ = "parsing";
  if (opts_.emit == EmitKind::Ast) {  // the input file's own tree: imports are listed, not read
    std::unique_ptr<ast::Module> ast = frontend::parse(sources_, file_, diags_);
    if (!ast) return {};
    stage_ = "printing the AST";
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
  crashInput_ = frontend::inlineProgram(sources_, *program);
  stage_ = "checking and lowering to IR";
  ScopedPhase phase("lower");
  return {frontend::lower(*program, diags_, *opts_.target->model, opts_.limits, defines, nullptr, opts_.kernel),
          std::nullopt};
}

std::unique_ptr<ir::Module> Driver::buildFromTir() {
  stage_ = "parsing IR";
  ScopedPhase phase("parse-ir");
  std::unique_ptr<ir::Module> module = ir::parseModule(sources_, file_, diags_, *opts_.target->model);
  if (module && opts_.syntaxOnly) {
    stage_ = "verifying IR";
    if (!ir::verifyModule(*module, diags_)) return nullptr;
  }
  return module;
}

void Driver::buildPipeline(PropSet initialProperties) {
  passManager_ = std::make_unique<PassManager>(passContext_, initialProperties, opts_.target->passes);
  for (const std::string& name : opts_.pipeline) passManager_->addPass(opts_.target->passes.create(name));

  // "After" hooks run in reverse: verify-each sees the IR after it was printed, and
  // the timer, added last, measures only the pass itself.
  prepareIrBeforeScripts();
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
  stage_ = "running passes";
  bool ok = passManager_->run(m);
  diags_.flush();
  return ok && !diags_.hasErrors();
}

bool Driver::emit(const ir::Module& m, OutputBuffer& os) {
  ScopedPhase phase("emit");
  if (opts_.emit == EmitKind::Ir) {
    stage_ = "printing IR";
    ir::printModule(m, os);
    return true;
  }
  const target::OutputFormat& format = *opts_.format;
  if (PropSet missing = format.requiredProps & ~passManager_->properties())
    throw InternalError("--emit=" + std::string(format.name) + " requires '" + propNames(missing) +
                        "', which the pipeline did not produce");
  if (opts_.emit == EmitKind::Report) {
    stage_ = "writing the report";
    report::writeReport(
        {m, diags_, opts_.target->name, passLog_->records(), opts_.target->reportSections, opts_.targetFlags}, os);
    return true;
  }
  stage_ = "emitting " + std::string(format.name);
  emitting_ = &m;
  bool ok = format.emit(m, os, diags_, opts_.targetFlags);
  emitting_ = nullptr;
  return ok;
}

namespace {

// The extents of tensor parameter `i` at the size parameters' values (`param(index)`, null
// when not known yet); nullopt when a size is missing or the shape cannot be evaluated.
std::optional<std::vector<int64_t>> dimsAt(const ir::Function& f, unsigned i,
                                           const std::function<const interp::RtValue*(unsigned)>& param) {
  std::vector<int64_t> dims;
  try {
    for (const ir::Expr& d : f.param(i)->type().dims())
      dims.push_back(interp::evaluate(d, [&](const ir::Value* v) -> std::optional<int64_t> {
        const interp::RtValue* x = v->ownerBlock() == &f.body() ? param(v->index()) : nullptr;
        const auto* s = x ? std::get_if<interp::Scalar>(x) : nullptr;
        return s ? std::optional<int64_t>(s->value.i) : std::nullopt;
      }, f.paramLoc(i)));
  } catch (const interp::RunError&) {
    return std::nullopt;
  }
  return dims;
}

}  // namespace

// --run: the kernel's parameters from --arg (or --random-inputs), the run, the --out files.
int Driver::runKernel(const ir::Function& f) {
  stage_ = "running the kernel";
  std::map<unsigned, interp::RtValue> given;
  std::map<std::string, unsigned> byName;
  for (unsigned i = 0; i < f.numParams(); ++i) byName[f.param(i)->name()] = i;
  auto paramNamed = [&](const std::string& name, const char* flag) -> std::optional<unsigned> {
    auto it = byName.find(name);
    if (it != byName.end()) return it->second;
    std::vector<std::string> names;
    for (unsigned i = 0; i < f.numParams(); ++i) names.push_back(f.param(i)->name());
    reportUsageError(std::string(flag) + " names '" + name + "', which is no parameter of kernel '" + f.name() +
                     "' (" + listText(names) + ")");
    return std::nullopt;
  };
  for (const auto& [name, value] : opts_.runArgs) {
    std::optional<unsigned> i = paramNamed(name, "--arg");
    if (!i) return kExitUsage;
    const ir::Type& t = f.param(*i)->type();
    if (t.isTensor()) {
      interp::Tensor x;
      std::string error;
      if (!interp::readNpy(value, t.dtype(), x, error)) {
        diags_.report(Diag::NpyFile, f.paramLoc(*i),
                      "cannot read '" + value + "' for tensor '" + name + "': " + error + "; pass a .npy file");
        return failure();
      }
      given[*i] = x;
      dependencies_.push_back(value);
      continue;
    }
    interp::Num n;
    char* end = nullptr;
    errno = 0;
    if (interp::isFloatType(t.dtype())) n.f = interp::roundFloat(std::strtod(value.c_str(), &end), t.dtype());
    else n.i = std::strtoll(value.c_str(), &end, 10);
    if (errno || !end || *end || value.empty()) {
      reportUsageError("--arg " + name + "=" + value + " is no " + ir::dtypeName(t.dtype()) + " value");
      return kExitUsage;
    }
    given[*i] = interp::Scalar{t.dtype(), n};
  }
  // An output-only tensor nobody gave starts as zeros of its declared shape.
  if (!opts_.randomInputs) {
    auto givenParam = [&](unsigned k) -> const interp::RtValue* {
      auto it = given.find(k);
      return it == given.end() ? nullptr : &it->second;
    };
    for (unsigned i = 0; i < f.numParams(); ++i) {
      const ir::Type& t = f.param(i)->type();
      if (given.count(i) || f.paramDir(i) != ir::ParamDir::Out || !t.isTensor()) continue;
      std::optional<std::vector<int64_t>> dims = dimsAt(f, i, givenParam);
      if (!dims) continue;  // a size is missing: reported below
      interp::Tensor x{std::make_shared<interp::TensorData>(), *dims};
      x.data->dtype = t.dtype();
      int64_t n = interp::cappedCount(x.dims, interp::RunLimits::kMaxTensorElements);
      if (std::any_of(x.dims.begin(), x.dims.end(), [](int64_t d) { return d < 0; }) ||
          n > interp::RunLimits::kMaxTensorElements) {
        diags_.report(Diag::RunFault, f.paramLoc(i),
                      "output tensor '" + f.param(i)->name() + "' would have a negative extent or more than " +
                          std::to_string(interp::RunLimits::kMaxTensorElements) +
                          " elements at these sizes, more than --run allocates; run it at other sizes");
        return failure();
      }
      x.data->elems.assign(size_t(std::max<int64_t>(n, 0)), interp::Num{});
      given[i] = x;
    }
  }
  std::vector<interp::RtValue> args;
  if (given.size() == f.numParams()) {
    for (unsigned i = 0; i < f.numParams(); ++i) args.push_back(given.at(i));
  } else if (opts_.randomInputs) {
    // Sizes not given are chosen so that the kernel runs if it can; where it runs on none
    // (or every size is given), the run below shows the fault where it happens.
    std::string why;
    std::optional<interp::KernelInputs> in = interp::chooseInputs(f, *opts_.randomInputs, why, runLimits(), given);
    size_t freeSizes = 0;
    for (unsigned i = 0; i < f.numParams(); ++i) freeSizes += f.param(i)->type().isIndex() && !given.count(i);
    if (!in) in = interp::makeInputs(f, std::vector<int64_t>(freeSizes, 16), *opts_.randomInputs, why, given);
    if (!in) {
      diags_.report(Diag::RunFault, f.loc(), "--random-inputs cannot fill the parameters of kernel '" + f.name() + "': " + why);
      return failure();
    }
    args = std::move(in->args);
  } else {
    // Name a missing size first: the shapes of the outputs wait for it.
    std::vector<unsigned> order;
    for (bool sizes : {true, false})
      for (unsigned i = 0; i < f.numParams(); ++i)
        if (f.param(i)->type().isIndex() == sizes) order.push_back(i);
    for (unsigned i : order)
      if (!given.count(i)) {
        reportUsageError("--run needs a value for parameter '" + f.param(i)->name() + "' of kernel '" + f.name() +
                         "'; give it with --arg " + f.param(i)->name() + "=..., or use --random-inputs");
        return kExitUsage;
      }
  }
  // A given array must have the tensor's shape at the sizes of this run.
  for (const auto& [i, value] : given) {
    const auto* x = std::get_if<interp::Tensor>(&value);
    if (!x) continue;
    std::optional<std::vector<int64_t>> dims = dimsAt(f, i, [&](unsigned k) { return &args[k]; });
    if (!dims) {
      diags_.report(Diag::RunFault, f.paramLoc(i),
                    "the shape of tensor '" + f.param(i)->name() + "' cannot be evaluated at the sizes of this run "
                    "(a division by zero); give other sizes");
      return failure();
    }
    if (*dims != x->dims) {
      diags_.report(Diag::NpyFile, f.paramLoc(i),
                    "the array given for tensor '" + f.param(i)->name() + "' is " + nd::shapeStr(x->dims) +
                        " but the tensor is " + nd::shapeStr(*dims) + " at the sizes of this run; give an array of that shape");
      return failure();
    }
  }
  try {
    interp::Interpreter(f, runLimits()).run(args);
  } catch (const interp::RunError& e) {
    diags_.report(Diag::RunFault, e.loc(), e.what());
    return failure();
  }
  for (const auto& [name, path] : opts_.runOutputs) {
    std::optional<unsigned> i = paramNamed(name, "--out");
    if (!i) return kExitUsage;
    const auto* x = std::get_if<interp::Tensor>(&args[*i]);
    if (!x) {
      reportUsageError("--out " + name + " names a scalar; --out writes tensors");
      return kExitUsage;
    }
    std::string error;
    if (!writeFileAtomically(path, interp::npyBytes(*x), error)) {
      for (const std::string& done : written_) std::remove(done.c_str());  // all or nothing
      diags_.report(Diag::OutputNotWritable, {}, "cannot write output '" + path + "': " + error +
                                                     "; check that the directory exists and is writable");
      return failure();
    }
    written_.push_back(path);
  }
  diags_.flush();
  return diags_.hasErrors() ? kExitInputError : kExitOk;
}

int Driver::finish(std::string output) {
  OutputBuffer buffer(std::move(output));
  return finish(buffer);
}

int Driver::finish(const OutputBuffer& output) {
  diags_.flush();
  if (diags_.hasErrors()) return kExitInputError;
  if (opts_.syntaxOnly) return kExitOk;
  stage_ = "writing the output";
  ScopedPhase phase("write");
  std::string error;
  if (!writeFileAtomically(opts_.output, [&](int fd) { return output.writeTo(fd); }, error)) {
    diags_.report(Diag::OutputNotWritable, {},
                  "cannot write output '" + opts_.output + "': " + error +
                      (opts_.output == "-" ? "; let the reader take all of it, or write a file with -o FILE"
                                           : "; name a file in a directory that exists and is writable"));
    return failure();
  }
  if (opts_.output != "-") written_.push_back(opts_.output);
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
  written_.push_back(opts_.depfile.path);
  return kExitOk;
}

int Driver::failure() {
  diags_.flush();
  return kExitInputError;
}

std::string Driver::crashStage() const {
  if (passManager_ && passManager_->runningPass())
    return "pass '" + std::string(passManager_->runningPass()->info().arg) + "'";
  return stage_;
}

namespace {

// Runs `sh SCRIPT` and waits for it: fork, execve and waitpid are async-signal-safe.
void runShellScript(const char* script) {
  pid_t child = ::fork();
  if (child == 0) {
    char sh[] = "/bin/sh";
    char* argv[] = {sh, const_cast<char*>(script), nullptr};
    ::execve(sh, argv, environ);
    ::_exit(127);
  }
  int status;
  if (child > 0)
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {}
}

}  // namespace

// The reproducer directory: the input with its imports inlined, command.sh, and the IR
// before the failing pass (ir-before.sh makes it, and is run here) or the IR being
// emitted. Async-signal-safe given prepared strings.
bool Driver::writeCrashReproducer(const Pass* failing, const char* irStem, std::string_view ir) const {
  if (::mkdir(crashDir_.c_str(), 0755) != 0 && errno != EEXIST) return false;
  char path[4096];
  int n = std::snprintf(path, sizeof path, "%s/command.sh", crashDir_.c_str());
  if (n <= 0 || size_t(n) >= sizeof path || !writeRawFile(path, crashCommand_)) return false;
  if (!crashInputPath_.empty()) writeRawFile(crashInputPath_.c_str(), crashInput_);
  for (const auto& [pass, script] : irBeforeScripts_) {
    n = std::snprintf(path, sizeof path, "%s/ir-before.sh", crashDir_.c_str());
    if (pass == failing && !crashInputPath_.empty() && n > 0 && size_t(n) < sizeof path &&
        writeRawFile(path, script))
      runShellScript(path);
  }
  n = std::snprintf(path, sizeof path, "%s/before-%s.tir", crashDir_.c_str(), irStem);
  if (irStem[0] && !ir.empty() && n > 0 && size_t(n) < sizeof path) writeRawFile(path, ir);
  return true;
}

int Driver::internalError(const std::string& what) {
  diags_.flush();
  std::string ir;
  const Pass* failing = passManager_ ? passManager_->runningPass() : nullptr;
  try {
    if (!failing && emitting_) ir = ir::printToString(*emitting_);
  } catch (...) {
    // The IR may be too broken to print; the reproducer still has the input and command.
  }
  const bool reproduced = writeCrashReproducer(failing, ir.empty() ? "" : "emit", ir);
  for (const std::string& path : written_) std::remove(path.c_str());
  std::cerr << "tilec: internal compiler error: " << what << "\n"
            << "  while running: " << crashStage() << "\n"
            << "  tilec version: " << TILEC_VERSION << "\n"
            << "  reproduce with: " << reproduceCommand_ << "\n";
  if (reproduced) std::cerr << "  reproducer: " << crashDir_ << "\n";
  std::cerr << kReportHint;
  return kExitInternalError;
}

stack_t Driver::installFatalSignalHandlers(Driver* driver) {
  gCrashDriver = driver;
  // The handler runs on its own stack, so a stack overflow is reported like any crash.
  static char alternateStack[1 << 16];
  stack_t ss{}, previous{};
  ss.ss_sp = alternateStack;
  ss.ss_size = sizeof alternateStack;
  sigaltstack(&ss, &previous);
  struct sigaction action {};
  action.sa_handler = &Driver::onFatalSignal;
  action.sa_flags = SA_RESETHAND | SA_ONSTACK;  // a second fault inside the handler ends the process
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGSEGV, SIGABRT, SIGFPE, SIGILL, SIGBUS}) sigaction(signal, &action, nullptr);
  return previous;
}

// After the run: the default handlers and the thread's previous alternate stack again (a
// runtime that set its own, like AddressSanitizer's, frees it when the thread ends), and no
// driver for a late signal to report on.
void Driver::uninstallFatalSignalHandlers(const stack_t& previous) {
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGSEGV, SIGABRT, SIGFPE, SIGILL, SIGBUS}) sigaction(signal, &action, nullptr);
  sigaltstack(&previous, nullptr);
  gCrashDriver = nullptr;
}

// Uses only async-signal-safe calls on strings built before the crash. The pass name
// comes from a static PassInfo.
void Driver::onFatalSignal(int signal) {
  const Driver* d = gCrashDriver;
  const int err = STDERR_FILENO;
  writeRaw(err, "tilec: internal compiler error: ");
  writeRaw(err, signalDescription(signal));
  writeRaw(err, "\n  while running: ");
  const Pass* pass = d->passManager_ ? d->passManager_->runningPass() : nullptr;
  if (pass) {
    writeRaw(err, "pass '");
    writeRaw(err, pass->info().arg);
    writeRaw(err, "'");
  } else {
    writeRaw(err, d->stage_);
  }
  writeRaw(err, "\n  tilec version: " TILEC_VERSION "\n  reproduce with: ");
  writeRaw(err, d->reproduceCommand_);
  writeRaw(err, "\n");
  if (d->writeCrashReproducer(pass, "", {})) {
    writeRaw(err, "  reproducer: ");
    writeRaw(err, d->crashDir_);
    writeRaw(err, "\n");
  }
  writeRaw(err, kReportHint);
  for (const std::string& output : d->written_) ::unlink(output.c_str());
  ::_exit(kExitInternalError);
}

}  // namespace tilec::cli
