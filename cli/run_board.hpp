#pragma once
// Following a workflow run (docs/adr/0023, 0026), for `mission workflows
// run` and `mission workflows show --follow`: on a terminal a board redrawn
// in place at each event (a progress bar, then each task with its status,
// attempt, time and agent, and its agent's last progress line or, drawn to
// catch the eye, the question it waits on with the command that answers
// it, or an approval it waits on with the command to give it); a line per
// attempt change, progress line and question when not on a terminal; the
// events as JSON lines with --json.

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/daemon_client.hpp"
#include "cli/output.hpp"

namespace mission::cli {

// "4.2s", "3m07s".
std::string run_seconds(std::int64_t ms);
// The tone of a task's or attempt's status in a run.
Tone attempt_tone(const std::string& status);
// 0 when the run completed, 1 otherwise.
int exit_status_of_run(const std::string& status);
// Whether a run's status is one it ends with.
bool run_has_ended(const std::string& status);

class RunBoard {
 public:
  // `run` as workflow.run or workflow.runStatus give it: each task starts
  // as its last attempt left it.
  explicit RunBoard(const nlohmann::json& run);
  // A run.attempt event's attempt.
  void update(const nlohmann::json& attempt);
  // An observation.recorded or execution.updated event of one of the
  // run's agents: its progress line, the question it asks or the
  // permission it waits on, or that it was answered. The task it changed, or empty when it is not
  // news.
  std::string note_agent_event(const nlohmann::json& event);
  // The questions already waiting (inbox.list's): those of the run's
  // agents go on their tasks, as if their events had been heard. The
  // tasks they changed.
  std::vector<std::string> note_waiting_questions(const nlohmann::json& inbox);
  const nlohmann::json& row(const std::string& task_id) { return rows_[task_id]; }
  // Whether an attempt is running: its time goes on even with no event.
  bool has_running() const;
  // The board's lines for a terminal of `rows` x `columns`, each at most
  // `columns` display columns wide (so that none wraps and the redraw's
  // cursor-up count is the lines drawn).
  std::vector<std::string> lines(const std::string& header, std::size_t rows, std::size_t columns);
  // Redraws the board in place on stdout.
  void draw(const std::string& header);

 private:
  // A running attempt's time: since it started, by this process's clock.
  std::int64_t elapsed_ms(const std::string& task_id, const nlohmann::json& row) const;

  std::vector<std::string> order_;
  std::map<std::string, nlohmann::json> rows_;
  // When each running attempt started, in steady-clock ms.
  std::map<std::string, std::int64_t> started_;
  std::size_t drawn_ = 0;
};

// Follows the run `run` on `client` (already subscribed to events, so
// nothing was missed since `run` was read) until it ends: the board on a
// terminal, else `header` and a line per attempt change, or with `json`
// the run's events as JSON lines. The exit status of the run.
int follow_run(DaemonClient& client, const nlohmann::json& run, const std::string& header,
               bool json);

}  // namespace mission::cli
