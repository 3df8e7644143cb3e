#include "backend/pto/PtoEmitter.h"

#include <ostream>

#include "backend/pto/FunctionEmitter.h"

namespace tilec::pto {

bool emitModule(const ir::Module& m, OutputBuffer& out, DiagnosticEngine& diags) {
  out << "module attributes {\"pto.target_arch\" = \"" << ptoArchAttr(archOf(m.target())) << "\"} {\n";
  bool ok = true;
  for (size_t i = 0; i < m.functions().size(); ++i) {
    if (i) out << '\n';
    ok &= FunctionEmitter(*m.functions()[i], archOf(m.target()), diags).emit(out);
  }
  out << "}\n";
  return ok;
}

}  // namespace tilec::pto
