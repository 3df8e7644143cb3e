#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "ir/IRText.h"
#include "passes/PassInstrumentations.h"
#include "passes/PassManager.h"
#include "backend/pto/PtoTargets.h"

using namespace tilec;

namespace {

using Log = std::vector<std::string>;

// A pass that only records that it ran and returns what it is told to.
class FakePass final : public Pass {
 public:
  FakePass(const char* arg, PropSet required, PropSet produced, PropSet invalidated, Log& log)
      : info_{arg, "fake pass for tests", required, produced, invalidated}, log_(log) {}
  FakePass& failing() { result_ = false; return *this; }
  FakePass& reportingError() { reportError_ = true; return *this; }
  FakePass& throwing() { throw_ = true; return *this; }

  const PassInfo& info() const override { return info_; }
  bool run(ir::Module& m, PassContext& ctx) override {
    log_.push_back(std::string("run ") + info_.arg);
    if (throw_) throw std::runtime_error("boom");
    if (reportError_) ctx.diags.report(Diag::IRVerify, {}, "reported by a pass");
    return result_;
  }

 private:
  PassInfo info_;
  Log& log_;
  bool result_ = true, reportError_ = false, throw_ = false;
};

class RecordingInstrumentation final : public PassInstrumentation {
 public:
  RecordingInstrumentation(std::string name, Log& log) : name_(std::move(name)), log_(log) {}
  void runBeforePipeline(const ir::Module&) override { log_.push_back(name_ + " begin"); }
  void runBeforePass(const Pass& p, const ir::Module&) override { log_.push_back(name_ + " before " + p.info().arg); }
  void runAfterPass(const Pass& p, const ir::Module&) override { log_.push_back(name_ + " after " + p.info().arg); }
  void runAfterPassFailed(const Pass& p, const ir::Module&) override { log_.push_back(name_ + " failed " + p.info().arg); }
  void runAfterPipeline(const ir::Module&) override { log_.push_back(name_ + " end"); }

 private:
  std::string name_;
  Log& log_;
};

struct Fixture {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  PassContext ctx{diags};
  ir::Module module;
  Log log;

  std::unique_ptr<FakePass> pass(const char* arg, PropSet req = 0, PropSet prod = 0, PropSet inval = 0) {
    return std::make_unique<FakePass>(arg, req, prod, inval, log);
  }
};

}  // namespace

TEST_CASE("pass manager: runs passes in order and tracks properties") {
  Fixture f;
  PassManager pm(f.ctx, PropSSA, targetNeutralPasses());
  pm.addPass(f.pass("a", PropSSA, pto::PropMemSpacesInferred));
  pm.addPass(f.pass("b", pto::PropMemSpacesInferred, pto::PropBuffersAssigned, PropSSA));
  CHECK(pm.run(f.module));
  CHECK(f.log == Log{"run a", "run b"});
  CHECK(pm.properties() == (pto::PropMemSpacesInferred | pto::PropBuffersAssigned));
  CHECK(pm.runningPass() == nullptr);
}

TEST_CASE("pass manager: a pass whose required property does not hold is an internal error") {
  Fixture f;
  PassManager pm(f.ctx, 0, pto::a2a3Target().passes);
  pm.addPass(f.pass("a", 0, PropSSA));
  pm.addPass(f.pass("needs-spaces", pto::PropMemSpacesInferred));
  std::string message;
  try {
    pm.run(f.module);
  } catch (const InternalError& e) {
    message = e.what();
  }
  CHECK(message.find("pass 'needs-spaces' requires property '" + propNames(pto::PropMemSpacesInferred) + "'") == 0);
  CHECK(message.find("; run 'infer-memory-space' before it") != std::string::npos);
  CHECK(f.log == Log{"run a"});
  REQUIRE(pm.runningPass() != nullptr);
  CHECK(std::string(pm.runningPass()->info().arg) == "needs-spaces");
}

TEST_CASE("pass manager: an invalidated property must be re-established") {
  Fixture f;
  PassManager pm(f.ctx, PropSSA, targetNeutralPasses());
  pm.addPass(f.pass("breaks-ssa", 0, 0, PropSSA));
  pm.addPass(f.pass("needs-ssa", PropSSA));
  CHECK_THROWS_AS(pm.run(f.module), InternalError);
  CHECK(f.log == Log{"run breaks-ssa"});
}

TEST_CASE("pass manager: a failing pass stops the pipeline and calls the failure hook") {
  Fixture f;
  PassManager pm(f.ctx, 0, targetNeutralPasses());
  pm.addPass(f.pass("a"));
  auto failing = f.pass("fails");
  failing->failing();
  pm.addPass(std::move(failing));
  pm.addPass(f.pass("never"));
  pm.addInstrumentation(std::make_unique<RecordingInstrumentation>("i", f.log));
  CHECK_FALSE(pm.run(f.module));
  CHECK(f.log == Log{"i begin", "i before a", "run a", "i after a", "i before fails", "run fails",
                     "i failed fails", "i end"});
  CHECK(pm.runningPass() == nullptr);
}

TEST_CASE("pass manager: a pass that reports an error fails even if it returns true") {
  Fixture f;
  PassManager pm(f.ctx, 0, targetNeutralPasses());
  auto reporting = f.pass("reports");
  reporting->reportingError();
  pm.addPass(std::move(reporting));
  pm.addPass(f.pass("never"));
  CHECK_FALSE(pm.run(f.module));
  CHECK(f.log == Log{"run reports"});
  CHECK(f.diags.errorCount() == 1);
}

TEST_CASE("pass manager: before hooks run in order, after hooks in reverse") {
  Fixture f;
  PassManager pm(f.ctx, 0, targetNeutralPasses());
  pm.addPass(f.pass("p"));
  pm.addInstrumentation(std::make_unique<RecordingInstrumentation>("outer", f.log));
  pm.addInstrumentation(std::make_unique<RecordingInstrumentation>("inner", f.log));
  CHECK(pm.run(f.module));
  CHECK(f.log == Log{"outer begin", "inner begin", "outer before p", "inner before p", "run p",
                     "inner after p", "outer after p", "inner end", "outer end"});
}

TEST_CASE("pass manager: the running pass is known after it throws") {
  Fixture f;
  PassManager pm(f.ctx, 0, targetNeutralPasses());
  pm.addPass(f.pass("ok"));
  auto throwing = f.pass("crashes");
  throwing->throwing();
  pm.addPass(std::move(throwing));
  CHECK_THROWS_AS(pm.run(f.module), std::runtime_error);
  REQUIRE(pm.runningPass() != nullptr);
  CHECK(std::string(pm.runningPass()->info().arg) == "crashes");
}

TEST_CASE("instrumentation: crash injector throws when the named pass starts") {
  Fixture f;
  f.module.addFunction("k", ir::KernelKind(pto::Kernel::Aiv));
  PassManager pm(f.ctx, 0, targetNeutralPasses());
  pm.addPass(f.pass("a"));
  pm.addPass(f.pass("b"));
  pm.addInstrumentation(std::make_unique<CrashInjectorInstrumentation>("b", false));
  CHECK_THROWS_WITH_AS(pm.run(f.module), "crash requested with --debug-crash-in=b", InternalError);
  CHECK(f.log == Log{"run a"});
  CHECK(std::string(pm.runningPass()->info().arg) == "b");
  REQUIRE(pm.numPasses() == 2);
  CHECK(pm.pass(1) == pm.runningPass());
}

TEST_CASE("instrumentation: IR printer writes headers before and after the selected passes") {
  Fixture f;
  PassManager pm(f.ctx, 0, targetNeutralPasses());
  pm.addPass(f.pass("a"));
  pm.addPass(f.pass("b"));
  std::ostringstream os;
  pm.addInstrumentation(std::make_unique<IRPrinterInstrumentation>(std::set<std::string>{"b"},
                                                                   std::set<std::string>{"a"}, false, os));
  CHECK(pm.run(f.module));
  std::string ir = ir::printToString(f.module);
  CHECK(os.str() == "// -----// IR Dump After a //----- //\n" + ir + "\n" +
                        "// -----// IR Dump Before b //----- //\n" + ir + "\n");
}

TEST_CASE("instrumentation: --print-ir-after-all dumps after every pass") {
  Fixture f;
  PassManager pm(f.ctx, 0, targetNeutralPasses());
  pm.addPass(f.pass("a"));
  pm.addPass(f.pass("b"));
  std::ostringstream os;
  pm.addInstrumentation(std::make_unique<IRPrinterInstrumentation>(std::set<std::string>{},
                                                                   std::set<std::string>{}, true, os));
  CHECK(pm.run(f.module));
  std::string out = os.str();
  CHECK(out.find("IR Dump After a") < out.find("IR Dump After b"));
  CHECK(out.find("IR Dump After b") != std::string::npos);
  CHECK(out.find("Before") == std::string::npos);
}

TEST_CASE("instrumentation: timing adds one row per pass in order, the table ends with the total") {
  Fixture f;
  PassManager pm(f.ctx, 0, targetNeutralPasses());
  pm.addPass(f.pass("first"));
  pm.addPass(f.pass("second-pass"));
  PhaseTimes times;
  times.add("parse", 1.5);
  pm.addInstrumentation(std::make_unique<TimingInstrumentation>(times));
  CHECK(pm.run(f.module));
  times.add("parse", 0.5);  // a phase that runs again adds to its row
  std::ostringstream os;
  times.print(os, "title");
  std::istringstream lines(os.str());
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(line);
  REQUIRE(rows.size() == 6);
  CHECK(rows[0] == "===-- title --===");
  CHECK(std::regex_match(rows[1], std::regex(R"(  phase +wall ms +percent +peak MiB +heap MiB)")));
  // The timing instrumentation records the memory after each pass; a phase added by hand has none.
  CHECK(std::regex_match(rows[2], std::regex(R"(  parse +2\.000 +\d+\.\d% +- +-)")));
  CHECK(std::regex_match(rows[3], std::regex(R"(  first +\d+\.\d{3} +\d+\.\d% +\d+\.\d +\d+\.\d)")));
  CHECK(std::regex_match(rows[4], std::regex(R"(  second-pass +\d+\.\d{3} +\d+\.\d% +\d+\.\d +\d+\.\d)")));
  CHECK(std::regex_match(rows[5], std::regex(R"(  total +\d+\.\d{3} +100\.0% +\d+\.\d +-)")));
}

TEST_CASE("phase times: a scoped phase records into the active table only") {
  PhaseTimes times;
  { ScopedPhase nobody("lex"); }
  PhaseTimes::setActive(&times);
  { ScopedPhase lex("lex"); }
  PhaseTimes::setActive(nullptr);
  std::ostringstream os;
  times.print(os, "t");
  const std::string table = os.str();
  CHECK(table.find("  lex ") != std::string::npos);
  CHECK(std::count(table.begin(), table.end(), '\n') == 4);  // title, header, lex, total
}

TEST_CASE("instrumentation: tree dir gets the input and one numbered file per pass") {
  Fixture f;
  f.module.addFunction("k", ir::KernelKind(pto::Kernel::Aiv));
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("tilec-tree-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  PassManager pm(f.ctx, 0, targetNeutralPasses());
  pm.addPass(f.pass("a"));
  pm.addPass(f.pass("b"));
  pm.addInstrumentation(std::make_unique<IRTreeDirInstrumentation>((dir / "sub").string(), f.diags));
  CHECK(pm.run(f.module));
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir / "sub")) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"00_input.tir", "01_a.tir", "02_b.tir"});
  std::ifstream in(dir / "sub" / "02_b.tir");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  CHECK(text == ir::printToString(f.module));
  CHECK_FALSE(f.diags.hasErrors());
  fs::remove_all(dir);
}
