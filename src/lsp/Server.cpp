#include "lsp/Server.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>

#include "frontend/Format.h"
#include "frontend/Frontend.h"
#include "frontend/Keywords.h"
#include "frontend/Lowering.h"
#include "lsp/Analysis.h"
#include "lsp/Calls.h"
#include "lsp/CompileFlags.h"
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
  kRequestCancelled = -32800,
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
constexpr int kInlayType = 1;
constexpr int kCompletionFunction = 3, kCompletionVariable = 6, kCompletionKeyword = 14, kCompletionConstant = 21;
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

// The flags a document is analysed with, where they came from, and what was wrong with them.
struct DocumentFlags {
  AnalysisFlags analysis;
  std::string origin;
  std::vector<std::string> problems;
};

struct Document {
  std::string uri, path, canonicalPath, text;
  DocumentFlags flags;
  std::shared_ptr<const Analysis> analysis;  // null until analysed, and while the text is too large
  // The last analysis of a text that parsed: completion offers its names while the text
  // being typed does not parse.
  std::shared_ptr<const Analysis> indexed;
};

// Documents above this size are not analysed (the analysis is linear, but a 50 MB file
// would still hold the single thread for half a minute).
constexpr size_t kDefaultMaxDocumentBytes = size_t(1) << 20;

// Messages that are waiting to be handled: those the client has already sent.
constexpr size_t kMaxQueuedMessages = 64;

class Server {
 public:
  Server(std::istream& in, std::ostream& out, const ServerOptions& options) : in_(in), out_(out), options_(options) {}

  // Reads ahead what the client has already sent before handling a message, so that a
  // request cancelled by a later `$/cancelRequest` is not answered, and documents are
  // analysed only when no message is waiting: a burst of edits costs one analysis.
  int run() {
    while (!exitCode_) {
      if (queue_.empty() && !enqueue()) break;
      while (queue_.size() < kMaxQueuedMessages && inputWaiting() && enqueue()) {
      }
      Incoming message = std::move(queue_.front());
      queue_.pop_front();
      if (message.kind == Incoming::Kind::BadHeader) respondError(nullptr, kParseError, message.error);
      else handleMessage(message.body);
      if (queue_.empty() && !inputWaiting()) analyzeStale();
    }
    return exitCode_.value_or(shutdown_ ? 0 : 1);
  }

 private:
  // ---- messages

  bool inputWaiting() const { return in_.rdbuf()->in_avail() > 0; }

  // Reads one message into the queue; false at the end of the input. A cancellation is
  // noted as it is read, so the request it names, already queued, is refused.
  bool enqueue() {
    Incoming message = readMessage(in_);
    if (message.kind == Incoming::Kind::End) return false;
    if (message.kind == Incoming::Kind::Message && message.body.find("$/cancelRequest") != std::string::npos) {
      const json cancel = json::parse(message.body, nullptr, false);
      if (cancel.is_object() && cancel.value("method", json()) == "$/cancelRequest" && cancel.contains("params") &&
          cancel["params"].is_object() && cancel["params"].contains("id"))
        cancelled_.insert(cancel["params"]["id"].dump());
    }
    queue_.push_back(std::move(message));
    return true;
  }

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
    static const json noParams = json::object();
    const auto given = message.find("params");
    const json& params = given != message.end() ? *given : noParams;  // not copied: a document may be megabytes
    if (message.contains("id")) handleRequest(id, method, params);
    else handleNotification(method, params);
  }

  void handleRequest(const json& id, const std::string& method, const json& params) {
    if (cancelled_.erase(id.dump())) return respondError(id, kRequestCancelled, "the client cancelled '" + method + "'");
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
    analyzeStale();  // a query answers for the text as it is now
    if (method == "textDocument/hover") return hover(params);
    if (method == "textDocument/definition") return definition(params);
    if (method == "textDocument/documentSymbol") return documentSymbols(params);
    if (method == "textDocument/completion") return completion(params);
    if (method == "textDocument/signatureHelp") return signatureHelp(params);
    if (method == "textDocument/codeAction") return codeActions(params);
    if (method == "textDocument/references") return references(params);
    if (method == "textDocument/rename") return rename(params);
    if (method == "textDocument/inlayHint") return inlayHints(params);
    if (method == "textDocument/semanticTokens/full") return semanticTokens(params);
    if (method == "textDocument/formatting") return formatting(params);
    throw RequestError(kMethodNotFound, "tilec does not implement '" + method + "'");
  }

  // Unknown notifications need no answer and get none. A `$/cancelRequest` was acted on
  // when it was read; once it is handled its request has been refused or answered.
  void react(const std::string& method, const json& params) {
    if (method == "exit") {
      exitCode_ = shutdown_ ? 0 : 1;
      return;
    }
    if (method == "$/cancelRequest") {
      if (params.is_object() && params.contains("id")) cancelled_.erase(params["id"].dump());
      return;
    }
    crashHook(method);
    if (!initialized_) return;
    if (method == "textDocument/didOpen") return open(field(params, "textDocument"));
    if (method == "textDocument/didChange") return change(params);
    if (method == "textDocument/didClose") return close(field(field(params, "textDocument"), "uri"));
  }

  // ---- lifecycle

  // The server counts as initialized only once the request has succeeded: a request that
  // fails (a bad option, a malformed parameter) leaves it waiting for another `initialize`.
  json initialize(const json& params) {
    if (initialized_) throw RequestError(kInvalidRequest, "'initialize' was sent twice");
    if (!params.is_object()) throw RequestError(kInvalidParams, "the parameters of 'initialize' are an object");
    const json options = params.value("initializationOptions", json());
    const target::TargetDesc& target = chosenTarget(options);
    DocumentFlags fallback = fallbackFlags(options, params, target);
    std::string databasePath = stringOption(options, "compilationDatabasePath");
    const Encoding encoding = chosenEncoding(params);
    const size_t maxDocumentBytes = sizeOption(options, "maxDocumentBytes", kDefaultMaxDocumentBytes);
    fallbackFlags_ = std::move(fallback);
    databasePath_ = std::move(databasePath);
    encoding_ = encoding;
    maxDocumentBytes_ = maxDocumentBytes;
    initialized_ = true;
    return {{"capabilities",
             {{"positionEncoding", encodingName(encoding_)},
              {"textDocumentSync", {{"openClose", true}, {"change", kFullSync}}},
              {"hoverProvider", true},
              {"definitionProvider", true},
              {"documentSymbolProvider", true},
              {"completionProvider", {{"triggerCharacters", json::array()}}},
              {"signatureHelpProvider", {{"triggerCharacters", {"(", ","}}, {"retriggerCharacters", {" "}}}},
              {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
              {"referencesProvider", true},
              {"renameProvider", true},
              {"inlayHintProvider", true},
              {"semanticTokensProvider",
               {{"legend", {{"tokenTypes", {"parameter", "variable", "function"}},
                            {"tokenModifiers", {"declaration", "readonly", "defaultLibrary"}}}},
                {"full", true}}},
              {"documentFormattingProvider", true}}},
            {"serverInfo", {{"name", "tilec"}, {"version", TILEC_VERSION}}}};
  }

  static Encoding chosenEncoding(const json& params) {
    const json capabilities = params.value("capabilities", json::object());
    if (!capabilities.is_object()) throw RequestError(kInvalidParams, "'capabilities' is an object");
    const json general = capabilities.value("general", json::object());
    const json offered = general.is_object() ? general.value("positionEncodings", json::array()) : json::array();
    const bool utf32 = offered.is_array() && std::find(offered.begin(), offered.end(), "utf-32") != offered.end();
    return utf32 ? Encoding::Utf32 : Encoding::Utf16;
  }

  static std::string stringOption(const json& options, const char* name) {
    if (!options.is_object() || !options.contains(name)) return "";
    if (!options[name].is_string())
      throw RequestError(kInvalidParams, std::string("initializationOptions.") + name + " is a string");
    return options[name];
  }

  static size_t sizeOption(const json& options, const char* name, size_t byDefault) {
    if (!options.is_object() || !options.contains(name)) return byDefault;
    if (!options[name].is_number_unsigned())
      throw RequestError(kInvalidParams, std::string("initializationOptions.") + name + " is a number of bytes");
    return options[name].get<size_t>();
  }

  // `initializationOptions.flags`, for documents that no compilation database or
  // compile_flags.txt covers; relative -I directories are taken from the workspace root.
  static DocumentFlags fallbackFlags(const json& options, const json& params, const target::TargetDesc& target) {
    DocumentFlags flags{{&target, {}, {}}, "initializationOptions.flags", {}};
    if (!options.is_object() || !options.contains("flags")) return flags;
    const json& list = options["flags"];
    std::vector<std::string> args;
    if (list.is_array())
      for (const json& a : list)
        if (a.is_string()) args.push_back(a);
    if (!list.is_array() || args.size() != list.size())
      throw RequestError(kInvalidParams, "initializationOptions.flags is an array of strings, e.g. [\"-I\", \"lib\"]");
    const json root = params.value("rootUri", json());
    std::error_code ec;
    const std::string base = root.is_string() ? uriToPath(root) : std::filesystem::current_path(ec).string();
    CompileFlags parsed = flagsFromArguments(args, base, false);
    if (!parsed.problems.empty())
      throw RequestError(kInvalidParams, "initializationOptions.flags: " + parsed.problems.front());
    if (parsed.target) flags.analysis.target = &namedTarget(*parsed.target, "initializationOptions.flags --target");
    flags.analysis.includeDirs = std::move(parsed.includeDirs);
    flags.analysis.defines = std::move(parsed.defines);
    return flags;
  }

  static const target::TargetDesc& namedTarget(const std::string& name, const std::string& where) {
    if (const target::TargetDesc* t = target::findTarget(name)) return *t;
    throw RequestError(kInvalidParams, where + " \"" + name + "\" names no target; the targets are " + target::targetNames());
  }

  // The target of documents whose flags name none: `initializationOptions.target`, or the
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
    doc.flags = flagsFor(doc.path);
    stale_.insert(uri);
  }

  // The document's own flags (a compilation database or compile_flags.txt, read when it
  // opens), else those of `initializationOptions`. A --target there that names no target
  // is reported on the document, which is then analysed for the server's target.
  DocumentFlags flagsFor(const std::string& path) const {
    std::optional<CompileFlags> found = findCompileFlags(path, databasePath_);
    if (!found) return fallbackFlags_;
    DocumentFlags flags{{fallbackFlags_.analysis.target, found->includeDirs, found->defines}, found->origin,
                        found->problems};
    if (!found->target) return flags;
    if (const target::TargetDesc* t = target::findTarget(*found->target)) flags.analysis.target = t;
    else
      flags.problems.push_back("--target=" + *found->target + " names no target (the targets are " +
                               target::targetNames() + "); analysed for " + flags.analysis.target->name);
    return flags;
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
    stale_.insert(doc.uri);
  }

  void close(const std::string& uri) {
    auto it = documents_.find(uri);
    if (it == documents_.end()) return;
    const std::string path = it->second.canonicalPath;
    documents_.erase(it);
    stale_.erase(uri);
    notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}});
    reanalyze(importersOf({path}));  // they read the file from disk again
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

  // Analyses the documents whose text changed since their last analysis, then the other
  // open documents that import one of them, each once.
  void analyzeStale() {
    if (stale_.empty()) return;
    std::set<std::string> changedPaths;
    for (const std::string& uri : stale_) changedPaths.insert(documents_.at(uri).canonicalPath);
    std::vector<std::string> order(stale_.begin(), stale_.end());
    stale_.clear();
    for (const std::string& uri : importersOf(changedPaths))
      if (std::find(order.begin(), order.end(), uri) == order.end()) order.push_back(uri);
    reanalyze(order);
  }

  // The open documents, by URI, whose last analysis read one of `canonicalPaths`, or
  // missed an import (the file may be one of these, new and unsaved, or just closed).
  std::vector<std::string> importersOf(const std::set<std::string>& canonicalPaths) const {
    std::vector<std::string> importers;
    for (const auto& [uri, doc] : documents_) {
      if (!doc.analysis || canonicalPaths.count(doc.canonicalPath)) continue;
      if (missedAnImport(*doc.analysis)) {
        importers.push_back(uri);
        continue;
      }
      for (const std::string& file : doc.analysis->importedFiles())
        if (canonicalPaths.count(canonical(file))) {
          importers.push_back(uri);
          break;
        }
    }
    return importers;
  }

  static bool missedAnImport(const Analysis& a) {
    const std::vector<Diagnostic>& all = a.diagnostics();
    return std::any_of(all.begin(), all.end(), [](const Diagnostic& d) { return d.id == Diag::ImportNotFound; });
  }

  void reanalyze(const std::vector<std::string>& uris) {
    for (const std::string& uri : uris) analyze(documents_.at(uri));
  }

  void analyze(Document& doc) {
    doc.analysis.reset();
    if (doc.text.size() <= maxDocumentBytes_)
      doc.analysis = std::make_shared<const Analysis>(
          doc.path, doc.text, [this](const std::string& path) { return readImport(path); }, doc.flags.analysis);
    if (doc.analysis && doc.analysis->indexed()) doc.indexed = doc.analysis;
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

  // An open document and the byte offset of a request's position in it; the document is
  // null when it has no analysis (it is too large), and queries on it answer nothing.
  std::pair<const Document*, uint32_t> at(const json& params) {
    const Document& doc = document(field(field(params, "textDocument"), "uri"));
    const Position p = position(field(params, "position"));
    if (!doc.analysis) return {nullptr, 0};
    const LineMap lines(doc.analysis->sources().contents(doc.analysis->root()));
    return {&doc, lines.offset(p, encoding_)};
  }

  // ---- diagnostics

  // Where a diagnostic shows in the document: a diagnostic in an imported file at the
  // import that brings the file in, one in a -D value at the start.
  static SourceRange shownAt(const Analysis& a, const Diagnostic& d) {
    if (!d.range.valid() || d.range.file == a.root()) return d.range;
    return a.fromFlags(d.range.file) ? SourceRange{a.root(), 0, 0} : a.importLeadingTo(d.range.file);
  }

  // A diagnostic in an imported file has the place itself as related information.
  json diagnostic(const Document& doc, const Diagnostic& d) const {
    const Analysis& a = *doc.analysis;
    const bool fromFlags = d.range.valid() && a.fromFlags(d.range.file);
    const bool elsewhere = d.range.valid() && d.range.file != a.root() && !fromFlags;
    std::string message = d.message;
    json related = json::array();
    if (fromFlags) message = "in the flags of " + doc.flags.origin + ": " + message;
    if (elsewhere) {
      message = "in imported file '" + a.sources().name(d.range.file) + "': " + message;
      related.push_back({{"location", location(doc, d.range)}, {"message", d.message}});
    }
    for (const DiagNote& note : d.notes) {
      if (note.range.valid()) related.push_back({{"location", location(doc, note.range)}, {"message", note.message}});
      else message += "\nnote: " + note.message;
    }
    json out = {{"range", range(a, shownAt(a, d))},
                {"severity", severity(d.level)},
                {"code", diagCode(d.id)},
                {"source", "tilec"},
                {"message", message}};
    if (!related.empty()) out["relatedInformation"] = related;
    return out;
  }

  // A problem that is no compiler diagnostic (a dropped flag, a document too large to
  // analyse), shown at the start of the document.
  static json notice(int severity, const std::string& message) {
    const json start = {{"line", 0}, {"character", 0}};
    return {{"range", {{"start", start}, {"end", start}}}, {"severity", severity}, {"source", "tilec"}, {"message", message}};
  }

  void publishDiagnostics(const Document& doc) {
    json list = json::array();
    for (const std::string& problem : doc.flags.problems)
      list.push_back(notice(kSeverityWarning, doc.flags.origin + ": " + problem));
    if (!doc.analysis)
      list.push_back(notice(kSeverityInformation,
                            "not analysed: the document has " + std::to_string(doc.text.size()) +
                                " bytes, more than the " + std::to_string(maxDocumentBytes_) +
                                " the server analyses (initializationOptions.maxDocumentBytes)"));
    else
      for (const Diagnostic& d : doc.analysis->diagnostics()) list.push_back(diagnostic(doc, d));
    notify("textDocument/publishDiagnostics", {{"uri", doc.uri}, {"diagnostics", list}});
  }

  // ---- queries

  json hover(const json& params) {
    auto [doc, offset] = at(params);
    if (!doc) return nullptr;
    std::optional<Hover> h = doc->analysis->hoverAt(offset);
    if (!h) return nullptr;
    return {{"contents", {{"kind", "markdown"}, {"value", "```tile\n" + h->text + "\n```"}}},
            {"range", range(*doc->analysis, h->range)}};
  }

  json definition(const json& params) {
    auto [doc, offset] = at(params);
    if (!doc) return nullptr;
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

  // ---- editing

  // Offered in this order: the names in scope at the cursor, the built-ins, the keywords.
  json completion(const json& params) {
    const Document& doc = document(field(field(params, "textDocument"), "uri"));
    const uint32_t offset = LineMap(doc.text).offset(position(field(params, "position")), encoding_);
    json items = json::array();
    if (doc.indexed)
      for (const ScopedName& n : doc.indexed->namesInScopeAt(offset))
        items.push_back({{"label", n.name},
                         {"kind", n.constant ? kCompletionConstant : kCompletionVariable},
                         {"detail", n.detail},
                         {"sortText", "0" + n.name}});
    for (const frontend::BuiltinSig& b : frontend::builtins())
      items.push_back({{"label", b.name}, {"kind", kCompletionFunction}, {"detail", b.usage}, {"sortText", std::string("1") + b.name}});
    for (const std::string& k : frontend::keywords())
      if (!frontend::findBuiltin(k)) items.push_back({{"label", k}, {"kind", kCompletionKeyword}, {"sortText", "2" + k}});
    return {{"isIncomplete", false}, {"items", items}};
  }

  // The built-in whose call the cursor is in, from the text as typed (it need not parse).
  json signatureHelp(const json& params) {
    const Document& doc = document(field(field(params, "textDocument"), "uri"));
    const uint32_t offset = LineMap(doc.text).offset(position(field(params, "position")), encoding_);
    const std::optional<CallSite> site = callAt(doc.text, offset);
    const frontend::BuiltinSig* builtin = site ? frontend::findBuiltin(site->callee) : nullptr;
    if (!builtin) return nullptr;
    const std::vector<UsageParameter> parameters = usageParameters(builtin->usage);
    json labels = json::array();
    for (const UsageParameter& p : parameters) labels.push_back({{"label", {p.begin, p.end}}});  // ASCII: bytes are code units
    json signature = {{"label", builtin->usage}, {"parameters", labels}};
    const std::optional<unsigned> active = activeParameter(parameters, *site);
    if (active) signature["activeParameter"] = *active;
    return {{"signatures", {signature}}, {"activeSignature", 0}, {"activeParameter", active ? json(*active) : json()}};
  }

  // The byte offsets of a request's `range` in the document's root file.
  std::pair<uint32_t, uint32_t> requestedOffsets(const Analysis& a, const json& params) const {
    const LineMap lines(a.sources().contents(a.root()));
    const json& wanted = field(params, "range");
    return {lines.offset(position(field(wanted, "start")), encoding_),
            lines.offset(position(field(wanted, "end")), encoding_)};
  }

  // A quickfix for each diagnostic shown in the range that carries an edit (a misspelled
  // name, a forgotten `let`, ...): the compiler's own fixes, as `--diagnostics-format=json`
  // has them.
  json codeActions(const json& params) {
    const Document& doc = document(field(field(params, "textDocument"), "uri"));
    json actions = json::array();
    if (!doc.analysis) return actions;
    const Analysis& a = *doc.analysis;
    const auto [begin, end] = requestedOffsets(a, params);
    for (const Diagnostic& d : a.diagnostics()) {
      const SourceRange shown = shownAt(a, d);
      if (d.fixes.empty() || !shown.valid() || shown.end < begin || shown.begin > end) continue;
      json edits = json::object();
      for (const FixIt& fix : d.fixes)
        edits[uriOf(doc, fix.range.file)].push_back({{"range", range(a, fix.range)}, {"newText", fix.replacement}});
      actions.push_back({{"title", fixTitle(a, d)},
                         {"kind", "quickfix"},
                         {"diagnostics", {diagnostic(doc, d)}},
                         {"isPreferred", true},
                         {"edit", {{"changes", edits}}}});
    }
    return actions;
  }

  // "Replace 'lod' with 'load'", "Insert 'let '", "Remove '...'"; several edits are named
  // by the diagnostic they fix.
  static std::string fixTitle(const Analysis& a, const Diagnostic& d) {
    if (d.fixes.size() != 1) return "Fix " + std::string(diagCode(d.id)) + ": " + d.message;
    const FixIt& fix = d.fixes.front();
    const std::string old(a.sources().contents(fix.range.file).substr(fix.range.begin, fix.range.end - fix.range.begin));
    if (old.empty()) return "Insert '" + fix.replacement + "'";
    if (fix.replacement.empty()) return "Remove '" + old + "'";
    return "Replace '" + old + "' with '" + fix.replacement + "'";
  }

  json references(const json& params) {
    auto [doc, offset] = at(params);
    json list = json::array();
    if (!doc) return list;
    const bool withDeclaration = params.value("context", json::object()).value("includeDeclaration", true);
    const std::vector<SourceRange> all = doc->analysis->referencesAt(offset);
    for (size_t i = withDeclaration ? 0 : 1; i < all.size(); ++i) list.push_back(location(*doc, all[i]));
    return list;
  }

  // Renames the name at the cursor: its declaration and every use, in the document and the
  // files it imports. Refused while the frontend reports an error (a use it did not reach
  // would keep the old name) and for a new name that is no name of the language.
  json rename(const json& params) {
    auto [doc, offset] = at(params);
    const std::string newName = field(params, "newName");
    if (!doc) throw RequestError(kInvalidRequest, "the document is not analysed (it is too large)");
    const std::vector<SourceRange> all = doc->analysis->referencesAt(offset);
    if (all.empty()) throw RequestError(kInvalidRequest, "there is no name to rename here");
    if (!doc->analysis->lowered())
      throw RequestError(kInvalidRequest, "rename needs a program the compiler checks without error; fix the errors first");
    if (!isName(newName))
      throw RequestError(kInvalidParams, "'" + newName + "' is not a name: a letter or '_', then letters, digits or '_', not a keyword or type");
    json changes = json::object();
    for (const SourceRange& r : all)
      changes[uriOf(*doc, r.file)].push_back({{"range", range(*doc->analysis, r)}, {"newText", newName}});
    return {{"changes", changes}};
  }

  // What a `-D NAME=0` accepts as NAME: the parser's own idea of a name.
  static bool isName(const std::string& name) {
    SourceManager sm;
    DiagnosticEngine diags(sm);
    frontend::Defines defines;
    const auto modules = frontend::parseDefines(sm, {name + "=0"}, diags, defines);
    return !diags.hasErrors() && defines.size() == 1 && defines.count(name);
  }

  // After each tile `let` and `var` in the range without a written type: the memory space
  // the target's pipeline put it in (`: vec`), the whole type as the tooltip.
  json inlayHints(const json& params) {
    const Document& doc = document(field(field(params, "textDocument"), "uri"));
    json hints = json::array();
    if (!doc.analysis) return hints;
    const Analysis& a = *doc.analysis;
    const auto [begin, end] = requestedOffsets(a, params);
    for (const SpaceHint& h : a.spaceHints()) {
      if (h.after.file != a.root() || h.after.end < begin || h.after.end > end) continue;
      hints.push_back({{"position", range(a, h.after)["end"]},
                       {"label", ": " + h.space},
                       {"kind", kInlayType},
                       {"tooltip", h.type},
                       {"paddingLeft", false}});
    }
    return hints;
  }

  // Names as what they stand for (parameter, variable, constant: readonly) and built-ins
  // where they are called (function, defaultLibrary); the TextMate grammar colours the
  // rest. Only what the frontend lowered has a meaning to show.
  json semanticTokens(const json& params) {
    enum Type { kParameter, kVariable, kFunction };
    enum Modifier { kDeclaration = 1, kReadonly = 2, kDefaultLibrary = 4 };
    const Document& doc = document(field(field(params, "textDocument"), "uri"));
    json data = json::array();
    if (!doc.analysis) return {{"data", data}};
    const Analysis& a = *doc.analysis;
    const LineMap lines(a.sources().contents(a.root()));
    Position previous{0, 0};
    for (const NameToken& t : a.nameTokens()) {
      const Position start = lines.position(t.range.begin, encoding_), end = lines.position(t.range.end, encoding_);
      if (end.line != start.line) continue;  // names are one line; a token may not span two
      int type = kVariable, modifiers = t.declaration ? kDeclaration : 0;
      if (t.kind == NameToken::Kind::Parameter) type = kParameter;
      if (t.kind == NameToken::Kind::Constant) modifiers |= kReadonly;
      if (t.kind == NameToken::Kind::Builtin) {
        type = kFunction;
        modifiers |= kDefaultLibrary;
      }
      const uint32_t deltaLine = start.line - previous.line;
      data.insert(data.end(), {deltaLine, deltaLine ? start.character : start.character - previous.character,
                               end.character - start.character, type, modifiers});
      previous = start;
    }
    return {{"data", data}};
  }

  // The whole document replaced by its formatted text; no edit when it is formatted or
  // does not parse (its diagnostics already say why).
  json formatting(const json& params) {
    const Document& doc = document(field(field(params, "textDocument"), "uri"));
    const std::optional<std::string> formatted = frontend::formatTile(doc.text);
    if (!formatted || *formatted == doc.text) return json::array();
    const Position end = LineMap(doc.text).position(uint32_t(doc.text.size()), encoding_);
    const json whole = {{"start", {{"line", 0}, {"character", 0}}},
                        {"end", {{"line", end.line}, {"character", end.character}}}};
    return json::array({{{"range", whole}, {"newText", *formatted}}});
  }

  std::istream& in_;
  std::ostream& out_;
  const ServerOptions& options_;
  Encoding encoding_ = Encoding::Utf16;
  DocumentFlags fallbackFlags_;                 // initializationOptions: flags and target; set by initialize
  std::string databasePath_;                    // initializationOptions.compilationDatabasePath
  size_t maxDocumentBytes_ = kDefaultMaxDocumentBytes;
  std::deque<Incoming> queue_;                  // read, not yet handled
  std::set<std::string> cancelled_;             // ids (as JSON text) of requests the client cancelled
  std::set<std::string> stale_;                 // URIs whose text changed since their analysis
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
