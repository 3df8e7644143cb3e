// The index ops' meaning against hand-computed values at their edges: iota's start,
// direction and wrap-around, and the arg-reductions' ties (the first index), NaNs (pto-isa's
// running comparison: skipped, except at index 0), partial valid extents (only the valid
// part is searched, only the valid part written) and an i8 source. Each kernel runs as the
// frontend built it and after the whole pipeline of each PTO target that compiles it.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "backend/pto/PtoTargets.h"
#include "frontend/Ast.h"
#include "frontend/Frontend.h"
#include "interp/Interpreter.h"
#include "interp/Numeric.h"
#include "passes/PassManager.h"

using namespace tilec;
using namespace tilec::interp;
using ir::DType;

namespace {

struct Compiled {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  std::unique_ptr<ir::Module> module;

  // `target` null: the kernel as the frontend built it (for a2a3's model).
  Compiled(const char* source, const target::TargetDesc* target) {
    FileId file = sources.addBuffer("indices.tile", source);
    auto ast = frontend::parse(sources, file, diags);
    REQUIRE(ast);
    module = frontend::lower(*ast, diags, target ? *target->model : pto::ptoModel(pto::Arch::A2A3));
    REQUIRE(module);
    if (!target) return;
    PassContext ctx{diags};
    PassManager pm(ctx, PropSSA, target->passes);
    for (const std::string& p : target->pipeline) pm.addPass(target->passes.create(p));
    REQUIRE(pm.run(*module));
  }
};

Tensor tensor(DType d, std::vector<int64_t> dims, const std::vector<double>& values) {
  Tensor t{std::make_shared<TensorData>(), dims};
  t.data->dtype = d;
  for (double v : values) {
    Num e;
    if (isFloatType(d)) e.f = roundFloat(v, d);
    else e.i = int64_t(v);
    t.data->elems.push_back(e);
  }
  return t;
}

Tensor filled(DType d, std::vector<int64_t> dims, double v) {
  int64_t n = 1;
  for (int64_t x : dims) n *= x;
  return tensor(d, dims, std::vector<double>(size_t(n), v));
}

std::vector<int64_t> ints(const RtValue& v) {
  std::vector<int64_t> out;
  for (const Num& e : std::get<Tensor>(v).data->elems) out.push_back(e.i);
  return out;
}

// Runs `source` before any pass and after each target's pipeline on fresh `args`.
void runEach(const char* source, std::vector<const target::TargetDesc*> targets,
             const std::function<std::vector<RtValue>()>& args,
             const std::function<void(const std::vector<RtValue>&)>& check) {
  targets.insert(targets.begin(), nullptr);
  for (const target::TargetDesc* t : targets) {
    CAPTURE(t ? t->name : "no pass");
    Compiled c(source, t);
    std::vector<RtValue> a = args();
    Interpreter(*c.module->functions()[0]).run(a);
    check(a);
  }
}

// A function, not a global: the target descriptions are built on first use, after the
// tables they read, which a global's initializer could run before.
std::vector<const target::TargetDesc*> bothTargets() { return {&pto::a2a3Target(), &pto::a5Target()}; }

}  // namespace

TEST_CASE("interpreter: row_argmax/row_argmin take the first extreme, skip NaNs after index 0, search the valid part") {
  const char* source = R"(
kernel rows(x: in f32[16, 8], mx: out i32[16, 1], mn: out i32[16, 1]) {
  let t = load(x, [0, 0], [16, 8], valid = [3, 5]);
  store(mx, [0, 0], row_argmax(t));
  store(mn, [0, 0], row_argmin(t));
}
)";
  std::vector<double> x(16 * 8, 500.0);  // outside the valid [3, 5]: larger than anything in it
  const double rows[3][8] = {{1, 7, 7, 2, 0, 900, -900, 0},         // a tie of maxima: the first
                             {NAN, 5, 9, -1, 3, 0, 0, 0},           // a NaN first is never replaced
                             {4, NAN, -3, 4, -3, 100, -100, 0}};    // a NaN later is skipped; tied minima
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 8; ++c) x[size_t(r * 8 + c)] = rows[r][c];
  runEach(source, bothTargets(), [&] {
    return std::vector<RtValue>{tensor(DType::F32, {16, 8}, x), filled(DType::I32, {16, 1}, -1),
                                filled(DType::I32, {16, 1}, -1)};
  }, [](const std::vector<RtValue>& a) {
    std::vector<int64_t> untouched(13, -1);
    std::vector<int64_t> mx = {1, 0, 0}, mn = {4, 0, 2};
    mx.insert(mx.end(), untouched.begin(), untouched.end());
    mn.insert(mn.end(), untouched.begin(), untouched.end());
    CHECK(ints(a[1]) == mx);
    CHECK(ints(a[2]) == mn);
  });
}

TEST_CASE("interpreter: col_argmax/col_argmin of i8 search the valid rows and keep the first of tied extremes") {
  const char* source = R"(
kernel cols(x: in i8[4, 32], mx: out i32[1, 32], mn: out i32[1, 32]) {
  let t = load(x, [0, 0], [4, 32], valid = [3, 32]);
  store(mx, [0, 0], col_argmax(t));
  store(mn, [0, 0], col_argmin(t));
}
)";
  std::vector<double> x(4 * 32, 0.0);  // columns 2..31: all equal, so index 0 both ways
  const double col0[4] = {127, -128, 127, 127}, col1[4] = {-128, -128, 5, 127};  // row 3 is not valid
  for (int r = 0; r < 4; ++r) x[size_t(r * 32)] = col0[r], x[size_t(r * 32 + 1)] = col1[r];
  // a2a3's tcolargmax has no i8 form (pto-legality refuses it): the a5 pipeline only.
  runEach(source, {&pto::a5Target()}, [&] {
    return std::vector<RtValue>{tensor(DType::I8, {4, 32}, x), filled(DType::I32, {1, 32}, -1),
                                filled(DType::I32, {1, 32}, -1)};
  }, [](const std::vector<RtValue>& a) {
    std::vector<int64_t> mx(32, 0), mn(32, 0);
    mx[1] = 2;
    mn[0] = 1;
    CHECK(ints(a[1]) == mx);
    CHECK(ints(a[2]) == mn);
  });
}

TEST_CASE("interpreter: iota counts up or down from its start, wraps to its dtype and writes its valid part") {
  const char* source = R"(
kernel ramps(up: out i32[1, 16], down: out i16[16], part: out i32[1, 16], s: i32) {
  store(up, [0, 0], iota<i32>([1, 16], start = s));
  store(down, [0], iota<i16>([16], start = -32760, descending = true));
  store(part, [0, 0], iota<i32>([1, 16], valid = [1, 5]));
}
)";
  runEach(source, bothTargets(), [] {
    Num s;
    s.i = 2147483640;
    return std::vector<RtValue>{filled(DType::I32, {1, 16}, 7), filled(DType::I16, {16}, 7),
                                filled(DType::I32, {1, 16}, 7), Scalar{DType::I32, s}};
  }, [](const std::vector<RtValue>& a) {
    std::vector<int64_t> up, down, part;
    for (int64_t j = 0; j < 16; ++j) {
      up.push_back(j <= 7 ? 2147483640 + j : j - 8 - 2147483648LL);  // past INT32_MAX: wraps
      down.push_back(j <= 8 ? -32760 - j : 32767 - (j - 9));          // past INT16_MIN: wraps
      part.push_back(j < 5 ? j : 7);
    }
    CHECK(ints(a[0]) == up);
    CHECK(ints(a[1]) == down);
    CHECK(ints(a[2]) == part);
  });
}
