#pragma once
// Opens a pseudo-terminal pair for an agent: the daemon keeps the master, the
// agent opens the slave by its path (loop::ChildProcess does, so that it
// becomes the agent's controlling terminal).

#include <string>

namespace mission::daemon::terminal {

struct PseudoTerminal {
  int master = -1;   // close-on-exec; the caller owns it
  std::string path;  // "/dev/pts/N"
};

// A new pair of `rows` x `columns`; throws MissionError when none can be had.
PseudoTerminal open_pseudo_terminal(unsigned short rows, unsigned short columns);

}  // namespace mission::daemon::terminal
