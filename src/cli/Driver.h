// The compiler driver: read the input, build the IR (frontend or .tir parser), run
// the pass pipeline with the requested instrumentation, emit, and write the output
// and depfile atomically. Turns every outcome into tilec's exit code.
#pragma once
#include <csignal>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/Options.h"
#include "interp/Interpreter.h"
#include "ir/IR.h"
#include "passes/PassManager.h"
#include "report/Report.h"
#include "support/Diagnostics.h"
#include "support/OutputBuffer.h"
#include "support/PhaseTimes.h"
#include "support/Source.h"

namespace tilec {
}

namespace tilec::cli {

enum ExitCode : int { kExitOk = 0, kExitInputError = 1, kExitUsage = 2, kExitInternalError = 4 };

class Driver {
 public:
  explicit Driver(Options options);
  // Compiles; internal errors (any exception) are reported here and give kExitInternalError.
  int run();
  // For a process that ends after run(): lets go of the IR without freeing it. Freeing a
  // million-op IR op by op takes seconds and gives memory back to nobody (clang's
  // -disable-free does the same).
  void abandonIr() { (void)module_.release(); }

 private:
  int compile();
  int convert();  // --decode, --encode
  bool readInput();
  bool writesElsewhere();
  bool selectKernel(ir::Module& m);
  bool kernelNamed(const std::vector<std::string>& names);
  std::optional<InputKind> resolveInputKind();
  // The frontend's product: IR to compile, or (--emit=ast/tokens) the text to write.
  struct FrontendResult {
    std::unique_ptr<ir::Module> module;
    std::optional<std::string> text;
  };
  FrontendResult buildFromTile();
  std::unique_ptr<ir::Module> buildFromTir();
  void buildPipeline(PropSet initialProperties);  // passes and instrumentation from the options
  bool runPipeline(ir::Module& m);
  bool emit(const ir::Module& m, OutputBuffer& out);  // false after reported errors
  int finish(const OutputBuffer& output);
  int finish(std::string output);
  int runKernel(const ir::Function& f);
  interp::RunLimits runLimits() const {
    interp::RunLimits l;
    l.maxTileElements = opts_.limits.maxTileElements;
    return l;
  }
  int failure();
  int internalError(const std::string& what);
  void prepareCrashReproducer();
  void prepareIrBeforeScripts();
  bool writeCrashReproducer(const Pass* failing, const char* irStem, std::string_view ir) const;
  std::string crashStage() const;
  // Fatal signals (a failed assertion, a segfault) get the internal-error report too;
  // the handler only writes data prepared in advance (async-signal-safe calls).
  static stack_t installFatalSignalHandlers(Driver* driver);  // returns the previous alternate stack
  static void uninstallFatalSignalHandlers(const stack_t& previous);
  static void onFatalSignal(int signal);

  Options opts_;
  SourceManager sources_;
  DiagnosticEngine diags_;
  FileId file_ = kNoFile;
  std::vector<std::string> dependencies_;  // the input, then its imports
  PassContext passContext_;
  std::unique_ptr<PassManager> passManager_;
  std::unique_ptr<ir::Module> module_;  // what compile() builds and compiles
  PhaseTimes phaseTimes_;  // --time-passes
  const report::PassLog* passLog_ = nullptr;  // --emit=report: what each pass did
  const ir::Module* emitting_ = nullptr;  // set while the backend runs, for the reproducer
  std::string stage_ = "startup";         // what was running, for internal error reports
  std::string reproduceCommand_;          // "cd DIR && tilec ARGS", shell-quoted
  std::string crashDir_;                  // where a crash reproducer goes ($TMPDIR/tilec-crash-PID)
  std::string crashCommand_;              // its command.sh
  std::string crashRerun_;                // tilec on the copy, with the flags that shape the IR
  // For each pass: ir-before.sh, which writes the IR from before that pass by running the
  // passes ahead of it again. Made in advance for the signal handler; run only on a crash,
  // so a compilation that succeeds never prints its IR.
  std::vector<std::pair<const Pass*, std::string>> irBeforeScripts_;
  std::string crashInputPath_;            // its copy of the input, and the text: the input
  std::string crashInput_;                //   with its imports inlined, once they are read
  std::vector<std::string> written_;      // outputs written so far, removed again on a crash
};

}  // namespace tilec::cli
