// mission inbox | send | answer | agents: people take part in the
// conversation with agents (ADR 17). Everything that waits on a person
// (questions, tasks awaiting approval or a budget, merge conflicts, live
// conflicts between agents at work, blocked agents) each with the command
// that answers it, and messages to people; a message to an agent; the
// answer to its open question; the registered agents.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "cli/commands/command_table.hpp"
#include "cli/event_view.hpp"
#include "cli/execution_reference.hpp"
#include "cli/exit_codes.hpp"
#include "cli/live_conflict_view.hpp"
#include "cli/output.hpp"
#include "shared/limits.hpp"

namespace mission::cli {
namespace {

std::string body_text(const nlohmann::json& body) {
  return body.is_string() ? body.get<std::string>() : body.dump();
}

// The exact command that raises the budget a task waits at, with as much
// again as that budget on top of what was used.
std::string raise_command(const nlohmann::json& budget) {
  std::string command = "mission workflows budget " + safe(budget.value("workflowId", ""));
  if (budget.value("scope", "task") == "task")
    command += " --task " + safe(budget.value("taskId", ""));
  if (budget.contains("tokens")) {
    const nlohmann::json& tokens = budget.at("tokens");
    command += " --tokens " + std::to_string(tokens.value("used", std::int64_t{0}) +
                                             tokens.value("budget", std::int64_t{0}));
  }
  if (budget.contains("usd")) {
    const nlohmann::json& usd = budget.at("usd");
    char amount[64];
    std::snprintf(amount, sizeof amount, "%.2f",
                  usd.value("used", 0.0) + usd.value("budget", 0.0) + 0.005);
    command += " --usd " + std::string(amount);
  }
  if (!budget.contains("tokens") && !budget.contains("usd")) command += " --tokens N";
  return command;
}

// Questions, choices, subjects and bodies are agents' text: each is
// neutralised and printed as one line.
void print_inbox(const nlohmann::json& given) {
  const nlohmann::json inbox = for_display(given);
  const nlohmann::json questions = inbox.value("questions", nlohmann::json::array());
  const nlohmann::json approvals = inbox.value("approvals", nlohmann::json::array());
  const nlohmann::json conflicts = inbox.value("conflicts", nlohmann::json::array());
  const nlohmann::json budgets = inbox.value("budgets", nlohmann::json::array());
  const nlohmann::json blocked = inbox.value("blocked", nlohmann::json::array());
  const nlohmann::json prompts = inbox.value("prompts", nlohmann::json::array());
  const nlohmann::json messages = inbox.value("messages", nlohmann::json::array());
  const nlohmann::json live = inbox.value("liveConflicts", nlohmann::json::array());
  if (questions.empty() && approvals.empty() && conflicts.empty() && budgets.empty() &&
      blocked.empty() && prompts.empty() && messages.empty() && live.empty()) {
    std::printf("nothing waits for you\n");
    return;
  }
  // "task docs (tk-1) of workflow release (wf-2)"
  auto task_of = [](const nlohmann::json& item) {
    return "task " + safe(item.value("taskName", "")) + " (" + safe(item.value("taskId", "")) +
           ") of workflow " + safe(item.value("workflowName", "")) + " (" +
           safe(item.value("workflowId", "")) + ")";
  };
  for (const auto& approval : approvals) {
    const std::string task = safe(approval.value("taskId", ""));
    std::printf("%s passed and waits for your approval\n",
                styled(task_of(approval), Tone::bold).c_str());
    std::printf("  approve: mission approve %s\n  reject:  mission reject %s REASON\n",
                task.c_str(), task.c_str());
  }
  for (const auto& conflict : conflicts) {
    std::printf("%s cannot merge: %s\n", styled(task_of(conflict), Tone::bold).c_str(),
                safe(conflict.value("reason", "")).c_str());
    const std::string workflow = safe(conflict.value("workflowId", ""));
    std::printf(
        "  merge its branch by hand (mission workflows status %s), or run it again on what is "
        "merged: mission workflows reset %s %s, then mission workflows run %s\n",
        workflow.c_str(), workflow.c_str(), safe(conflict.value("taskId", "")).c_str(),
        workflow.c_str());
  }
  for (const auto& budget : budgets) {
    // The run's own budget, reached with none of its tasks at work.
    const std::string who = budget.contains("taskId")
                                ? task_of(budget)
                                : "run of workflow " + safe(budget.value("workflowName", "")) +
                                      " (" + safe(budget.value("workflowId", "")) + ")";
    std::printf("%s waits: %s\n", styled(who, Tone::bold).c_str(),
                safe(budget.value("reason", "budget reached")).c_str());
    std::printf("  raise it: %s\n", raise_command(budget).c_str());
  }
  // Between agents at work now: they were told; the item goes when it clears.
  for (const auto& conflict : live) {
    std::printf("%s\n", styled(live_conflict_line(conflict), Tone::bold).c_str());
    std::printf("  %s\n  see: mission workspaces conflicts %s\n",
                live_conflict_detail(conflict).c_str(),
                safe(conflict.value("workflowId", "")).c_str());
  }
  for (const auto& execution : blocked) {
    std::string who = safe(execution.value("agentExecutionId", ""));
    if (execution.contains("agentName")) who += " (" + safe(execution.value("agentName", "")) + ")";
    std::printf("%s is blocked: %s\n", styled(who, Tone::bold).c_str(),
                safe(execution.value("reason", "")).c_str());
    std::printf("  unblock it: mission send %s TEXT\n",
                safe(execution.value("agentExecutionId", "")).c_str());
  }
  for (const auto& question : questions) {
    std::string who = safe(question.value("agentExecutionId", ""));
    if (question.contains("agentName")) who += " (" + safe(question.value("agentName", "")) + ")";
    std::printf("%s asks: %s\n", styled(who, Tone::bold).c_str(),
                safe(question.value("question", "")).c_str());
    int index = 1;
    for (const auto& choice : question.value("choices", nlohmann::json::array())) {
      std::printf("  %d. %s\n", index++, safe(body_text(choice)).c_str());
    }
    std::printf("  answer: mission answer %s TEXT%s\n",
                safe(question.value("agentExecutionId", "")).c_str(),
                question.value("choices", nlohmann::json::array()).empty() ? "" : " | --choice N");
  }
  // Menus read from agents' terminals: mission saw them, the agent did
  // not say so.
  for (const auto& prompt : prompts) {
    std::string who = safe(prompt.value("agentExecutionId", ""));
    if (prompt.contains("agentName")) who += " (" + safe(prompt.value("agentName", "")) + ")";
    std::printf("%s awaits permission %s: %s\n", styled(who, Tone::bold).c_str(),
                permission_origin(prompt.value("detected", true)).c_str(),
                safe(prompt.value("question", "")).c_str());
    int index = 1;
    for (const auto& option : prompt.value("options", nlohmann::json::array())) {
      std::printf("  %d. %s\n", index++, safe(body_text(option)).c_str());
    }
    std::printf("  answer: mission answer %s --choice N\n",
                safe(prompt.value("agentExecutionId", "")).c_str());
  }
  for (const auto& message : messages) {
    std::string subject =
        message.contains("subject") ? " [" + safe(message.value("subject", "")) + "]" : "";
    std::printf("%s  %s  %s%s: %s\n",
                short_time(message.value("createdAt", nlohmann::json())).c_str(),
                safe(message.value("id", "")).c_str(), safe(message.value("senderId", "")).c_str(),
                subject.c_str(), safe(body_text(message.value("body", nlohmann::json()))).c_str());
  }
}

void print_agents(const nlohmann::json& given) {
  const nlohmann::json agents = for_display(given);
  if (agents.empty()) {
    std::printf("no agents registered\n");
    return;
  }
  std::printf("%s\n",
              styled("ID             NAME                 ROLE         STATUS   RUNTIME      TASK",
                     Tone::dim)
                  .c_str());
  for (const auto& agent : agents) {
    std::printf("%-14s %-20s %-12s %-8s %-12s %s\n", safe(agent.value("id", "")).c_str(),
                fit(agent.value("name", ""), 20).c_str(), safe(agent.value("role", "")).c_str(),
                safe(agent.value("status", "")).c_str(),
                fit(agent.value("runtime", ""), 12).c_str(),
                safe(agent.value("currentTaskId", "")).c_str());
  }
}

}  // namespace

void define_inbox_command(CLI::App& command, CliContext& context) {
  auto all = std::make_shared<bool>(false);
  auto limit = std::make_shared<std::size_t>(limits::kDefaultMessageListLimit);
  command.add_flag("--all", *all, "Read messages too, not only unread ones");
  command.add_option("--limit", *limit, "At most N messages (default 20)")
      ->check(CLI::Range(1, 10000))
      ->type_name("N");
  command.callback([&context, all, limit] {
    context.action = [&context, all, limit] {
      nlohmann::json inbox =
          context.connect().client.call("inbox.list", {{"all", *all}, {"limit", *limit}});
      if (context.options.json) {
        print_json(inbox);
      } else {
        print_inbox(inbox);
      }
      return int{kExitOk};
    };
  });
}

void define_send_command(CLI::App& command, CliContext& context) {
  auto id = std::make_shared<std::string>();
  auto text = std::make_shared<std::string>();
  auto priority = std::make_shared<std::string>("normal");
  auto no_enter = std::make_shared<bool>(false);
  command.add_option("execution", *id, "Agent execution: id, prefix, name or @last")
      ->required()
      ->type_name("EXEC");
  command.add_option("text", *text, "The message")->required()->type_name("TEXT");
  command.add_option("--priority", *priority, "low, normal, high or urgent (default normal)")
      ->check(CLI::IsMember({"low", "normal", "high", "urgent"}))
      ->type_name("P");
  command.add_flag("--no-enter", *no_enter,
                   "Type the text into the agent without pressing Enter after it");
  command.callback([&context, id, text, priority, no_enter] {
    context.action = [&context, id, text, priority, no_enter] {
      DaemonConnection connection = context.connect();
      const std::string execution = resolve_execution(connection.client, *id);
      nlohmann::json params = {{"id", execution},
                               {"text", *text},
                               {"from", CliContext::person_name()},
                               {"priority", *priority}};
      if (*no_enter) params["enter"] = false;
      nlohmann::json result = connection.client.call("message.send", params);
      if (context.options.json) {
        print_json(result);
      } else {
        std::printf("sent %s to %s\n", result.at("message").value("id", "").c_str(),
                    execution.c_str());
      }
      return int{kExitOk};
    };
  });
}

void define_answer_command(CLI::App& command, CliContext& context) {
  auto id = std::make_shared<std::string>();
  auto text = std::make_shared<std::string>();
  auto choice = std::make_shared<std::int64_t>(0);
  command
      .add_option("execution", *id,
                  "Agent execution waiting for an answer (id, prefix, name or @last)")
      ->required()
      ->type_name("EXEC");
  CLI::Option* text_option = command.add_option("text", *text, "The answer")->type_name("TEXT");
  CLI::Option* choice_option =
      command.add_option("--choice", *choice, "Answer with the question's Nth choice (1-based)")
          ->check(CLI::Range(1, 1000))
          ->type_name("N");
  text_option->excludes(choice_option);
  auto no_enter = std::make_shared<bool>(false);
  command.add_flag("--no-enter", *no_enter,
                   "Type the answer into the agent without pressing Enter after it");
  command.callback([&context, id, text, choice, text_option, choice_option, no_enter] {
    if (text_option->count() == 0 && choice_option->count() == 0) {
      throw CLI::ValidationError("answer", "give the answer as TEXT, or --choice N");
    }
    context.action = [&context, id, text, choice, no_enter] {
      DaemonConnection connection = context.connect();
      const std::string execution = resolve_execution(connection.client, *id);
      nlohmann::json params = {{"id", execution}, {"from", CliContext::person_name()}};
      if (*no_enter) params["enter"] = false;
      if (*choice > 0) {
        params["choice"] = *choice;
      } else {
        params["text"] = *text;
      }
      nlohmann::json result = connection.client.call("execution.answer", params);
      if (context.options.json) {
        print_json(result);
      } else if (result.contains("option")) {
        const nlohmann::json shown = for_display(result);
        std::printf("answered %s's permission prompt: %lld. %s\n", execution.c_str(),
                    static_cast<long long>(result.value("choice", 0)),
                    safe(shown.value("option", "")).c_str());
      } else {
        std::printf("answered %s: %s (now %s)\n", execution.c_str(),
                    safe(body_text(result.at("message").value("body", nlohmann::json()))).c_str(),
                    safe(result.value("state", "")).c_str());
      }
      return int{kExitOk};
    };
  });
}

void define_agents_command(CLI::App& command, CliContext& context) {
  auto status = std::make_shared<std::vector<std::string>>();
  command.add_option("--status", *status, "Only agents in these states (online,busy,offline)")
      ->delimiter(',')
      ->check(CLI::IsMember({"online", "busy", "offline"}))
      ->type_name("LIST");
  command.callback([&context, status] {
    context.action = [&context, status] {
      nlohmann::json params = nlohmann::json::object();
      if (!status->empty()) params["status"] = *status;
      nlohmann::json result = context.connect().client.call("agent.list", params);
      if (context.options.json) {
        print_json(result);
      } else {
        print_agents(result.value("agents", nlohmann::json::array()));
      }
      return int{kExitOk};
    };
  });
}

}  // namespace mission::cli
