// The PassManager's built-in instrumentations: IR printing (--print-ir-before/after),
// per-pass IR files (--print-ir-tree-dir), --verify-each, --time-passes, and the hidden
// --debug-crash-in fault injector.
#pragma once
#include <chrono>
#include <iosfwd>
#include <set>
#include <string>
#include <vector>

#include "passes/PassManager.h"
#include "support/PhaseTimes.h"

namespace tilec {

// Prints the module to `os` under `// -----// IR Dump {Before|After} <pass> //----- //`.
class IRPrinterInstrumentation final : public PassInstrumentation {
 public:
  IRPrinterInstrumentation(std::set<std::string> before, std::set<std::string> after,
                           bool afterAll, std::ostream& os);
  void runBeforePass(const Pass& pass, const ir::Module& m) override;
  void runAfterPass(const Pass& pass, const ir::Module& m) override;

 private:
  void dump(const char* when, const Pass& pass, const ir::Module& m);
  std::set<std::string> before_, after_;
  bool afterAll_;
  std::ostream& os_;
};

// Writes DIR/00_input.tir before the pipeline and DIR/NN_<pass>.tir after each pass.
// The first write failure is reported as E0002; later files are not attempted.
class IRTreeDirInstrumentation final : public PassInstrumentation {
 public:
  IRTreeDirInstrumentation(std::string dir, DiagnosticEngine& diags);
  void runBeforePipeline(const ir::Module& m) override;
  void runAfterPass(const Pass& pass, const ir::Module& m) override;

 private:
  void write(const std::string& stem, const ir::Module& m);
  std::string dir_;
  DiagnosticEngine& diags_;
  unsigned index_ = 0;
  bool failed_ = false;
};

// Runs the IR verifier after every pass; invalid IR out of a pass is a compiler bug.
class VerifyEachInstrumentation final : public PassInstrumentation {
 public:
  explicit VerifyEachInstrumentation(DiagnosticEngine& diags) : diags_(diags) {}
  void runAfterPass(const Pass& pass, const ir::Module& m) override;

 private:
  DiagnosticEngine& diags_;
};

// Prints the IR, parses the text back and prints again before the pipeline and after
// every pass; any difference is a printer/parser bug (internal error). The test suite
// turns this on for every run (TILEC_VERIFY_ROUNDTRIP=1), so every IR text it produces
// round-trips.
class RoundTripInstrumentation final : public PassInstrumentation {
 public:
  void runBeforePipeline(const ir::Module& m) override { check("the input", m); }
  void runAfterPass(const Pass& pass, const ir::Module& m) override;

 private:
  void check(const std::string& after, const ir::Module& m);
};

// Wall time per pass, as rows of a PhaseTimes table (--time-passes prints it).
class TimingInstrumentation final : public PassInstrumentation {
 public:
  explicit TimingInstrumentation(PhaseTimes& times) : times_(times) {}
  void runBeforePass(const Pass& pass, const ir::Module& m) override;
  void runAfterPass(const Pass& pass, const ir::Module& m) override { stop(pass); }
  void runAfterPassFailed(const Pass& pass, const ir::Module& m) override { stop(pass); }

 private:
  using Clock = std::chrono::steady_clock;
  void stop(const Pass& pass);
  Clock::time_point start_;
  PhaseTimes& times_;
};

// Throws an InternalError when the named pass starts, or with `signal` raises SIGSEGV
// (tests the two crash paths, exit 4).
class CrashInjectorInstrumentation final : public PassInstrumentation {
 public:
  CrashInjectorInstrumentation(std::string passArg, bool signal)
      : passArg_(std::move(passArg)), signal_(signal) {}
  void runBeforePass(const Pass& pass, const ir::Module& m) override;

 private:
  std::string passArg_;
  bool signal_;
};

// Test hook: after the named pass, corrupts the IR the way a broken rewrite would, so
// that tests can show --verify-semantics names that pass. Mutations: store-offset (the
// first store writes one row further), store-window (the first store's window has its
// leading extents reversed), assemble-order (the first two assembles trade offsets),
// swap-operands (the first op with two tile operands of one type takes them swapped).
class MutationInstrumentation final : public PassInstrumentation {
 public:
  static bool known(const std::string& mutation);
  MutationInstrumentation(std::string passArg, std::string mutation)
      : passArg_(std::move(passArg)), mutation_(std::move(mutation)) {}
  void runAfterPass(const Pass& pass, const ir::Module& m) override;

 private:
  std::string passArg_, mutation_;
};

}  // namespace tilec
