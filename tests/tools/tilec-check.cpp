// tilec-check: the subset of LLVM FileCheck that tilec's lit tests use.
//
//   tilec-check CHECKFILE [--check-prefix=P]... [--match-full-lines] [--allow-empty]
//   tilec-check [CHECKFILE] --expect-file=GOLDEN      (stdin must equal GOLDEN byte for byte;
//                                                     TILEC_BLESS=1 rewrites GOLDEN instead)
//
// Directives: P:, P-NEXT:, P-SAME:, P-NOT:, P-LABEL:, P-COUNT-n:, P-EMPTY:. Patterns are
// literal text with {{regex}}, [[VAR:regex]] (define) and [[VAR]] (use); a run of blanks
// matches any run of blanks. Matching is line-based and stops at the first failure.
// Exit status: 0 pass, 1 check failure, 2 usage error.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kExitFail = 1;
constexpr int kExitUsage = 2;

// ---------------------------------------------------------------- input text

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t nl = text.find('\n', begin);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(begin, nl - begin);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    begin = nl + 1;
  }
  return lines;
}

bool readFile(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

// ---------------------------------------------------------------- directives

enum class Kind { Plain, Next, Same, Not, Label, Count, Empty };

const char* suffixOf(Kind k) {
  switch (k) {
    case Kind::Plain: return "";
    case Kind::Next: return "-NEXT";
    case Kind::Same: return "-SAME";
    case Kind::Not: return "-NOT";
    case Kind::Label: return "-LABEL";
    case Kind::Count: return "-COUNT";
    case Kind::Empty: return "-EMPTY";
  }
  return "";
}

struct Directive {
  Kind kind;
  std::string prefix;
  std::string pattern;
  int count = 1;  // CHECK-COUNT-n
  int line = 0;   // in the check file

  std::string name() const {
    std::string n = prefix + suffixOf(kind);
    if (kind == Kind::Count) n += "-" + std::to_string(count);
    return n;
  }
};

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

// Recognizes "<prefix><suffix>:" at `pos`; fills kind/count and returns the pattern start.
std::optional<size_t> matchDirectiveAt(const std::string& line, size_t pos, const std::string& prefix,
                                       Kind& kind, int& count) {
  size_t p = pos + prefix.size();
  static const std::pair<const char*, Kind> kSuffixes[] = {
      {":", Kind::Plain},        {"-NEXT:", Kind::Next}, {"-SAME:", Kind::Same},
      {"-NOT:", Kind::Not},      {"-LABEL:", Kind::Label}, {"-EMPTY:", Kind::Empty}};
  for (const auto& [suffix, k] : kSuffixes)
    if (line.compare(p, std::strlen(suffix), suffix) == 0) {
      kind = k;
      return p + std::strlen(suffix);
    }
  if (line.compare(p, 7, "-COUNT-") == 0) {
    size_t digits = p + 7, end = digits;
    while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end]))) ++end;
    if (end > digits && end < line.size() && line[end] == ':') {
      kind = Kind::Count;
      count = std::stoi(line.substr(digits, end - digits));
      return end + 1;
    }
  }
  return std::nullopt;
}

struct CheckError {
  std::string message;
};

std::vector<Directive> parseDirectives(const std::string& checkText, const std::string& checkPath,
                                       const std::vector<std::string>& prefixes) {
  std::vector<Directive> out;
  std::vector<std::string> lines = splitLines(checkText);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    // The earliest directive on the line wins, whichever prefix it uses.
    std::optional<Directive> best;
    size_t bestPos = std::string::npos;
    for (const std::string& prefix : prefixes)
      for (size_t pos = line.find(prefix); pos != std::string::npos; pos = line.find(prefix, pos + 1)) {
        if (pos > 0 && isWordChar(line[pos - 1])) continue;
        Kind kind;
        int count = 1;
        std::optional<size_t> start = matchDirectiveAt(line, pos, prefix, kind, count);
        if (!start) continue;
        if (pos < bestPos) {
          bestPos = pos;
          best = Directive{kind, prefix, trim(line.substr(*start)), count, static_cast<int>(i + 1)};
        }
        break;
      }
    if (!best) continue;
    if (best->kind != Kind::Empty && best->pattern.empty())
      throw CheckError{checkPath + ":" + std::to_string(best->line) + ": error: " + best->name() +
                       " has an empty pattern; write the text to match, or use " + best->prefix +
                       "-EMPTY for an empty line"};
    if (best->kind == Kind::Count && best->count < 1)
      throw CheckError{checkPath + ":" + std::to_string(best->line) + ": error: " + best->name() +
                       " needs a count of at least 1"};
    out.push_back(std::move(*best));
  }
  return out;
}

// ---------------------------------------------------------------- patterns

std::string escapeRegex(const std::string& literal) {
  static const std::string kSpecial = R"(\^$.|?*+()[]{}/)";
  std::string out;
  bool inBlanks = false;
  for (char c : literal) {
    if (c == ' ' || c == '\t') {
      if (!inBlanks) out += "[ \\t]+";
      inBlanks = true;
      continue;
    }
    inBlanks = false;
    if (kSpecial.find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

// The "]]" closing a [[...]] that starts before `from`; brackets of a regex
// inside ([[N:[0-9]]]) nest, as in FileCheck.
size_t findVariableEnd(const std::string& p, size_t from) {
  int depth = 0;
  for (size_t j = from; j + 1 < p.size(); ++j) {
    if (p[j] == '\\') {
      ++j;
    } else if (p[j] == '[') {
      ++depth;
    } else if (p[j] == ']') {
      if (depth == 0 && p[j + 1] == ']') return j;
      if (depth > 0) --depth;
    }
  }
  return std::string::npos;
}

// A pattern compiled against the variables bound so far.
struct CompiledPattern {
  std::regex regex;
  std::vector<std::pair<std::string, size_t>> definitions;  // variable -> capture group
};

CompiledPattern compilePattern(const Directive& d, const std::map<std::string, std::string>& vars,
                               bool fullLines, const std::string& checkPath) {
  auto fail = [&](const std::string& why) {
    return CheckError{checkPath + ":" + std::to_string(d.line) + ": error: " + d.name() + ": " + why};
  };
  const std::string& p = d.pattern;
  std::string re;
  CompiledPattern out;
  size_t groups = 0;
  std::map<std::string, size_t> localGroups;  // variables defined earlier in this pattern
  std::string literal;
  auto flushLiteral = [&] {
    re += escapeRegex(literal);
    literal.clear();
  };
  for (size_t i = 0; i < p.size();) {
    if (p.compare(i, 2, "{{") == 0) {
      size_t end = p.find("}}", i + 2);
      if (end == std::string::npos) throw fail("'{{' without a closing '}}'");
      while (end + 2 < p.size() && p[end + 2] == '}') ++end;  // {{[0-9]{3}}}: the last "}}" closes
      flushLiteral();
      std::string sub = p.substr(i + 2, end - i - 2);
      try {
        groups += std::regex(sub).mark_count();
      } catch (const std::regex_error&) {
        throw fail("invalid regex {{" + sub + "}}");
      }
      re += "(?:" + sub + ")";
      i = end + 2;
    } else if (p.compare(i, 2, "[[") == 0) {
      size_t end = findVariableEnd(p, i + 2);
      if (end == std::string::npos) throw fail("'[[' without a closing ']]'");
      flushLiteral();
      std::string body = p.substr(i + 2, end - i - 2);
      size_t colon = body.find(':');
      std::string name = body.substr(0, colon);
      if (name.empty() || !std::regex_match(name, std::regex("[A-Za-z_][A-Za-z0-9_]*")))
        throw fail("bad variable name '" + name + "'");
      if (colon != std::string::npos) {
        std::string sub = body.substr(colon + 1);
        size_t inner;
        try {
          inner = std::regex(sub).mark_count();
        } catch (const std::regex_error&) {
          throw fail("invalid regex in [[" + body + "]]");
        }
        re += "(" + sub + ")";
        localGroups[name] = ++groups;
        out.definitions.push_back({name, groups});
        groups += inner;
      } else if (localGroups.count(name)) {
        re += "\\" + std::to_string(localGroups[name]);
      } else {
        auto it = vars.find(name);
        if (it == vars.end()) throw fail("variable '" + name + "' is used before it is defined");
        re += escapeRegex(it->second);
      }
      i = end + 2;
    } else {
      literal += p[i++];
    }
  }
  flushLiteral();
  if (fullLines) re = "^[ \\t]*(?:" + re + ")[ \\t]*$";
  try {
    out.regex = std::regex(re);
  } catch (const std::regex_error& e) {
    throw fail(std::string("invalid pattern: ") + e.what());
  }
  return out;
}

// ---------------------------------------------------------------- matching

struct Pos {
  size_t line = 0, col = 0;
  bool operator<(const Pos& o) const { return line != o.line ? line < o.line : col < o.col; }
};

struct Match {
  Pos begin, end;
};

class Checker {
 public:
  Checker(std::vector<std::string> input, std::string checkPath, bool fullLines)
      : input_(std::move(input)), checkPath_(std::move(checkPath)), fullLines_(fullLines) {}

  void run(const std::vector<Directive>& directives);

 private:
  Pos inputEnd() const { return Pos{input_.size(), 0}; }
  std::optional<Match> search(const Directive& d, Pos from, Pos to);
  std::optional<Match> searchLine(const Directive& d, size_t line, size_t fromCol, Pos end);
  void checkGroup(const std::vector<const Directive*>& group, Pos start, Pos end, bool startMatched);
  void checkNots(std::vector<const Directive*>& nots, Pos from, Pos to);
  [[noreturn]] void fail(const Directive& d, const std::string& what, size_t nearLine,
                         std::optional<size_t> hintLine = std::nullopt);

  std::vector<std::string> input_;
  std::string checkPath_;
  bool fullLines_;
  std::map<std::string, std::string> vars_;
};

std::optional<Match> Checker::search(const Directive& d, Pos from, Pos to) {
  CompiledPattern pattern = compilePattern(d, vars_, fullLines_, checkPath_);
  for (size_t line = from.line; line < input_.size() && line <= to.line; ++line) {
    const std::string& text = input_[line];
    size_t begin = line == from.line ? std::min(from.col, text.size()) : 0;
    size_t end = line == to.line ? std::min(to.col, text.size()) : text.size();
    if (line == to.line && to.col == 0 && line != from.line) break;  // `to` excludes this line
    if (begin > end) continue;
    std::smatch m;
    // The searched span may be part of a line: '^' and '$' only hold at the real line ends.
    auto flags = std::regex_constants::match_default;
    if (begin > 0) flags |= std::regex_constants::match_prev_avail;
    if (end < text.size()) flags |= std::regex_constants::match_not_eol;
    if (!std::regex_search(text.begin() + begin, text.begin() + end, m, pattern.regex, flags)) continue;
    for (const auto& [name, group] : pattern.definitions) vars_[name] = m[group].str();
    size_t matchBegin = begin + static_cast<size_t>(m.position(0));
    return Match{{line, matchBegin}, {line, matchBegin + static_cast<size_t>(m.length(0))}};
  }
  return std::nullopt;
}

std::optional<Match> Checker::searchLine(const Directive& d, size_t line, size_t fromCol, Pos end) {
  if (line >= input_.size() || line > end.line) return std::nullopt;
  return search(d, Pos{line, fromCol}, std::min(Pos{line, input_[line].size()}, end));
}

void Checker::fail(const Directive& d, const std::string& what, size_t nearLine,
                   std::optional<size_t> hintLine) {
  std::ostringstream os;
  os << checkPath_ << ":" << d.line << ": error: " << d.name() << ": " << what << "\n";
  if (d.kind != Kind::Empty) os << "  pattern: " << d.pattern << "\n";
  static const std::regex kUse(R"(\[\[([A-Za-z_][A-Za-z0-9_]*)\]\])");
  for (std::sregex_iterator it(d.pattern.begin(), d.pattern.end(), kUse), e; it != e; ++it) {
    auto value = vars_.find((*it)[1].str());
    if (value != vars_.end()) os << "  with [[" << value->first << "]] = '" << value->second << "'\n";
  }
  if (input_.empty()) {
    os << "  the input is empty\n";
  } else {
    nearLine = std::min(nearLine, input_.size() - 1);
    size_t first = nearLine >= 2 ? nearLine - 2 : 0;
    size_t last = std::min(input_.size() - 1, nearLine + 3);
    os << "  input near line " << nearLine + 1 << ":\n";
    for (size_t i = first; i <= last; ++i)
      os << (i == nearLine ? "  > " : "    ") << i + 1 << " | " << input_[i] << "\n";
  }
  if (hintLine) os << "  note: the pattern does match input line " << *hintLine + 1 << "\n";
  throw CheckError{os.str()};
}

void Checker::checkNots(std::vector<const Directive*>& nots, Pos from, Pos to) {
  for (const Directive* d : nots)
    if (std::optional<Match> m = search(*d, from, to))
      fail(*d, "excluded string found in the input", m->begin.line);
  nots.clear();
}

// Checks one block of directives inside [start, end). When `startMatched`, `start`
// is the end of a label match that -NEXT/-SAME/-EMPTY may refer to.
void Checker::checkGroup(const std::vector<const Directive*>& group, Pos start, Pos end,
                         bool startMatched) {
  Pos cursor = start;
  bool havePrevious = startMatched;
  std::vector<const Directive*> nots;
  for (const Directive* d : group) {
    if (d->kind == Kind::Not) {
      nots.push_back(d);
      continue;
    }
    if ((d->kind == Kind::Next || d->kind == Kind::Same || d->kind == Kind::Empty) && !havePrevious)
      throw CheckError{checkPath_ + ":" + std::to_string(d->line) + ": error: " + d->name() +
                       " needs a previous match to refer to; start the block with " + d->prefix + ":"};
    std::optional<Match> m;
    switch (d->kind) {
      case Kind::Plain:
      case Kind::Label:
        m = search(*d, cursor, end);
        if (!m) fail(*d, "expected string not found in the input", cursor.line);
        break;
      case Kind::Count: {
        Pos from = cursor;
        for (int i = 0; i < d->count; ++i) {
          std::optional<Match> next = search(*d, from, end);
          if (!next)
            fail(*d, "expected " + std::to_string(d->count) + " matches but found " + std::to_string(i),
                 from.line);
          if (i == 0) m = next;
          m->end = next->end;
          from = next->end;
        }
        break;
      }
      case Kind::Next:
        m = searchLine(*d, cursor.line + 1, 0, end);
        if (!m) {
          std::optional<Match> later = search(*d, Pos{cursor.line + 1, 0}, end);
          fail(*d, "expected string not found on the line after the previous match", cursor.line + 1,
               later ? std::optional<size_t>(later->begin.line) : std::nullopt);
        }
        break;
      case Kind::Same:
        m = searchLine(*d, cursor.line, cursor.col, end);
        if (!m) fail(*d, "expected string not found on the line of the previous match", cursor.line);
        break;
      case Kind::Empty: {
        size_t next = cursor.line + 1;
        if (next >= input_.size() || !trim(input_[next]).empty())
          fail(*d, "expected an empty line after the previous match", next);
        m = Match{{next, 0}, {next, input_[next].size()}};
        break;
      }
      case Kind::Not: break;
    }
    checkNots(nots, cursor, m->begin);
    cursor = m->end;
    havePrevious = true;
  }
  checkNots(nots, cursor, end);
}

void Checker::run(const std::vector<Directive>& directives) {
  // Labels are found first, in order; they split the input into independent blocks.
  std::vector<Match> labels;
  Pos cursor{0, 0};
  for (const Directive& d : directives) {
    if (d.kind != Kind::Label) continue;
    std::optional<Match> m = search(d, cursor, inputEnd());
    if (!m) fail(d, "label not found in the input", cursor.line);
    labels.push_back(*m);
    cursor = m->end;
  }
  std::vector<const Directive*> group;
  size_t label = 0;
  Pos start{0, 0};
  bool startMatched = false;
  for (const Directive& d : directives) {
    if (d.kind == Kind::Label) {
      checkGroup(group, start, labels[label].begin, startMatched);
      group.clear();
      start = labels[label++].end;
      startMatched = true;
      continue;
    }
    group.push_back(&d);
  }
  checkGroup(group, start, inputEnd(), startMatched);
}

// ---------------------------------------------------------------- golden files

bool blessEnabled() {
  const char* bless = std::getenv("TILEC_BLESS");
  return bless && *bless && std::strcmp(bless, "0") != 0;
}

int compareWithGolden(const std::string& actual, const std::string& goldenPath) {
  std::string expected;
  bool exists = readFile(goldenPath, expected);
  if (exists && expected == actual) return 0;
  if (blessEnabled()) {
    std::ofstream out(goldenPath, std::ios::binary | std::ios::trunc);
    out << actual;
    if (!out) {
      std::cerr << "tilec-check: error: cannot write " << goldenPath << "\n";
      return kExitFail;
    }
    std::cerr << "tilec-check: note: blessed " << goldenPath << " (" << actual.size() << " bytes)\n";
    return 0;
  }
  if (!exists) {
    std::cerr << "tilec-check: error: cannot read golden file " << goldenPath
              << "\n  note: run with TILEC_BLESS=1 to create it from the input\n";
    return kExitFail;
  }
  std::vector<std::string> want = splitLines(expected), got = splitLines(actual);
  size_t line = 0;
  while (line < want.size() && line < got.size() && want[line] == got[line]) ++line;
  std::cerr << "tilec-check: error: input differs from " << goldenPath << " at line " << line + 1
            << " (golden has " << want.size() << " lines, input has " << got.size() << " lines)\n";
  auto show = [&](const char* label, const std::vector<std::string>& lines) {
    std::cerr << "  " << label << ":\n";
    size_t first = line >= 2 ? line - 2 : 0;
    for (size_t i = first; i < std::min(lines.size(), line + 3); ++i)
      std::cerr << (i == line ? "  > " : "    ") << i + 1 << " | " << lines[i] << "\n";
    if (line >= lines.size()) std::cerr << "  > " << line + 1 << " | <end of file>\n";
  };
  show("golden", want);
  show("input", got);
  if (line == want.size() && line == got.size())
    std::cerr << "  note: the lines are equal; the difference is in line endings or a final newline\n";
  std::cerr << "  note: if the new output is right, rerun with TILEC_BLESS=1 to update the golden file\n";
  return kExitFail;
}

// ---------------------------------------------------------------- main

struct Args {
  std::string checkFile, inputFile, expectFile;
  std::vector<std::string> prefixes;
  bool fullLines = false, allowEmpty = false;
};

std::optional<Args> parseArgs(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* flag) -> std::optional<std::string> {
      std::string f = flag;
      if (a.compare(0, f.size() + 1, f + "=") == 0) return a.substr(f.size() + 1);
      if (a == f && i + 1 < argc) return std::string(argv[++i]);
      return std::nullopt;
    };
    if (auto v = value("--check-prefix")) args.prefixes.push_back(*v);
    else if (auto v = value("--check-prefixes")) {
      std::stringstream ss(*v);
      for (std::string p; std::getline(ss, p, ',');)
        if (!p.empty()) args.prefixes.push_back(p);
    } else if (auto v = value("--expect-file")) args.expectFile = *v;
    else if (auto v = value("--input-file")) args.inputFile = *v;
    else if (a == "--match-full-lines") args.fullLines = true;
    else if (a == "--allow-empty") args.allowEmpty = true;
    else if (!a.empty() && a[0] != '-' && args.checkFile.empty()) args.checkFile = a;
    else {
      std::cerr << "tilec-check: error: unexpected argument '" << a << "'\n";
      return std::nullopt;
    }
  }
  if (args.prefixes.empty()) args.prefixes.push_back("CHECK");
  if (args.checkFile.empty() && args.expectFile.empty()) {
    std::cerr << "usage: tilec-check CHECKFILE [--check-prefix=P] [--match-full-lines] [--allow-empty]\n"
                 "       tilec-check [CHECKFILE] --expect-file=GOLDEN\n";
    return std::nullopt;
  }
  return args;
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<Args> args = parseArgs(argc, argv);
  if (!args) return kExitUsage;
  std::string input;
  if (args->inputFile.empty()) {
    input.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else if (!readFile(args->inputFile, input)) {
    std::cerr << "tilec-check: error: cannot read input file " << args->inputFile << "\n";
    return kExitUsage;
  }
  if (!args->expectFile.empty()) return compareWithGolden(input, args->expectFile);

  std::string checkText;
  if (!readFile(args->checkFile, checkText)) {
    std::cerr << "tilec-check: error: cannot read check file " << args->checkFile << "\n";
    return kExitUsage;
  }
  try {
    std::vector<Directive> directives = parseDirectives(checkText, args->checkFile, args->prefixes);
    if (directives.empty()) {
      std::string names;
      for (const std::string& p : args->prefixes) names += (names.empty() ? "" : ", ") + p;
      std::cerr << "tilec-check: error: no check directives with prefix " << names << " in "
                << args->checkFile << "\n";
      return kExitFail;
    }
    if (input.empty() && !args->allowEmpty) {
      std::cerr << "tilec-check: error: the input is empty (pass --allow-empty if that is expected)\n";
      return kExitFail;
    }
    Checker(splitLines(input), args->checkFile, args->fullLines).run(directives);
  } catch (const CheckError& e) {
    std::cerr << e.message;
    if (e.message.empty() || e.message.back() != '\n') std::cerr << "\n";
    return kExitFail;
  }
  return 0;
}
