// What tilec prints when it fails itself (docs/cli.md, "Exit codes"): the error, what was
// running, the version, a command that reproduces it and a reproducer directory (the input
// with its imports inlined, command.sh, the IR before the failing pass or the IR being
// emitted). Fatal signals get the same report from an alternate stack; the handler only
// writes data prepared in advance, with async-signal-safe calls.
#pragma once
#include <csignal>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/Options.h"
#include "ir/IR.h"
#include "passes/PassManager.h"

namespace tilec::cli {

// What the compiler is doing, kept up to date by the driver for a report.
struct Activity {
  std::string stage = "startup";         // what runs when no pass does: "parsing", "writing the output"
  const PassManager* passes = nullptr;   // the pipeline once it is built; its running pass is reported
  const ir::Module* emitting = nullptr;  // the IR a backend is writing, while it does
  std::vector<std::string> written;      // outputs written so far, removed again on a crash
};

class CrashReporter {
 public:
  CrashReporter(const Options& opts, const Activity& activity);

  // command.sh and the copy of the input (`input`, the text read), once the input is read.
  void prepareReproducer(std::string_view input);
  // The copy becomes the input with every file it imports inlined, once they are read.
  void setInlinedInput(std::string text) { input_ = std::move(text); }
  // For each pass: ir-before.sh, which writes the IR from before that pass by running the
  // passes ahead of it again. Run only on a crash, so a compilation that succeeds never
  // prints its IR.
  void preparePassScripts(const PassManager& passes);

  // Reports `what` on standard error, writes the reproducer and removes the outputs
  // written so far; returns the internal-error exit code.
  int report(const std::string& what) const;

  // Fatal signals (a failed assertion, a segfault) are reported while a guard lives; then
  // the default handlers and the thread's previous alternate stack are back (a runtime
  // that set its own, like AddressSanitizer's, frees it when the thread ends).
  class SignalGuard {
   public:
    explicit SignalGuard(const CrashReporter& reporter);
    ~SignalGuard();
    SignalGuard(const SignalGuard&) = delete;
    SignalGuard& operator=(const SignalGuard&) = delete;

   private:
    stack_t previous_{};
  };

 private:
  std::string stage() const;
  bool writeReproducer(const Pass* failing, const char* irStem, std::string_view ir) const;
  static void onFatalSignal(int signal);

  const Options& opts_;
  const Activity& activity_;
  std::string reproduceCommand_;  // "cd DIR && tilec ARGS", shell-quoted
  std::string dir_;               // where the reproducer goes ($TMPDIR/tilec-crash-PID)
  std::string command_;           // its command.sh
  std::string rerun_;             // tilec on the copy, with the flags that shape the IR
  std::vector<std::pair<const Pass*, std::string>> irBeforeScripts_;
  std::string inputPath_;  // the copy of the input, and its text: the input with its
  std::string input_;      //   imports inlined, once they are read
};

}  // namespace tilec::cli
