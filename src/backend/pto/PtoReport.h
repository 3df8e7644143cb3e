// --emit=report's section for kernels split between the cube and vector cores
// (split-cube-vector): the pipes between the two sections and the ops each core runs.
#pragma once
#include "report/Section.h"

namespace tilec::pto {

// Writes the kernel's "cube and vector cores" section; false (nothing written) unless the
// kernel is split.
bool writeCoresSection(const report::KernelView& kernel, report::Page& page);

}  // namespace tilec::pto
