#pragma once
// Prints an execution's output as it grows, for `mission run` and
// `mission exec logs --follow`: asks the daemon for the lines after the last
// one printed until the execution is final and its log drained.

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/daemon_client.hpp"

namespace mission::cli {

// Writes one page's lines: stdout lines to stdout, stderr lines to stderr,
// or each line as a JSON object when `json_lines`. The agent's text is
// neutralised (no escape sequences reach the terminal) unless `raw`.
// Returns the last number.
std::uint64_t print_log_lines(const nlohmann::json& page, bool json_lines,
                              std::uint64_t last_printed, bool raw = false);

// Writes a page's `partialLines` (what a live execution printed after its
// last complete line, such as a prompt), each ended with a newline.
void print_partial_lines(const nlohmann::json& page, bool raw = false);

// Follows from line `after` until the execution is final and every line is
// printed. `between_polls` runs while waiting (e.g. to forward Ctrl-C).
// Returns the last page, which has the final state and the exit status.
nlohmann::json follow_log(DaemonClient& client, const std::string& execution_id,
                          std::uint64_t after, bool json_lines,
                          const std::function<void()>& between_polls, bool raw = false);

}  // namespace mission::cli
