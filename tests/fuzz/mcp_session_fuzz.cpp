// The MCP session: any MCP JSON-RPC frames (lifecycle, batches, tools/list,
// tools/call with any arguments) through a real connection that attached
// to a real daemon (daemon_fixture.hpp) with every toolset, each input a
// new session of a new attached execution over a small tree. Every reply
// is JSON-RPC 2.0 and the daemon keeps serving. message_wait is left out
// (it waits), and paths in tool arguments point into the fixture's tree.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "shared/bounded_json.hpp"
#include "tests/fuzz/daemon_fixture.hpp"

namespace {

bool dropped(std::string_view method, std::string_view tool) {
  return method == "tools/call" && tool == "message_wait";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static std::uint64_t runs = 0;
  auto& daemon = mission::fuzz::DaemonFixture::get();
  std::string_view input(reinterpret_cast<const char*>(data), size);
  nlohmann::json attach = {
      {"jsonrpc", "2.0"},
      {"id", "attach"},
      {"method", "mcp.attach"},
      {"params",
       {{"cwd", daemon.work_dir().string()},
        {"toolsets",
         {"signals", "tracking", "inspect", "planning", "templates", "coordination"}}}}};
  std::string frames(mission::fuzz::kHello);
  frames += attach.dump() + "\n";
  frames += mission::fuzz::tame_frames(input, daemon.work_dir(), dropped);
  auto lines = daemon.exchange(frames);
  if (lines.size() < 2 || !mission::parse_json_or_discarded(lines[1]).contains("result")) {
    if (lines.size() >= 2) std::fprintf(stderr, "attach: %.300s\n", lines[1].c_str());
    __builtin_trap();
  }
  mission::fuzz::check_replies(lines);
  if (++runs % 16 == 0) daemon.check_alive();
  return 0;
}
