#include "lsp/Server.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "lsp/Analysis.h"
#include "lsp/Positions.h"
#include "lsp/Transport.h"
#include "lsp/Uri.h"
#include "target/Registry.h"

namespace tilec::lsp {
namespace {

using json = nlohmann::json;

// JSON-RPC and LSP error codes.
enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,
};

struct RequestError : std::runtime_error {
  RequestError(int code, const std::string& message) : std::runtime_error(message), code(code) {}
  int code;
};

// Member `key` of `j`. nlohmann's const operator[] has undefined behaviour on a missing
// key, and a client may send any shape of parameters.
const json& field(const json& j, const char* key) {
  if (!j.is_object()) throw RequestError(kInvalidParams, std::string("expected an object with '") + key + "'");
  auto it = j.find(key);
  if (it == j.end()) throw RequestError(kInvalidParams, std::string("'") + key + "' is missing");
  return *it;
}

constexpr int kSeverityError = 1, kSeverityWarning = 2, kSeverityInformation = 3;
constexpr int kSymbolFunction = 12, kSymbolVariable = 13, kSymbolConstant = 14;
constexpr int kFullSync = 1;
constexpr int kLogError = 1;

int severity(Level l) {
  switch (l) {
    case Level::Error: return kSeverityError;
    case Level::Warning: return kSeverityWarning;
    case Level::Note: return kSeverityInformation;
  }
  return kSeverityError;
}

int symbolKind(Symbol::Kind k) {
  switch (k) {
    case Symbol::Kind::Kernel: return kSymbolFunction;
    case Symbol::Kind::Constant: return kSymbolConstant;
    case Symbol::Kind::Parameter: return kSymbolVariable;
  }
  return kSymbolVariable;
}

std::string canonical(const std::string& path) {
  std::error_code ec;
  std::string c = std::filesystem::weakly_canonical(path, ec).string();
  return ec ? path : c;
}

std::optional<std::string> readFromDisk(const std::string& path) {
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  if (!std::filesystem::is_regular_file(path, ec) || !in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct Document {
  std::string uri, path, canonicalPath, text;
  std::unique_ptr<Analysis> analysis;  // null until the first analysis succeeds
};

class Server {
 public:
  Server(std::istream& in, std::ostream& out, const ServerOptions& options) : in_(in), out_(out), options_(options) {}

  int run() {
    while (!exitCode_) {
      Incoming message = readMessage(in_);
      if (message.kind == Incoming::Kind::End) break;
      if (message.kind == Incoming::Kind::BadHeader) respondError(nullptr, kParseError, message.error);
      else handleMessage(message.body);
    }
    return exitCode_.value_or(shutdown_ ? 0 : 1);
  }

 private:
  // ---- messages

  void send(const json& message) {
    out_ << frame(message.dump(-1, ' ', false, json::error_handler_t::replace)) << std::flush;
  }

  void respondError(const json& id, int code, const std::string& message) {
    send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
  }

  void notify(const std::string& method, json params) {
    send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
  }

  void handleMessage(const std::string& body) {
    const json message = json::parse(body, nullptr, false);
    if (message.is_discarded()) return respondError(nullptr, kParseError, "the message is not JSON");
    const json id = message.is_object() && message.contains("id") ? message["id"] : json();
    if (!message.is_object() || (message.contains("method") && !message["method"].is_string()))
      return respondError(id, kInvalidRequest, "a message is an object with a string 'method'");
    if (!message.contains("method")) return;  // a response to a request we never send
    const std::string method = message["method"];
    const json params = message.value("params", json::object());
    if (message.contains("id")) handleRequest(id, method, params);
    else handleNotification(method, params);
  }

  void handleRequest(const json& id, const std::string& method, const json& params) {
    try {
      json result = answer(method, params);
      send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
    } catch (const RequestError& e) {
      respondError(id, e.code, e.what());
    } catch (const json::exception& e) {
      respondError(id, kInvalidParams, std::string("bad parameters for ") + method + ": " + e.what());
    } catch (const std::exception& e) {
      respondError(id, kInternalError, std::string("internal error in ") + method + ": " + e.what());
    } catch (...) {
      respondError(id, kInternalError, "internal error in " + method);
    }
  }

  void handleNotification(const std::string& method, const json& params) {
    try {
      react(method, params);
    } catch (const std::exception& e) {
      notify("window/logMessage", {{"type", kLogError}, {"message", "tilec: " + method + " failed: " + e.what()}});
    } catch (...) {
      notify("window/logMessage", {{"type", kLogError}, {"message", "tilec: " + method + " failed"}});
    }
  }

  void crashHook(const std::string& method) const {
    if (method == options_.crashIn) throw std::runtime_error("--debug-crash-in=" + method);
  }

  json answer(const std::string& method, const json& params) {
    crashHook(method);
    if (method == "initialize") return initialize(params);
    if (!initialized_) throw RequestError(kServerNotInitialized, "the first request must be 'initialize'");
    if (shutdown_) throw RequestError(kInvalidRequest, "the server is shutting down; only 'exit' is expected");
    if (method == "shutdown") {
      shutdown_ = true;
      return nullptr;
    }
    if (method == "textDocument/hover") return hover(params);
    if (method == "textDocument/definition") return definition(params);
    if (method == "textDocument/documentSymbol") return documentSymbols(params);
    throw RequestError(kMethodNotFound, "tilec does not implement '" + method + "'");
  }

  // Unknown notifications, `$/cancelRequest` among them, need no answer and get none.
  void react(const std::string& method, const json& params) {
    if (method == "exit") {
      exitCode_ = shutdown_ ? 0 : 1;
      return;
    }
    crashHook(method);
    if (!initialized_) return;
    if (method == "textDocument/didOpen") return open(field(params, "textDocument"));
    if (method == "textDocument/didChange") return change(params);
    if (method == "textDocument/didClose") return close(field(field(params, "textDocument"), "uri"));
  }

  // ---- lifecycle

  json initialize(const json& params) {
    if (initialized_) throw RequestError(kInvalidRequest, "'initialize' was sent twice");
    target_ = &chosenTarget(params.value("initializationOptions", json::object()));
    initialized_ = true;
    const json offered = params.value("capabilities", json::object())
                             .value("general", json::object())
                             .value("positionEncodings", json::array());
    encoding_ = std::find(offered.begin(), offered.end(), "utf-32") != offered.end() ? Encoding::Utf32 : Encoding::Utf16;
    return {{"capabilities",
             {{"positionEncoding", encodingName(encoding_)},
              {"textDocumentSync", {{"openClose", true}, {"change", kFullSync}}},
              {"hoverProvider", true},
              {"definitionProvider", true},
              {"documentSymbolProvider", true}}},
            {"serverInfo", {{"name", "tilec"}, {"version", TILEC_VERSION}}}};
  }

  // The target every document is analysed for: `initializationOptions.target`, or the
  // registry's default. A name that is no target refuses the initialize request (the client
  // may send it again), rather than analysing for a target the user did not ask for.
  static const target::TargetDesc& chosenTarget(const json& options) {
    if (!options.is_object() || !options.contains("target")) return target::defaultTarget();
    const json& name = options["target"];
    if (const target::TargetDesc* t = name.is_string() ? target::findTarget(name.get<std::string>()) : nullptr)
      return *t;
    throw RequestError(kInvalidParams, "initializationOptions.target " + name.dump() +
                                           " names no target; the targets are " + target::targetNames());
  }

  // ---- documents

  void open(const json& item) {
    const std::string uri = field(item, "uri");
    Document& doc = documents_[uri];
    doc.uri = uri;
    doc.path = uriToPath(uri);
    doc.canonicalPath = canonical(doc.path);
    doc.text = field(item, "text");
    analyzeWithDependents(doc);
  }

  void change(const json& params) {
    Document& doc = document(field(field(params, "textDocument"), "uri"));
    for (const json& edit : field(params, "contentChanges")) {
      if (!edit.contains("range")) {
        doc.text = field(edit, "text");
        continue;
      }
      const LineMap lines(doc.text);
      const uint32_t begin = lines.offset(position(field(field(edit, "range"), "start")), encoding_);
      const uint32_t end = std::max(begin, lines.offset(position(field(field(edit, "range"), "end")), encoding_));
      doc.text.replace(begin, end - begin, field(edit, "text").get<std::string>());
    }
    analyzeWithDependents(doc);
  }

  void close(const std::string& uri) {
    auto it = documents_.find(uri);
    if (it == documents_.end()) return;
    const std::string path = it->second.canonicalPath;
    documents_.erase(it);
    notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}});
    reanalyzeImporters(path);  // they read the file from disk again
  }

  Document& document(const std::string& uri) {
    auto it = documents_.find(uri);
    if (it == documents_.end()) throw RequestError(kInvalidParams, "'" + uri + "' is not open");
    return it->second;
  }

  // Imports read an open document's unsaved text, the file on disk otherwise.
  std::optional<std::string> readImport(const std::string& path) const {
    const std::string wanted = canonical(path);
    for (const auto& [uri, doc] : documents_)
      if (doc.canonicalPath == wanted) return doc.text;
    return readFromDisk(path);
  }

  void analyzeWithDependents(Document& doc) {
    analyze(doc);
    reanalyzeImporters(doc.canonicalPath);
  }

  void reanalyzeImporters(const std::string& canonicalPath) {
    for (auto& [uri, other] : documents_) {
      if (other.canonicalPath == canonicalPath || !other.analysis) continue;
      for (const std::string& file : other.analysis->importedFiles())
        if (canonical(file) == canonicalPath) {
          analyze(other);
          break;
        }
    }
  }

  void analyze(Document& doc) {
    doc.analysis = std::make_unique<Analysis>(
        doc.path, doc.text, [this](const std::string& path) { return readImport(path); }, *target_);
    publishDiagnostics(doc);
  }

  // ---- positions

  Position position(const json& p) const {
    return {field(p, "line").get<uint32_t>(), field(p, "character").get<uint32_t>()};
  }

  json range(const Analysis& a, SourceRange r) const {
    if (!r.valid()) return {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}};
    const LineMap lines(a.sources().contents(r.file));
    const Position start = lines.position(r.begin, encoding_), end = lines.position(r.end, encoding_);
    return {{"start", {{"line", start.line}, {"character", start.character}}},
            {"end", {{"line", end.line}, {"character", end.character}}}};
  }

  std::string uriOf(const Document& doc, FileId file) const {
    return file == doc.analysis->root() ? doc.uri : pathToUri(doc.analysis->sources().name(file));
  }

  json location(const Document& doc, SourceRange r) const {
    return {{"uri", uriOf(doc, r.file)}, {"range", range(*doc.analysis, r)}};
  }

  // The analysis of an open document and the byte offset of a request's position in it.
  std::pair<const Document*, uint32_t> at(const json& params) {
    const Document& doc = document(field(field(params, "textDocument"), "uri"));
    if (!doc.analysis) throw RequestError(kInternalError, "'" + doc.uri + "' has not been analyzed");
    const LineMap lines(doc.analysis->sources().contents(doc.analysis->root()));
    return {&doc, lines.offset(position(field(params, "position")), encoding_)};
  }

  // ---- diagnostics

  // A diagnostic in an imported file shows at the import that brings the file in, with
  // the place itself as related information.
  json diagnostic(const Document& doc, const Diagnostic& d) const {
    const Analysis& a = *doc.analysis;
    const bool elsewhere = d.range.valid() && d.range.file != a.root();
    std::string message = d.message;
    json related = json::array();
    if (elsewhere) {
      message = "in imported file '" + a.sources().name(d.range.file) + "': " + message;
      related.push_back({{"location", location(doc, d.range)}, {"message", d.message}});
    }
    for (const DiagNote& note : d.notes) {
      if (note.range.valid()) related.push_back({{"location", location(doc, note.range)}, {"message", note.message}});
      else message += "\nnote: " + note.message;
    }
    json out = {{"range", range(a, elsewhere ? a.importLeadingTo(d.range.file) : d.range)},
                {"severity", severity(d.level)},
                {"code", diagCode(d.id)},
                {"source", "tilec"},
                {"message", message}};
    if (!related.empty()) out["relatedInformation"] = related;
    return out;
  }

  void publishDiagnostics(const Document& doc) {
    json list = json::array();
    for (const Diagnostic& d : doc.analysis->diagnostics()) list.push_back(diagnostic(doc, d));
    notify("textDocument/publishDiagnostics", {{"uri", doc.uri}, {"diagnostics", list}});
  }

  // ---- queries

  json hover(const json& params) {
    auto [doc, offset] = at(params);
    std::optional<Hover> h = doc->analysis->hoverAt(offset);
    if (!h) return nullptr;
    return {{"contents", {{"kind", "markdown"}, {"value", "```tile\n" + h->text + "\n```"}}},
            {"range", range(*doc->analysis, h->range)}};
  }

  json definition(const json& params) {
    auto [doc, offset] = at(params);
    std::optional<SourceRange> decl = doc->analysis->definitionAt(offset);
    if (!decl) return nullptr;
    return location(*doc, *decl);
  }

  json symbol(const Analysis& a, const Symbol& s) const {
    json children = json::array();
    for (const Symbol& c : s.children) children.push_back(symbol(a, c));
    return {{"name", s.name},
            {"detail", s.detail},
            {"kind", symbolKind(s.kind)},
            {"range", range(a, s.range)},
            {"selectionRange", range(a, s.selection)},
            {"children", children}};
  }

  json documentSymbols(const json& params) {
    const Document& doc = document(field(field(params, "textDocument"), "uri"));
    json list = json::array();
    if (doc.analysis)
      for (const Symbol& s : doc.analysis->symbols()) list.push_back(symbol(*doc.analysis, s));
    return list;
  }

  std::istream& in_;
  std::ostream& out_;
  const ServerOptions& options_;
  Encoding encoding_ = Encoding::Utf16;
  const target::TargetDesc* target_ = nullptr;  // set by initialize
  bool initialized_ = false;
  bool shutdown_ = false;
  std::optional<int> exitCode_;
  std::map<std::string, Document> documents_;  // by URI; ordered, so re-analysis order is fixed
};

}  // namespace

int serve(std::istream& in, std::ostream& out, const ServerOptions& options) {
  return Server(in, out, options).run();
}

int runLsp(int argc, char** argv) {
  ServerOptions options;
  const std::string crashFlag = "--debug-crash-in=";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.compare(0, crashFlag.size(), crashFlag) == 0) {
      options.crashIn = arg.substr(crashFlag.size());
      continue;
    }
    if (arg == "--stdio") continue;  // what editors pass to choose the transport; it is the only one
    std::cerr << "tilec: error: 'tilec lsp' takes no argument '" << arg
              << "'; run it as 'tilec lsp' (it speaks the Language Server Protocol on standard input and output)\n";
    return 2;
  }
  std::ios::sync_with_stdio(false);
  std::cin.tie(nullptr);
  return serve(std::cin, std::cout, options);
}

}  // namespace tilec::lsp
