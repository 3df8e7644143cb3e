// Shared by the libFuzzer harnesses: the compile steps tilec runs, in memory, on a thread
// with tilec's 512 MiB stack (deep nesting is rejected at 4096 levels, below what that
// stack holds but not below what libFuzzer's main thread has). A user error is an
// ordinary outcome; an internal error (an exception, a verifier failure after a pass, a
// round trip that changes the text) aborts, which is what libFuzzer records as a crash.
#pragma once
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <string>

#include "backend/pto/PtoTargets.h"
#include "frontend/Ast.h"
#include "frontend/Frontend.h"
#include "ir/IRText.h"
#include "passes/PassInstrumentations.h"
#include "passes/PassManager.h"
#include "target/Target.h"
#include "support/Diagnostics.h"
#include "support/Source.h"

namespace tilec::fuzz {

[[noreturn]] inline void bug(const std::string& what) {
  std::fprintf(stderr, "tilec fuzz: %s\n", what.c_str());
  std::abort();
}

// Runs `f` to completion on a big-stack thread; an exception escaping it is a bug.
inline void onBigStack(const std::function<void()>& f) {
  struct Call {
    const std::function<void()>* f;
    std::string error;
  } call{&f, {}};
  auto run = [](void* arg) -> void* {
    auto* c = static_cast<Call*>(arg);
    try {
      (*c->f)();
    } catch (const std::exception& e) {
      c->error = e.what();
    } catch (...) {
      c->error = "an exception that is no std::exception";
    }
    return nullptr;
  };
  pthread_attr_t attr;
  pthread_t thread;
  if (pthread_attr_init(&attr) != 0 || pthread_attr_setstacksize(&attr, size_t(512) << 20) != 0 ||
      pthread_create(&thread, &attr, run, &call) != 0)
    bug("cannot start the compile thread");
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  if (!call.error.empty()) bug("internal error: " + call.error);
}

// A harness body: `check` gets the input as text, on the big-stack thread; returns the
// value libFuzzer expects of LLVMFuzzerTestOneInput.
inline int fuzzText(const uint8_t* data, size_t size, const std::function<void(const std::string&)>& check) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  onBigStack([&] { check(text); });
  return 0;
}

// The .tile frontend up to verified IR, or null after user errors. IR the frontend
// produces without reporting errors must verify.
inline std::unique_ptr<ir::Module> lowerTile(const std::string& text, SourceManager& sm, DiagnosticEngine& diags,
                                             const ir::TargetModel& model = pto::ptoModel(pto::Arch::A2A3)) {
  FileId file = sm.addBuffer("fuzz.tile", text);
  std::unique_ptr<ast::Module> ast = frontend::parse(sm, file, diags);
  if (!ast || diags.hasErrors()) return nullptr;
  std::unique_ptr<ir::Module> m = frontend::lower(*ast, diags, model);
  if (!m || diags.hasErrors()) return nullptr;
  if (!ir::verifyModule(*m, diags)) bug("the frontend produced IR that does not verify");
  return m;
}

// Runs `target`'s default pipeline on `m` with the verifier and the print-parse round trip
// after every pass (tilec --verify-each --verify-roundtrip); false after user errors.
inline bool runPipeline(ir::Module& m, const target::TargetDesc& target, DiagnosticEngine& diags) {
  PassContext ctx{diags};
  PassManager pm(ctx, PropSSA, target.passes);
  for (const std::string& p : target.pipeline) pm.addPass(target.passes.create(p));
  pm.addInstrumentation(std::make_unique<VerifyEachInstrumentation>(diags));
  pm.addInstrumentation(std::make_unique<RoundTripInstrumentation>());
  try {
    return pm.run(m) && !diags.hasErrors();
  } catch (...) {
    // The diagnostics are collected, not printed; a verifier failure's are its evidence.
    for (const Diagnostic& d : diags.all()) std::fprintf(stderr, "%s\n", diags.renderText(d).c_str());
    throw;
  }
}

}  // namespace tilec::fuzz
