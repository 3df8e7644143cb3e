// The language's keywords, as the lexer defines them (grammar/Tile.g4): what an editor
// offers to complete, read from the generated lexer so that it never lists another set.
#pragma once
#include <string>
#include <vector>

namespace tilec::frontend {

// Every token of the lexer that is a fixed lowercase word (`kernel`, `let`, `unroll`), sorted.
const std::vector<std::string>& keywords();

}  // namespace tilec::frontend
