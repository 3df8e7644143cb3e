// --emit=report: one self-contained HTML page per compile (inline SVG and CSS, nothing
// fetched), the same bytes for the same module and flags. Per kernel: on-chip memory over
// the program (BufferLifetimes.h, the numbers check-capacity holds against the target),
// every load and store window on its tensor, packed accumulators, the window of each tensor
// every block of the launch covers, then the target's own sections; for the compile: the
// pass pipeline and every diagnostic on its source line.
// Size: linear in the ops, plus per chart the buffers times the events that move them.
#pragma once
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "ir/IR.h"
#include "passes/PassManager.h"
#include "report/Section.h"
#include "report/Timeline.h"
#include "support/Diagnostics.h"

namespace tilec::report {

// Records each pass of the pipeline for the report: its name, the ops after it, the values it
// made (SourceNames names a value no source made by its pass) and, when `timed`, its wall time.
class PassLog final : public PassInstrumentation {
 public:
  explicit PassLog(bool timed) : timed_(timed) {}
  void runBeforePass(const Pass& pass, const ir::Module& m) override;
  void runAfterPass(const Pass& pass, const ir::Module& m) override;
  const std::vector<PassRecord>& records() const { return records_; }

 private:
  bool timed_;
  std::chrono::steady_clock::time_point start_;
  std::vector<MadeIds> before_;
  std::vector<PassRecord> records_;
};

struct ReportInputs {
  const ir::Module& module;
  const DiagnosticEngine& diags;
  std::string targetName;
  std::vector<PassRecord> passes;
  std::vector<TargetSection> targetSections;
  std::map<std::string, bool> flags = {};  // the target flags of the compile
  const Timeline* perfTrace = nullptr;     // --perf-trace's pipe timeline
};

void writeReport(const ReportInputs& in, OutputBuffer& out);

// Sections of every kernel (one file each); false when the kernel has nothing to show.
bool writeMemorySection(const KernelView& kernel, Page& page);
bool writeAccessSection(const KernelView& kernel, Page& page);
bool writeAccumulatorSection(const KernelView& kernel, Page& page);
bool writeBlocksSection(const KernelView& kernel, Page& page);

}  // namespace tilec::report
