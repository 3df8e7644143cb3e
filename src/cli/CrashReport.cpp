#include "cli/CrashReport.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "ir/IRText.h"
#include "target/Target.h"

namespace tilec::cli {

namespace {

std::string shellQuote(const std::string& arg) {
  if (!arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789-_./=,:@+%") == std::string::npos)
    return arg;
  std::string quoted = "'";
  for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

const CrashReporter* gReporter = nullptr;  // the reporter a fatal signal reports with

constexpr const char* kReportHint =
    "  this is a bug in tilec; please report it with the lines above and the files of the reproducer "
    "directory (its command.sh reruns the compilation)\n";

constexpr int kFatalSignals[] = {SIGSEGV, SIGABRT, SIGFPE, SIGILL, SIGBUS};

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

CrashReporter::CrashReporter(const Options& opts, const Activity& activity) : opts_(opts), activity_(activity) {
  std::error_code ec;
  std::string command;
  for (const std::string& arg : opts_.commandLine) command += (command.empty() ? "" : " ") + shellQuote(arg);
  reproduceCommand_ = "cd " + shellQuote(std::filesystem::current_path(ec).string()) + " && " + command;
  // Named by process so that a signal handler needs no call that allocates to make it.
  dir_ = std::filesystem::temp_directory_path(ec).string() + "/tilec-crash-" + std::to_string(::getpid());
}

// command.sh reruns the failing command on the copy of the input beside it (its imports
// inlined once they are read), with the same tilec binary.
void CrashReporter::prepareReproducer(std::string_view input) {
  const std::string copy = opts_.input == "-" ? std::string("stdin.tile")
                                               : std::filesystem::path(opts_.input).filename().string();
  inputPath_ = dir_ + "/" + copy;
  input_ = std::string(input);
  std::error_code ec;
  std::string exe = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  std::vector<std::string> args = opts_.commandLine;
  auto in = std::find(args.rbegin(), args.rend() - 1, opts_.input);
  if (in != args.rend() - 1) *in = copy;
  else args.push_back(copy);  // stdin
  std::string tilec = shellQuote(ec || exe.empty() ? args[0] : exe);
  std::string rerun = tilec;
  for (size_t i = 1; i < args.size(); ++i) rerun += " " + shellQuote(args[i]);
  rerun_ = tilec + " " + shellQuote(copy) + " --target=" + shellQuote(opts_.target->name);
  if (opts_.inputKind) rerun_ += opts_.inputKind == InputKind::Tir ? " --input-kind=tir" : " --input-kind=tile";
  if (!opts_.kernel.empty()) rerun_ += " --kernel=" + shellQuote(opts_.kernel);
  for (const std::string& d : opts_.defines) rerun_ += " -D " + shellQuote(d);
  rerun_ += " --max-ops=" + std::to_string(opts_.limits.maxOps) +
            " --max-unroll=" + std::to_string(opts_.limits.maxUnroll) +
            " --max-tensor-rank=" + std::to_string(opts_.limits.maxTensorRank);
  command_ = "#!/bin/sh\n# tilec failed with an internal error on:\n#   " + reproduceCommand_ +
             "\n# This reruns it on " + copy + ", the input with every file it imports inlined.\n" +
             "cd \"$(dirname \"$0\")\" && " + rerun + "\n";
}

void CrashReporter::preparePassScripts(const PassManager& passes) {
  std::string passesBefore;
  for (size_t i = 0; i < passes.numPasses(); ++i) {
    const Pass* pass = passes.pass(i);
    const std::string name = pass->info().arg;
    irBeforeScripts_.push_back(
        {pass, "#!/bin/sh\n# Writes before-" + name + ".tir: the IR that pass '" + name +
                   "' failed on, made by running the passes ahead of it again.\n"
                   "cd \"$(dirname \"$0\")\" && " + rerun_ + " --passes=" + passesBefore +
                   " --emit-ir -o before-" + name + ".tir\n"});
    passesBefore += (passesBefore.empty() ? "" : ",") + name;
  }
}

std::string CrashReporter::stage() const {
  if (activity_.passes && activity_.passes->runningPass())
    return "pass '" + std::string(activity_.passes->runningPass()->info().arg) + "'";
  return activity_.stage;
}

// The reproducer directory: the input with its imports inlined, command.sh, and the IR
// before the failing pass (ir-before.sh makes it, and is run here) or the IR being
// emitted. Async-signal-safe given prepared strings.
bool CrashReporter::writeReproducer(const Pass* failing, const char* irStem, std::string_view ir) const {
  if (::mkdir(dir_.c_str(), 0755) != 0 && errno != EEXIST) return false;
  char path[4096];
  int n = std::snprintf(path, sizeof path, "%s/command.sh", dir_.c_str());
  if (n <= 0 || size_t(n) >= sizeof path || !writeRawFile(path, command_)) return false;
  if (!inputPath_.empty()) writeRawFile(inputPath_.c_str(), input_);
  for (const auto& [pass, script] : irBeforeScripts_) {
    n = std::snprintf(path, sizeof path, "%s/ir-before.sh", dir_.c_str());
    if (pass == failing && !inputPath_.empty() && n > 0 && size_t(n) < sizeof path && writeRawFile(path, script))
      runShellScript(path);
  }
  n = std::snprintf(path, sizeof path, "%s/before-%s.tir", dir_.c_str(), irStem);
  if (irStem[0] && !ir.empty() && n > 0 && size_t(n) < sizeof path) writeRawFile(path, ir);
  return true;
}

int CrashReporter::report(const std::string& what) const {
  std::string ir;
  const Pass* failing = activity_.passes ? activity_.passes->runningPass() : nullptr;
  try {
    if (!failing && activity_.emitting) ir = ir::printToString(*activity_.emitting);
  } catch (...) {
    // The IR may be too broken to print; the reproducer still has the input and command.
  }
  const bool reproduced = writeReproducer(failing, ir.empty() ? "" : "emit", ir);
  for (const std::string& path : activity_.written) std::remove(path.c_str());
  std::cerr << "tilec: internal compiler error: " << what << "\n"
            << "  while running: " << stage() << "\n"
            << "  tilec version: " << TILEC_VERSION << "\n"
            << "  reproduce with: " << reproduceCommand_ << "\n";
  if (reproduced) std::cerr << "  reproducer: " << dir_ << "\n";
  std::cerr << kReportHint;
  return kExitInternalError;
}

CrashReporter::SignalGuard::SignalGuard(const CrashReporter& reporter) {
  gReporter = &reporter;
  // The handler runs on its own stack, so a stack overflow is reported like any crash.
  static char alternateStack[1 << 16];
  stack_t ss{};
  ss.ss_sp = alternateStack;
  ss.ss_size = sizeof alternateStack;
  sigaltstack(&ss, &previous_);
  struct sigaction action {};
  action.sa_handler = &CrashReporter::onFatalSignal;
  action.sa_flags = SA_RESETHAND | SA_ONSTACK;  // a second fault inside the handler ends the process
  sigemptyset(&action.sa_mask);
  for (int signal : kFatalSignals) sigaction(signal, &action, nullptr);
}

CrashReporter::SignalGuard::~SignalGuard() {
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  for (int signal : kFatalSignals) sigaction(signal, &action, nullptr);
  sigaltstack(&previous_, nullptr);
  gReporter = nullptr;
}

// Uses only async-signal-safe calls on strings built before the crash. The pass name
// comes from a static PassInfo.
void CrashReporter::onFatalSignal(int signal) {
  const CrashReporter* r = gReporter;
  const int err = STDERR_FILENO;
  writeRaw(err, "tilec: internal compiler error: ");
  writeRaw(err, signalDescription(signal));
  writeRaw(err, "\n  while running: ");
  const Pass* pass = r->activity_.passes ? r->activity_.passes->runningPass() : nullptr;
  if (pass) {
    writeRaw(err, "pass '");
    writeRaw(err, pass->info().arg);
    writeRaw(err, "'");
  } else {
    writeRaw(err, r->activity_.stage);
  }
  writeRaw(err, "\n  tilec version: " TILEC_VERSION "\n  reproduce with: ");
  writeRaw(err, r->reproduceCommand_);
  writeRaw(err, "\n");
  if (r->writeReproducer(pass, "", {})) {
    writeRaw(err, "  reproducer: ");
    writeRaw(err, r->dir_);
    writeRaw(err, "\n");
  }
  writeRaw(err, kReportHint);
  for (const std::string& output : r->activity_.written) ::unlink(output.c_str());
  ::_exit(kExitInternalError);
}

}  // namespace tilec::cli
