// The IR verifier: each structural rule with a module that passes and one that
// fails (code, line, column, message), and op rules surfacing with their E02xx codes.
#include <doctest/doctest.h>

#include "ir/IRText.h"
#include "ir/OpDefs.h"
#include "test_support.h"

using namespace tilec;
using namespace tilec::ir;

namespace {

using Checked = testing::ParsedTir;

std::unique_ptr<Checked> parsed(const std::string& text) {
  auto c = std::make_unique<Checked>("v.tir", text);
  REQUIRE_MESSAGE(c->module, text);
  return c;
}

// Verifies `text`; returns the verifier's diagnostics (empty when valid).
std::vector<std::string> verify(const std::string& text) {
  auto c = parsed(text);
  bool ok = verifyModule(*c->module, c->diags);
  CHECK(ok == c->diags.all().empty());
  return c->diagnostics(false);
}

const char* kHeader = "func @k(%x: tensor<f32, [%S, 64]> in, %y: tensor<f32, [%S, 64]> out, %S: index) incore {\n";

std::string fn(const std::string& body) { return kHeader + body + "}\n"; }

Op& firstOp(Module& m) { return *m.functions()[0]->body().ops().front(); }

}  // namespace

TEST_CASE("valid modules verify") {
  CHECK(verify(fn("  scf.for %c = 0 to %S step 16 {\n"
                  "    %t = tile.load %x {offsets = [%c, 0]} : tile<f32, [16, 64], valid=[min(16, %S - %c), 64]>\n"
                  "    %u = tile.exp %t : tile<f32, [16, 64], valid=[min(16, %S - %c), 64]>\n"
                  "    tile.store %u, %y {offsets = [%c, 0]}\n"
                  "  }\n"))
            .empty());
  CHECK(verify(R"(func @qk(%q: tensor<f32, [32, 128]> in, %k: tensor<f32, [128, 32]> in, %s: tensor<f32, [32, 32]> out) incore {
  %acc = tile.create : tile<f32, [32, 32], acc>
  %acc_1 = scf.for %i = 0 to 4 step 1 iter_args(%acc_2 = %acc) -> (tile<f32, [32, 32], acc>) {
    %a = tile.load %q {offsets = [0, %i * 32]} : tile<f32, [32, 32], mat>
    %b = tile.load %k {offsets = [%i * 32, 0]} : tile<f32, [32, 32], mat>
    %a_1 = tile.move %a : tile<f32, [32, 32], left>
    %b_1 = tile.move %b : tile<f32, [32, 32], right>
    %m = tile.matmul_acc %acc_2, %a_1, %b_1 {init = %i == 0} : tile<f32, [32, 32], acc>
    scf.yield %m
  }
  tile.store %acc_1, %s {offsets = [0, 0]}
}
)")
            .empty());
  CHECK(verify(fn("  %n = arith.index {value = 0} : index\n"
                  "  %n_1 = scf.for %i = 0 to 4 step 1 iter_args(%m = %n) -> (index) {\n"
                  "    %p = scf.if %m < 2 -> (index) {\n"
                  "      %q = arith.index {value = %m + 1} : index\n"
                  "      scf.yield %q\n"
                  "    } else {\n"
                  "      scf.yield %m\n"
                  "    }\n"
                  "    scf.yield %p\n"
                  "  }\n"
                  "  %t = tile.load %x {offsets = [%n_1, 0]} : tile<f32, [4, 64]>\n"))
            .empty());
}

TEST_CASE("dominance: a use before the definition") {
  auto c = parsed(fn("  %a = arith.index {value = 1} : index\n  %b = arith.index {value = 2} : index\n"
                     "  %t = tile.load %x {offsets = [%a, 0]} : tile<f32, [4, 64]>\n  %u = tile.exp %t : tile<f32, [4, 64]>\n"));
  Block& body = c->module->functions()[0]->body();
  Op* load = std::next(body.ops().begin(), 2)->get();
  Op* user = std::next(body.ops().begin(), 3)->get();
  body.moveHere(load);  // now after its user
  CHECK(!verifyModule(*c->module, c->diags));
  auto e = c->diagnostics(false);
  REQUIRE(e.size() == 1);
  CHECK(e[0] == "5:3: E0302: tile.exp uses '%t', which does not dominate it; define it earlier in this block or an "
                "enclosing one");
  REQUIRE(c->diags.all()[0].notes.size() == 1);
  CHECK(c->diags.all()[0].notes[0].message == "'%t' is defined here");
  body.moveHere(load, user);  // restore SSA order for teardown
  CHECK(verifyModule(*c->module, c->diags));
}

TEST_CASE("dominance: a value of a finished region, in an operand and in an expression") {
  auto c = parsed(fn("  %t = tile.create : tile<f32, [4, 64]>\n"
                     "  scf.for %i = 0 to 4 step 1 {\n"
                     "    %u = tile.exp %t : tile<f32, [4, 64]>\n"
                     "  }\n"
                     "  %v = tile.exp %t : tile<f32, [4, 64]>\n"
                     "  tile.store %v, %y {offsets = [0, 0]}\n"));
  Block& body = c->module->functions()[0]->body();
  Op* loop = std::next(body.ops().begin())->get();
  Value* inner = loop->body().ops().front()->result();
  Op* exp = std::next(body.ops().begin(), 2)->get();
  exp->setOperand(0, inner);
  Op* store = std::next(body.ops().begin(), 3)->get();
  store->set(attr::offsets, std::vector<Expr>{Expr::var(loop->body().arg(0)), Expr::constant(0)});
  CHECK(!verifyModule(*c->module, c->diags));
  auto e = c->diagnostics(false);
  REQUIRE(e.size() == 2);
  CHECK(e[0] == "6:3: E0302: tile.exp uses '%u', which does not dominate it; define it earlier in this block or an "
                "enclosing one");
  CHECK(e[1] == "7:3: E0302: attribute 'offsets' of tile.store uses '%i', which is not visible here; use a value "
                "defined before it");
}

TEST_CASE("expressions name only integer and bool values") {
  auto c = parsed(fn("  %t = tile.create : tile<f32, [4, 64]>\n  %a = arith.index {value = 1} : index\n"));
  Block& body = c->module->functions()[0]->body();
  Op* index = std::next(body.ops().begin())->get();
  index->set(attr::expr, Expr::var(body.ops().front()->result()) + Expr::constant(1));
  CHECK(!verifyModule(*c->module, c->diags));
  auto e = c->diagnostics(false);
  REQUIRE(e.size() == 1);
  CHECK(e[0] == "3:3: E0302: attribute 'value' of arith.index uses '%t' of type tile<f32, [4, 64]>, but "
                "expressions take only index, integer and bool values; use an integer value");
}

TEST_CASE("scf.yield placement") {
  CHECK(verify(fn("  scf.yield\n")) ==
        std::vector<std::string>{"2:3: E0302: scf.yield may only end a scf.for or scf.if body; remove it"});
  CHECK(verify(fn("  scf.for %i = 0 to 4 step 1 {\n    scf.yield\n    %a = arith.index {value = %i} : index\n  }\n")) ==
        std::vector<std::string>{
            "3:5: E0302: scf.yield must be the last op of its block; move the ops after it before it"});
}

TEST_CASE("scf.for carries: yield count and types, results, block arguments") {
  const std::string carried = "  %t = tile.create : tile<f32, [4, 64]>\n"
                              "  %r = scf.for %i = 0 to 4 step 1 iter_args(%a = %t) -> (tile<f32, [4, 64]>) {\n";
  CHECK(verify(fn(carried + "    scf.yield %a\n  }\n")).empty());
  CHECK(verify(fn(carried + "  }\n")) ==
        std::vector<std::string>{"4:3: E0302: scf.yield passes 0 value(s) but scf.for body must yield 1; yield one "
                                 "value per result"});
  CHECK(verify(fn(carried + "    %h = tile.create : tile<f16, [4, 64]>\n    scf.yield %h\n  }\n")) ==
        std::vector<std::string>{"5:5: E0302: scf.yield value 0 ('%h') has type tile<f16, [4, 64]> but scf.for "
                                 "expects tile<f32, [4, 64]>; yield a value of that type"});
  // Block arguments and results edited to disagree.
  auto c = parsed(fn(carried + "    scf.yield %a\n  }\n"));
  Op& loop = **std::next(c->module->functions()[0]->body().ops().begin());
  loop.body().arg(1)->setType(Type::tile(DType::F16, {4, 64}));
  loop.body().arg(0)->setType(Type::scalar(DType::I32));
  CHECK(!verifyModule(*c->module, c->diags));
  auto e = c->diagnostics(false);
  REQUIRE(e.size() >= 3);
  CHECK(e[0] == "3:3: E0302: scf.for induction variable '%i' has type i32; it must be index");
  CHECK(e[1] == "3:3: E0302: scf.for carried value '%a' has type tile<f16, [4, 64]> but its initial value '%t' has "
                "type tile<f32, [4, 64]>; make them equal");
  CHECK(e[2] == "3:3: E0302: scf.for result '%r' has type tile<f32, [4, 64]> but the loop carries tile<f16, [4, "
                "64]>; make them equal");
  // A missing block argument.
  auto d = parsed(fn("  scf.for %i = 0 to 4 step 1 {\n  }\n"));
  Op& loop2 = firstOp(*d->module);
  loop2.addOperand(d->module->functions()[0]->param(2));
  loop2.addResult(Type::index());
  CHECK(!verifyModule(*d->module, d->diags));
  CHECK(d->diagnostics(false)[0] == "2:3: E0302: scf.for body has 1 argument(s) but needs 2 (the induction variable, then one "
                          "per carried value)");
}

TEST_CASE("scf.if: both branches yield the result types, a missing terminator") {
  const std::string head = "  %t = tile.create : tile<f32, [4, 64]>\n  %r = scf.if %S > 4 -> (tile<f32, [4, 64]>) {\n";
  CHECK(verify(fn(head + "    scf.yield %t\n  } else {\n    scf.yield %t\n  }\n")).empty());
  CHECK(verify(fn(head + "    scf.yield %t\n  } else {\n    %S2 = arith.index {value = %S} : index\n    scf.yield %S2\n  }\n")) ==
        std::vector<std::string>{"7:5: E0302: scf.yield value 0 ('%S2') has type index but scf.if expects "
                                 "tile<f32, [4, 64]>; yield a value of that type"});
  auto c = parsed(fn(head + "    scf.yield %t\n  } else {\n    scf.yield %t\n  }\n"));
  Op& branch = **std::next(c->module->functions()[0]->body().ops().begin());
  branch.body(1).erase(branch.body(1).back());
  CHECK(!verifyModule(*c->module, c->diags));
  CHECK(c->diagnostics(false) == std::vector<std::string>{"3:3: E0302: scf.if else region does not end with scf.yield; end it "
                                                "with scf.yield of the 1 carried value(s)"});
}

TEST_CASE("parameters: tensors take a direction, other values none") {
  auto c = parsed("func @k(%x: tensor<f32, [16]> in, %n: index) incore {\n}\n");
  CHECK(verifyModule(*c->module, c->diags));
  auto d = parsed("func @k(%x: tensor<f32, [16]>, %n: index in) incore {\n}\n");
  CHECK(!verifyModule(*d->module, d->diags));
  CHECK(d->diagnostics(false) == std::vector<std::string>{
                           "1:9: E0302: tensor parameter '%x' has no direction; mark it in, out or inout",
                           "1:32: E0302: parameter '%n' is not a tensor but is marked in; only tensor parameters take "
                           "a direction"});
}

TEST_CASE("op rules are reported with their own codes, naming the operand") {
  auto e = verify(fn("  %a = tile.create : tile<f32, [16, 64]>\n  %b = tile.create : tile<f32, [16, 1]>\n"
                     "  %c = tile.add %a, %b : tile<f32, [16, 64]>\n"));
  REQUIRE(e.size() == 1);
  CHECK(e[0] == "4:3: E0202: '+' operands have different shapes ([16, 64] and [16, 1]); to combine each row with a "
                "per-row value use row_expand_add(tile, column)");
  auto c = parsed(fn("  %a = tile.create : tile<f32, [16, 64]>\n  %b = tile.create : tile<f16, [16, 64]>\n"
                     "  %c = tile.mul %a, %b : tile<f32, [16, 64]>\n"));
  CHECK(!verifyModule(*c->module, c->diags));
  const Diagnostic& d = c->diags.all().at(0);
  CHECK(diagCode(d.id) == std::string("E0201"));
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].message == "'%b' is defined here");
  CHECK(c->sources.lineCol(d.notes[0].range.file, d.notes[0].range.begin).line == 3);
}

TEST_CASE("a result type that differs from the inferred one") {
  CHECK(verify(fn("  %a = tile.create : tile<f32, [16, 64]>\n  %b = tile.exp %a : tile<f32, [16, 64], vec>\n")) ==
        std::vector<std::string>{"3:3: E0219: tile.exp result has type tile<f32, [16, 64], vec> but its operands "
                                 "give tile<f32, [16, 64]>; use the inferred type"});
}

TEST_CASE("attribute schema violations") {
  auto c = parsed(fn("  %t = tile.load %x {offsets = [0, 0]} : tile<f32, [4, 64]>\n"));
  Op& load = firstOp(*c->module);
  load.remove(attr::offsets);
  load.attrs()["colour"] = int64_t(3);  // no op declares it
  CHECK(!verifyModule(*c->module, c->diags));
  CHECK(c->diagnostics(false) == std::vector<std::string>{"2:3: E0218: tile.load needs a 'offsets' attribute (expression "
                                                "list); add it"});
  load.set(attr::offsets, std::vector<Expr>{Expr::constant(0), Expr::constant(0)});
  DiagnosticEngine diags(c->sources);
  CHECK(!verifyModule(*c->module, diags));
  REQUIRE(diags.all().size() == 1);
  CHECK(diags.all()[0].message == "tile.load has no attribute 'colour'; remove it (known: addrs, buffers, offsets, window)");
  load.attrs().erase("colour");
  load.set(attr::buffers, std::vector<int64_t>{0, 1});
  DiagnosticEngine diags2(c->sources);
  CHECK(!verifyModule(*c->module, diags2));
  REQUIRE(diags2.all().size() == 1);
  CHECK(diags2.all()[0].message == "tile.load has 2 buffer ids for 1 results; give one id per result (-1 for non-tiles)");
  CHECK(verify(fn("  scf.for unroll %i = 0 to 4 step 1 {\n  }\n")).empty());
  auto m = parsed(fn("  scf.for %i = 0 to 4 step 1 {\n  }\n"));
  firstOp(*m->module).attrs()["mode"] = std::string("sideways");  // ill-typed on purpose
  CHECK(!verifyModule(*m->module, m->diags));
  CHECK(m->diagnostics(false) == std::vector<std::string>{"2:3: E0218: loop mode 'sideways' is unknown; use serial, unroll, "
                                                "parallel or parallel_cyclic"});
}

TEST_CASE("every violation is reported, not only the first") {
  auto e = verify(fn("  scf.yield\n  %a = tile.create : tile<f32, [16, 64]>\n  %b = tile.create : tile<f32, [8, 64]>\n"
                     "  %c = tile.sub %a, %b : tile<f32, [16, 64]>\n  %d = tile.exp %c : tile<f16, [16, 64]>\n"));
  REQUIRE(e.size() == 3);
  CHECK(e[0].rfind("2:3: E0302", 0) == 0);
  CHECK(e[1].rfind("5:3: E0202", 0) == 0);
  CHECK(e[2].rfind("6:3: E0219", 0) == 0);
}
