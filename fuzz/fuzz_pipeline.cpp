// The whole compile from .tile to PTO text for a2a3: the frontend, every pass of the
// default pipeline with the verifier and the print-parse round trip after each pass, and
// the emitter.
#include <sstream>

#include "FuzzSupport.h"
#include "backend/pto/PtoEmitter.h"
#include "passes/PassInstrumentations.h"
#include "passes/PassManager.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return tilec::fuzz::fuzzText(data, size, [](const std::string& text) {
    using namespace tilec;
    SourceManager sm;
    DiagnosticEngine diags(sm);
    std::unique_ptr<ir::Module> m = fuzz::lowerTile(text, sm, diags);
    if (!m) return;
    const target::TargetDesc& target = pto::a2a3Target();
    PassContext ctx{diags};
    PassManager pm(ctx, PropSSA, target.passes);
    for (const std::string& p : target.pipeline) pm.addPass(target.passes.create(p));
    pm.addInstrumentation(std::make_unique<VerifyEachInstrumentation>(diags));
    pm.addInstrumentation(std::make_unique<RoundTripInstrumentation>());
    if (!pm.run(*m) || diags.hasErrors()) return;
    // Only single-kernel modules are emitted, as tilec does without --kernel.
    if (m->functions().size() != 1) return;
    std::ostringstream out;
    pto::emitModule(*m, out, diags);
  });
}
