#pragma once
// How far apart two words are, for a did-you-mean: a mistyped command, a
// plan file's mistyped key.

#include <cstddef>
#include <string_view>

namespace mission {

// Edits (insert, delete, replace) that turn `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace mission
