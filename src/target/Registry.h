// The targets tilec knows: the backends' built-in ones, and any registered at run time
// (a test's fake target). Names are unique; the first built-in target is the default.
#pragma once
#include <string_view>
#include <vector>

#include "target/Target.h"

namespace tilec::target {

const std::vector<const TargetDesc*>& allTargets();
const TargetDesc* findTarget(std::string_view name);  // null when unknown
const TargetDesc& defaultTarget();
// Adds a target; returns false (and adds nothing) when its name is taken.
bool registerTarget(const TargetDesc& t);
// The registered names, for messages: "a2a3, a5".
std::string targetNames();

// The backends' binary formats, for --decode and --encode.
const std::vector<const BinaryCodec*>& allCodecs();
const BinaryCodec* findCodec(std::string_view name);

}  // namespace tilec::target
