#include "backend/pto/PtoEmitter.h"

#include <ostream>

#include "backend/pto/FunctionEmitter.h"

namespace tilec::pto {

namespace {

// Every tile has an address (a popped tile lives in its pipe's slot and needs none), and no
// kernel has pipes: PTOAS reserves their slots itself, which it does at level2 only.
bool everyTileAddressed(const ir::Module& m) {
  bool all = true;
  for (const auto& f : m.functions())
    f->walk([&](ir::Op& op) {
      all = all && op.kind() != ir::OpKind::PipeInit;
      const auto* addrs = op.find(ir::attr::addrs);
      for (unsigned i = 0; i < op.numResults() && all; ++i)
        if (op.result(i)->type().isTile() && op.kind() != ir::OpKind::PipePop)
          all = addrs && i < addrs->size() && (*addrs)[i] >= 0;
    });
  return all;
}

}  // namespace

bool emitModule(const ir::Module& m, OutputBuffer& out, DiagnosticEngine& diags, bool fixedAddresses) {
  const bool level3 = fixedAddresses && everyTileAddressed(m);
  if (level3) out << "// tilec placed every tile: assemble with ptoas --pto-level=level3\n";
  out << "module attributes {\"pto.target_arch\" = \"" << ptoArchAttr(archOf(m.target())) << "\"} {\n";
  bool ok = true;
  for (size_t i = 0; i < m.functions().size(); ++i) {
    if (i) out << '\n';
    const ir::Function& f = *m.functions()[i];
    if (Kernel(f.kind()) != Kernel::Mix) {
      ok &= FunctionEmitter(f, archOf(m.target()), diags, level3).emit(out);
      continue;
    }
    // A split kernel: a function per core, each of its section (split-cube-vector).
    ok &= FunctionEmitter(f, archOf(m.target()), diags, level3, Section::Cube).emit(out);
    out << '\n';
    ok &= FunctionEmitter(f, archOf(m.target()), diags, level3, Section::Vector).emit(out);
  }
  out << "}\n";
  return ok;
}

}  // namespace tilec::pto
