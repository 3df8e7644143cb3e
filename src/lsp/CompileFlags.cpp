#include "lsp/CompileFlags.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

namespace tilec::lsp {
namespace fs = std::filesystem;
namespace {

using json = nlohmann::json;

// Where the server looks in each directory, in this order (clangd's order, with the
// file the CMake module writes next to CMake's own).
const char* const kDatabaseNames[] = {"compile_commands.json", "tilec_compile_commands.json"};
constexpr const char* kFlagsFileName = "compile_flags.txt";

bool isIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

std::string absoluteIn(const std::string& directory, const std::string& path) {
  return (fs::path(directory) / path).lexically_normal().string();
}

void addDefine(CompileFlags& flags, const std::string& nameValue) {
  const size_t eq = nameValue.find('=');
  if (eq == std::string::npos || !isIdentifier(nameValue.substr(0, eq))) {
    flags.problems.push_back("-D " + nameValue + " is not NAME=VALUE with NAME an identifier");
    return;
  }
  flags.defines.push_back(nameValue);
}

// `arg` is `flag` with its value joined (`-Ilib`, `--target=npu1`): the value; or `flag`
// itself: the next argument. Otherwise nullopt.
std::optional<std::string> valueOf(const std::vector<std::string>& args, size_t& i, const std::string& flag,
                                   const std::string& joiner) {
  const std::string& arg = args[i];
  if (arg == flag) {
    if (i + 1 == args.size()) return std::nullopt;
    return args[++i];
  }
  const std::string prefix = flag + joiner;
  if (arg.size() > prefix.size() && arg.compare(0, prefix.size(), prefix) == 0) return arg.substr(prefix.size());
  return std::nullopt;
}

std::optional<std::string> readText(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool samePath(const std::string& a, const std::string& b) {
  if (fs::path(a).lexically_normal() == fs::path(b).lexically_normal()) return true;
  std::error_code ea, eb;
  const fs::path ca = fs::weakly_canonical(a, ea), cb = fs::weakly_canonical(b, eb);
  return !ea && !eb && ca == cb;
}

std::optional<CompileFlags> fromDatabaseFile(const fs::path& path, const std::string& file) {
  std::optional<std::string> text = readText(path);
  if (!text) return std::nullopt;
  std::optional<CompileFlags> flags = flagsFromDatabase(*text, file);
  if (flags) flags->origin = path.string();
  return flags;
}

std::optional<CompileFlags> fromFlagsFile(const fs::path& path) {
  std::optional<std::string> text = readText(path);
  if (!text) return std::nullopt;
  CompileFlags flags = flagsFromFlagsFile(*text, path.parent_path().string());
  flags.origin = path.string();
  return flags;
}

// The databases and the flags file of one directory, in clangd's order.
std::optional<CompileFlags> fromDirectory(const fs::path& dir, const std::string& file) {
  for (const fs::path& where : {dir, dir / "build"})
    for (const char* name : kDatabaseNames)
      if (std::optional<CompileFlags> flags = fromDatabaseFile(where / name, file)) return flags;
  return fromFlagsFile(dir / kFlagsFileName);
}

}  // namespace

std::vector<std::string> shellSplit(const std::string& command) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (quote == '\'') {
      if (c == '\'') quote = 0;
      else word += c;
      continue;
    }
    if (c == '\\' && i + 1 < command.size() &&
        (quote != '"' || std::string("\"\\$`").find(command[i + 1]) != std::string::npos)) {
      word += command[++i];
      inWord = true;
      continue;
    }
    if (quote == '"') {
      if (c == '"') quote = 0;
      else word += c;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      inWord = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (inWord) words.push_back(std::move(word));
      word.clear();
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push_back(std::move(word));
  return words;
}

CompileFlags flagsFromArguments(const std::vector<std::string>& args, const std::string& directory, bool skipFirst) {
  CompileFlags flags;
  for (size_t i = skipFirst ? 1 : 0; i < args.size(); ++i) {
    if (std::optional<std::string> dir = valueOf(args, i, "-I", "")) flags.includeDirs.push_back(absoluteIn(directory, *dir));
    else if (std::optional<std::string> define = valueOf(args, i, "-D", "")) addDefine(flags, *define);
    else if (std::optional<std::string> target = valueOf(args, i, "--target", "=")) flags.target = *target;
  }
  return flags;
}

CompileFlags flagsFromFlagsFile(const std::string& text, const std::string& directory) {
  std::vector<std::string> args;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) args.push_back(std::move(line));
    start = end + 1;
  }
  return flagsFromArguments(args, directory, false);
}

std::optional<CompileFlags> flagsFromDatabase(const std::string& text, const std::string& file) {
  const json entries = json::parse(text, nullptr, false);
  if (!entries.is_array()) return std::nullopt;
  for (const json& entry : entries) {
    if (!entry.is_object()) continue;
    const auto directory = entry.find("directory"), entryFile = entry.find("file");
    if (directory == entry.end() || !directory->is_string() || entryFile == entry.end() || !entryFile->is_string())
      continue;
    if (!samePath(absoluteIn(*directory, *entryFile), file)) continue;
    std::vector<std::string> args;
    if (const auto arguments = entry.find("arguments"); arguments != entry.end() && arguments->is_array()) {
      for (const json& a : *arguments)
        if (a.is_string()) args.push_back(a);
    } else if (const auto command = entry.find("command"); command != entry.end() && command->is_string()) {
      args = shellSplit(*command);
    }
    return flagsFromArguments(args, *directory, true);
  }
  return std::nullopt;
}

std::optional<CompileFlags> findCompileFlags(const std::string& file, const std::string& databasePath) {
  if (!databasePath.empty()) {
    std::error_code ec;
    if (!fs::is_directory(databasePath, ec)) {
      if (std::optional<CompileFlags> flags = fromDatabaseFile(databasePath, file)) return flags;
    } else {
      for (const char* name : kDatabaseNames)
        if (std::optional<CompileFlags> flags = fromDatabaseFile(fs::path(databasePath) / name, file)) return flags;
    }
  }
  if (!fs::path(file).is_absolute()) return std::nullopt;  // an `untitled:` buffer has no directory
  fs::path dir = fs::path(file).parent_path();
  while (true) {
    if (std::optional<CompileFlags> flags = fromDirectory(dir, file)) return flags;
    if (!dir.has_parent_path() || dir.parent_path() == dir) return std::nullopt;
    dir = dir.parent_path();
  }
}

}  // namespace tilec::lsp
