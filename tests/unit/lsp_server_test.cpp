// The server's message loop, played from a stream that holds the whole session at once,
// as when a client has sent everything before the server reads: what is answered, what
// is refused and how many analyses are published.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "lsp/Server.h"
#include "lsp/Transport.h"

using namespace tilec::lsp;
using json = nlohmann::json;

namespace {

const char* const kUri = "file:///nonexistent/k.tile";
const char* const kGood = "kernel k(x: in f32[16, 16], y: out f32[16, 16]) {\n  store(y, [0, 0], load(x, [0, 0], [16, 16]));\n}\n";

json request(int id, const std::string& method, json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

json notification(const std::string& method, json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

json initialize(int id, json options = json::object()) {
  return request(id, "initialize", {{"capabilities", json::object()}, {"initializationOptions", std::move(options)}});
}

json didOpen(const std::string& text) {
  return notification("textDocument/didOpen",
                      {{"textDocument", {{"uri", kUri}, {"languageId", "tile"}, {"version", 1}, {"text", text}}}});
}

json didChange(int version, const std::string& text) {
  return notification("textDocument/didChange", {{"textDocument", {{"uri", kUri}, {"version", version}}},
                                                 {"contentChanges", json::array({{{"text", text}}})}});
}

json hover(int id) {
  return request(id, "textDocument/hover", {{"textDocument", {{"uri", kUri}}}, {"position", {{"line", 1}, {"character", 8}}}});
}

// Every message the server writes for `messages`, sent at once.
std::vector<json> play(const std::vector<json>& messages) {
  std::string stream;
  for (const json& m : messages) stream += frame(m.dump());
  std::istringstream in(stream);
  std::ostringstream out;
  serve(in, out, {});
  std::istringstream written(out.str());
  std::vector<json> replies;
  for (Incoming m = readMessage(written); m.kind == Incoming::Kind::Message; m = readMessage(written))
    replies.push_back(json::parse(m.body));
  return replies;
}

std::vector<json> published(const std::vector<json>& replies) {
  std::vector<json> out;
  for (const json& r : replies)
    if (r.value("method", "") == "textDocument/publishDiagnostics") out.push_back(r["params"]["diagnostics"]);
  return out;
}

const json* reply(const std::vector<json>& replies, int id) {
  for (const json& r : replies)
    if (r.contains("id") && r["id"] == id) return &r;
  return nullptr;
}

}  // namespace

TEST_CASE("lsp server: a failed initialize leaves the server uninitialized and a retry succeeds") {
  const std::vector<json> replies = play({
      request(1, "initialize", {{"capabilities", 5}}),
      initialize(2, {{"flags", {"-D", "7=1"}}}),
      initialize(3, {{"flags", {"--target=npu9"}}}),
      request(4, "textDocument/hover", json::object()),
      initialize(5, {{"flags", {"-I", "lib"}}}),
      initialize(6),
  });
  REQUIRE(replies.size() == 6);
  CHECK(replies[0]["error"]["code"] == -32602);
  CHECK(replies[1]["error"]["message"] == "initializationOptions.flags: -D 7=1 is not NAME=VALUE with NAME an identifier");
  CHECK(replies[2]["error"]["code"] == -32602);
  CHECK(replies[3]["error"]["code"] == -32002);  // still not initialized
  CHECK(replies[4]["result"]["capabilities"].is_object());
  CHECK(replies[5]["error"]["message"] == "'initialize' was sent twice");
}

TEST_CASE("lsp server: a burst of edits is analysed once and a query sees the last text") {
  const std::vector<json> replies = play({initialize(1), didOpen("kernel"), didChange(2, "kernel k("),
                                          didChange(3, kGood), hover(4)});
  const std::vector<json> diagnostics = published(replies);
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].empty());  // the last version's, which has no error
  REQUIRE(reply(replies, 4));
  CHECK(reply(replies, 4)->at("result")["contents"]["value"] == "```tile\nparam y: out f32[16, 16]\n```");
}

TEST_CASE("lsp server: a request cancelled before it was handled is refused") {
  const std::vector<json> replies =
      play({initialize(1), didOpen(kGood), hover(2), notification("$/cancelRequest", {{"id", 2}}), hover(3),
            notification("$/cancelRequest", {{"id", 3}}), notification("$/cancelRequest", {{"id", 99}}), hover(99)});
  REQUIRE(reply(replies, 2));
  CHECK(reply(replies, 2)->at("error")["code"] == -32800);
  CHECK(reply(replies, 3)->at("error")["code"] == -32800);
  // A cancellation of a request that was already answered, or never sent, changes nothing.
  REQUIRE(reply(replies, 99));
  CHECK(reply(replies, 99)->contains("result"));
}

TEST_CASE("lsp server: a document above the size limit is reported and not analysed") {
  const std::string big = std::string(100, '\n') + kGood;
  const std::vector<json> replies =
      play({initialize(1, {{"maxDocumentBytes", 100}}), didOpen(big), hover(2), didChange(3, kGood), hover(4)});
  const std::vector<json> diagnostics = published(replies);
  REQUIRE(diagnostics.size() == 2);
  REQUIRE(diagnostics[0].size() == 1);
  CHECK(diagnostics[0][0]["severity"] == 3);
  CHECK(diagnostics[0][0]["message"] ==
        "not analysed: the document has " + std::to_string(big.size()) +
            " bytes, more than the 100 the server analyses (initializationOptions.maxDocumentBytes)");
  CHECK(reply(replies, 2)->at("result").is_null());
  CHECK(diagnostics[1].empty());  // shrunk below the limit: analysed again
  CHECK(reply(replies, 4)->at("result")["contents"]["value"] == "```tile\nparam y: out f32[16, 16]\n```");
}

namespace {

const char* const kTypos =
    "const ROWS = 16;\n"
    "kernel k(x: in f32[16, 16], y: out f32[16, 16]) {\n"
    "  let t = lod(x, [0, 0], [ROWS, 16]);\n"
    "  for r in 0 .. 2 {\n"
    "    let inner = t;\n"
    "  }\n"
    "  store(y, [0, 0], tt);\n"
    "}\n";

json at(int id, const std::string& method, int line, int character, json extra = json::object()) {
  json params = {{"textDocument", {{"uri", kUri}}}, {"position", {{"line", line}, {"character", character}}}};
  params.update(extra);
  return request(id, method, std::move(params));
}

// The completion items' labels, each with its kind.
std::map<std::string, int> labels(const json& result) {
  std::map<std::string, int> out;
  for (const json& item : result["items"]) out[item["label"]] = item["kind"];
  return out;
}

}  // namespace

TEST_CASE("lsp server: completion offers the names in scope at the cursor, the built-ins and the keywords") {
  const std::vector<json> replies =
      play({initialize(1), didOpen(kTypos), at(2, "textDocument/completion", 4, 4), at(3, "textDocument/completion", 6, 2),
            didChange(2, std::string(kTypos) + "kernel broken("), at(4, "textDocument/completion", 4, 4)});
  const std::map<std::string, int> inLoop = labels(reply(replies, 2)->at("result"));
  CHECK(inLoop.at("ROWS") == 21);
  CHECK(inLoop.at("x") == 6);
  CHECK(inLoop.at("t") == 6);
  CHECK(inLoop.at("r") == 6);
  CHECK(inLoop.at("load") == 3);
  CHECK(inLoop.at("unroll") == 14);
  CHECK(inLoop.at("let") == 14);
  CHECK(!inLoop.count("inner"));  // declared after the cursor
  const std::map<std::string, int> afterLoop = labels(reply(replies, 3)->at("result"));
  CHECK(!afterLoop.count("r"));
  CHECK(!afterLoop.count("inner"));
  CHECK(afterLoop.count("t"));
  // While the text does not parse, the names of the last text that did.
  CHECK(labels(reply(replies, 4)->at("result")) == inLoop);
  for (const json& item : reply(replies, 2)->at("result")["items"])
    if (item["label"] == "load") CHECK(item["detail"] == "load(tensor, [offsets], [shape], valid = [...], space = ..., layout = ...)");
}

TEST_CASE("lsp server: signature help names the built-in and the argument being typed") {
  const std::string typing = "kernel k(x: in f32[16, 16]) {\n  let t = load(x, [0, 0], [16, 16], space = \n";
  const std::vector<json> replies =
      play({initialize(1), didOpen(typing), at(2, "textDocument/signatureHelp", 1, 18), at(3, "textDocument/signatureHelp", 1, 27),
            at(4, "textDocument/signatureHelp", 1, 45), at(5, "textDocument/signatureHelp", 1, 5)});
  const json first = reply(replies, 2)->at("result");
  CHECK(first["signatures"][0]["label"] == "load(tensor, [offsets], [shape], valid = [...], space = ..., layout = ...)");
  CHECK(first["activeParameter"] == 1);
  CHECK(first["signatures"][0]["parameters"][1]["label"] == json::array({13, 22}));  // "[offsets]"
  CHECK(reply(replies, 3)->at("result")["activeParameter"] == 2);  // inside the [16, 16] list
  CHECK(reply(replies, 4)->at("result")["activeParameter"] == 4);  // space = ...
  CHECK(reply(replies, 5)->at("result").is_null());                // not in a call
}

TEST_CASE("lsp server: a diagnostic with a fix has a quickfix code action that makes the edit") {
  const std::vector<json> replies = play(
      {initialize(1), didOpen(kTypos),
       request(2, "textDocument/codeAction",
               {{"textDocument", {{"uri", kUri}}},
                {"range", {{"start", {{"line", 2}, {"character", 10}}}, {"end", {{"line", 2}, {"character", 10}}}}},
                {"context", {{"diagnostics", json::array()}}}}),
       request(3, "textDocument/codeAction",
               {{"textDocument", {{"uri", kUri}}},
                {"range", {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 7}, {"character", 0}}}}},
                {"context", {{"diagnostics", json::array()}}}})});
  const json one = reply(replies, 2)->at("result");
  REQUIRE(one.size() == 1);
  CHECK(one[0]["title"] == "Replace 'lod' with 'load'");
  CHECK(one[0]["kind"] == "quickfix");
  CHECK(one[0]["diagnostics"][0]["code"] == "E0711");
  CHECK(one[0]["edit"]["changes"][kUri] ==
        json::parse(R"([{"range": {"start": {"line": 2, "character": 10}, "end": {"line": 2, "character": 13}}, "newText": "load"}])"));
  // The whole file: both typos.
  const json all = reply(replies, 3)->at("result");
  REQUIRE(all.size() == 2);
  CHECK(all[1]["title"] == "Replace 'tt' with 't'");
}

TEST_CASE("lsp server: completion offers the constants of imported files") {
  const json openCommon = notification(
      "textDocument/didOpen", {{"textDocument",
                                {{"uri", "file:///nonexistent/common.tile"}, {"languageId", "tile"}, {"version", 1},
                                 {"text", "const COLS = 16;\n"}}}});
  const std::string importer = std::string("import \"common.tile\";\n") + kGood;
  const std::vector<json> replies =
      play({initialize(1), openCommon, didOpen(importer), at(2, "textDocument/completion", 2, 2)});
  const std::map<std::string, int> names = labels(reply(replies, 2)->at("result"));
  CHECK(names.at("COLS") == 21);
  CHECK(names.at("x") == 6);
}
