#pragma once
// The board's page: the files under daemon/http/board/, embedded into the
// binary at build time (cmake/GenerateBoardAssets.cmake), so nothing is
// read from disk or fetched from elsewhere at run time.

#include <cstddef>
#include <string_view>

namespace mission::daemon::http {

struct BoardAsset {
  std::string_view path;  // "/", "/board.js", ...
  std::string_view content_type;
  std::string_view body;
};

// Defined in the generated source.
extern const BoardAsset kBoardAssets[];
extern const std::size_t kBoardAssetCount;

// The asset served at `path`, or nullptr.
const BoardAsset* find_board_asset(std::string_view path);

}  // namespace mission::daemon::http
