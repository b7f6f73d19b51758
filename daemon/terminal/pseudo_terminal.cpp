#include "daemon/terminal/pseudo_terminal.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "shared/error_code.hpp"

namespace mission::daemon::terminal {

PseudoTerminal open_pseudo_terminal(unsigned short rows, unsigned short columns) {
  int master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  auto fail = [&](const char* step) {
    const int error = errno;
    if (master >= 0) ::close(master);
    throw MissionError(
        ErrorCode::internal,
        std::string("cannot open a pseudo-terminal: ") + step + ": " + std::strerror(error),
        "check that /dev/pts is mounted and the pty limit (kernel.pty.max) is not reached");
  };
  if (master < 0) fail("posix_openpt");
  if (::grantpt(master) != 0) fail("grantpt");
  if (::unlockpt(master) != 0) fail("unlockpt");
  char name[128];
  if (::ptsname_r(master, name, sizeof name) != 0) fail("ptsname");
  struct winsize size {};
  size.ws_row = rows;
  size.ws_col = columns;
  if (::ioctl(master, TIOCSWINSZ, &size) != 0) fail("TIOCSWINSZ");
  return {master, name};
}

}  // namespace mission::daemon::terminal
