#pragma once
// The CLI's side of an agent's terminal (mission run from a terminal,
// mission attach): raw mode, keystrokes and size changes to the daemon, the
// agent's screen back, until the agent ends or the detach key is pressed.

#include <string>

#include "cli/daemon_client.hpp"

namespace mission::cli {

// Ctrl-] detaches (as in telnet); the agent keeps running.
inline constexpr char kDetachKey = 0x1d;
inline constexpr const char* kDetachKeyName = "Ctrl-]";

// Whether stdin and stdout are both terminals: the agent then gets one too.
bool on_terminal();

// The size of the terminal on stdin or stdout; false when neither is one.
bool window_size(unsigned short& rows, unsigned short& columns);

// The size an agent's terminal takes from this one: window_size within
// kMin/kMaxTerminalRows and kMin/kMaxTerminalColumns (shared/terminal_limits.hpp),
// which the daemon refuses past. False when there is no terminal; `cut` is
// set when this terminal is larger (or smaller) than that.
bool agent_terminal_size(unsigned short& rows, unsigned short& columns, bool& cut);

// Attaches `client` (a fresh connection) to execution `id`'s terminal and
// runs until the agent ends (its exit status is returned, as mission run
// passes it on) or the person detaches (0). Throws MissionError when the
// execution has no terminal or the daemon goes away. With `events`, a
// second connection, the terminal's bell rings when the agent asks a
// question (a needs_input signal).
int attach_terminal(DaemonClient& client, const std::string& id, bool read_only,
                    DaemonClient* events = nullptr);

}  // namespace mission::cli
