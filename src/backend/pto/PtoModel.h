// The PTO targets as the IR sees them: the two architectures, their memory spaces by
// id, and the IR models (space table, kernel kinds, default layouts) of a2a3 and a5.
#pragma once
#include <cstdint>

#include "ir/TargetModel.h"

namespace tilec::pto {

// The two PTO architectures; they differ in capacities, dtypes, legal moves and the
// left operand's layout.
enum class Arch : uint8_t { A2A3, A5 };
const char* archName(Arch a);  // "a2a3" / "a5"

// The memory spaces of the PTO targets' IR model, by id (the order of its space table).
enum Space : ir::SpaceId { Vec = 1, Mat, Left, Right, Acc, Bias, Scaling };
const char* spaceName(ir::SpaceId s);  // as in .tile, .tir and PTO's `loc=`

// Its kernel kinds, by id: a kernel for the cube core, one for a vector core, or one
// whose kind inference decides (infer-memory-space).
enum class Kernel : ir::KernelKind { Incore, Aic, Aiv };

const ir::TargetModel& ptoModel(Arch a);
Arch archOf(const ir::TargetModel& m);  // m is a PTO model

}  // namespace tilec::pto
