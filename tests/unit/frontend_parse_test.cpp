// Parser, AST builder, token dump and syntax diagnostics of the .tile frontend.
#include <doctest/doctest.h>

#include <sstream>

#include "frontend/Ast.h"
#include "frontend/Frontend.h"

using namespace tilec;

namespace {

// Parses `src` and keeps the diagnostics as "line:col Ecode message" lines.
struct Parsed {
  explicit Parsed(const std::string& src) : diags(sm) {
    file = sm.addBuffer("t.tile", src);
    module = frontend::parse(sm, file, diags);
  }
  std::string errors() const {
    std::string out;
    for (const Diagnostic& d : diags.all()) {
      LineCol lc = sm.lineCol(d.range.file, d.range.begin);
      out += std::to_string(lc.line) + ":" + std::to_string(lc.column) + " " + diagCode(d.id) + " " + d.message + "\n";
    }
    return out;
  }
  std::string ast() const {
    std::ostringstream os;
    frontend::printAst(*module, sm, os);
    return os.str();
  }
  SourceManager sm;
  DiagnosticEngine diags;
  FileId file = 0;
  std::unique_ptr<ast::Module> module;
};

const ast::Kernel& kernelAt(const ast::Module& m, size_t i) {
  return *std::get<std::unique_ptr<ast::Kernel>>(m.decls.at(i));
}

}  // namespace

TEST_CASE("frontend parse: kernels, kinds, parameters and sizes") {
  Parsed p(
      "const C = 16;\n"
      "aiv kernel a(x: in bf16[S, 512], y: out f32[S, C], z: inout i8[4], alpha: f32, n: i32) where S: dyn {}\n"
      "kernel b(q: in f16[2, 3, 4],) where S: dyn, T: dyn { }\n");
  REQUIRE(p.module);
  CHECK(p.errors().empty());
  REQUIRE(p.module->decls.size() == 3);
  CHECK(std::holds_alternative<std::unique_ptr<ast::ConstDecl>>(p.module->decls[0]));
  const ast::Kernel& a = kernelAt(*p.module, 1);
  CHECK(a.name == "a");
  CHECK(a.kind == "aiv");
  REQUIRE(a.params.size() == 5);
  CHECK(a.params[0].dir == ir::ParamDir::In);
  CHECK(a.params[0].dtype == ir::DType::BF16);
  CHECK(a.params[0].isTensor);
  CHECK(a.params[0].dims.size() == 2);
  CHECK(a.params[1].dir == ir::ParamDir::Out);
  CHECK(a.params[2].dir == ir::ParamDir::InOut);
  CHECK_FALSE(a.params[3].isTensor);
  CHECK(a.params[3].dir == ir::ParamDir::None);
  CHECK(a.params[4].dtype == ir::DType::I32);
  REQUIRE(a.symbols.size() == 1);
  CHECK(a.symbols[0].name == "S");
  const ast::Kernel& b = kernelAt(*p.module, 2);
  CHECK(b.kind.empty());
  CHECK(b.params.size() == 1);
  CHECK(b.symbols.size() == 2);
}

TEST_CASE("frontend parse: operator precedence and the AST dump") {
  Parsed p("kernel k() {\n  let v = -a + b * c % 2 < 4 && !f || g == h;\n}\n");
  REQUIRE(p.module);
  CHECK(p.ast() ==
        "Module\n"
        "  Kernel k @1:1\n"
        "    Block @1:12\n"
        "      Let v @2:3\n"
        "        Binary || @2:11\n"
        "          Binary && @2:11\n"
        "            Binary < @2:11\n"
        "              Binary + @2:11\n"
        "                Unary - @2:11\n"
        "                  Name a @2:12\n"
        "                Binary % @2:16\n"
        "                  Binary * @2:16\n"
        "                    Name b @2:16\n"
        "                    Name c @2:20\n"
        "                  Int 2 @2:24\n"
        "              Int 4 @2:28\n"
        "            Unary ! @2:33\n"
        "              Name f @2:34\n"
        "          Binary == @2:39\n"
        "            Name g @2:39\n"
        "            Name h @2:44\n");
}

TEST_CASE("frontend parse: statements, calls and annotations in the AST dump") {
  Parsed p(
      "kernel k(x: in f32[16, 16]) {\n"
      "  var t: tile<f32, [16, 16], vec, valid = [8, 16]> = load(x, [0, 0], [16, 16], space = vec);\n"
      "  unroll for i in 0 .. 4 step 2 { t += cast<f32>(t); }\n"
      "  if i == 0 { } else if i == 1 { } else { t = t; }\n"
      "}\n");
  REQUIRE(p.module);
  CHECK(p.ast() ==
        "Module\n"
        "  Kernel k @1:1\n"
        "    Param x in f32 tensor @1:10\n"
        "      Int 16 @1:20\n"
        "      Int 16 @1:24\n"
        "    Block @1:29\n"
        "      Var t @2:3\n"
        "        Type tile f32 vec @2:10\n"
        "          Shape\n"
        "            Int 16 @2:21\n"
        "            Int 16 @2:25\n"
        "          Valid\n"
        "            Int 8 @2:44\n"
        "            Int 16 @2:47\n"
        "        Call load @2:54\n"
        "          Name x @2:59\n"
        "          List @2:62\n"
        "            Int 0 @2:63\n"
        "            Int 0 @2:66\n"
        "          List @2:70\n"
        "            Int 16 @2:71\n"
        "            Int 16 @2:75\n"
        "          Keyword space @2:80\n"
        "            Name vec @2:88\n"
        "      For i unroll @3:3\n"
        "        Int 0 @3:19\n"
        "        Int 4 @3:24\n"
        "        Int 2 @3:31\n"
        "        Block @3:33\n"
        "          Assign t += @3:35\n"
        "            Call cast<f32> @3:40\n"
        "              Name t @3:50\n"
        "      If @4:3\n"
        "        Binary == @4:6\n"
        "          Name i @4:6\n"
        "          Int 0 @4:11\n"
        "        Block @4:13\n"
        "        Else\n"
        "          If @4:22\n"
        "            Binary == @4:25\n"
        "              Name i @4:25\n"
        "              Int 1 @4:30\n"
        "            Block @4:32\n"
        "            Else\n"
        "              Block @4:41\n"
        "                Assign t = @4:43\n"
        "                  Name t @4:47\n");
}

TEST_CASE("frontend parse: literals") {
  Parsed p("const A = 0x1F;\nconst B = 2.5e-1;\nconst C = 9223372036854775807;\nconst D = true;\n");
  REQUIRE(p.module);
  CHECK(p.ast() ==
        "Module\n"
        "  Const A @1:1\n"
        "    Int 31 @1:11\n"
        "  Const B @2:1\n"
        "    Float 2.5e-1 @2:11\n"
        "  Const C @3:1\n"
        "    Int 9223372036854775807 @3:11\n"
        "  Const D @4:1\n"
        "    Bool true @4:11\n");
}

TEST_CASE("frontend parse: token dump") {
  SourceManager sm;
  FileId f = sm.addBuffer("t.tile", "let x = 0..4; // c\n@ 1.5 \"s\"");
  std::ostringstream os;
  frontend::dumpTokens(sm, f, os);
  CHECK(os.str() ==
        "1:1 LET 'let'\n"
        "1:5 ID 'x'\n"
        "1:7 ASSIGN '='\n"
        "1:9 INT '0'\n"
        "1:10 DOTDOT '..'\n"
        "1:12 INT '4'\n"
        "1:13 SEMI ';'\n"
        "2:1 BAD_CHAR '@'\n"
        "2:3 FLOAT '1.5'\n"
        "2:7 STRING '\"s\"'\n"
        "2:10 EOF ''\n");
}

TEST_CASE("frontend parse: syntax errors name what was expected") {
  struct Case {
    const char* src;
    const char* error;
  };
  const Case cases[] = {
      {"kernel k() {\n  let a = 1\n  let b = 2;\n}\n", "2:12 E0101 expected ';' after the statement\n"},
      {"kernel k() { let a = (1 + ); }", "1:27 E0101 expected an expression before ')'\n"},
      {"kernel k() { let a = ; }", "1:22 E0101 expected an expression before ';'\n"},
      {"kernel k() { let in = 3; }", "1:18 E0101 'in' is a keyword and cannot be used as a name; choose another name\n"},
      {"kernel k(x: in f32[16] { }", "1:23 E0101 expected ')' after ']'\n"},
      {"kernel k(x: foo[16]) { }", "1:13 E0101 expected a parameter direction or dtype before 'foo'\n"},
      {"kernel k() { for i in 0 .. { } }", "1:28 E0101 expected an expression before '{'\n"},
      {"kernel k() { f(a,, b); }", "1:18 E0101 expected an expression before ','\n"},
      {"const X = 1;\nconst Y = 2", "2:12 E0101 expected ';' after the declaration\n"},
      {"kernel k() { let a = 3;; }", "1:24 E0101 unexpected ';'; remove it\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.src);
    Parsed p(c.src);
    CHECK_FALSE(p.module);
    CHECK(p.errors() == c.error);
  }
}

TEST_CASE("frontend parse: every syntax error is reported in one run") {
  Parsed p("kernel k() {\n  let a = ;\n  let b = (1;\n  let c = 3\n}\n");
  CHECK_FALSE(p.module);
  CHECK(p.errors() ==
        "2:11 E0101 expected an expression before ';'\n"
        "3:13 E0101 expected ')' after '1'\n"
        "4:12 E0101 expected ';' after the statement\n");
}

TEST_CASE("frontend parse: lexical errors") {
  SUBCASE("bad character") {
    Parsed p("kernel k() { let a = 1 $ 2; }");
    CHECK(p.errors() == "1:24 E0102 character '$' is not valid in .tile source; remove it\n");
  }
  SUBCASE("unterminated comment swallows the rest without cascading errors") {
    Parsed p("kernel k() {\n  /* open\n  let a = 1;\n");
    CHECK(p.errors() == "2:3 E0105 block comment is not closed; end it with '*/'\n");
  }
  SUBCASE("unterminated string") {
    Parsed p("import \"a.tile;\n");
    CHECK(p.errors() == "1:8 E0105 string is not closed; end it with '\"' on the same line\n");
  }
  SUBCASE("integer literal out of range") {
    Parsed p("const A = 9223372036854775808;");
    CHECK(p.errors() == "1:11 E0104 integer literal 9223372036854775808 does not fit in 64 bits; use a value below 2^63\n");
  }
  SUBCASE("columns count code points after non-ASCII text") {
    Parsed p("// é\nkernel k() { let a = 1 $ 2; }");
    CHECK(p.errors() == "2:24 E0102 character '$' is not valid in .tile source; remove it\n");
  }
}

TEST_CASE("frontend parse: reserved syntax is parsed and rejected with E0103") {
  Parsed p(
      "kernel k() {\n"
      "  pattern c: f32 = 3;\n"
      "  region r (a) { }\n"
      "}\n");
  CHECK_FALSE(p.module);
  CHECK(p.errors() ==
        "2:3 E0103 'pattern' is reserved for a later version; build access patterns with tap, slice "
        "or a tiler's tile_at\n"
        "3:3 E0103 'region' is reserved for a later version; borrow slots with partview(tile, [R, C]) and build "
        "tiles with tile_array\n");
}

TEST_CASE("frontend parse: sequence kernels and the data movement built-ins are ordinary syntax") {
  Parsed p("sequence kernel s(x: in i32[64]) { fill(x, column = 0, channel = 0); wait_fill(column = 0, channel = 0); }");
  CHECK(p.module);
  CHECK(p.errors() == "");
}

TEST_CASE("frontend parse: unknown annotation types") {
  Parsed p("kernel k() { let a: int = 1; let b: tensor<f32, [4]> = 2; }");
  CHECK(p.errors() ==
        "1:21 E0718 unknown type 'int'; use a dtype, 'index' or 'tile<...>'\n"
        "1:37 E0718 unknown type 'tensor'; write 'tile<dtype, [shape], ...>'\n");
}
