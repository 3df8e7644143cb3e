#include "report/PerfTrace.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <unordered_map>

namespace tilec::report {
namespace {

using nlohmann::json;

constexpr size_t kMaxDepth = 64;     // a trace nests three levels; deeper is no trace
constexpr double kMaxCycles = 1e15;  // ends stay far from int64's limit

// Where each element of the top-level array starts, found on the raw text (strings
// skipped) before the parser runs, since the parsed values keep no positions; and the
// first bracket that nests past kMaxDepth, which is refused before the parser sees it.
struct Layout {
  std::vector<size_t> elements;
  std::optional<size_t> tooDeep;
};

Layout scan(std::string_view text) {
  Layout out;
  size_t depth = 0;
  bool inString = false, escaped = false, elementNext = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') inString = false;
      continue;
    }
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (elementNext && c != ']') out.elements.push_back(i);
    elementNext = false;
    if (c == '"') inString = true;
    if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) {
        out.tooDeep = i;
        return out;
      }
      elementNext = depth == 1 && c == '[';
    }
    if ((c == ']' || c == '}') && depth > 0) --depth;
    if (c == ',' && depth == 1) elementNext = true;
  }
  return out;
}

std::optional<Timeline> fail(PerfTraceError& error, size_t offset, std::string message) {
  error = {offset, std::move(message)};
  return std::nullopt;
}

// nlohmann's words for a syntax error, without its prefix and without the text it last read
// (which may be any bytes).
std::string syntaxError(const json::parse_error& e) {
  std::string what = e.what();
  const size_t column = what.find("column");
  const size_t colon = what.find(": ", column == std::string::npos ? 0 : column);
  if (colon != std::string::npos) what = what.substr(colon + 2);
  return what.substr(0, what.find("; last read"));
}

// A pipe named by "tid": a string, or an integer written as one.
std::optional<std::string> pipeName(const json& event) {
  const auto tid = event.find("tid");
  if (tid == event.end()) return std::nullopt;
  if (tid->is_string()) return tid->get<std::string>();
  if (tid->is_number_integer()) return tid->dump();
  return std::nullopt;
}

std::optional<int64_t> cycles(const json& event, const char* key) {
  const auto v = event.find(key);
  if (v == event.end() || !v->is_number()) return std::nullopt;
  const double d = v->get<double>();
  if (!std::isfinite(d) || d < 0 || d > kMaxCycles) return std::nullopt;
  return std::llround(d);
}

class Reader {
 public:
  // One event; false after a problem, which `error` then holds.
  bool add(const json& event, size_t number, size_t offset, PerfTraceError& error) {
    const std::string which = "event " + std::to_string(number);
    if (!event.is_object()) return fail(error, offset, which + " is not an object"), false;
    const std::optional<std::string> pipe = pipeName(event);
    if (pipe) pipeIndex(*pipe);
    const auto ph = event.find("ph");
    if (ph == event.end() || !ph->is_string()) return fail(error, offset, which + " has no \"ph\" string"), false;
    if (ph->get_ref<const std::string&>() != "X") return true;
    const auto name = event.find("name");
    if (name != event.end() && !name->is_string()) return fail(error, offset, which + "'s \"name\" is not a string"), false;
    if (!pipe) return fail(error, offset, which + " names no pipe: its \"tid\" is missing or neither a string nor an integer"), false;
    const std::optional<int64_t> ts = cycles(event, "ts"), dur = cycles(event, "dur");
    if (!ts || !dur)
      return fail(error, offset, which + "'s \"" + (ts ? "dur" : "ts") + "\" is missing or not a number of cycles from 0 to 1e15"), false;
    const uint32_t what = labelIndex(name == event.end() ? "" : name->get<std::string>());
    out_.spans.push_back({pipeIndex(*pipe), *ts, *ts + *dur, what});
    return true;
  }

  // The pipes with an instruction, in the order the file named them; each pipe's spans by start.
  Timeline finish() {
    std::vector<size_t> count(out_.pipes.size(), 0);
    for (const Timeline::Span& s : out_.spans) ++count[s.pipe];
    std::vector<uint32_t> renumber(out_.pipes.size());
    std::vector<std::string> pipes;
    for (size_t p = 0; p < out_.pipes.size(); ++p)
      if (count[p]) renumber[p] = uint32_t(pipes.size()), pipes.push_back(out_.pipes[p]);
    out_.pipes = std::move(pipes);
    for (Timeline::Span& s : out_.spans) s.pipe = renumber[s.pipe];
    std::stable_sort(out_.spans.begin(), out_.spans.end(), [](const Timeline::Span& a, const Timeline::Span& b) {
      return a.pipe != b.pipe ? a.pipe < b.pipe : a.start < b.start;
    });
    return std::move(out_);
  }

 private:
  uint32_t pipeIndex(const std::string& name) { return intern(name, pipeOf_, out_.pipes); }
  uint32_t labelIndex(const std::string& name) { return intern(name, labelOf_, out_.labels); }
  static uint32_t intern(const std::string& name, std::unordered_map<std::string, uint32_t>& index,
                         std::vector<std::string>& list) {
    auto [it, added] = index.emplace(name, uint32_t(list.size()));
    if (added) list.push_back(name);
    return it->second;
  }

  Timeline out_;
  std::unordered_map<std::string, uint32_t> pipeOf_, labelOf_;  // looked up only: order is the lists'
};

}  // namespace

std::optional<Timeline> readPerfTrace(std::string_view text, PerfTraceError& error) {
  const Layout layout = scan(text);
  if (layout.tooDeep) return fail(error, *layout.tooDeep, "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels");
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    return fail(error, std::min<size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size()), "not JSON: " + syntaxError(e));
  } catch (const json::exception&) {
    return fail(error, 0, "not JSON that fits a trace: a number is too large");
  }
  const size_t first = std::min(text.find_first_not_of(" \t\r\n"), text.size());
  if (!doc.is_array()) return fail(error, first, "not a JSON array of trace events");
  Reader reader;
  for (size_t i = 0; i < doc.size(); ++i)
    if (!reader.add(doc[i], i + 1, i < layout.elements.size() ? layout.elements[i] : first, error)) return std::nullopt;
  Timeline t = reader.finish();
  if (t.spans.empty()) return fail(error, first, "no complete event (\"ph\": \"X\"), so no instruction to draw");
  return t;
}

}  // namespace tilec::report
