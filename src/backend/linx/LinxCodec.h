// The Linx backend's binary format for the registry: a sequence of LinxISA block-header
// words (LinxWords.h), little-endian, 32 bits each, and nothing else. The listing's first
// line is `linx assemble=A|B` (the B.ASSEMBLE revision its words follow), then one
// word per line in LLVM's spelling; BSTART.* and BSTOP lines of a full listing are skipped.
#pragma once
#include "target/Target.h"

namespace tilec::linx {
const target::BinaryCodec& linxCodec();
}
