#include "passes/PassInstrumentations.h"

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <ostream>

#include "ir/IRText.h"
#include "passes/BufferLifetimes.h"
#include "support/AtomicFile.h"

namespace tilec {

IRPrinterInstrumentation::IRPrinterInstrumentation(std::set<std::string> before,
                                                   std::set<std::string> after, bool afterAll,
                                                   std::ostream& os)
    : before_(std::move(before)), after_(std::move(after)), afterAll_(afterAll), os_(os) {}

void IRPrinterInstrumentation::runBeforePass(const Pass& pass, const ir::Module& m) {
  if (before_.count(pass.info().arg)) dump("Before", pass, m);
}

void IRPrinterInstrumentation::runAfterPass(const Pass& pass, const ir::Module& m) {
  if (afterAll_ || after_.count(pass.info().arg)) dump("After", pass, m);
}

void IRPrinterInstrumentation::dump(const char* when, const Pass& pass, const ir::Module& m) {
  os_ << "// -----// IR Dump " << when << ' ' << pass.info().arg << " //----- //\n";
  ir::printModule(m, os_);
  os_ << '\n';
  os_.flush();
}

namespace {

std::string lowerFirst(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
  return s;
}

}  // namespace

IRTreeDirInstrumentation::IRTreeDirInstrumentation(std::string dir, DiagnosticEngine& diags)
    : dir_(std::move(dir)), diags_(diags) {}

void IRTreeDirInstrumentation::runBeforePipeline(const ir::Module& m) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  index_ = 0;
  failed_ = bool(ec);
  if (failed_)
    diags_.report(Diag::OutputNotWritable, {},
                  "cannot create the IR dump directory '" + dir_ + "': " + lowerFirst(ec.message()) +
                      "; pass a writable path to --print-ir-tree-dir");
  write("input", m);
}

void IRTreeDirInstrumentation::runAfterPass(const Pass& pass, const ir::Module& m) {
  write(pass.info().arg, m);
}

void IRTreeDirInstrumentation::write(const std::string& stem, const ir::Module& m) {
  if (failed_) return;
  char number[16];
  std::snprintf(number, sizeof number, "%02u_", index_++);
  std::string path = dir_ + "/" + number + stem + ".tir";
  std::string error;
  failed_ = !writeFileAtomically(path, ir::printToString(m), error);
  if (failed_)
    diags_.report(Diag::OutputNotWritable, {},
                  "cannot write '" + path + "': " + error + "; pass a writable path to --print-ir-tree-dir");
}

void VerifyEachInstrumentation::runAfterPass(const Pass& pass, const ir::Module& m) {
  if (!ir::verifyModule(m, diags_) || !passes::verifyAddresses(m, diags_)) {
    diags_.flush();
    throw InternalError("pass '" + std::string(pass.info().arg) +
                        "' produced IR that does not verify (see the errors above)");
  }
}

void RoundTripInstrumentation::runAfterPass(const Pass& pass, const ir::Module& m) {
  check("pass '" + std::string(pass.info().arg) + "'", m);
}

void RoundTripInstrumentation::check(const std::string& after, const ir::Module& m) {
  const std::string printed = ir::printToString(m);
  SourceManager sm;
  DiagnosticEngine diags(sm);  // collects only: a parse failure is reported below
  FileId file = sm.addBuffer("<round-trip>", printed);
  std::unique_ptr<ir::Module> reparsed = ir::parseModule(sm, file, diags, m.target());
  const std::string reprinted = reparsed ? ir::printToString(*reparsed) : std::string();
  if (reparsed && reprinted == printed) return;
  if (!reparsed) {
    const Diagnostic& d = diags.all().front();
    throw InternalError("the IR printed after " + after + " does not parse back: line " +
                        std::to_string(sm.lineCol(file, d.range.begin).line) + ": " + d.message);
  }
  size_t at = 0;
  while (at < printed.size() && at < reprinted.size() && printed[at] == reprinted[at]) ++at;
  const size_t lineStart = printed.rfind('\n', at == 0 ? 0 : at - 1);
  const size_t begin = lineStart == std::string::npos ? 0 : lineStart + 1;
  throw InternalError("the IR printed after " + after +
                      " prints differently once parsed back, first at: " +
                      printed.substr(begin, printed.find('\n', begin) - begin));
}

void TimingInstrumentation::runBeforePass(const Pass& pass, const ir::Module& m) {
  start_ = Clock::now();
}

void TimingInstrumentation::stop(const Pass& pass) {
  std::chrono::duration<double, std::milli> elapsed = Clock::now() - start_;
  times_.add(pass.info().arg, elapsed.count());
  times_.notePeak(pass.info().arg);
}

void CrashInjectorInstrumentation::runBeforePass(const Pass& pass, const ir::Module& m) {
  if (passArg_ != pass.info().arg) return;
  if (signal_) std::raise(SIGSEGV);
  throw InternalError("crash requested with --debug-crash-in=" + passArg_);
}

bool MutationInstrumentation::known(const std::string& mutation) {
  return mutation == "store-offset" || mutation == "store-window" || mutation == "assemble-order" ||
         mutation == "swap-operands";
}

void MutationInstrumentation::runAfterPass(const Pass& pass, const ir::Module& cm) {
  if (passArg_ != pass.info().arg) return;
  ir::Module& m = const_cast<ir::Module&>(cm);  // the hook's purpose is to break the IR
  std::vector<ir::Op*> stores, assembles;
  ir::Op* swappable = nullptr;
  for (auto& f : m.functions())
    f->walk([&](ir::Op& op) {
      if (op.kind() == ir::OpKind::Store) stores.push_back(&op);
      if (op.kind() == ir::OpKind::Assemble) assembles.push_back(&op);
      if (!swappable && op.numOperands() >= 2 && op.operand(0) != op.operand(1) &&
          op.operand(0)->type().isTile() && op.operand(0)->type() == op.operand(1)->type())
        swappable = &op;
    });
  if (mutation_ == "store-offset" && !stores.empty()) {
    auto offsets = stores[0]->get(ir::attr::offsets);
    offsets[0] = offsets[0] + 1;
    stores[0]->set(ir::attr::offsets, offsets);
  } else if (mutation_ == "store-window" && !stores.empty() && stores[0]->has(ir::attr::window)) {
    auto window = stores[0]->get(ir::attr::window);
    std::reverse(window.begin(), window.end() - 1);
    stores[0]->set(ir::attr::window, window);
  } else if (mutation_ == "assemble-order" && assembles.size() >= 2) {
    std::vector<ir::Expr> first = assembles[0]->get(ir::attr::offsets);
    assembles[0]->set(ir::attr::offsets, assembles[1]->get(ir::attr::offsets));
    assembles[1]->set(ir::attr::offsets, first);
  } else if (mutation_ == "swap-operands" && swappable) {
    ir::Value* a = swappable->operand(0);
    swappable->setOperand(0, swappable->operand(1));
    swappable->setOperand(1, a);
  }
}

}  // namespace tilec
