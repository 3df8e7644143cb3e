// The reference interpreter against straightforward C++ computations, for every sample:
// each kernel runs on deterministic inputs as the frontend built it (one block) and again after
// the whole a2a3 pipeline (every block of the launch distribute-blocks chooses: softmax's and
// matmul's parallel loops over 48 and 24 blocks), and both runs match the reference written
// here element for element (softmax's exp within 1 ulp of f32, since the reference rounds in
// another order). Then the element arithmetic: bf16/f16 rounding and the cast modes.
#include <doctest/doctest.h>

#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "backend/pto/PtoTargets.h"
#include "frontend/Ast.h"
#include "frontend/Frontend.h"
#include "interp/Interpreter.h"
#include "interp/Npy.h"
#include "interp/Numeric.h"
#include "passes/PassManager.h"

using namespace tilec;
using namespace tilec::interp;
using ir::DType;

namespace {

std::string readSample(const std::string& name) {
  std::ifstream in(std::string(TILEC_SOURCE_DIR) + "/samples/" + name + ".tile");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Compiled {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  std::unique_ptr<ir::Module> module;

  Compiled(const std::string& name, bool pipeline) {
    FileId file = sources.addBuffer(name + ".tile", readSample(name));
    auto ast = frontend::parse(sources, file, diags);
    REQUIRE(ast);
    module = frontend::lower(*ast, diags, pto::ptoModel(pto::Arch::A2A3));
    REQUIRE(module);
    if (!pipeline) return;
    PassContext ctx{diags};
    const target::TargetDesc& t = pto::a2a3Target();
    PassManager pm(ctx, PropSSA, t.passes);
    for (const std::string& p : t.pipeline) pm.addPass(t.passes.create(p));
    REQUIRE(pm.run(*module));
  }
  const ir::Function& kernel() const { return *module->functions()[0]; }
};

Tensor tensor(DType d, std::vector<int64_t> dims, const std::function<double(int64_t)>& value) {
  Tensor t{std::make_shared<TensorData>(), dims};
  t.data->dtype = d;
  int64_t n = 1;
  for (int64_t x : dims) n *= x;
  for (int64_t i = 0; i < n; ++i) {
    Num e;
    if (isFloatType(d)) e.f = roundFloat(value(i), d);
    else e.i = int64_t(value(i));
    t.data->elems.push_back(e);
  }
  return t;
}

Scalar size(int64_t v) {
  Num n;
  n.i = v;
  return Scalar{DType::Index, n};
}

double at(const Tensor& t, int64_t i) { return t.data->elems[size_t(i)].f; }

// Runs the sample's kernel before and after the pipeline on fresh copies of `args`;
// `check` sees each run's arguments.
void runBoth(const std::string& name, const std::function<std::vector<RtValue>()>& args,
             const std::function<void(const std::vector<RtValue>&)>& check) {
  for (bool pipeline : {false, true}) {
    CAPTURE(pipeline);
    Compiled c(name, pipeline);
    std::vector<RtValue> a = args();
    Interpreter(c.kernel()).run(a);
    check(a);
  }
}

double f32(double x) { return roundFloat(x, DType::F32); }

}  // namespace

TEST_CASE("interpreter: vector_add and add3d add elementwise") {
  auto x = [](int64_t i) { return double(i % 97) / 8; };
  auto y = [](int64_t i) { return double(i % 13) - 6.5; };
  runBoth("vector_add", [&] {
    return std::vector<RtValue>{tensor(DType::F32, {32, 64}, x), tensor(DType::F32, {32, 64}, y),
                                tensor(DType::F32, {32, 64}, [](int64_t) { return 0; })};
  }, [&](const std::vector<RtValue>& a) {
    const Tensor& c = std::get<Tensor>(a[2]);
    for (int64_t i = 0; i < 32 * 64; ++i) REQUIRE(at(c, i) == f32(x(i) + y(i)));
  });
  runBoth("add3d", [&] {
    return std::vector<RtValue>{tensor(DType::F32, {2, 16, 64}, x), tensor(DType::F32, {2, 16, 64}, y),
                                tensor(DType::F32, {2, 16, 64}, [](int64_t) { return 0; })};
  }, [&](const std::vector<RtValue>& a) {
    const Tensor& z = std::get<Tensor>(a[2]);
    for (int64_t i = 0; i < 2 * 16 * 64; ++i) REQUIRE(at(z, i) == f32(x(i) + y(i)));
  });
}

TEST_CASE("interpreter: vector_add_1d adds 1-D tensors of a runtime length block by block") {
  auto x = [](int64_t i) { return double(i % 89) * 1.25 - 40; };
  auto y = [](int64_t i) { return double(i % 7) / 3; };  // rounded to f32 on the way in
  for (int64_t N : {1, 15, 16, 17, 64, 65, 1000}) {
    CAPTURE(N);
    runBoth("vector_add_1d", [&] {
      return std::vector<RtValue>{tensor(DType::F32, {N}, x), tensor(DType::F32, {N}, y),
                                  tensor(DType::F32, {N}, [](int64_t) { return NAN; }), size(N)};
    }, [&](const std::vector<RtValue>& a) {
      const Tensor& z = std::get<Tensor>(a[2]);
      for (int64_t i = 0; i < N; ++i) REQUIRE(at(z, i) == f32(f32(x(i)) + f32(y(i))));
    });
  }
}

TEST_CASE("interpreter: transpose3d swaps the last two axes of each page") {
  auto x = [](int64_t i) { return double(i); };
  runBoth("transpose3d", [&] {
    return std::vector<RtValue>{tensor(DType::F32, {2, 16, 8}, x),
                                tensor(DType::F32, {2, 8, 16}, [](int64_t) { return -1; })};
  }, [&](const std::vector<RtValue>& a) {
    const Tensor& y = std::get<Tensor>(a[1]);
    for (int64_t b = 0; b < 2; ++b)
      for (int64_t i = 0; i < 8; ++i)
        for (int64_t j = 0; j < 16; ++j) REQUIRE(at(y, (b * 8 + i) * 16 + j) == x((b * 16 + j) * 8 + i));
  });
}

TEST_CASE("interpreter: chunked_cast and cast3d widen bf16 over runtime sizes with partial chunks") {
  auto x = [](int64_t i) { return double(i % 251) / 7 - 17; };  // rounded to bf16 on the way in
  for (int64_t S : {1, 16, 37}) {
    CAPTURE(S);
    runBoth("chunked_cast", [&] {
      return std::vector<RtValue>{tensor(DType::BF16, {S, 512}, x),
                                  tensor(DType::F32, {S, 512}, [](int64_t) { return NAN; }), size(S)};
    }, [&](const std::vector<RtValue>& a) {
      const Tensor& y = std::get<Tensor>(a[1]);
      for (int64_t i = 0; i < S * 512; ++i) REQUIRE(at(y, i) == roundFloat(x(i), DType::BF16));
    });
  }
  runBoth("cast3d", [&] {
    return std::vector<RtValue>{tensor(DType::BF16, {3, 21, 512}, x),
                                tensor(DType::F32, {3, 21, 512}, [](int64_t) { return NAN; }), size(3), size(21)};
  }, [&](const std::vector<RtValue>& a) {
    const Tensor& y = std::get<Tensor>(a[1]);
    for (int64_t i = 0; i < 3 * 21 * 512; ++i) REQUIRE(at(y, i) == roundFloat(x(i), DType::BF16));
  });
}

TEST_CASE("interpreter: matmul accumulates f16 products over K steps, its output tiles over the blocks") {
  auto av = [](int64_t i) { return double(i % 7) / 4 - 0.75; };
  auto bv = [](int64_t i) { return double(i % 5) / 2 - 1; };
  // Whole tiles, and tails in M, N and K (a 1-row, a 6-column tile, a last K slice of 8).
  for (const auto& sizes : {std::array<int64_t, 3>{32, 64, 128}, std::array<int64_t, 3>{33, 70, 40}}) {
    const int64_t M = sizes[0], N = sizes[1], K = sizes[2];  // named copies: lambdas cannot capture bindings
    CAPTURE(M);
    CAPTURE(N);
    CAPTURE(K);
    runBoth("matmul", [&] {
      return std::vector<RtValue>{tensor(DType::F16, {M, K}, av), tensor(DType::F16, {K, N}, bv),
                                  tensor(DType::F32, {M, N}, [](int64_t) { return NAN; }), size(M), size(N), size(K)};
    }, [&](const std::vector<RtValue>& a) {
      const Tensor& c = std::get<Tensor>(a[2]);
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
          double sum = 0;  // the products of these small values are exact, and so are the sums
          for (int64_t k = 0; k < K; ++k) sum += av(m * K + k) * bv(k * N + n);
          REQUIRE(at(c, m * N + n) == f32(sum));
        }
    });
  }
}

TEST_CASE("interpreter: attention_scores multiplies each batch and head, keys broadcast over batches") {
  auto qv = [](int64_t i) { return double(i % 11) / 4 - 1.25; };
  auto kv = [](int64_t i) { return double(i % 7) / 2 - 1.5; };
  runBoth("attention_scores", [&] {
    return std::vector<RtValue>{tensor(DType::F16, {2, 2, 16, 128}, qv), tensor(DType::F16, {1, 2, 128, 32}, kv),
                                tensor(DType::F32, {2, 2, 16, 32}, [](int64_t) { return 0; })};
  }, [&](const std::vector<RtValue>& a) {
    const Tensor& s = std::get<Tensor>(a[2]);
    for (int64_t b = 0; b < 2; ++b)
      for (int64_t h = 0; h < 2; ++h)
        for (int64_t m = 0; m < 16; ++m)
          for (int64_t n = 0; n < 32; ++n) {
            double sum = 0;  // exact: small products, short sums
            for (int64_t d = 0; d < 128; ++d)
              sum += qv(((b * 2 + h) * 16 + m) * 128 + d) * kv((h * 128 + d) * 32 + n);
            REQUIRE(at(s, ((b * 2 + h) * 16 + m) * 32 + n) == f32(sum));
          }
  });
}

TEST_CASE("interpreter: batched_matmul_t multiplies each query page by its key page transposed") {
  auto qv = [](int64_t i) { return double(i % 9) / 4 - 1; };
  auto kv = [](int64_t i) { return double(i % 5) / 2 - 1; };
  runBoth("batched_matmul_t", [&] {
    return std::vector<RtValue>{tensor(DType::F16, {4, 16, 64}, qv), tensor(DType::F16, {4, 32, 64}, kv),
                                tensor(DType::F32, {4, 16, 32}, [](int64_t) { return 0; })};
  }, [&](const std::vector<RtValue>& a) {
    const Tensor& s = std::get<Tensor>(a[2]);
    for (int64_t b = 0; b < 4; ++b)
      for (int64_t m = 0; m < 16; ++m)
        for (int64_t n = 0; n < 32; ++n) {
          double sum = 0;
          for (int64_t d = 0; d < 64; ++d) sum += qv((b * 16 + m) * 64 + d) * kv((b * 32 + n) * 64 + d);
          REQUIRE(at(s, (b * 16 + m) * 32 + n) == f32(sum));
        }
  });
}

TEST_CASE("interpreter: softmax normalizes each row, its row blocks over the blocks") {
  auto x = [](int64_t i) { return double((i * 37) % 101) / 25 - 2; };
  for (int64_t M : {64, 17, 100}) {  // whole row blocks, and a last one of 1 and of 4 rows
    CAPTURE(M);
    runBoth("softmax", [&] {
      return std::vector<RtValue>{tensor(DType::F32, {M, 128}, x),
                                  tensor(DType::F32, {M, 128}, [](int64_t) { return NAN; }), size(M)};
    }, [&](const std::vector<RtValue>& a) {
      const Tensor& y = std::get<Tensor>(a[1]);
      for (int64_t r = 0; r < M; ++r) {
        double m = -INFINITY, s = 0;
        for (int64_t c = 0; c < 128; ++c) m = std::max(m, f32(x(r * 128 + c)));
        std::vector<double> e(128);
        for (int64_t c = 0; c < 128; ++c) s = f32(s + (e[size_t(c)] = f32(std::exp(f32(f32(x(r * 128 + c)) - m)))));
        for (int64_t c = 0; c < 128; ++c) REQUIRE(at(y, r * 128 + c) == f32(e[size_t(c)] / s));
      }
    });
  }
}

TEST_CASE("numeric: bf16 and f16 round to nearest even, cast modes") {
  CHECK(roundFloat(1 + 1.0 / 256, DType::BF16) == 1);              // halfway: to even
  CHECK(roundFloat(1 + 3.0 / 256, DType::BF16) == 1 + 4.0 / 256);  // halfway: to even (up)
  CHECK(roundFloat(65520, DType::F16) == INFINITY);                // past the largest f16
  CHECK(roundFloat(65519, DType::F16) == 65504);
  CHECK(roundFloat(std::ldexp(1, -25), DType::F16) == 0);          // half the smallest subnormal: to even
  CHECK(roundFloat(std::ldexp(3, -26), DType::F16) == std::ldexp(1, -24));
  CHECK(roundFloat(1.0 / 3, DType::F32) == double(1.0f / 3));
  CHECK(roundFloat(2.5, DType::F32, ir::RoundMode::Floor) == 2.5);
  Num n;
  n.f = -2.5;
  CHECK(convert(n, DType::F32, DType::I32, ir::RoundMode::CastRint).i == -2);
  CHECK(convert(n, DType::F32, DType::I32, ir::RoundMode::Round).i == -3);
  CHECK(convert(n, DType::F32, DType::I32, ir::RoundMode::Floor).i == -3);
  CHECK(convert(n, DType::F32, DType::I32, ir::RoundMode::Ceil).i == -2);
  CHECK(convert(n, DType::F32, DType::I32, ir::RoundMode::Trunc).i == -2);
  CHECK(convert(n, DType::F32, DType::I32, ir::RoundMode::Odd).i == -3);
  n.f = 1e10;
  CHECK(convert(n, DType::F32, DType::I8, ir::RoundMode::Rint).i == 127);  // saturates
  n.i = 300;
  CHECK(convert(n, DType::I32, DType::I8, ir::RoundMode::Rint).i == 44);   // wraps
}

TEST_CASE("npy: every dtype round-trips through the file format, other float arrays are rounded") {
  std::string dir = std::filesystem::temp_directory_path().string();
  for (DType d : {DType::F32, DType::F16, DType::BF16, DType::I8, DType::I16, DType::I32, DType::I64, DType::U8,
                  DType::U16, DType::U32, DType::Bool}) {
    CAPTURE(ir::dtypeName(d));
    Tensor t = tensor(d, {3, 5}, [&](int64_t i) {
      if (d == DType::Bool) return double(i % 2);
      return isFloatType(d) ? double(i) / 3 - 2 : double(i * 7 - 40);
    });
    std::string path = dir + "/tilec-npy-" + std::to_string(getpid()) + ".npy";
    { std::ofstream(path, std::ios::binary) << npyBytes(t); }
    Tensor back;
    std::string error;
    REQUIRE_MESSAGE(readNpy(path, d, back, error), error);
    CHECK(back.dims == t.dims);
    for (size_t i = 0; i < t.data->elems.size(); ++i) {
      if (isFloatType(d)) CHECK(back.data->elems[i].f == t.data->elems[i].f);
      else CHECK(back.data->elems[i].i == wrapInt(t.data->elems[i].i, d));
    }
    if (d == DType::F32) {  // an f32 array read as a bf16 tensor is rounded to nearest even
      Tensor narrow;
      REQUIRE(readNpy(path, DType::BF16, narrow, error));
      CHECK(narrow.data->elems[1].f == roundFloat(t.data->elems[1].f, DType::BF16));
      CHECK_FALSE(readNpy(path, DType::I32, narrow, error));
      CHECK(error == "it holds f32 elements but the tensor is i32");
    }
    std::remove(path.c_str());
  }
}
