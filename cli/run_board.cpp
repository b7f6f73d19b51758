#include "cli/run_board.hpp"

#include <cstdio>
#include <unistd.h>

#include "cli/exit_codes.hpp"
#include "cli/terminal_attach.hpp"

namespace mission::cli {
namespace {

// One line per attempt event: "merged     build-api  attempt 1/3  4.2s".
void print_attempt(const nlohmann::json& attempt) {
  const std::string status = attempt.value("status", "");
  std::string line = styled(padded(status, 10), attempt_tone(status)) + " " +
                     padded(safe(attempt.value("taskName", "")), 24) + " attempt " +
                     std::to_string(attempt.value("attempt", 0)) + "/" + std::to_string(attempt.value("maxAttempts", 0));
  if (status != "running") line += "  " + run_seconds(attempt.value("durationMs", std::int64_t{0}));
  if (attempt.contains("agentExecutionId") && status == "running") {
    line += "  " + attempt.value("agentExecutionId", "");
  }
  std::printf("%s\n", line.c_str());
  if (status == "awaiting_approval") {
    std::printf("           %s\n", styled("mission approve " + attempt.value("taskId", "") + "  (or: mission reject " +
                                            attempt.value("taskId", "") + " REASON)",
                                        Tone::attention)
                                     .c_str());
  }
  if (attempt.contains("reason")) {
    for (const auto& part : wrapped(safe(attempt.value("reason", "")), output_columns(), 11)) {
      std::printf("%s\n", part.c_str());
    }
  }
  std::fflush(stdout);
}

void print_run_end(const nlohmann::json& run) {
  const std::string status = run.value("status", "");
  std::printf("%s %s", styled("Run " + run.value("id", "") + " " + status, status == "completed" ? Tone::good : Tone::bad).c_str(),
              run.contains("reason") ? ("— " + safe(run.value("reason", ""))).c_str() : "");
  std::printf("\n");
  if (run.contains("integrationBranch")) {
    std::printf("The work is on branch %s.\n", run.value("integrationBranch", "").c_str());
  }
  std::fflush(stdout);
}

void print_json_line(const nlohmann::json& value) {
  std::printf("%s\n", value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
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
      status == "awaiting_approval") {
    return Tone::attention;
  }
  return Tone::dim;
}

int exit_status_of_run(const std::string& status) { return status == "completed" ? kExitOk : kExitFailure; }

bool run_has_ended(const std::string& status) { return status != "running" && status != "stopping"; }

RunBoard::RunBoard(const nlohmann::json& run) {
  const nlohmann::json options = run.value("options", nlohmann::json::object());
  for (const auto& task : run.value("tasks", nlohmann::json::array())) {
    const std::string id = task.value("id", "");
    order_.push_back(id);
    nlohmann::json row = {{"taskId", id}, {"taskName", task.value("name", "")}, {"status", task.value("status", "waiting")}};
    const auto& attempts = task.value("attempts", nlohmann::json::array());
    if (!attempts.empty()) {
      const nlohmann::json& last = attempts.back();
      row["attempt"] = last.value("attempt", 0);
      row["maxAttempts"] = options.value("maxAttempts", 0);
      row["durationMs"] = last.value("durationMs", std::int64_t{0});
      if (last.contains("agentExecutionId")) row["agentExecutionId"] = last["agentExecutionId"];
    }
    rows_[id] = std::move(row);
  }
}

void RunBoard::update(const nlohmann::json& attempt) {
  const std::string id = attempt.value("taskId", "");
  if (rows_.count(id) == 0) order_.push_back(id);
  rows_[id] = attempt;
}

void RunBoard::draw(const std::string& header) {
  unsigned short rows = 24;
  unsigned short columns = 80;
  window_size(rows, columns);
  std::vector<std::string> lines;
  lines.push_back(header);
  std::size_t merged = 0;
  std::size_t waiting = 0;
  for (const auto& id : order_) {
    const std::string status = rows_[id].value("status", "");
    if (status == "merged" || status == "done") ++merged;
    if (status == "waiting") ++waiting;
  }
  const std::size_t width = columns > 40 ? 30 : 10;
  const std::size_t filled = order_.empty() ? 0 : merged * width / order_.size();
  lines.push_back("[" + std::string(filled, '#') + std::string(width - filled, '.') + "] " + std::to_string(merged) +
                  "/" + std::to_string(order_.size()) + " merged");
  // Waiting tasks are counted, not listed, when the screen is short.
  const bool list_waiting = order_.size() + 3 < rows;
  for (const auto& id : order_) {
    const nlohmann::json& row = rows_[id];
    const std::string status = row.value("status", "");
    if (status == "waiting" && !list_waiting) continue;
    std::string line = styled(padded(status, 17), attempt_tone(status)) + " " + padded(safe(row.value("taskName", "")), 24);
    if (row.contains("attempt")) {
      line += " " + std::to_string(row.value("attempt", 0)) + "/" + std::to_string(row.value("maxAttempts", 0));
      line += "  " + padded(run_seconds(row.value("durationMs", std::int64_t{0})), 7);
      if (row.contains("agentExecutionId")) line += "  " + row.value("agentExecutionId", "");
    }
    if (status == "awaiting_approval") line += styled("  mission approve " + id, Tone::attention);
    lines.push_back(fit(line, columns));
    if (lines.size() + 1 >= rows) break;
  }
  if (!list_waiting && waiting > 0) lines.push_back(std::to_string(waiting) + " waiting");
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

int follow_run(DaemonClient& client, const nlohmann::json& run, const std::string& header, bool json) {
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
  for (;;) {
    nlohmann::json event = client.read_event();
    if (event.value("runId", "") != run_id) continue;
    if (json) print_json_line(event);
    const std::string type = event.value("type", "");
    if (type == "run.attempt" && live) {
      board.update(event.value("attempt", nlohmann::json::object()));
      board.draw(header);
    } else if (type == "run.attempt" && !json) {
      print_attempt(event.value("attempt", nlohmann::json::object()));
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
