// mission board [--open]: asks the daemon to serve the board on loopback
// (on a free port, unless its HTTP listener is on already) and prints a
// one-time sign-in link; --open also opens it with xdg-open when there is
// a display to open it on.

#include <spawn.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"

extern char** environ;

namespace mission::cli {
namespace {

bool has_display() {
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (x11 != nullptr && *x11 != '\0') || (wayland != nullptr && *wayland != '\0');
}

// Runs xdg-open on `url`; false when it cannot be run or fails.
bool open_in_browser(const std::string& url) {
  char program[] = "xdg-open";
  std::string argument = url;
  char* argv[] = {program, argument.data(), nullptr};
  pid_t pid = 0;
  if (posix_spawnp(&pid, program, nullptr, nullptr, argv, environ) != 0) return false;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

void define_board_command(CLI::App& command, CliContext& context) {
  auto open_link = std::make_shared<bool>(false);
  command.add_flag("--open", *open_link, "Open the link in a browser (xdg-open, with a display)");
  command.callback([&context, open_link] {
    context.action = [&context, open_link] {
      nlohmann::json result = context.connect().client.call("board.open", nlohmann::json::object());
      const std::string url = result.value("url", "");
      if (context.options.json) {
        print_json(result);
      } else {
        std::printf("%s\n", url.c_str());
        std::fprintf(stderr,
                     "the link signs one browser in once, within %lld minutes; run 'mission board' "
                     "again for another\n",
                     static_cast<long long>(result.value("expiresInMs", 0) / 60000));
      }
      if (*open_link) {
        if (!has_display()) {
          std::fprintf(stderr,
                       "mission: no display (DISPLAY, WAYLAND_DISPLAY) to open it on; "
                       "open the link in a browser yourself\n");
        } else if (!open_in_browser(url)) {
          std::fprintf(stderr,
                       "mission: xdg-open could not open the link; open it in a browser "
                       "yourself\n");
        }
      }
      return int{kExitOk};
    };
  });
}

}  // namespace mission::cli
