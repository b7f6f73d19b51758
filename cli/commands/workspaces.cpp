// mission workspaces list | conflicts | clean (docs/adr/0019): the git
// worktrees workflows' tasks run in; the conflicts between running agents'
// worktrees now (docs/adr/0050), then the files two of them both change and
// whether their branches merge cleanly; and removing the ones no longer
// needed.

#include <cstdio>
#include <memory>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/live_conflict_view.hpp"
#include "cli/output.hpp"
#include "cli/workflow_reference.hpp"

namespace mission::cli {
namespace {

void print_workspaces(const nlohmann::json& workspaces) {
  if (workspaces.empty()) {
    std::printf("no workspaces\n");
    return;
  }
  std::printf(
      "%s\n",
      styled("ID             STATUS     WORKFLOW       BRANCH                     PATH", Tone::dim)
          .c_str());
  for (const auto& workspace : workspaces) {
    std::printf("%-14s %-10s %-14s %-26s %s\n", safe(workspace.value("id", "")).c_str(),
                safe(workspace.value("status", "")).c_str(),
                safe(workspace.value("workflowId", "")).c_str(),
                fit(workspace.value("branch", ""), 26).c_str(),
                safe(workspace.value("path", "")).c_str());
  }
}

// The conflicts while agents work, oldest first; nothing when there are none.
void print_live(const nlohmann::json& live) {
  for (const auto& conflict : live.value("conflicts", nlohmann::json::array())) {
    std::printf("%s\n  %s\n", styled(live_conflict_line(conflict), Tone::bad).c_str(),
                live_conflict_detail(conflict).c_str());
  }
}

void print_conflicts(const nlohmann::json& result) {
  const nlohmann::json workspaces = result.value("workspaces", nlohmann::json::array());
  const nlohmann::json pairs = result.value("pairs", nlohmann::json::array());
  if (workspaces.empty()) {
    std::printf("no active workspaces\n");
    return;
  }
  for (const auto& workspace : workspaces) {
    std::printf(
        "%s  %s  %d files changed%s\n", styled(safe(workspace.value("id", "")), Tone::bold).c_str(),
        safe(workspace.value("branch", "")).c_str(), workspace.value("changedCount", 0),
        workspace.contains("error") ? ("  (" + safe(workspace.value("error", "")) + ")").c_str()
                                    : "");
  }
  if (pairs.empty()) {
    std::printf("%s\n",
                styled("no overlapping changes; every pair merges cleanly", Tone::good).c_str());
    return;
  }
  for (const auto& pair : pairs) {
    const nlohmann::json ids = pair.value("workspaces", nlohmann::json::array());
    const bool clean = pair.value("mergesCleanly", true);
    std::printf("%s + %s: %s\n", safe(ids.size() > 0 ? ids[0].get<std::string>() : "").c_str(),
                safe(ids.size() > 1 ? ids[1].get<std::string>() : "").c_str(),
                clean ? styled("merges cleanly", Tone::good).c_str()
                      : styled("conflicts", Tone::bad).c_str());
    const std::string overlap =
        joined(pair.value("overlappingFiles", nlohmann::json::array()), ", ");
    if (!overlap.empty()) std::printf("  both change: %s\n", safe(overlap).c_str());
    const std::string conflicts =
        joined(pair.value("conflictingFiles", nlohmann::json::array()), ", ");
    if (!conflicts.empty()) std::printf("  conflicting: %s\n", safe(conflicts).c_str());
    if (pair.contains("error")) std::printf("  %s\n", safe(pair.value("error", "")).c_str());
  }
}

void print_clean(const nlohmann::json& result) {
  const nlohmann::json removed = result.value("removed", nlohmann::json::array());
  const nlohmann::json failed = result.value("failed", nlohmann::json::array());
  const nlohmann::json kept = result.value("kept", nlohmann::json::array());
  if (removed.empty() && failed.empty() && kept.empty()) std::printf("nothing to clean\n");
  for (const auto& item : removed) {
    if (item.value("withoutRecord", false)) {
      // Left by a daemon killed while it made a workspace, or by one removed.
      const std::string path = item.value("path", "");
      std::printf(
          "removed %s%s%s  (left without a record)\n", safe(path).c_str(), path.empty() ? "" : "  ",
          item.value("branchDeleted", false) ? ("branch " + safe(item.value("branch", ""))).c_str()
                                             : "");
      continue;
    }
    std::printf(
        "removed %s  %s%s\n", safe(item.value("id", "")).c_str(),
        safe(item.value("path", "")).c_str(),
        item.value("branchDeleted", false) ? "  (merged branch deleted)" : "  (branch kept)");
  }
  for (const auto& item : failed) {
    std::printf("kept %s  %s: %s\n", safe(item.value("id", "")).c_str(),
                safe(item.value("path", "")).c_str(), safe(item.value("error", "")).c_str());
  }
  for (const auto& item : kept) {
    const std::string what =
        item.value("branch", "").empty() ? item.value("path", "") : item.value("branch", "");
    std::printf("kept %s: %s\n", safe(what).c_str(), safe(item.value("reason", "")).c_str());
  }
}

}  // namespace

void define_workspaces_command(CLI::App& command, CliContext& context) {
  command.require_subcommand(1);
  auto workflow = std::make_shared<std::string>();
  auto status = std::make_shared<std::vector<std::string>>();
  CLI::App* list =
      command.add_subcommand("list", "List workspaces (all but removed), newest first");
  list->add_option("--workflow", *workflow, "Only this workflow's (id, prefix, name or @last)")
      ->type_name("WF");
  list->add_option("--status", *status, "Only these states (active,merged,abandoned,removed)")
      ->delimiter(',')
      ->check(CLI::IsMember({"active", "merged", "abandoned", "removed"}))
      ->type_name("LIST");
  list->callback([&context, workflow, status] {
    context.action = [&context, workflow, status] {
      nlohmann::json params = nlohmann::json::object();
      DaemonConnection connection = context.connect();
      if (!workflow->empty()) params["workflowId"] = resolve_workflow(connection.client, *workflow);
      if (!status->empty()) params["status"] = *status;
      nlohmann::json result = connection.client.call("workspace.list", params);
      if (context.options.json) {
        print_json(result);
      } else {
        print_workspaces(result.value("workspaces", nlohmann::json::array()));
      }
      return int{kExitOk};
    };
  });
  auto scope = std::make_shared<std::string>();
  CLI::App* conflicts = command.add_subcommand(
      "conflicts",
      "Conflicts between running agents' worktrees now, then files two active workspaces both "
      "change and whether their branches merge (WORKFLOW)");
  conflicts->add_option("workflow", *scope, "Only this workflow's workspaces")->type_name("WF");
  conflicts->callback([&context, scope] {
    context.action = [&context, scope] {
      nlohmann::json params = nlohmann::json::object();
      DaemonConnection connection = context.connect();
      if (!scope->empty()) params["workflowId"] = resolve_workflow(connection.client, *scope);
      const nlohmann::json live = connection.client.call("workspace.liveConflicts", params);
      nlohmann::json result = connection.client.call("workspace.conflicts", params);
      const std::size_t live_count = live.value("conflicts", nlohmann::json::array()).size();
      if (context.options.json) {
        result["live"] = live.value("conflicts", nlohmann::json::array());
        print_json(result);
      } else {
        print_live(live);
        print_conflicts(result);
      }
      // Like a check: 1 when agents conflict now or a pair would.
      return live_count > 0 || result.value("conflictingPairs", 0) > 0 ? int{kExitFailure}
                                                                       : int{kExitOk};
    };
  });
  auto clean_scope = std::make_shared<std::string>();
  CLI::App* clean = command.add_subcommand(
      "clean",
      "Remove the worktrees mission made that are merged, abandoned or of ended workflows");
  clean->add_option("--workflow", *clean_scope, "Only this workflow's (id, prefix, name or @last)")
      ->type_name("WF");
  clean->callback([&context, clean_scope] {
    context.action = [&context, clean_scope] {
      nlohmann::json params = nlohmann::json::object();
      DaemonConnection connection = context.connect();
      if (!clean_scope->empty())
        params["workflowId"] = resolve_workflow(connection.client, *clean_scope);
      nlohmann::json result = connection.client.call("workspace.clean", params);
      if (context.options.json) {
        print_json(result);
      } else {
        print_clean(result);
      }
      return int{kExitOk};
    };
  });
}

}  // namespace mission::cli
