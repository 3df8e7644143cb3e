#include "frontend/Imports.h"

#include <filesystem>
#include <fstream>
#include <map>

#include "frontend/Ast.h"
#include "frontend/Frontend.h"
#include "support/Wording.h"

namespace tilec::frontend {
namespace fs = std::filesystem;
namespace {

std::optional<std::string> readFromDisk(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Two spellings of one file (`a/../b.tile`, a symlink) are the same file.
std::string identity(const fs::path& path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path, ec);
  return (ec ? fs::absolute(path, ec).lexically_normal() : canonical).string();
}

// Depth-first over the import graph. Each file is parsed once; its module joins `loaded`
// after every file it imports, which puts declarations in dependency order.
class ProgramLoader {
 public:
  ProgramLoader(SourceManager& sm, DiagnosticEngine& diags, const ImportOptions& options)
      : sm_(sm), diags_(diags), options_(options) {}

  std::unique_ptr<ast::Module> load(FileId root, std::vector<std::string>* files) {
    files_ = files;
    const std::string rootName = sm_.name(root);
    visit(root, rootName == "-" ? std::string() : identity(rootName));
    return failed_ ? nullptr : merge(root);
  }

 private:
  void visit(FileId file, const std::string& key) {
    if (!key.empty()) visited_[key] = file;
    chain_.push_back({key, file});
    std::unique_ptr<ast::Module> m = parse(sm_, file, diags_);
    if (!m) {
      failed_ = true;
    } else {
      for (ast::Import& import : m->imports) resolve(import, file);
      loaded_.push_back(std::move(m));
    }
    chain_.pop_back();
  }

  void resolve(ast::Import& import, FileId importer) {
    for (const fs::path& candidate : candidates(import.path, sm_.name(importer))) {
      const std::string key = identity(candidate);
      if (auto seen = visited_.find(key); seen != visited_.end()) {
        import.resolved = seen->second;
        if (onChain(key)) reportCycle(import, key);
        return;
      }
      std::optional<std::string> text = options_.readFile ? options_.readFile(candidate.string())
                                                          : readFromDisk(candidate.string());
      if (!text) continue;
      import.resolved = sm_.addBuffer(candidate.string(), std::move(*text));
      if (files_) files_->push_back(candidate.string());
      visit(import.resolved, key);
      return;
    }
    reportNotFound(import, importer);
  }

  // The importing file's directory first, then each -I directory in order.
  std::vector<fs::path> candidates(const std::string& path, const std::string& importerName) const {
    fs::path imported(path);
    if (imported.is_absolute()) return {imported.lexically_normal()};
    fs::path base = importerName == "-" ? fs::path() : fs::path(importerName).parent_path();
    std::vector<fs::path> all{(base / imported).lexically_normal()};
    for (const std::string& dir : options_.searchDirs) all.push_back((fs::path(dir) / imported).lexically_normal());
    return all;
  }

  bool onChain(const std::string& key) const {
    for (const ChainEntry& e : chain_)
      if (e.key == key) return true;
    return false;
  }

  void reportCycle(const ast::Import& import, const std::string& key) {
    size_t start = 0;
    while (chain_[start].key != key) ++start;
    std::string cycle;
    for (size_t i = start; i < chain_.size(); ++i) cycle += "'" + sm_.name(chain_[i].file) + "' imports ";
    cycle += "'" + sm_.name(chain_[start].file) + "'";
    diags_.report(Diag::ImportCycle, import.pathRange,
                  "import cycle: " + cycle +
                      "; move what these files share into a file that imports none of them");
    failed_ = true;
  }

  void reportNotFound(const ast::Import& import, FileId importer) {
    std::string searched = "'" + candidates(import.path, sm_.name(importer)).front().string() + "'";
    for (const std::string& dir : options_.searchDirs) searched += ", '" + (fs::path(dir) / import.path).string() + "'";
    diags_.report(Diag::ImportNotFound, import.pathRange,
                  "cannot find imported file " + quotedName(import.path) + " (looked for " + searched +
                      "); check the path, or add its directory with -I DIR");
    failed_ = true;
  }

  std::unique_ptr<ast::Module> merge(FileId root) {
    auto program = std::make_unique<ast::Module>();
    program->file = root;
    for (std::unique_ptr<ast::Module>& m : loaded_) {
      program->files.push_back(m->file);
      for (ast::TopDecl& d : m->decls) program->decls.push_back(std::move(d));
      for (ast::Import& i : m->imports) program->imports.push_back(std::move(i));
    }
    return program;
  }

  struct ChainEntry {
    std::string key;  // empty for standard input, which nothing can import
    FileId file;
  };

  SourceManager& sm_;
  DiagnosticEngine& diags_;
  const ImportOptions& options_;
  std::vector<std::string>* files_ = nullptr;
  std::map<std::string, FileId> visited_;
  std::vector<ChainEntry> chain_;
  std::vector<std::unique_ptr<ast::Module>> loaded_;
  bool failed_ = false;
};

}  // namespace

std::unique_ptr<ast::Module> parseProgram(SourceManager& sm, FileId root, DiagnosticEngine& diags,
                                          const ImportOptions& options, std::vector<std::string>* files) {
  return ProgramLoader(sm, diags, options).load(root, files);
}

std::string inlineProgram(const SourceManager& sm, const ast::Module& program) {
  std::string all;
  for (FileId file : program.files) {
    std::string text(sm.contents(file));
    for (const ast::Import& i : program.imports)
      if (i.range.file == file)
        for (uint32_t at = i.range.begin; at < i.range.end; ++at)
          if (text[at] != '\n') text[at] = ' ';
    all += "// ---- " + sm.name(file) + " ----\n" + text;
    if (!text.empty() && text.back() != '\n') all += '\n';
  }
  return all;
}

}  // namespace tilec::frontend
