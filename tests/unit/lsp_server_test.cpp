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
