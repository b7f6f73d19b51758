// What the daemon does with every frame before dispatching it: the depth
// scan, the bounded parse, the id and envelope checks, the error reply, and
// the UTF-8 excerpt of diagnostics. Never a crash or a stack overflow, and
// the scan agrees with the parser about what is too deep.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "shared/bounded_json.hpp"
#include "shared/jsonrpc.hpp"
#include "shared/limits.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  nlohmann::json message = mission::parse_json_or_discarded(text);
  if (!message.is_discarded()) {
    if (mission::json_too_deep(text)) __builtin_trap();
    nlohmann::json id =
        message.is_object() && message.contains("id") ? message.at("id") : nlohmann::json();
    bool ok_id = mission::jsonrpc::valid_id(id);
    nlohmann::json reply =
        ok_id ? mission::jsonrpc::result(id, message)
              : mission::jsonrpc::error(nullptr, mission::jsonrpc::invalid_id_error());
    std::string line = mission::jsonrpc::to_line(reply);
    if (line.empty() || line.back() != '\n') __builtin_trap();
    (void)mission::jsonrpc::is_request(message);
  }
  std::string excerpt = mission::valid_utf8_excerpt(text, 200);
  if (excerpt.size() > 200) __builtin_trap();
  // A valid excerpt survives a strict dump.
  (void)nlohmann::json(excerpt).dump();
  return 0;
}
