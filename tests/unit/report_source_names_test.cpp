// The report's names in source terms (report/SourceNames.h): a GEMM's K loop, doubled by
// multi-buffer with a loop for its left-over iterations, names its loads by their let, the
// buffered iteration and the loop, and tells them from their moves into L0A by the space;
// the IR's uniquing suffixes never show.
#include <doctest/doctest.h>

#include "backend/pto/PtoModel.h"
#include "backend/pto/PtoTargets.h"
#include "frontend/Frontend.h"
#include "frontend/Lowering.h"
#include "report/Report.h"

using namespace tilec;

namespace {

const char* kGemm = R"(kernel gemm(a: in f16[64, K], b: in f16[K, 64], c: out f32[64, 64]) where K: dyn {
  var acc = full<f32>([64, 64], 0.0);
  for k in 0 .. K step 32 {
    let lhs = load(a, [0, k], [64, 32], valid = [64, min(32, K - k)]);
    let rhs = load(b, [k, 0], [32, 64], valid = [min(32, K - k), 64]);
    acc = matmul_acc(acc, lhs, rhs);
  }
  store(c, [0, 0], acc);
}
)";

struct Compiled {
  Compiled() : diags(sm) {
    const FileId file = sm.addBuffer("gemm.tile", kGemm);
    std::unique_ptr<ast::Module> ast = frontend::parse(sm, file, diags);
    REQUIRE(ast);
    module = frontend::lower(*ast, diags, pto::ptoModel(pto::Arch::A2A3));
    REQUIRE(module);
    PassContext ctx{diags};
    for (const std::string& name : pto::a2a3Target().pipeline) {
      std::unique_ptr<Pass> pass = pto::ptoTarget(pto::Arch::A2A3).passes.create(name);
      REQUIRE_MESSAGE(pass, name);
      log.runBeforePass(*pass, *module);
      REQUIRE_MESSAGE(pass->run(*module, ctx), name);
      log.runAfterPass(*pass, *module);
      if (name == "multi-buffer") break;
    }
  }
  SourceManager sm;
  DiagnosticEngine diags;
  std::unique_ptr<ir::Module> module;
  report::PassLog log{false};
};

void collect(const ir::Block& b, ir::OpKind kind, std::vector<const ir::Op*>& out) {
  for (const auto& op : b.ops()) {
    if (op->kind() == kind) out.push_back(op.get());
    for (unsigned r = 0; r < op->numRegions(); ++r) collect(op->body(r), kind, out);
  }
}

}  // namespace

TEST_CASE("source names: a multi-buffered loop's loads by their let and buffered iteration") {
  Compiled c;
  const ir::Function& f = *c.module->functions().front();
  const report::SourceNames names(f, c.sm, c.log.records());
  std::vector<const ir::Op*> loads, loops;
  collect(f.body(), ir::OpKind::Load, loads);
  collect(f.body(), ir::OpKind::For, loops);
  REQUIRE(loops.size() == 2);
  CHECK(names.loop(*loops[0]) == "loop k (2 iterations a step)");
  CHECK(names.loop(*loops[1]) == "loop k (the left-over iterations)");
  // Each load by its buffered iteration; "in mat" tells it from its move into L0A (left).
  std::vector<std::string> lhs;
  for (const ir::Op* load : loads)
    if (names.base(load->result()) == "lhs") lhs.push_back(names.name(load->result()));
  std::string all;
  for (const std::string& n : lhs) all += n + " | ";
  INFO(all);
  CHECK(lhs == std::vector<std::string>{"lhs (k's 1st of 2 buffered iterations, in mat)",
                                        "lhs (k's 2nd of 2 buffered iterations, in mat)",
                                        "lhs (k's left-over iterations, in mat)"});
  // Sizes and loop variables by their source names in expressions and lists.
  CHECK(names.base(f.param(3)) == "K");
  CHECK(names.base(loops[0]->body().arg(0)) == "k");
  // The carried accumulator, its initial value and the loop's result: one name, told apart
  // by the line (the var at line 2, the assignment at line 6).
  CHECK(names.base(loops[0]->result(0)) == "acc");
  CHECK(names.where(loops[0]->result(0)).valid());
}
