// --emit=report's sections of the PTO targets: kernels split between the cube and vector
// cores (split-cube-vector), and the pipe timeline.
#pragma once
#include "report/Section.h"

namespace tilec::pto {

// Writes the kernel's "cube and vector cores" section; false (nothing written) unless the
// kernel is split.
bool writeCoresSection(const report::KernelView& kernel, report::Page& page);

// Writes the kernel's "pipe timeline" section (PtoTimeline.cpp): the estimate of one block
// on the AI core's pipes, or the Perf-Sim trace --perf-trace gave; false for a kernel
// without an instruction.
bool writeTimelineSection(const report::KernelView& kernel, report::Page& page);

}  // namespace tilec::pto
