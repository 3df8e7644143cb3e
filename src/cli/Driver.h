// The compiler driver: read the input, build the IR (frontend or .tir parser), run
// the pass pipeline with the requested instrumentation, emit (or run the kernel, or
// convert a binary), and write the output and depfile atomically. Turns every outcome
// into tilec's exit code; internal errors are reported by CrashReport.h.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend/aie/TxnFormat.h"
#include "cli/CrashReport.h"
#include "cli/Options.h"
#include "interp/Interpreter.h"
#include "ir/IR.h"
#include "passes/PassManager.h"
#include "report/Report.h"
#include "support/Diagnostics.h"
#include "support/OutputBuffer.h"
#include "support/PhaseTimes.h"
#include "support/Source.h"

namespace tilec::cli {

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
  bool readInput();
  bool readPerfTrace();  // --perf-trace
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
  int runKernel(const ir::Function& f);  // --run
  interp::RunLimits runLimits() const {
    interp::RunLimits l;
    l.maxTileElements = opts_.limits.maxTileElements;
    l.blockOrderSeed = opts_.shuffleBlocks;
    return l;
  }
  int failure();
  int internalError(const std::string& what);

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
  std::optional<report::Timeline> perfTrace_;  // --perf-trace: the timeline it holds
  std::optional<aie::TxnStream> txnStream_;    // txn-run: the stream --stream holds
  Activity activity_;     // what runs and what was written, for an internal error's report
  CrashReporter crash_;
};

}  // namespace tilec::cli
