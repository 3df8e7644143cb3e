// The AIE backend's binary format for the registry: TXN streams (TxnFormat.h).
#pragma once
#include "target/Target.h"

namespace tilec::aie {
const target::BinaryCodec& txnCodec();
}
