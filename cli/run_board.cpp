#include "cli/run_board.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "cli/exit_codes.hpp"
#include "cli/table.hpp"
#include "cli/terminal_attach.hpp"
#include "shared/display_text.hpp"

namespace mission::cli {
namespace {

// How often a board with a running attempt is redrawn when no event comes:
// its time goes on.
constexpr int kBoardTickMs = 1000;

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// One line per attempt event: "merged     build-api  attempt 1/3  4.2s".
void print_attempt(const nlohmann::json& attempt) {
  const std::string status = attempt.value("status", "");
  std::string line = styled(padded(status, 10), attempt_tone(status)) + " " +
                     padded(safe(attempt.value("taskName", "")), 24) + " attempt " +
                     std::to_string(attempt.value("attempt", 0)) + "/" +
                     std::to_string(attempt.value("maxAttempts", 0));
  if (status != "running") line += "  " + run_seconds(attempt.value("durationMs", std::int64_t{0}));
  if (attempt.contains("agentExecutionId") && status == "running") {
    line += "  " + attempt.value("agentExecutionId", "");
  }
  std::printf("%s\n", line.c_str());
  if (status == "awaiting_approval") {
    std::printf("           %s\n",
                styled("mission approve " + attempt.value("taskId", "") + "  (or: mission reject " +
                           attempt.value("taskId", "") + " REASON)",
                       Tone::attention)
                    .c_str());
  }
  if (attempt.contains("reason")) {
    for (const auto& part : wrapped(safe(attempt.value("reason", "")), output_columns(), 11)) {
      std::printf("%s\n", part.c_str());
    }
  }
  if (status == "budget_reached") {
    std::printf(
        "           %s\n",
        styled("raise it: mission inbox says how (mission workflows budget)", Tone::attention)
            .c_str());
  }
  std::fflush(stdout);
}

// A progress line, a question or a permission request of a run's agent,
// off a terminal.
void print_agent_line(const nlohmann::json& row) {
  const std::string name = padded(safe(row.value("taskName", "")), 24);
  if (row.contains("permission")) {
    std::printf("%s %s %s\n", styled(padded("permission", 10), Tone::attention).c_str(),
                name.c_str(), safe(row.value("permission", "")).c_str());
    std::printf("           %s\n",
                styled("mission answer " + row.value("agentExecutionId", "") + " --choice N",
                       Tone::attention)
                    .c_str());
  } else if (row.contains("question")) {
    std::printf("%s %s %s\n", styled(padded("question", 10), Tone::attention).c_str(), name.c_str(),
                safe(row.value("question", "")).c_str());
    std::printf(
        "           %s\n",
        styled("mission answer " + row.value("agentExecutionId", "") + " TEXT", Tone::attention)
            .c_str());
  } else if (row.contains("progress")) {
    std::printf("%s %s %s\n", styled(padded("progress", 10), Tone::dim).c_str(), name.c_str(),
                safe(row.value("progress", "")).c_str());
  }
  std::fflush(stdout);
}

void print_run_end(const nlohmann::json& run) {
  const std::string status = run.value("status", "");
  const std::string line = "Run " + run.value("id", "") + " " + status +
                           (run.contains("reason") ? " — " + run.value("reason", "") : "");
  for (const auto& part : wrapped(line, output_columns(), 2))
    std::printf("%s\n", styled(part, status == "completed" ? Tone::good : Tone::bad).c_str());
  if (run.contains("integrationBranch")) {
    std::printf("The work is on branch %s.\n", run.value("integrationBranch", "").c_str());
  }
  // What its agents used, when any stated or reported it (mission report
  // and mission usage say where each figure came from).
  if (run.contains("tokens")) {
    const nlohmann::json& tokens = run.at("tokens");
    std::string used = "Its agents used " + std::to_string(tokens.value("input", std::int64_t{0})) +
                       " tokens in, " + std::to_string(tokens.value("output", std::int64_t{0})) +
                       " out";
    if (run.contains("costUsd") && run.at("costUsd").is_number()) {
      char dollars[48];
      std::snprintf(dollars, sizeof dollars, ", $%.4f", run.at("costUsd").get<double>());
      used += dollars;
    }
    std::printf("%s.\n", used.c_str());
  }
  std::fflush(stdout);
}

void print_json_line(const nlohmann::json& value) {
  std::printf("%s\n", json_text(value).c_str());
  std::fflush(stdout);
}

}  // namespace

std::string run_seconds(std::int64_t ms) {
  char text[32];
  if (ms < 60'000) {
    std::snprintf(text, sizeof text, "%.1fs", static_cast<double>(ms) / 1000.0);
  } else {
    std::snprintf(text, sizeof text, "%lldm%02llds", static_cast<long long>(ms / 60'000),
                  static_cast<long long>((ms / 1000) % 60));
  }
  return text;
}

Tone attempt_tone(const std::string& status) {
  if (status == "merged" || status == "done") return Tone::good;
  if (status == "failed" || status == "conflicted") return Tone::bad;
  if (status == "running" || status == "judging" || status == "queued" || status == "retrying" ||
      status == "awaiting_approval" || status == "budget_reached") {
    return Tone::attention;
  }
  return Tone::dim;
}

int exit_status_of_run(const std::string& status) {
  return status == "completed" ? kExitOk : kExitFailure;
}

bool run_has_ended(const std::string& status) {
  return status != "running" && status != "stopping";
}

RunBoard::RunBoard(const nlohmann::json& run) {
  const nlohmann::json options = run.value("options", nlohmann::json::object());
  for (const auto& task : run.value("tasks", nlohmann::json::array())) {
    const std::string id = task.value("id", "");
    order_.push_back(id);
    nlohmann::json row = {{"taskId", id},
                          {"taskName", task.value("name", "")},
                          {"status", task.value("status", "waiting")}};
    const auto& attempts = task.value("attempts", nlohmann::json::array());
    if (!attempts.empty()) {
      const nlohmann::json& last = attempts.back();
      row["attempt"] = last.value("attempt", 0);
      row["maxAttempts"] = options.value("maxAttempts", 0);
      row["durationMs"] = last.value("durationMs", std::int64_t{0});
      if (last.contains("agentExecutionId")) row["agentExecutionId"] = last["agentExecutionId"];
      if (row.value("status", "") == "running")
        started_[id] = steady_ms() - last.value("durationMs", std::int64_t{0});
    }
    rows_[id] = std::move(row);
  }
}

void RunBoard::update(const nlohmann::json& attempt) {
  const std::string id = attempt.value("taskId", "");
  if (rows_.count(id) == 0) order_.push_back(id);
  nlohmann::json row = attempt;
  // The same agent still at work keeps what it last said.
  const nlohmann::json& before = rows_[id];
  if (before.value("agentExecutionId", "") == row.value("agentExecutionId", "") &&
      row.value("status", "") == "running") {
    for (const char* key : {"progress", "question", "permission"}) {
      if (before.contains(key)) row[key] = before[key];
    }
  }
  // The daemon gives how long the attempt has run as of the event; the
  // board counts on from there.
  if (row.value("status", "") == "running") {
    if (before.value("status", "") != "running" || started_.count(id) == 0 ||
        before.value("attempt", 0) != row.value("attempt", 0))
      started_[id] = steady_ms() - row.value("durationMs", std::int64_t{0});
  } else {
    started_.erase(id);
  }
  rows_[id] = std::move(row);
}

std::vector<std::string> RunBoard::note_waiting_questions(const nlohmann::json& inbox) {
  std::vector<std::string> changed;
  for (const auto& question : inbox.value("questions", nlohmann::json::array())) {
    const std::string execution = question.value("agentExecutionId", "");
    for (const auto& id : order_) {
      nlohmann::json& row = rows_[id];
      if (execution.empty() || row.value("agentExecutionId", "") != execution ||
          row.value("status", "") != "running")
        continue;
      row["question"] = question.value("question", "");
      changed.push_back(id);
    }
  }
  return changed;
}

bool RunBoard::has_running() const {
  return !started_.empty();
}

std::int64_t RunBoard::elapsed_ms(const std::string& task_id, const nlohmann::json& row) const {
  const auto started = started_.find(task_id);
  if (row.value("status", "") == "running" && started != started_.end())
    return std::max<std::int64_t>(0, steady_ms() - started->second);
  return row.value("durationMs", std::int64_t{0});
}

std::string RunBoard::note_agent_event(const nlohmann::json& event) {
  const std::string execution = event.value("agentExecutionId", "");
  if (execution.empty()) return {};
  for (const auto& id : order_) {
    nlohmann::json& row = rows_[id];
    if (row.value("agentExecutionId", "") != execution) continue;
    const std::string type = event.value("type", "");
    if (type == "observation.recorded") {
      const nlohmann::json& observation = event.value("observation", nlohmann::json::object());
      const nlohmann::json& payload =
          observation.contains("payload") && observation["payload"].is_object()
              ? observation["payload"]
              : nlohmann::json::object();
      const std::string kind = observation.value("kind", "");
      if (kind == "progress" && payload.contains("summary")) {
        row["progress"] = payload.value("summary", "");
        row.erase("question");
        return id;
      }
      if (kind == "needs_input" && payload.contains("question")) {
        row["question"] = payload.value("question", "");
        return id;
      }
      // A permission request, reported by the agent or read off its screen.
      if (kind == "permission_prompt" && payload.contains("question")) {
        row["permission"] = payload.value("question", "");
        return id;
      }
      if (kind == "permission_prompt_cleared" && row.contains("permission")) {
        row.erase("permission");
        return id;
      }
      return {};
    }
    if (type == "execution.updated" && row.contains("question")) {
      // Answered (or ended): it no longer waits on anyone.
      const std::string state =
          event.value("execution", nlohmann::json::object()).value("state", "");
      if (state != "awaiting_input") {
        row.erase("question");
        return id;
      }
    }
    return {};
  }
  return {};
}

std::vector<std::string> RunBoard::lines(const std::string& header, std::size_t rows,
                                         std::size_t columns) {
  std::vector<std::string> lines;
  lines.push_back(text::elide_end(header, columns));
  std::size_t merged = 0;
  std::size_t waiting = 0;
  for (const auto& id : order_) {
    const std::string status = rows_[id].value("status", "");
    if (status == "merged" || status == "done") ++merged;
    if (status == "waiting") ++waiting;
  }
  const std::size_t width = columns > 40 ? 30 : 10;
  const std::size_t filled = order_.empty() ? 0 : merged * width / order_.size();
  lines.push_back(
      text::elide_end("[" + std::string(filled, '#') + std::string(width - filled, '.') + "] " +
                          std::to_string(merged) + "/" + std::to_string(order_.size()) + " merged",
                      columns));
  // Waiting tasks are counted, not listed, when the screen is short.
  const bool list_waiting = order_.size() + 3 < rows;
  // A task per line, laid out as every table is (cli/table.hpp): the
  // status whole, and when the terminal is narrow the progress line, the
  // agent, the attempt and the time left out in that order.
  Table table({{"", TableColumn::Fit::whole},
               {"", TableColumn::Fit::elide, 0, 24},
               {"", TableColumn::Fit::whole, 2},
               {"", TableColumn::Fit::whole, 1},
               {"", TableColumn::Fit::whole, 3},
               {"", TableColumn::Fit::flexible, 4}});
  std::vector<std::string> listed;
  for (const auto& id : order_) {
    const nlohmann::json& row = rows_[id];
    const std::string status = row.value("status", "");
    if (status == "waiting" && !list_waiting) continue;
    listed.push_back(id);
    std::vector<TableCell> cells{{status, attempt_tone(status)}, {row.value("taskName", "")}};
    if (row.contains("attempt")) {
      cells.push_back({std::to_string(row.value("attempt", 0)) + "/" +
                       std::to_string(row.value("maxAttempts", 0))});
      cells.push_back({run_seconds(elapsed_ms(id, row))});
      cells.push_back({row.value("agentExecutionId", "")});
    } else {
      cells.resize(5);
    }
    if (row.contains("progress") && status != "awaiting_approval" && !row.contains("question") &&
        !row.contains("permission"))
      cells.push_back({row.value("progress", ""), Tone::dim});
    table.add_row(std::move(cells));
  }
  std::vector<std::string> task_lines = table.lines(columns);
  for (std::size_t i = 0; i < listed.size(); ++i) {
    if (lines.size() + 1 >= rows) break;
    lines.push_back(std::move(task_lines[i + 1]));  // [0] is the (empty) header
    const nlohmann::json& row = rows_[listed[i]];
    // What it waits on goes under the task, the command with it: the
    // approval's on one line, a question wrapped, never cut.
    std::vector<std::string> waits_on;
    if (row.value("status", "") == "awaiting_approval") {
      waits_on.push_back(text::elide_end(
          "    mission approve " + listed[i] + "  (or: mission reject " + listed[i] + " REASON)",
          columns));
    } else if (row.value("status", "") == "budget_reached") {
      // The inbox has the figures and the exact command that raises it.
      waits_on.push_back(text::elide_end(
          "    budget reached: mission inbox says by how much, mission workflows budget raises it",
          columns));
    } else if (row.contains("permission")) {
      waits_on = wrapped("awaits permission: " + row.value("permission", ""), columns - 4, 2);
      for (auto& part : waits_on) part.insert(0, "    ");
      waits_on.push_back(text::elide_end(
          "      mission answer " + row.value("agentExecutionId", "") + " --choice N", columns));
    } else if (row.contains("question")) {
      waits_on = wrapped("? " + row.value("question", ""), columns - 4, 2);
      for (auto& part : waits_on) part.insert(0, "    ");
      // On a line of its own, so that a wrap never splits the command.
      waits_on.push_back(text::elide_end(
          "      mission answer " + row.value("agentExecutionId", "") + " TEXT", columns));
    }
    for (const auto& part : waits_on) {
      if (lines.size() + 1 >= rows) break;
      lines.push_back(styled(part, Tone::attention));
    }
  }
  if (!list_waiting && waiting > 0) lines.push_back(std::to_string(waiting) + " waiting");
  return lines;
}

void RunBoard::draw(const std::string& header) {
  unsigned short rows = 24;
  unsigned short columns = 80;
  window_size(rows, columns);
  const std::vector<std::string> lines = this->lines(header, rows, columns);
  std::string out;
  if (drawn_ > 0) out += "\x1b[" + std::to_string(drawn_) + "A";
  for (const auto& line : lines) out += "\r\x1b[2K" + line + "\n";
  // Lines a shorter board no longer uses are cleared.
  for (std::size_t i = lines.size(); i < drawn_; ++i) out += "\r\x1b[2K\n";
  if (drawn_ > lines.size()) out += "\x1b[" + std::to_string(drawn_ - lines.size()) + "A";
  drawn_ = lines.size();
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
}

int follow_run(DaemonClient& client, const nlohmann::json& given_run,
               const std::string& given_header, bool json) {
  // Task names, progress lines, questions and reasons are agents' text:
  // the board and the lines show them as text only (--json prints data).
  const nlohmann::json run = json ? given_run : for_display(given_run);
  const std::string header = safe(given_header);
  const std::string run_id = run.value("id", "");
  const bool live = !json && ::isatty(STDOUT_FILENO) == 1;
  RunBoard board(run);
  if (live) {
    board.draw(header);
  } else if (!json) {
    std::printf("%s\n", header.c_str());
    std::fflush(stdout);
  }
  // It may have ended before we listened: its end is already known.
  if (run_has_ended(run.value("status", ""))) {
    if (!json) print_run_end(run);
    return exit_status_of_run(run.value("status", ""));
  }
  // A question asked before we listened still waits: shown as if heard.
  if (!json) {
    nlohmann::json inbox = for_display(client.call("inbox.list", nlohmann::json::object()));
    const std::vector<std::string> asked = board.note_waiting_questions(inbox);
    if (live && !asked.empty()) board.draw(header);
    if (!live) {
      for (const auto& task : asked) print_agent_line(board.row(task));
      std::fflush(stdout);
    }
  }
  for (;;) {
    // A running attempt's time is redrawn each tick while no event comes.
    if (live && board.has_running() && !client.has_buffered_line()) {
      pollfd ready{client.fd(), POLLIN, 0};
      if (::poll(&ready, 1, kBoardTickMs) == 0) {
        board.draw(header);
        continue;
      }
    }
    nlohmann::json event = client.read_event();
    if (!json) event = for_display(event);
    if (!json && !event.contains("runId")) {
      // What the run's agents say as they work.
      const std::string task = board.note_agent_event(event);
      if (task.empty()) continue;
      if (live) {
        board.draw(header);
      } else {
        print_agent_line(board.row(task));
      }
      continue;
    }
    if (event.value("runId", "") != run_id) continue;
    if (json) print_json_line(event);
    const std::string type = event.value("type", "");
    if (type == "run.attempt") {
      // Also off a terminal: the board knows which agent works on what.
      board.update(event.value("attempt", nlohmann::json::object()));
      if (live) {
        board.draw(header);
      } else if (!json) {
        print_attempt(event.value("attempt", nlohmann::json::object()));
      }
    }
    if (type == "run.updated") {
      const nlohmann::json& summary = event["run"];
      const std::string status = summary.value("status", "");
      if (!run_has_ended(status)) continue;
      if (!json) print_run_end(summary);
      return exit_status_of_run(status);
    }
  }
}

}  // namespace mission::cli
