#include "daemon/http/board_assets.hpp"

namespace mission::daemon::http {

const BoardAsset* find_board_asset(std::string_view path) {
  for (std::size_t i = 0; i < kBoardAssetCount; ++i) {
    if (kBoardAssets[i].path == path) return &kBoardAssets[i];
  }
  return nullptr;
}

}  // namespace mission::daemon::http
