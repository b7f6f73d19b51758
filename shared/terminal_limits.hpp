#pragma once
// Limits of the terminals the daemon owns (daemon/terminal/, docs/adr/0014),
// apart from shared/limits.hpp so that changing one rebuilds only the
// terminal code. Documented in mission(1), LIMITS.

#include <cstddef>

namespace mission::limits {

// Agents on a terminal the daemon owns (`mission run` from a terminal,
// `mission attach`). The terminal's size when the launch gives none; bytes a
// viewer may have queued before it stops getting output (it gets a repaint
// of the screen once it has caught up); viewers of one terminal; bytes one
// terminal.input may type.
inline constexpr unsigned short kDefaultTerminalRows = 24;
inline constexpr unsigned short kDefaultTerminalColumns = 80;
// The sizes a terminal may take, on every path: the launch's size, the one
// terminal.attach gives, a viewer's resize frame, and `mission attach` and
// `mission run` (which send at most these, and say so, from a larger
// terminal). The screen model keeps two screens of cells of some 36 bytes
// each (the normal and the alternate one): 300 x 1000 costs it 21 MiB, and
// the daemon's RSS rises by some 41 MiB while libvterm copies the old
// screens into the new (tests/bench/agent_rss_bench.mjs); 2000 x 2000 cost
// 275 MiB, and a resize of 65535 x 65535 asked libvterm for 150 GB. A size outside them is refused
// with the reason; nothing real needs more (a 4K screen in a small font shows some 380 columns and
// 120 rows).
inline constexpr unsigned short kMinTerminalRows = 1;
inline constexpr unsigned short kMinTerminalColumns = 1;
inline constexpr unsigned short kMaxTerminalRows = 300;
inline constexpr unsigned short kMaxTerminalColumns = 1000;

// Whether a terminal may be `rows` x `columns`.
constexpr bool terminal_size_allowed(unsigned rows, unsigned columns) {
  return rows >= kMinTerminalRows && rows <= kMaxTerminalRows && columns >= kMinTerminalColumns &&
         columns <= kMaxTerminalColumns;
}
// A typist's new sizes reach the screen model and the agent at most once
// in this interval; the last size asked for meanwhile follows when it ends.
// One resize near the largest size costs the loop 45 to 55 ms (libvterm
// copies both screens), so a viewer sending resize frames back to back had
// the daemon answer nobody for minutes; a person dragging a window's edge
// sees the final size within this.
inline constexpr int kTerminalResizeIntervalMs = 250;
inline constexpr std::size_t kMaxViewerBacklogBytes = 4 * 1024 * 1024;
inline constexpr std::size_t kMaxTerminalViewers = 16;
inline constexpr std::size_t kMaxTerminalInputBytes = 64 * 1024;
// Bytes waiting to reach one agent (its terminal, or its stdin with
// --stdin-answers) that it has not read: keys a viewer typed, messages and
// answers. An agent that never reads would have the daemon keep them all.
// Past it a viewer's keys are dropped and the viewer told; a message, an
// answer or a terminal.input is refused (agent_not_reading, retryable)
// before it is stored, never dropped once accepted.
inline constexpr std::size_t kMaxQueuedInputBytes = 1024 * 1024;
// The screen model (libvterm) reads a few MB/s, far below what an agent can
// write: while an agent writes at most kScreenEagerBytes in a window of
// kScreenWindowMs its output goes into the model at once (so the model can
// answer the agent's queries); past that the output waits, and only its
// last kScreenBacklogBytes (from a line start) are kept for the model, which
// is what a screen can show. The model catches up when a viewer attaches
// and in the next quiet window.
inline constexpr std::size_t kScreenEagerBytes = 32 * 1024;
inline constexpr int kScreenWindowMs = 200;
inline constexpr std::size_t kScreenBacklogBytes = 64 * 1024;
// A terminal agent's screen is read for a permission prompt (the menu an
// interactive CLI draws before it runs a tool, daemon/terminal/
// permission_prompt.hpp) once its output has been quiet for
// kScreenSettleMs: one read of the screen when it settles, not one per
// write. A screen that never settles (a spinner, a clock) is read at most
// once per kScreenSettleMaxMs all the same. Each read costs one pass over
// the screen's text (at most kMaxTerminalRows x kMaxTerminalColumns cells).
inline constexpr int kScreenSettleMs = 300;
inline constexpr int kScreenSettleMaxMs = 2000;
// What is kept of a prompt read from a screen, the agent's own text: its
// question and each option cut to these many bytes (the menus number their
// options with one digit, so there are at most nine).
inline constexpr std::size_t kMaxPromptQuestionBytes = 500;
inline constexpr std::size_t kMaxPromptOptionBytes = 200;
// Text typed for a person (terminal.input, a message to the agent) gets its
// Enter this long after the text, as a person presses it: a program that
// takes keys arriving together for a paste reads an Enter among them as a
// newline in the pasted text (Codex does, within 120 ms of a burst).
inline constexpr int kTypedEnterPauseMs = 250;

}  // namespace mission::limits
