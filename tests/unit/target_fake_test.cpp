// The target registry carries a target that src/ir and src/cli know nothing of: a toy
// target defined here, with its own memory, a tiny pipeline and a text emitter, compiles
// a sample through the real driver (tilec's main, as a library).
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "cli/Driver.h"
#include "cli/Options.h"
#include "ir/OpDefs.h"
#include "target/Registry.h"

using namespace tilec;

namespace {

// One line per op: its name and its result types, which is all a toy assembler needs.
bool emitToyText(const ir::Module& m, OutputBuffer& os, DiagnosticEngine&, const target::FlagValues&) {
  for (const auto& f : m.functions()) {
    os << "kernel " << f->name() << "\n";
    f->walk([&](ir::Op& op) {
      os << "  " << op.name();
      for (const ir::Value* r : op.results()) os << " " << r->type().str([](const ir::Value*) { return "?"; });
      os << "\n";
    });
  }
  return true;
}

// One memory, `sram`, where every tile is row-major; one kernel kind.
const ir::TargetModel& toyModel() {
  static const ir::TargetModel kModel{
      "toy",
      {{"none", 0},
       {"sram", ir::kComputeSpace | ir::kMatrixSpace | ir::kMatmulStage | ir::kMatmulResult, "scratchpad", 4 * 1024, 16}},
      {"kernel"},
      [](ir::SpaceId, const std::vector<int64_t>&) { return ir::TileLayout{}; }};
  return kModel;
}

const target::TargetDesc& toyTarget() {
  static const target::TargetDesc kToy = [] {
    target::TargetDesc t{"toy", "a test target: flat 2-D tiles, printed as text", &toyModel(), {}, {}, {}};
    t.passes.addAll(targetNeutralPasses());
    t.pipeline = {"verify", "unroll-loops"};
    t.formats = {{"toy-text", "op names and types", ".toy", PropUnrolled, /*oneKernel=*/false, &emitToyText}};
    // Its emitter prints any op by name, so its op table is the op table: every core and
    // tile op, none of a runtime sequence or a tile region.
    t.groups = ir::groupBit(ir::OpGroup::Core) | ir::groupBit(ir::OpGroup::Tile);
    t.hasOpRow = [](ir::OpKind k) { return ir::opInfo(k).group == ir::OpGroup::Core || ir::opInfo(k).group == ir::OpGroup::Tile; };
    return t;
  }();
  return kToy;
}

int compile(std::vector<std::string> args) {
  args.insert(args.begin(), "tilec");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  cli::ParseResult parsed = cli::parseOptions(int(argv.size()), argv.data());
  if (const int* code = std::get_if<int>(&parsed)) return *code;
  return cli::Driver(std::get<cli::Options>(parsed)).run();
}

}  // namespace

TEST_CASE("a target defined only in a test compiles a sample through the driver") {
  if (!target::findTarget("toy")) REQUIRE(target::registerTarget(toyTarget()));
  REQUIRE(target::findTarget("toy") == &toyTarget());
  std::string out = (std::filesystem::temp_directory_path() / ("tilec-toy-" + std::to_string(getpid()) + ".toy")).string();
  std::string sample = std::string(TILEC_SOURCE_DIR) + "/samples/add3d.tile";

  CHECK(compile({sample, "--target=toy", "-o", out}) == 0);
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(out.c_str());
  CHECK(text.str().rfind("kernel add3d\n", 0) == 0);
  CHECK(text.str().find("  tile.load tile<f32, [") != std::string::npos);
  CHECK(text.str().find("  tile.store\n") != std::string::npos);
  CHECK(text.str().find("  tile.load tile<f32, [2, ") != std::string::npos);  // N-D tiles are left as written

  // Its format and passes, not PTO's: --emit=pto is no output of toy, and PTO's passes,
  // flattening to 2-D among them, are not toy's.
  CHECK(compile({sample, "--target=toy", "--emit=pto", "-o", out}) == 2);
  CHECK(compile({sample, "--target=toy", "--passes=verify,pto-legality", "-o", out}) == 2);
  CHECK(compile({sample, "--target=toy", "--passes=verify,flatten-nd-to-2d", "-o", out}) == 2);
  CHECK(!std::filesystem::exists(out));
}

TEST_CASE("the toy target's spaces and kernel kinds are the only ones its kernels may name") {
  if (!target::findTarget("toy")) REQUIRE(target::registerTarget(toyTarget()));
  std::string dir = std::filesystem::temp_directory_path().string();
  std::string src = dir + "/tilec-toy-" + std::to_string(getpid()) + ".tile";
  std::string out = dir + "/tilec-toy-" + std::to_string(getpid()) + ".toy";
  auto write = [&](const std::string& text) { std::ofstream(src) << text; };

  write("kernel k(x: in f32[16, 16], y: out f32[16, 16]) {\n"
        "  let a = load(x, [0, 0], [16, 16], space = sram);\n"
        "  store(y, [0, 0], a);\n}\n");
  CHECK(compile({src, "--target=toy", "-o", out}) == 0);
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().find("tile.load tile<f32, [16, 16], sram>") != std::string::npos);

  write("kernel k(x: in f32[16, 16], y: out f32[16, 16]) {\n"
        "  let a = load(x, [0, 0], [16, 16], space = vec);\n"
        "  store(y, [0, 0], a);\n}\n");
  CHECK(compile({src, "--target=toy", "-o", out}) == 1);
  CHECK(compile({src, "--target=a2a3", "-o", out}) == 0);
  write("aiv kernel k(x: in f32[16, 16], y: out f32[16, 16]) {\n"
        "  store(y, [0, 0], load(x, [0, 0], [16, 16]));\n}\n");
  CHECK(compile({src, "--target=toy", "-o", out}) == 1);
  std::remove(src.c_str());
  std::remove(out.c_str());
}
