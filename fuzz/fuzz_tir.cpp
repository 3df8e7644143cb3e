// The .tir parser and verifier, and the round trip: verified IR printed, parsed and
// printed again must give the same text. The report is written for every verified module:
// its memory chart and windows read whatever `buffers` and windows the IR states.
#include "FuzzSupport.h"
#include "report/Report.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return tilec::fuzz::fuzzText(data, size, [](const std::string& text) {
    using namespace tilec;
    SourceManager sm;
    DiagnosticEngine diags(sm);
    const ir::TargetModel& model = pto::ptoModel(pto::Arch::A2A3);
    std::unique_ptr<ir::Module> m = ir::parseModule(sm, sm.addBuffer("fuzz.tir", text), diags, model);
    if (!m || !ir::verifyModule(*m, diags)) return;
    const std::string printed = ir::printToString(*m);
    std::unique_ptr<ir::Module> again = ir::parseModule(sm, sm.addBuffer("printed.tir", printed), diags, model);
    if (!again) fuzz::bug("printed IR does not parse:\n" + printed);
    if (ir::printToString(*again) != printed) fuzz::bug("the round trip changed the IR:\n" + printed);
    OutputBuffer page;
    report::writeReport({*m, diags, "a2a3", {}, {}}, page);
  });
}
