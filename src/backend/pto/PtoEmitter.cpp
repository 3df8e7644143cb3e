#include "backend/pto/PtoEmitter.h"

#include <ostream>
#include <sstream>

#include "backend/pto/FunctionEmitter.h"

namespace tilec::pto {

// Output is written only when every function translated, so a failed emission
// leaves nothing half-written behind.
bool emitModule(const ir::Module& m, std::ostream& os, DiagnosticEngine& diags) {
  std::ostringstream out;
  out << "module attributes {\"pto.target_arch\" = \""
      << (archOf(m.target()) == Arch::A5 ? "a5" : "a3") << "\"} {\n";
  bool ok = true;
  for (size_t i = 0; i < m.functions().size(); ++i) {
    if (i) out << '\n';
    ok &= FunctionEmitter(*m.functions()[i], archOf(m.target()), diags).emit(out);
  }
  out << "}\n";
  if (ok) os << out.str();
  return ok;
}

}  // namespace tilec::pto
