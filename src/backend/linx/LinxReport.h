// The linx section of --emit=report: every tile that regions cut into slots (a partview's
// parent, a tile_array), drawn as the CELLs the backend lays it out in, with each slot
// over the CELLs it covers, coloured by its assembly phase and labelled with the offset
// and SizeCode its B.SUBVIEW or B.ASSEMBLE word carries.
#pragma once
#include "report/Section.h"

namespace tilec::linx {

bool writeRegionsSection(const report::KernelView& kernel, report::Page& page);

}  // namespace tilec::linx
