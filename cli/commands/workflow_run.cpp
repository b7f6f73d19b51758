// Running a workflow from the shell (docs/adr/0023): mission workflows
// run|stop|status|reset. The daemon owns the run; `run` starts it (first
// putting what failed back to ready) and follows its events until it ends
// (Ctrl-C leaves it running), `stop` stops it, `status` lays out its tasks
// and their attempts, and `reset` puts failed tasks back to ready.

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "cli/budget_values.hpp"
#include "cli/commands/command_table.hpp"
#include "cli/execution_view.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"
#include "cli/policy_file.hpp"
#include "cli/run_board.hpp"
#include "cli/table.hpp"
#include "cli/workflow_reference.hpp"
#include "shared/error_code.hpp"

namespace mission::cli {
namespace {

struct WorkflowRunOptions {
  std::string id;
  std::string adapter = "generic";
  int parallel = 1;
  std::string check;
  std::string gate;
  int gate_parallel = 0;  // 0: the daemon's default
  int max_attempts = 0;   // 0: the daemon's default
  std::string task_timeout;
  std::string base;
  bool detach = false;
  bool approve = false;
  std::string sandbox;  // empty: the daemon's default (on)
  std::string network;  // empty: the daemon's default (on)
  std::vector<std::string> allow_write;
  // Read by budget_values.hpp, which refuses a bad one in the flag's words.
  std::string budget_tokens;
  std::string budget_usd;
  std::string run_budget_tokens;
  std::string run_budget_usd;
  std::vector<std::string> hide;
  // --allow, --deny, --policy (cli/policy_file.hpp).
  std::vector<std::string> allow;
  std::vector<std::string> deny;
  std::string policy;
  std::string task_id;
  std::string reason;
  std::vector<std::string> env;
  std::vector<std::string> command;
};

// "90s", "15m", "2h" or "500ms" in milliseconds; nullopt otherwise.
std::optional<std::int64_t> duration_ms(const std::string& text) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 9) return std::nullopt;
  const std::int64_t count = std::stoll(text.substr(0, digits));
  const std::string unit = text.substr(digits);
  if (unit == "ms") return count;
  if (unit == "s" || unit.empty()) return count * 1000;
  if (unit == "m") return count * 60 * 1000;
  if (unit == "h") return count * 3600 * 1000;
  return std::nullopt;
}

// What Ctrl-C says, with the workflow's id: written before the handler is
// installed, since a signal handler may only write what is ready.
char g_interrupt_note[256];

void leave_run_on_interrupt(int) {
  ssize_t ignored = ::write(STDERR_FILENO, g_interrupt_note, std::strlen(g_interrupt_note));
  (void)ignored;
  _exit(130);
}

// `options` with the workflow its id names (a prefix, a name, @last)
// given by its id, and its task too when one is named.
WorkflowRunOptions resolved(DaemonClient& client, WorkflowRunOptions options) {
  options.id = resolve_workflow(client, options.id);
  if (!options.task_id.empty())
    options.task_id = resolve_task(client, options.task_id, options.id).task_id;
  return options;
}

// The budgets given, as workflow.run takes them; a bad one is refused in
// its flag's words before the daemon is asked anything.
nlohmann::json budget_params(const WorkflowRunOptions& options) {
  nlohmann::json params = nlohmann::json::object();
  if (!options.budget_tokens.empty())
    params["budgetTokens"] = budget_tokens("--budget-tokens", options.budget_tokens);
  if (!options.budget_usd.empty())
    params["budgetUsd"] = budget_usd("--budget-usd", options.budget_usd);
  if (!options.run_budget_tokens.empty())
    params["runBudgetTokens"] = budget_tokens("--run-budget-tokens", options.run_budget_tokens);
  if (!options.run_budget_usd.empty())
    params["runBudgetUsd"] = budget_usd("--run-budget-usd", options.run_budget_usd);
  return params;
}

int run_workflow(const CliContext& context, const WorkflowRunOptions& given) {
  const nlohmann::json budgets = budget_params(given);
  DaemonConnection connection = context.connect();
  const WorkflowRunOptions options = resolved(connection.client, given);
  nlohmann::json params = {{"id", options.id},
                           {"adapter", options.adapter},
                           {"parallel", options.parallel},
                           {"command", options.command},
                           {"env", CliContext::agent_environment(options.env)}};
  if (!options.check.empty()) params["check"] = options.check;
  if (!options.gate.empty()) params["gate"] = options.gate;
  if (options.gate_parallel > 0) params["gateParallel"] = options.gate_parallel;
  if (options.max_attempts > 0) params["maxAttempts"] = options.max_attempts;
  if (!options.base.empty()) params["base"] = options.base;
  if (options.approve) params["approve"] = true;
  if (!options.sandbox.empty()) params["sandbox"] = options.sandbox;
  if (!options.network.empty()) params["network"] = options.network;
  if (!options.allow_write.empty())
    params["allowWrite"] = CliContext::absolute_paths(options.allow_write);
  params.update(budgets);
  if (!options.hide.empty()) params["hide"] = CliContext::absolute_paths(options.hide);
  if (auto policy = policy_param(options.allow, options.deny, options.policy))
    params["permissionPolicy"] = *policy;
  if (!options.task_timeout.empty()) {
    auto ms = duration_ms(options.task_timeout);
    if (!ms || *ms <= 0) {
      throw MissionError(ErrorCode::invalid_argument,
                         "--task-timeout '" + options.task_timeout + "' is not a duration",
                         "give it as 90s, 15m or 2h");
    }
    params["taskTimeoutMs"] = *ms;
  }
  // What failed before is tried again: a failed or partly done workflow
  // would not run otherwise. When the reset is refused (no such workflow,
  // a run under way), workflow.run says why in its own words.
  try {
    const nlohmann::json reset = connection.client.call("workflow.reset", {{"id", options.id}});
    const auto& names = reset.value("tasksReset", nlohmann::json::array());
    if (!names.empty()) {
      std::fprintf(stderr, "mission: retrying what failed in workflow %s: %s\n", options.id.c_str(),
                   safe(joined(names, ", ")).c_str());
    }
  } catch (const MissionError& e) {
    if (e.code() == ErrorCode::daemon_unavailable) throw;
  }
  // Subscribed first, so no event of the run can come before we listen.
  if (!options.detach) connection.client.call("events.subscribe", nlohmann::json::object());
  nlohmann::json run = connection.client.call("workflow.run", params).at("run");
  const std::string run_id = run.value("id", "");
  if (options.detach) {
    if (context.options.json) {
      print_json(run);
    } else {
      std::printf("%s\n", run_id.c_str());
    }
    return kExitOk;
  }
  std::snprintf(g_interrupt_note, sizeof g_interrupt_note,
                "\nmission: the run goes on in the daemon; follow it with 'mission workflows show "
                "%s --follow', stop it with 'mission workflows stop %s'\n",
                options.id.c_str(), options.id.c_str());
  struct sigaction action {};
  action.sa_handler = leave_run_on_interrupt;
  sigaction(SIGINT, &action, nullptr);
  const auto& tasks = run.value("tasks", nlohmann::json::array());
  char header[512];
  std::snprintf(header, sizeof header,
                "Running workflow %s (run %s): %zu tasks, up to %d agents at once, merged into %s",
                options.id.c_str(), run_id.c_str(), tasks.size(), options.parallel,
                run.value("integrationBranch", "").c_str());
  return follow_run(connection.client, run, header, context.options.json);
}

int reset_workflow(const CliContext& context, const WorkflowRunOptions& given) {
  DaemonConnection connection = context.connect();
  const WorkflowRunOptions options = resolved(connection.client, given);
  nlohmann::json params = {{"id", options.id}};
  if (!options.task_id.empty()) params["task"] = options.task_id;
  nlohmann::json reset = connection.client.call("workflow.reset", params);
  if (context.options.json) {
    print_json(reset);
    return kExitOk;
  }
  const auto& names = reset.value("tasksReset", nlohmann::json::array());
  if (names.empty()) {
    std::printf("Nothing failed in workflow %s (%s): nothing to reset.\n", options.id.c_str(),
                reset.value("status", "").c_str());
    return kExitOk;
  }
  std::printf("Workflow %s: %zu task%s back to ready (%s); workflow %s.\n", options.id.c_str(),
              names.size(), names.size() == 1 ? "" : "s", safe(joined(names, ", ")).c_str(),
              reset.value("status", "").c_str());
  std::printf("Next: mission workflows run %s -- AGENT runs them again.\n", options.id.c_str());
  return kExitOk;
}

int retry_workflow(const CliContext& context, const WorkflowRunOptions& given) {
  DaemonConnection connection = context.connect();
  const WorkflowRunOptions options = resolved(connection.client, given);
  nlohmann::json params = {{"id", options.id}};
  if (!options.task_id.empty()) params["task"] = options.task_id;
  const nlohmann::json reply = connection.client.call("workflow.retry", params);
  if (context.options.json) {
    print_json(reply);
    return kExitOk;
  }
  const nlohmann::json& run = reply.at("run");
  const auto& names = reply.value("tasksReset", nlohmann::json::array());
  std::printf("Run %s of workflow %s started with the last run's options%s%s.\n",
              run.value("id", "").c_str(), options.id.c_str(),
              names.empty() ? "" : ": trying again ", safe(joined(names, ", ")).c_str());
  const auto& missing = reply.value("environmentMissing", nlohmann::json::array());
  if (!missing.empty()) {
    std::fprintf(stderr,
                 "mission: the daemon has no %s, which the last run's agents had; set them "
                 "and run it yourself if they need them: mission workflows run %s --env K=V ...\n",
                 safe(joined(missing, ", ")).c_str(), options.id.c_str());
  }
  std::printf("Follow it: mission workflows show %s --follow\n", options.id.c_str());
  return kExitOk;
}

int decide(const CliContext& context, const WorkflowRunOptions& given, bool approve) {
  DaemonConnection connection = context.connect();
  WorkflowRunOptions options = given;
  options.task_id = resolve_task(connection.client, given.task_id).task_id;
  nlohmann::json params = {{"taskId", options.task_id}, {"from", CliContext::person_name()}};
  if (!approve) params["reason"] = options.reason;
  nlohmann::json run =
      connection.client.call(approve ? "task.approve" : "task.reject", params).at("run");
  if (context.options.json) {
    print_json(run);
    return kExitOk;
  }
  std::printf(approve ? "Approved %s: it is merged next.\n"
                      : "Rejected %s: it is tried again with your reason, if attempts remain.\n",
              options.task_id.c_str());
  return kExitOk;
}

int stop_workflow(const CliContext& context, const WorkflowRunOptions& given) {
  DaemonConnection connection = context.connect();
  const WorkflowRunOptions options = resolved(connection.client, given);
  nlohmann::json run = connection.client.call("workflow.stop", {{"id", options.id}}).at("run");
  if (context.options.json) {
    print_json(run);
    return kExitOk;
  }
  std::printf(
      "Stopping run %s of workflow %s: its agents are stopped and their tasks go back to ready.\n",
      run.value("id", "").c_str(), options.id.c_str());
  return kExitOk;
}

// ", N gate runs" for a run with --gate.
std::string gate_runs_text(const nlohmann::json& run) {
  if (!run.contains("gateRuns")) return "";
  const std::int64_t gates = run.value("gateRuns", std::int64_t{0});
  return ", " + std::to_string(gates) + (gates == 1 ? " gate run" : " gate runs");
}

int show_run_status(const CliContext& context, const WorkflowRunOptions& given) {
  DaemonConnection connection = context.connect();
  const WorkflowRunOptions options = resolved(connection.client, given);
  nlohmann::json run = connection.client.call("workflow.runStatus", {{"id", options.id}}).at("run");
  if (context.options.json) {
    print_json(run);
    return kExitOk;
  }
  run = for_display(run);  // agents' text, printed as text only
  const std::string status = run.value("status", "");
  const std::size_t columns = output_columns();
  // Wrapped to the terminal, as every line of this view.
  const std::int64_t attempts = run.value("attemptsTotal", std::int64_t{0});
  const std::string headline =
      "Run " + run.value("id", "") + " of workflow " + options.id + ": " + status + ", " +
      run_seconds(run.value("durationMs", std::int64_t{0})) + ", " + std::to_string(attempts) +
      (attempts == 1 ? " attempt" : " attempts") + gate_runs_text(run) + "; branch " +
      run.value("integrationBranch", "");
  for (const auto& part : wrapped(headline, columns, 2)) std::printf("%s\n", part.c_str());
  if (run.contains("reason")) {
    for (const auto& part : wrapped(run.value("reason", ""), columns, 0))
      std::printf("%s\n", part.c_str());
  }
  if (run.contains("budgetReached")) {
    const std::string line = "Budget reached: " + run.value("budgetReached", "") +
                             "; nothing more starts until it is raised (mission inbox names "
                             "the command)";
    for (const auto& part : wrapped(line, columns, 2)) std::printf("%s\n", part.c_str());
  }
  if (run.contains("landed")) {
    const nlohmann::json& landed = run.at("landed");
    std::printf("Landed on %s at %s (%s), %s\n", landed.value("into", "").c_str(),
                landed.value("commit", "").substr(0, 12).c_str(), landed.value("how", "").c_str(),
                short_time(landed.value("at", nlohmann::json())).c_str());
  }
  if (run.contains("sandbox")) {
    const std::string sandbox = run.value("sandbox", "");
    std::printf(
        "Agents %s\n",
        styled(sandbox, sandbox.rfind("confined", 0) == 0 ? Tone::plain : Tone::attention).c_str());
  }
  // A task's line, then why its last attempt failed and what it changed
  // outside the plan, each under it.
  const nlohmann::json& tasks = run.value("tasks", nlohmann::json::array());
  Table table({{"TASK", TableColumn::Fit::flexible},
               {"STATUS", TableColumn::Fit::whole},
               {"ATTEMPTS", TableColumn::Fit::whole, 2},
               {"TIME", TableColumn::Fit::whole, 1}});
  for (const auto& task : tasks) {
    const std::string task_status = task.value("status", "");
    table.add_row({{task.value("name", "")},
                   {task_status, attempt_tone(task_status)},
                   {std::to_string(task.value("attempts", nlohmann::json::array()).size())},
                   {run_seconds(task.value("durationMs", std::int64_t{0}))}});
  }
  const std::vector<std::string> lines = table.lines(columns);
  std::printf("%s\n", lines[0].c_str());
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const nlohmann::json& task = tasks[i];
    const std::string task_status = task.value("status", "");
    const auto& attempts = task.value("attempts", nlohmann::json::array());
    std::printf("%s\n", lines[i + 1].c_str());
    if (!attempts.empty() && attempts.back().contains("reason") && task_status != "merged") {
      for (const auto& part : wrapped(safe(attempts.back().value("reason", "")), columns, 4)) {
        std::printf("%s\n", part.c_str());
      }
    }
    if (!attempts.empty()) {
      for (const auto& refused : attempts.back().value("refusedWrites", nlohmann::json::array())) {
        for (const auto& part :
             wrapped("refused: " + safe(refused_write_text(refused)), columns, 4)) {
          std::printf("%s\n", styled(part, Tone::attention).c_str());
        }
      }
    }
    // A ready task held back by a conflict between agents at work now.
    if (task.contains("heldBy")) {
      for (const auto& part : wrapped(safe(task.value("heldBy", "")), columns, 4))
        std::printf("%s\n", styled(part, Tone::attention).c_str());
    }
    if (!attempts.empty() && attempts.back().contains("scopeWarning")) {
      for (const auto& part :
           wrapped("scope: " + safe(attempts.back().value("scopeWarning", "")), columns, 4)) {
        std::printf("%s\n", styled(part, Tone::attention).c_str());
      }
    }
  }
  return status == "running" || status == "stopping" || status == "completed" ? kExitOk
                                                                              : kExitFailure;
}

}  // namespace

void define_workflow_run_commands(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<WorkflowRunOptions>();
  CLI::App* run = command.add_subcommand(
      "run", "Run a workflow: agents on its ready tasks, checked, merged in order");
  run->add_option("id", options->id, kWorkflowArgumentHelp)->required()->type_name("WF");
  run->add_option(
         "--adapter", options->adapter,
         "Agent adapter: claude-code, codex, copilot, opencode, pi, acp, generic (default)")
      ->type_name("ADAPTER");
  run->add_option("--parallel", options->parallel, "Agents at once (default 1, most 32)")
      ->check(CLI::Range(1, 32))
      ->type_name("N");
  run->add_option("--check", options->check,
                  "Judge each task with CMD (sh -c in its worktree; exit 0 passes)")
      ->type_name("CMD");
  run->add_option("--gate", options->gate,
                  "Before each merge lands, run CMD on the merged result; exit 0 lands it")
      ->type_name("CMD");
  run->add_option("--gate-parallel", options->gate_parallel,
                  "Gate N prefixes of the merge queue at once (default 1, most 8)")
      ->check(CLI::Range(1, 8))
      ->type_name("N");
  run->add_option("--max-attempts", options->max_attempts, "Attempts per task (default 3, most 10)")
      ->check(CLI::Range(1, 10))
      ->type_name("K");
  run->add_option("--task-timeout", options->task_timeout, "Stop an agent after DUR (90s, 15m, 2h)")
      ->type_name("DUR");
  run->add_option("--budget-tokens", options->budget_tokens,
                  "Each task may use N tokens over its attempts; then it waits for a raise")
      ->type_name("N");
  run->add_option("--budget-usd", options->budget_usd,
                  "Each task may cost X USD over its attempts; then it waits for a raise")
      ->type_name("X");
  run->add_option("--run-budget-tokens", options->run_budget_tokens,
                  "The whole run may use N tokens; then its tasks wait for a raise")
      ->type_name("N");
  run->add_option("--run-budget-usd", options->run_budget_usd,
                  "The whole run may cost X USD; then its tasks wait for a raise")
      ->type_name("X");
  run->add_option("--base", options->base, "Start the integration branch here (default HEAD)")
      ->type_name("REF");
  // One value each time it is given: what follows -- is the agent's.
  run->add_option("--env", options->env, "Set K=V in the agents' environment (repeatable)")
      ->allow_extra_args(false)
      ->type_name("K=V");
  run->add_flag("--detach", options->detach, "Print the run id and return; the daemon runs it");
  run->add_flag("--approve", options->approve,
                "A person approves each merge: mission approve|reject TASK");
  run->add_option(
         "--sandbox", options->sandbox,
         "on (default): agents and checks write only their worktrees, a private TMPDIR and their "
         "CLI's state; off: with all your rights")
      ->check(CLI::IsMember({"on", "off"}))
      ->type_name("on|off");
  run->add_option("--network", options->network,
                  "on (default), or none: the agents open no network socket; checks keep it")
      ->check(CLI::IsMember({"on", "none"}))
      ->type_name("on|none");
  run->add_option("--allow-write", options->allow_write,
                  "Let the confined agents and checks write PATH too (repeatable)")
      ->allow_extra_args(false)
      ->type_name("PATH");
  run->add_option("--hide", options->hide,
                  "Hide PATH from the confined agents too, beside your secrets (repeatable)")
      ->allow_extra_args(false)
      ->type_name("PATH");
  run->add_option("--allow", options->allow,
                  "Answer an ACP agent's permission requests that PATTERN matches with allow "
                  "(repeatable): KIND or KIND:GLOB, e.g. edit, 'execute:git status*'")
      ->allow_extra_args(false)
      ->type_name("PATTERN");
  run->add_option("--deny", options->deny,
                  "Answer those PATTERN matches with reject, whatever --allow says "
                  "(repeatable), e.g. 'execute:rm *'")
      ->allow_extra_args(false)
      ->type_name("PATTERN");
  run->add_option("--policy", options->policy, "Read allow and deny patterns from a TOML FILE too")
      ->type_name("FILE");
  run->add_option("command", options->command,
                  "After --: the agent (generic), or words before the task's prompt")
      ->type_name("ARGS...");
  run->callback([&context, options] {
    context.action = [&context, options] { return run_workflow(context, *options); };
  });
  CLI::App* stop =
      command.add_subcommand("stop", "Stop a workflow's run; its tasks go back to ready");
  stop->add_option("id", options->id, kWorkflowArgumentHelp)->required()->type_name("WF");
  stop->callback([&context, options] {
    context.action = [&context, options] { return stop_workflow(context, *options); };
  });
  CLI::App* reset = command.add_subcommand(
      "reset", "Put a workflow's failed tasks (or one) back to ready, to run them again");
  reset->add_option("id", options->id, kWorkflowArgumentHelp)->required()->type_name("WF");
  reset->add_option("task", options->task_id, "Only this failed task (name or id)")
      ->type_name("TASK");
  reset->callback([&context, options] {
    context.action = [&context, options] { return reset_workflow(context, *options); };
  });
  CLI::App* retry = command.add_subcommand(
      "retry", "Run a workflow again with its last run's options, on what failed (or one task)");
  retry->add_option("id", options->id, kWorkflowArgumentHelp)->required()->type_name("WF");
  retry->add_option("task", options->task_id, "Only this failed task (name or id)")
      ->type_name("TASK");
  retry->callback([&context, options] {
    context.action = [&context, options] { return retry_workflow(context, *options); };
  });
  CLI::App* status =
      command.add_subcommand("status", "Show a workflow's last run: tasks, attempts, times");
  status->add_option("id", options->id, kWorkflowArgumentHelp)->required()->type_name("WF");
  status->callback([&context, options] {
    context.action = [&context, options] { return show_run_status(context, *options); };
  });
}

void define_approve_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<WorkflowRunOptions>();
  command.add_option("task", options->task_id, "The task a run with --approve waits on")
      ->required()
      ->type_name("TASK");
  command.callback([&context, options] {
    context.action = [&context, options] { return decide(context, *options, true); };
  });
}

void define_reject_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<WorkflowRunOptions>();
  command.add_option("task", options->task_id, "The task a run with --approve waits on")
      ->required()
      ->type_name("TASK");
  command.add_option("reason", options->reason, "Why: it goes into the next attempt's prompt")
      ->required()
      ->type_name("REASON");
  command.callback([&context, options] {
    context.action = [&context, options] { return decide(context, *options, false); };
  });
}

}  // namespace mission::cli
