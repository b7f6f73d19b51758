#include "cli/mission_view.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

#include "cli/execution_view.hpp"
#include "cli/output.hpp"
#include "cli/table.hpp"
#include "shared/display_text.hpp"

namespace mission::cli {
namespace {

Tone status_tone(const std::string& status) {
  if (status == "completed" || status == "success") return Tone::good;
  if (status == "failed") return Tone::bad;
  if (status == "partial" || status == "partial_success") return Tone::dim;
  return Tone::plain;
}

// How many paths of `kind` a change set has: its counts (the lists hold only
// the first paths of a large one).
std::size_t count(const nlohmann::json& changes, const char* kind) {
  if (!changes.is_object()) return 0;
  if (changes.contains("counts")) return changes.at("counts").value(kind, std::size_t{0});
  return changes.contains(kind) ? changes.at(kind).size() : 0;
}

// "+2 ~3 -1": added, modified, deleted; "-" before the task completed.
std::string change_counts(const nlohmann::json& task) {
  if (!task.contains("filesChanged")) return "-";
  const nlohmann::json& changes = task.at("filesChanged");
  return "+" + std::to_string(count(changes, "added")) + " ~" +
         std::to_string(count(changes, "modified")) + " -" +
         std::to_string(count(changes, "deleted"));
}

std::string scope_word(const nlohmann::json& task) {
  if (!task.contains("verification")) return "-";
  return task.at("verification").value("scopeMatch", true) ? "ok" : "OUTSIDE";
}

std::string phase_text(const nlohmann::json& mission) {
  std::string text = std::to_string(mission.value("currentPhase", 1));
  if (mission.contains("totalPhases")) text += "/" + mission.at("totalPhases").dump();
  return mission.value("kind", "mission") != "mission" ? "-" : text;
}

std::string seconds_text(const nlohmann::json& item) {
  if (!item.contains("durationSeconds"))
    return item.value("status", "") == "in_progress" ? "running" : "not started";
  // Whole seconds: a task of a few hundred milliseconds is "<1s", not "0ms".
  std::int64_t seconds = item.at("durationSeconds").get<std::int64_t>();
  return seconds == 0 ? "<1s" : human_duration(seconds * 1000);
}

// A task's time under a run: all its attempts, as the Run section counts it.
std::string run_time_text(const nlohmann::json& run_task) {
  const std::int64_t ms = run_task.value("durationMs", std::int64_t{0});
  return ms < 1000 ? std::string("<1s") : human_duration(ms);
}

// The scope warning of the attempt whose work a task kept (its newest
// merged one, else its newest): what it changed outside the plan's files
// when it passed anyway.
std::optional<std::string> run_scope_warning(const nlohmann::json& run_task) {
  const nlohmann::json attempts = run_task.value("attempts", nlohmann::json::array());
  if (attempts.empty()) return std::nullopt;
  const nlohmann::json* kept = &attempts.back();
  for (const auto& attempt : attempts) {
    if (attempt.contains("mergeCommit")) kept = &attempt;
  }
  if (!kept->contains("scopeWarning")) return std::nullopt;
  return kept->value("scopeWarning", "");
}

// Agent text as Markdown: neutralised, one line unless `lines`, with every
// character Markdown acts on inline escaped (emphasis, code, links and
// images, HTML, tables) and a line that would start a block (a heading, a
// list, a quote) escaped at its start: it reads as written and breaks
// nothing around it.
std::string md(std::string_view given, bool lines = false) {
  const std::string text =
      text::neutralised(given, lines ? text::Newlines::keep : text::Newlines::fold);
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  bool line_start = true;
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (line_start && c != '\n') {
      std::size_t digits = at;
      while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
      const bool ordered =
          digits > at && digits < text.size() && (text[digits] == '.' || text[digits] == ')');
      if (std::string_view("-+=#").find(c) != std::string_view::npos) out.push_back('\\');
      if (ordered) {
        out.append(text, at, digits - at);
        out.push_back('\\');
        at = digits - 1;
        line_start = false;
        continue;
      }
    }
    if (std::string_view("\\`*_[]<>|~").find(c) != std::string_view::npos) out.push_back('\\');
    out.push_back(c);
    line_start = c == '\n';
  }
  return out;
}

// Agent text (a path, an id) as a Markdown code span: neutralised to one
// line, fenced by more backticks than it holds in a row.
std::string md_code(std::string_view given) {
  const std::string text = text::neutralised(given);
  std::size_t longest = 0;
  std::size_t run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  return fence + (pad ? " " : "") + text + (pad ? " " : "") + fence;
}

void markdown_files(std::string& out, const nlohmann::json& changes) {
  std::string line;
  for (const auto& [kind, mark] : {std::pair{"added", "+"}, {"modified", "~"}, {"deleted", "-"}}) {
    for (const auto& path : changes.value(kind, nlohmann::json::array())) {
      line += (line.empty() ? "" : ", ") + md_code(mark + path.get<std::string>());
    }
  }
  if (changes.value("truncated", false)) {
    line += " and " + std::to_string(changes.value("total", 0)) +
            " in all (mission tasks MISSION --task ID lists them)";
  }
  out += "  - Files: " + (line.empty() ? std::string("none") : line) + "\n";
}

}  // namespace

void print_mission_table(const nlohmann::json& given) {
  const nlohmann::json missions = for_display(given);
  if (missions.empty()) {
    std::printf("no missions\n");
    return;
  }
  // On a narrow terminal the phase goes first, then the blockers, then
  // when it changed; the id, status and tasks always show.
  Table table({{"ID", TableColumn::Fit::whole},
               {"STATUS", TableColumn::Fit::whole},
               {"PHASE", TableColumn::Fit::whole, 3},
               {"TASKS", TableColumn::Fit::whole},
               {"BLOCKERS", TableColumn::Fit::whole, 2},
               {std::string("UPDATED") + (utc_times() ? " UTC" : ""), TableColumn::Fit::whole, 1},
               {"NAME", TableColumn::Fit::flexible}});
  for (const auto& mission : missions) {
    const std::string status = mission.value("status", "");
    const nlohmann::json tasks = mission.value("tasks", nlohmann::json::object());
    std::string task_text =
        std::to_string(tasks.value("completed", 0)) + "/" +
        std::to_string(tasks.value("total", 0)) +
        (tasks.value("failed", 0) > 0 ? " !" + std::to_string(tasks.value("failed", 0)) : "");
    table.add_row({{mission.value("missionId", "")},
                   {status, status_tone(status)},
                   {phase_text(mission)},
                   {task_text},
                   {std::to_string(mission.value("openBlockers", 0))},
                   {table_time(mission.value("updatedAt", nlohmann::json()))},
                   {mission.value("name", "")}});
  }
  table.print();
}

void print_task_table(const nlohmann::json& given) {
  const nlohmann::json tasks = for_display(given);
  if (tasks.empty()) {
    std::printf("no tasks\n");
    return;
  }
  // On a narrow terminal the phase goes first, then the change counts.
  Table table({{"ID", TableColumn::Fit::whole},
               {"STATUS", TableColumn::Fit::whole},
               {"PHASE", TableColumn::Fit::whole, 2},
               {"FILES", TableColumn::Fit::whole, 1},
               {"SCOPE", TableColumn::Fit::whole},
               {"NAME", TableColumn::Fit::flexible}});
  for (const auto& task : tasks) {
    const std::string status = task.value("status", "");
    std::string name = task.value("name", "");
    if (task.contains("parentTaskId")) name = "  " + name;  // a subtask, under its parent
    const std::string scope = scope_word(task);
    table.add_row({{task.value("taskId", "")},
                   {status, status_tone(status)},
                   {task.contains("phaseNumber") ? task.at("phaseNumber").dump() : "-"},
                   {change_counts(task)},
                   {scope, scope == "OUTSIDE" ? Tone::bad : Tone::plain},
                   {name}});
  }
  table.print();
}

void print_change_list(const nlohmann::json& changes) {
  if (changes.empty()) {
    std::printf("no changed files\n");
    return;
  }
  for (const auto& change : changes) {
    const std::string kind = change.value("change", "");
    const char* mark = kind == "added"     ? "+"
                       : kind == "deleted" ? "-"
                       : kind == "renamed" ? ">"
                                           : "~";
    std::string text = std::string(mark) + " ";
    if (change.contains("oldPath")) text += change.at("oldPath").get<std::string>() + " -> ";
    text += change.value("path", "");
    text = safe(text);
    if (!change.value("inScope", true)) text += "  " + styled("(outside areas)", Tone::bad);
    std::printf("%s\n", text.c_str());
  }
}

void print_mission(const nlohmann::json& given) {
  const nlohmann::json detail = for_display(given);
  const nlohmann::json& mission = detail.at("mission");
  const std::string status = safe(mission.value("status", ""));
  std::printf("%s  %s  %s\n", styled(safe(mission.value("missionId", "")), Tone::bold).c_str(),
              styled(status, status_tone(status)).c_str(), safe(mission.value("name", "")).c_str());
  std::vector<Field> fields{{"kind", mission.value("kind", "")}};
  for (const char* key : {"objective", "scope", "constraints", "summary"}) {
    if (mission.contains(key)) fields.push_back({key, mission.at(key).get<std::string>()});
  }
  if (mission.value("kind", "") == "mission") fields.push_back({"phase", phase_text(mission)});
  fields.push_back({"cwd", mission.value("cwd", "")});
  fields.push_back({"execution", mission.value("agentExecutionId", "-")});
  fields.push_back({"created", short_time(mission.value("createdAt", nlohmann::json()))});
  if (mission.contains("completedAt"))
    fields.push_back({"completed", short_time(mission.at("completedAt"))});
  print_fields(fields);
  const nlohmann::json phases = detail.value("phases", nlohmann::json::array());
  if (!phases.empty()) {
    std::printf("%s\n", styled("Phases", Tone::bold).c_str());
    for (const auto& phase : phases) {
      std::printf("  %s\n",
                  fit(std::to_string(phase.value("phaseNumber", 0)) + ". " +
                          phase.value("name", "") + "  " + phase.value("status", "") + ", " +
                          std::to_string(phase.value("tasksCount", 0)) + " task(s)",
                      output_columns() - 2)
                      .c_str());
    }
  }
  std::printf("%s\n", styled("Tasks", Tone::bold).c_str());
  print_task_table(detail.value("tasks", nlohmann::json::array()));
  std::size_t open = 0;
  for (const auto& issue : detail.value("issues", nlohmann::json::array())) {
    if (!issue.value("requiresHumanReview", false) || issue.contains("resolvedAt")) continue;
    if (open++ == 0) std::printf("%s\n", styled("Open blockers", Tone::bold).c_str());
    std::printf("  %s\n", fit(issue.value("id", "") + "  " + issue.value("description", ""),
                              output_columns() - 2)
                              .c_str());
  }
}

void print_context(const nlohmann::json& given) {
  const nlohmann::json context = for_display(given);
  std::printf("%s  %s  %s\n", styled(safe(context.value("missionId", "")), Tone::bold).c_str(),
              safe(context.value("missionStatus", "")).c_str(),
              safe(context.value("missionName", "")).c_str());
  auto section = [&](const char* key, const char* title, auto line_of) {
    if (!context.contains(key)) return;
    std::printf("%s\n", styled(title, Tone::bold).c_str());
    if (context.at(key).empty()) std::printf("  none\n");
    for (const auto& item : context.at(key))
      std::printf("  %s\n", fit(line_of(item), output_columns() - 2).c_str());
    if (context.contains("omitted") && context.at("omitted").contains(key)) {
      std::printf("  (%s older not shown)\n", context.at("omitted").at(key).dump().c_str());
    }
  };
  section("phaseSummary", "Phases", [](const nlohmann::json& p) {
    return std::to_string(p.value("phaseNumber", 0)) + ". " + p.value("name", "") + "  " +
           p.value("status", "") + ", " + std::to_string(p.value("tasksCount", 0)) + " task(s)";
  });
  section("tasks", "Tasks", [](const nlohmann::json& t) {
    return t.value("taskId", "") + "  " + t.value("status", "") + "  " + t.value("name", "");
  });
  section("decisions", "Decisions", [](const nlohmann::json& d) {
    return d.value("question", "") + " -> " + d.value("chosen", "") + " (" +
           d.value("reasoning", "") + ")";
  });
  section("milestones", "Milestones", [](const nlohmann::json& m) {
    std::string progress =
        m.contains("progress") ? " [" + std::to_string(m.at("progress").get<int>()) + "%]" : "";
    return short_time(m.value("createdAt", nlohmann::json())).substr(11) + "  " +
           m.value("message", "") + progress;
  });
  section("blockers", "Blockers", [](const nlohmann::json& b) {
    return b.value("id", "") + "  " + b.value("description", "");
  });
}

namespace {

// "1,500 (1,200 in, 300 out)" from {input, output, total}.
std::string tokens_text(const nlohmann::json& tokens) {
  auto grouped = [](std::int64_t n) {
    std::string digits = std::to_string(n);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
      digits.insert(static_cast<std::size_t>(i), ",");
    return digits;
  };
  std::string out = grouped(tokens.value("total", std::int64_t{0})) + " (" +
                    grouped(tokens.value("input", std::int64_t{0})) + " in, " +
                    grouped(tokens.value("output", std::int64_t{0})) + " out";
  if (tokens.contains("cacheRead"))
    out += ", " + grouped(tokens.value("cacheRead", std::int64_t{0})) + " cache read";
  if (tokens.contains("cacheWrite"))
    out += ", " + grouped(tokens.value("cacheWrite", std::int64_t{0})) + " cache write";
  return out + ")";
}

// ", $0.0123" for an object with costUsd, else nothing.
std::string cost_text(const nlohmann::json& object) {
  if (!object.contains("costUsd") || !object.at("costUsd").is_number()) return {};
  char dollars[48];
  std::snprintf(dollars, sizeof dollars, ", $%.4f", object.at("costUsd").get<double>());
  return dollars;
}

// An attempt's tokens, cost and where they came from: its agent's stream
// is named, and what its agent reported besides is shown after it.
std::string attempt_tokens_text(const nlohmann::json& attempt) {
  const nlohmann::json& tokens = attempt.at("tokens");
  std::string out = ", tokens " + tokens_text(tokens) + cost_text(attempt);
  if (tokens.value("source", "") != "stream") return out;
  out += " from its stream";
  if (attempt.contains("reportedTokens"))
    out += " (its agent reported " + tokens_text(attempt.at("reportedTokens")) + ")";
  return out;
}

// Where the run's tokens came from: "reported by 3 of 3 attempts", or
// with streams "from the streams of 2 of 3 attempts".
std::string tokens_source_text(const nlohmann::json& tokens, std::int64_t attempts) {
  const std::int64_t reporting = tokens.value("attemptsReporting", std::int64_t{0});
  const std::int64_t streams = tokens.value("attemptsFromStream", std::int64_t{0});
  const std::string of = std::to_string(reporting) + " of " + std::to_string(attempts) +
                         (attempts == 1 ? " attempt" : " attempts");
  if (streams == 0) return "reported by " + of;
  if (streams == reporting) return "from the streams of " + of;
  return "from " + of + " (" + std::to_string(streams) + " from their streams, " +
         std::to_string(reporting - streams) + " reported by their agents)";
}

// The workflow's last run: how it ended, the totals, and each task with
// every attempt (its agent, time, failure and tokens).
std::string run_markdown(const nlohmann::json& run) {
  std::string out = "\n### Run " + md_code(run.value("id", "")) + "\n\n";
  const std::string status = run.value("status", "");
  const bool ended = status != "running" && status != "stopping";
  out += "- Status: **" + md(status) + "**";
  if (run.contains("reason")) out += ": " + md(run.value("reason", ""));
  out += "\n- Branch: " + md_code(run.value("integrationBranch", "")) + ", adapter " +
         md(run.value("adapter", "generic")) + "\n";
  if (run.contains("sandbox")) out += "- Agents: " + md(run.value("sandbox", "")) + "\n";
  const std::int64_t attempts_total = run.value("attemptsTotal", std::int64_t{0});
  out += "- Time: " + human_duration(run.value("durationMs", std::int64_t{0})) + ", " +
         std::to_string(attempts_total) + (attempts_total == 1 ? " attempt" : " attempts") +
         " at " + std::to_string(run.value("taskCount", 0)) + " tasks\n";
  if (run.contains("gateRuns")) {
    const std::int64_t gates = run.value("gateRuns", std::int64_t{0});
    out += "- Gate: " + std::to_string(gates) + (gates == 1 ? " run" : " runs") +
           " on the merged trees\n";
  }
  const nlohmann::json tokens = run.value("tokens", nlohmann::json::object());
  const std::int64_t reporting = tokens.value("attemptsReporting", std::int64_t{0});
  out += "- Tokens: " +
         (reporting == 0 ? std::string("not reported by its agents")
                         : tokens_text(tokens) + ", " + tokens_source_text(tokens, attempts_total) +
                               cost_text(run)) +
         "\n\n";
  for (const auto& task : run.value("tasks", nlohmann::json::array())) {
    const auto& attempts = task.value("attempts", nlohmann::json::array());
    out += "- **" + md(task.value("name", "")) + "** (" + md_code(task.value("taskId", "")) +
           "): " + md(task.value("status", ""));
    if (attempts.empty()) {
      out += ended ? ", never started" : ", not started yet";
    } else {
      out += ", " + std::to_string(attempts.size()) +
             (attempts.size() == 1 ? " attempt" : " attempts");
    }
    if (!attempts.empty()) out += ", " + human_duration(task.value("durationMs", std::int64_t{0}));
    if (task.contains("tokens"))
      out += ", tokens " + tokens_text(task.at("tokens")) + cost_text(task);
    out += "\n";
    for (const auto& attempt : attempts) {
      out += "  - Attempt " + std::to_string(attempt.value("attempt", 0)) + ": " +
             md(attempt.value("status", "")) + ", " +
             md(attempt.value("adapter", run.value("adapter", "generic")));
      if (attempt.contains("agentExecutionId"))
        out += " " + md_code(attempt.value("agentExecutionId", ""));
      out += ", " + human_duration(attempt.value("durationMs", std::int64_t{0}));
      if (attempt.contains("tokens")) out += attempt_tokens_text(attempt);
      if (attempt.contains("reason")) out += ": " + md(attempt.value("reason", ""));
      if (attempt.contains("scopeWarning"))
        out += " (scope: " + md(attempt.value("scopeWarning", "")) + ")";
      out += "\n";
      for (const auto& refused : attempt.value("refusedWrites", nlohmann::json::array())) {
        out += "    - Refused: " + md(refused_write_text(refused)) + "\n";
      }
      for (const auto& answer : attempt.value("permissionAnswers", nlohmann::json::array())) {
        const std::string rule = answer.value("rule", "");
        out += "    - Permission for " + md(answer.value("question", "")) + ": " +
               md(answer.value("option", "")) + ", by " + md(answer.value("by", "")) +
               (rule.empty() ? "" : " (" + md_code(rule) + ")") + "\n";
      }
    }
  }
  return out;
}

}  // namespace

std::string mission_report_markdown(const nlohmann::json& detail) {
  // Every string an agent supplied goes through md() or md_code(), which
  // neutralise it: the report is printed on terminals and pasted where
  // Markdown is rendered.
  const nlohmann::json& mission = detail.at("mission");
  const nlohmann::json tasks = detail.value("tasks", nlohmann::json::array());
  std::string out =
      "## " + std::string(mission.value("kind", "mission") != "mission" ? "Workflow" : "Mission") +
      ": " + md(mission.value("name", "")) + "\n\n";
  out += "- Id: " + md_code(mission.value("missionId", "")) + "\n";
  out += "- Status: **" + md(mission.value("status", "")) + "**\n";
  if (mission.contains("objective"))
    out += "- Objective: " + md(mission.at("objective").get<std::string>()) + "\n";
  const nlohmann::json counts = mission.value("tasks", nlohmann::json::object());
  out += "- Tasks: " + std::to_string(counts.value("total", 0)) + " (" +
         std::to_string(counts.value("failed", 0)) + " failed)\n";
  if (mission.contains("summary"))
    out += "\n" + md(mission.at("summary").get<std::string>(), true) + "\n";

  // A task that ran under the run: its attempts are what happened, whatever
  // its agent recorded itself (a shell agent records nothing).
  std::map<std::string, const nlohmann::json*> ran;
  if (detail.contains("run") && detail.at("run").is_object() &&
      detail.at("run").contains("tasks")) {
    // Pointers into `detail`, which outlives them.
    for (const auto& task : detail.at("run").at("tasks")) {
      if (!task.value("attempts", nlohmann::json::array()).empty())
        ran.emplace(task.value("taskId", ""), &task);
    }
  }
  auto task_block = [&](const nlohmann::json& task) {
    auto found = ran.find(task.value("taskId", ""));
    const nlohmann::json* in_run = found == ran.end() ? nullptr : found->second;
    std::string block = "- **" + md(task.value("name", "")) + "** (" +
                        md_code(task.value("taskId", "")) + "): " + md(task.value("status", "")) +
                        ", " + (in_run ? run_time_text(*in_run) : seconds_text(task)) + "\n";
    if (task.contains("outcome")) {
      block += "  - Outcome: " + md(task.at("outcome").value("summary", "")) + "\n";
      for (const auto& item : task.at("outcome").value("limitations", nlohmann::json::array())) {
        block += "  - Limitation: " + md(item.get<std::string>()) + "\n";
      }
    }
    if (in_run && in_run->contains("filesChanged")) {
      markdown_files(block, in_run->at("filesChanged"));
    } else if (task.contains("filesChanged")) {
      markdown_files(block, task.at("filesChanged"));
    }
    if (in_run) {
      if (auto warning = run_scope_warning(*in_run)) block += "  - Scope: " + md(*warning) + "\n";
    } else if (task.contains("verification") &&
               !task.at("verification").value("scopeMatch", true)) {
      std::string unexpected;
      for (const auto& path :
           task.at("verification").value("unexpectedFiles", nlohmann::json::array())) {
        unexpected += (unexpected.empty() ? "" : ", ") +
                      md_code(path.is_string() ? path.get<std::string>() : path.dump());
      }
      block += "  - Scope: outside the declared areas: " + unexpected + "\n";
    }
    return block;
  };
  const nlohmann::json phases = detail.value("phases", nlohmann::json::array());
  for (const auto& phase : phases) {
    out += "\n### Phase " + std::to_string(phase.value("phaseNumber", 0)) + ": " +
           md(phase.value("name", "")) + " (" + md(phase.value("status", "")) + ")\n\n";
    for (const auto& task : tasks) {
      if (task.value("phaseNumber", 0) == phase.value("phaseNumber", -1)) out += task_block(task);
    }
  }
  std::string loose;
  for (const auto& task : tasks) {
    if (!task.contains("phaseNumber")) loose += task_block(task);
  }
  if (!loose.empty()) out += "\n### Tasks\n\n" + loose;

  const nlohmann::json decisions = detail.value("decisions", nlohmann::json::array());
  if (!decisions.empty()) {
    out += "\n### Decisions\n\n";
    for (const auto& d : decisions) {
      out += "- " + md(d.value("question", "")) + " **" + md(d.value("chosen", "")) +
             "**: " + md(d.value("reasoning", "")) + " (" + md(d.value("category", "")) + ")\n";
    }
  }
  std::string blockers;
  for (const auto& issue : detail.value("issues", nlohmann::json::array())) {
    if (issue.value("requiresHumanReview", false) && !issue.contains("resolvedAt")) {
      blockers += "- " + md_code(issue.value("id", "")) + " " + md(issue.value("description", "")) +
                  " (" + md(issue.value("resolution", "")) + ")\n";
    }
  }
  out += "\n### Open blockers\n\n" + (blockers.empty() ? std::string("None.\n") : blockers);
  std::string warnings;
  for (const auto& task : tasks) {
    if (ran.count(task.value("taskId", ""))) {
      if (auto warning = run_scope_warning(*ran.at(task.value("taskId", ""))))
        warnings += "- " + md(task.value("name", "")) + ": " + md(*warning) + "\n";
      continue;
    }
    if (!task.contains("verification")) continue;
    for (const auto& warning : task.at("verification").value("warnings", nlohmann::json::array())) {
      warnings += "- " + md(task.value("name", "")) + ": " + md(warning.get<std::string>()) + "\n";
    }
  }
  out += "\n### Scope warnings\n\n" + (warnings.empty() ? std::string("None.\n") : warnings);
  if (detail.contains("run") && detail.at("run").is_object()) out += run_markdown(detail.at("run"));
  return out;
}

void print_check(const nlohmann::json& given) {
  const nlohmann::json result = for_display(given);
  const nlohmann::json missions = result.value("missions", nlohmann::json::array());
  if (missions.empty()) {
    // A gate with nothing to judge fails; say where it looked and why.
    const std::string where = result.contains("cwd") ? " in " + safe(result.value("cwd", "")) : "";
    std::printf("%s  no mission records to check%s\n", styled("FAIL", Tone::bad).c_str(),
                where.c_str());
    std::printf(
        "  record work with an agent connected to mission (mission run, mission workflows run), or "
        "judge exported records with --from FILE or --from-notes RANGE\n");
  }
  for (const auto& mission : missions) {
    const bool ok = mission.value("ok", false);
    std::printf("%s  %s  %s\n", styled(ok ? "ok  " : "FAIL", ok ? Tone::good : Tone::bad).c_str(),
                safe(mission.value("missionId", "")).c_str(),
                safe(mission.value("name", "")).c_str());
    if (const auto landing = mission.find("landing"); landing != mission.end()) {
      // The run's landing, proved again against the branch as it is now.
      std::printf(
          "  landing: %s of %s merged tasks still in %s\n",
          std::to_string(landing->value("proved", 0)).c_str(),
          std::to_string(landing->value("proved", 0) + landing->value("missing", 0)).c_str(),
          safe(landing->value("integrationBranch", "")).c_str());
    }
    for (const auto& problem : mission.value("problems", nlohmann::json::array())) {
      for (const auto& line : wrapped(problem.value("message", ""), output_columns() - 2, 2)) {
        std::printf("  %s\n", line.c_str());
      }
    }
    for (const auto& warning : mission.value("warnings", nlohmann::json::array())) {
      std::printf("  %s %s\n", styled("warning:", Tone::dim).c_str(),
                  safe(warning.value("message", "")).c_str());
    }
  }
}

}  // namespace mission::cli
