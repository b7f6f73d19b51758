// mission watch: what is running now, then the daemon's events as they
// happen, one line each for a person, or one JSON object per line with
// --json; it waits for a daemon that goes away to come back. With --notify (or
// MISSION_NOTIFY_CMD) a command runs whenever an execution needs input, is
// blocked or ends, and once per outcome of a run's task (not once per
// attempt: an attempt's agent ending says nothing a person acts on).

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>

#include "cli/commands/command_table.hpp"
#include "cli/event_view.hpp"
#include "cli/execution_reference.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/vocabulary.hpp"

extern char** environ;

namespace mission::cli {
namespace {

struct WatchOptions {
  std::string execution_id;
  std::string notify;
};

bool is_final_state(const std::string& state) {
  return state == "completed" || state == "failed" || state == "cancelled" || state == "lost";
}

// What the watch has learnt of an execution from the events before: the
// name a notification gives it, and whether it is the agent of a run's
// attempt (whose end the task's outcome tells instead).
struct SeenExecution {
  std::string name;
  bool attempt = false;
};
using SeenExecutions = std::map<std::string, SeenExecution>;

// Keeps `seen` up to date with `event`: an execution's name, else its
// adapter; an attempt's agent by its task's name.
void learn(const nlohmann::json& event, SeenExecutions& seen) {
  if (event.value("type", "") == "run.attempt") {
    const nlohmann::json attempt = event.value("attempt", nlohmann::json::object());
    const std::string id = attempt.value("agentExecutionId", "");
    if (!id.empty()) seen[id] = {attempt.value("taskName", ""), true};
    return;
  }
  if (!event.contains("execution") || !event.at("execution").is_object()) return;
  const nlohmann::json& execution = event.at("execution");
  const std::string id = execution.value("id", event.value("agentExecutionId", ""));
  if (id.empty()) return;
  SeenExecution& entry = seen[id];
  if (entry.attempt) return;  // named by its task already
  const std::string name = execution.value("agentName", "");
  if (!name.empty() || entry.name.empty())
    entry.name = name.empty() ? execution.value("adapter", "") : name;
}

// Whether a run's attempt in this status is its task's outcome: merged,
// waiting on a person, or failed with no attempt left.
bool is_task_outcome(const nlohmann::json& attempt) {
  const std::string status = attempt.value("status", "");
  if (status == "merged" || status == "awaiting_approval") return true;
  if (status != "failed" && status != "conflicted") return false;
  return attempt.value("attempt", 0) >= attempt.value("maxAttempts", 0);
}

// What a notification says of `event`: needs_input, blocked or ended, with
// the question or reason, or a run's task outcome; nothing for events that
// call for no one.
std::optional<std::map<std::string, std::string>> notification_of(const nlohmann::json& event,
                                                                  const SeenExecutions& seen) {
  const std::string type = event.value("type", "");
  std::map<std::string, std::string> env;
  if (type == "run.attempt") {
    const nlohmann::json attempt = event.value("attempt", nlohmann::json::object());
    if (!is_task_outcome(attempt)) return std::nullopt;
    const std::string task = attempt.value("taskName", "");
    const std::string status = attempt.value("status", "");
    env["MISSION_EVENT"] = "task";
    env["MISSION_STATE"] = status;
    env["MISSION_EXECUTION_ID"] = attempt.value("agentExecutionId", "");
    env["MISSION_EXECUTION_NAME"] = task;
    env["MISSION_TASK_ID"] = attempt.value("taskId", "");
    env["MISSION_TASK_NAME"] = task;
    env["MISSION_WORKFLOW_ID"] = event.value("workflowId", "");
    env["MISSION_MESSAGE"] =
        "task " + task + " of workflow " + event.value("workflowId", "") + " " +
        (status == "awaiting_approval"
             ? "awaits your approval (mission approve " + attempt.value("taskId", "") + ")"
             : status);
    return env;
  }
  env["MISSION_EXECUTION_ID"] = event.value("agentExecutionId", "");
  const auto known = seen.find(env["MISSION_EXECUTION_ID"]);
  env["MISSION_EXECUTION_NAME"] = known == seen.end() ? "" : known->second.name;
  if (type == "observation.recorded") {
    const nlohmann::json observation = event.value("observation", nlohmann::json::object());
    const std::string kind = observation.value("kind", "");
    if (kind != "needs_input" && kind != "blocked" && kind != "permission_prompt") {
      return std::nullopt;
    }
    const nlohmann::json payload = observation.value("payload", nlohmann::json::object());
    env["MISSION_EVENT"] = kind;
    env["MISSION_QUESTION"] =
        payload.is_object() ? payload.value("question", payload.value("reason", "")) : "";
    env["MISSION_MESSAGE"] = observation_text(observation);
    return env;
  }
  if (!event.contains("execution")) return std::nullopt;
  const nlohmann::json execution = event.at("execution");
  const std::string state = execution.value("state", "");
  if (!is_final_state(state)) return std::nullopt;
  if (known != seen.end() && known->second.attempt) return std::nullopt;
  env["MISSION_EVENT"] = "ended";
  env["MISSION_STATE"] = state;
  env["MISSION_MESSAGE"] = env["MISSION_EXECUTION_ID"] + " " + state;
  return env;
}

// Runs `command` with /bin/sh and the notification in its environment;
// waits for it so that notifications do not pile up.
void notify(const std::string& command, const std::map<std::string, std::string>& values) {
  std::vector<std::string> entries;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    std::string text = *entry;
    if (values.count(text.substr(0, text.find('='))) == 0) entries.push_back(std::move(text));
  }
  // The command shows them to a person (notify-send, a terminal): an
  // agent's question arrives as text, with no escape sequence in it.
  for (const auto& [name, value] : values) entries.push_back(name + "=" + safe(value));
  std::vector<char*> envp;
  for (auto& entry : entries) envp.push_back(entry.data());
  envp.push_back(nullptr);
  const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
  pid_t pid = 0;
  if (::posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char* const*>(argv),
                    envp.data()) != 0) {
    std::fprintf(stderr, "mission: cannot run the notify command\n");
    return;
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
}

// The executions that are not over yet (or the one watched), as
// execution.current events, so a watch starts from what is, not blank.
std::vector<nlohmann::json> current_state(DaemonClient& client, const std::string& execution_id) {
  std::vector<nlohmann::json> events;
  auto add = [&events](const nlohmann::json& execution) {
    events.push_back({{"type", "execution.current"},
                      {"at", execution.value("updatedAt", nlohmann::json())},
                      {"agentExecutionId", execution.value("id", "")},
                      {"execution", execution}});
  };
  if (!execution_id.empty()) {
    add(client.call("execution.get", {{"id", execution_id}}).at("execution"));
    return events;
  }
  for (ExecutionState state : active_execution_states()) {
    nlohmann::json page = client.call(
        "execution.list", {{"state", name_of(state)}, {"limit", limits::kWatchCurrentStateLimit}});
    for (const auto& execution : page.value("executions", nlohmann::json::array())) add(execution);
  }
  return events;
}

// A daemon that went away (stopped, restarted, upgraded): wait for the next
// one, without starting it.
DaemonClient reconnect(const CliContext& context) {
  std::fprintf(stderr, "mission: lost the daemon; watching for it to come back (Ctrl-C ends)\n");
  for (;;) {
    ::usleep(limits::kWatchReconnectMs * 1000);
    try {
      if (auto client = context.connect_if_running()) return std::move(*client);
    } catch (const MissionError&) {
      // Still going away or starting: try again.
    }
  }
}

int run_watch(const CliContext& context, const WatchOptions& options) {
  std::string notify_command = options.notify;
  if (notify_command.empty()) {
    if (const char* variable = std::getenv("MISSION_NOTIFY_CMD"); variable != nullptr)
      notify_command = variable;
  }
  DaemonConnection connection = context.connect();
  std::optional<DaemonClient> client = std::move(connection.client);
  const std::string execution_id =
      options.execution_id.empty() ? "" : resolve_execution(*client, options.execution_id);
  nlohmann::json params = nlohmann::json::object();
  if (!execution_id.empty()) params["agentExecutionId"] = execution_id;
  std::string last_line;
  SeenExecutions seen;
  auto show = [&](const nlohmann::json& event) {
    learn(event, seen);
    if (context.options.json) {
      std::printf("%s\n", json_text(event).c_str());
    } else {
      // The same line twice in a row, but for its time, says nothing new.
      std::string line = event_line(event);
      const std::string what = line.substr(std::min<std::size_t>(line.size(), 10));
      if (!line.empty() && what != last_line) std::printf("%s\n", line.c_str());
      if (!line.empty()) last_line = what;
    }
    std::fflush(stdout);
  };
  for (;;) {
    try {
      // Subscribed first, so nothing happens unseen between the two.
      client->call("events.subscribe", params);
      for (const auto& event : current_state(*client, execution_id)) show(event);
      for (;;) {
        nlohmann::json event = client->read_event();
        show(event);
        if (!notify_command.empty()) {
          if (auto values = notification_of(event, seen)) notify(notify_command, *values);
        }
      }
    } catch (const MissionError& e) {
      if (e.code() != ErrorCode::daemon_unavailable) throw;
    }
    client.reset();
    client.emplace(reconnect(context));
  }
}

}  // namespace

void define_watch_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<WatchOptions>();
  command.add_option("--execution", options->execution_id, "Only this execution's events")
      ->type_name("EXEC");
  command
      .add_option("--notify", options->notify,
                  "Run CMD (with sh) when an execution needs input, is blocked or ends, or "
                  "a run's task has its outcome; default $MISSION_NOTIFY_CMD")
      ->type_name("CMD");
  command.callback([&context, options] {
    context.action = [&context, options] { return run_watch(context, *options); };
  });
}

}  // namespace mission::cli
