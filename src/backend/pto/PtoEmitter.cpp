#include "backend/pto/PtoEmitter.h"

#include <ostream>

#include "backend/pto/FunctionEmitter.h"

namespace tilec::pto {

bool emitModule(const ir::Module& m, OutputBuffer& out, DiagnosticEngine& diags) {
  out << "module attributes {\"pto.target_arch\" = \"" << ptoArchAttr(archOf(m.target())) << "\"} {\n";
  bool ok = true;
  for (size_t i = 0; i < m.functions().size(); ++i) {
    if (i) out << '\n';
    const ir::Function& f = *m.functions()[i];
    if (Kernel(f.kind()) != Kernel::Mix) {
      ok &= FunctionEmitter(f, archOf(m.target()), diags).emit(out);
      continue;
    }
    // A split kernel: a function per core, each of its section (split-cube-vector).
    ok &= FunctionEmitter(f, archOf(m.target()), diags, Section::Cube).emit(out);
    out << '\n';
    ok &= FunctionEmitter(f, archOf(m.target()), diags, Section::Vector).emit(out);
  }
  out << "}\n";
  return ok;
}

}  // namespace tilec::pto
