// The control dispatcher: any frames after a hello, through the real socket
// of a real daemon with a real SQLite file (daemon_fixture.hpp): the framer,
// the depth check, the handshake, the method table, schema validation, the
// typed decoders, the methods and their transactions. Every reply is one
// JSON-RPC 2.0 line, the hello is answered, and the daemon keeps serving.
// Methods with effects outside the daemon (launching a process, stopping
// the daemon) are left out; cwds and paths point into the fixture's tree.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "shared/bounded_json.hpp"
#include "tests/fuzz/daemon_fixture.hpp"

namespace {

bool dropped(std::string_view method, std::string_view) {
  return method == "execution.launch" || method == "daemon.stop";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static std::uint64_t runs = 0;
  auto& daemon = mission::fuzz::DaemonFixture::get();
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string frames(mission::fuzz::kHello);
  frames += mission::fuzz::tame_frames(input, daemon.work_dir(), dropped);
  auto lines = daemon.exchange(frames);
  if (lines.empty() || !mission::parse_json_or_discarded(lines[0]).contains("result"))
    __builtin_trap();
  mission::fuzz::check_replies(lines);
  if (++runs % 16 == 0) daemon.check_alive();
  return 0;
}
