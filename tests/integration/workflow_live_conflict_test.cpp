// Conflicts caught while agents work (docs/adr/0050), end to end through
// the real daemon, real git worktrees and shell agents: two running agents
// that change the same lines of a file both hear of it, on their stdin,
// before either ends; the inbox, `mission workspaces conflicts` and the
// workspace_conflicts tool show it;
// a ready task whose files_likely_affected name that file waits; when one
// agent reverts, the item goes, both are told, and the held task starts.
// Two agents that change different parts of a file hear of nothing. The
// agents note what they heard in a folder outside their worktrees, so they
// run with --sandbox off.

#include <catch2/catch.hpp>

#include "integration/run_helpers.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

bool ended(const json& run) {
  return run["status"] != "running" && run["status"] != "stopping";
}

// A file of ten numbered lines: a change to the first and one to the last
// are hunks apart, and merge.
std::string ten_lines() {
  std::string text;
  for (int i = 1; i <= 10; ++i) text += "line " + std::to_string(i) + "\n";
  return text;
}

// The daemon watches the run's worktrees (--watch-trees), as a large
// repository would want, or looks at them whole when not.
struct LiveSetup {
  explicit LiveSetup(std::vector<std::string> daemon_args)
      : daemon(instance, std::move(daemon_args)) {
    REQUIRE(daemon.ready());
    repo = make_repo(instance);
    planner.emplace(instance, repo, kToolsets);
    write_file(repo / "shared.txt", ten_lines());
    write_file(repo / "other.txt", "one\ntwo\nthree\n");
    git(instance, repo, {"add", "-A"});
    git(instance, repo, {"commit", "-q", "-m", "files the agents share"});
    fs::create_directories(notes);
  }
  Instance instance;
  DaemonProcess daemon;
  fs::path repo;
  std::optional<Agent> planner;
  fs::path notes = instance.root.path() / "notes";
};

json plan_task(const char* name, const char* goal, std::vector<std::string> depends_on = {},
               std::vector<std::string> files = {}) {
  json task = {{"name", name}, {"description", goal}, {"sequence", 1}, {"depends_on", depends_on}};
  if (!files.empty()) task["files_likely_affected"] = files;
  return task;
}

std::string planned(Agent& planner, const json& tasks) {
  json workflow = planner.ok("workflow_create", {{"name", "live"},
                                                 {"source_type", "prompt"},
                                                 {"source_content", "agents at once"},
                                                 {"max_parallel_tasks", 4}});
  planner.ok(
      "workflow_set_plan",
      {{"id", workflow["id"]}, {"plan", {{"summary", "s"}, {"approach", "a"}, {"tasks", tasks}}}});
  return workflow["id"];
}

json live_conflicts(const Instance& instance) {
  return mission_json(instance, {"inbox"})["liveConflicts"];
}

// Shell for the agents: $notes, and `note NAME TEXT`, which writes the
// note whole or not at all (the test reads it as soon as it is there).
std::string note_function(const fs::path& notes) {
  return "notes='" + notes.string() +
         "'\n"
         "note() { printf '%s\\n' \"$2\" > \"$notes/$1.part\" && mv \"$notes/$1.part\" "
         "\"$notes/$1\"; }\n";
}

bool has_note(const fs::path& note, const std::string& text) {
  return fs::exists(note) && read_file(note).find(text) != std::string::npos;
}

}  // namespace

TEST_CASE(
    "two running agents that change the same lines of a file both hear of it before either ends, "
    "the inbox shows it, a task on that file waits, and a revert clears it and starts the task") {
  LiveSetup setup({"--watch-trees"});
  auto& [instance, daemon, repo, planner, notes] = setup;
  const std::string workflow = planned(
      *planner, json::array({plan_task("left", "make the greeting formal"),
                             plan_task("right", "make the greeting friendly"),
                             plan_task("early", "prepare the way"),
                             plan_task("third", "add a footer", {"early"}, {"shared.txt"})}));
  // left and right rewrite line 1 and wait for their message on stdin;
  // left then puts the file back when told to and waits for the next.
  const std::string body = note_function(notes) +
                           "case \"$MISSION_TASK_NAME\" in\n"
                           "left|right)\n"
                           "  cp shared.txt \"$notes/$MISSION_TASK_NAME-orig\"\n"
                           "  sed -i \"1s/.*/$MISSION_TASK_NAME was here/\" shared.txt\n"
                           "  read heard; note \"$MISSION_TASK_NAME-heard\" \"$heard\"\n"
                           "  if [ \"$MISSION_TASK_NAME\" = left ]; then\n"
                           "    while [ ! -f \"$notes/revert\" ]; do sleep 0.01; done\n"
                           "    cp \"$notes/left-orig\" shared.txt\n"
                           "    read cleared; note left-cleared \"$cleared\"\n"
                           "  else\n"
                           "    while [ ! -f \"$notes/right-go\" ]; do sleep 0.01; done\n"
                           "  fi ;;\n"
                           "early) while [ ! -f \"$notes/early-go\" ]; do sleep 0.01; done\n"
                           "  echo e > early.txt ;;\n"
                           "third) echo footer >> shared.txt ;;\n"
                           "esac\n";
  ProcessResult started =
      run_long(instance, args({"workflows", "run", workflow, "--detach", "--parallel", "3",
                               "--sandbox", "off", "--task-timeout", "5m"},
                              agent(notes, body)));
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);

  // Both hear of it while both still run: neither ends before it has.
  REQUIRE(eventually([&] { return fs::exists(notes / "left-heard"); }, 30s));
  REQUIRE(eventually([&] { return fs::exists(notes / "right-heard"); }, 30s));
  const std::string left_heard = read_file(notes / "left-heard");
  const std::string right_heard = read_file(notes / "right-heard");
  INFO(left_heard << right_heard);
  CHECK(left_heard.find("conflict: shared.txt") != std::string::npos);
  CHECK(left_heard.find("task right") != std::string::npos);
  CHECK(left_heard.find("make the greeting friendly") != std::string::npos);
  CHECK(left_heard.find("mission/") != std::string::npos);  // the other's branch
  CHECK(left_heard.find("What to do") != std::string::npos);
  CHECK(right_heard.find("task left") != std::string::npos);

  // People see it in the inbox and in workspaces conflicts.
  json live = live_conflicts(instance);
  INFO(live.dump());
  REQUIRE(live.size() == 1);
  CHECK(live[0]["path"] == "shared.txt");
  CHECK(live[0]["workflowId"] == workflow);
  CHECK(live[0]["tasks"].size() == 2);
  ProcessResult inbox = run_mission(instance, {"inbox"});
  CHECK(inbox.out.find("both change shared.txt") != std::string::npos);
  ProcessResult shown = run_mission(instance, {"workspaces", "conflicts", workflow});
  CHECK(shown.exit_code == 1);
  CHECK(shown.out.find("both change shared.txt") != std::string::npos);
  const json listed = mission_json(instance, {"workspaces", "conflicts", workflow});
  CHECK(listed["live"].size() == 1);
  // And agents, over MCP: workspace_conflicts carries the live ones.
  const json seen = planner->ok("workspace_conflicts", {{"workflow_id", workflow}});
  INFO(seen.dump());
  REQUIRE(seen["live_conflicts"].size() == 1);
  CHECK(seen["live_conflicts"][0]["path"] == "shared.txt");
  CHECK(seen["live_conflicts"][0]["workflow_id"] == workflow);
  CHECK(seen["live_conflicts"][0]["tasks"].size() == 2);
  CHECK(seen["live_conflicts"][0]["tasks"][0].contains("agent_execution_id"));

  // A ready task whose files name shared.txt waits, and says why.
  write_file(notes / "early-go", "");
  json run = wait_for_run(instance, workflow,
                          [](const json& r) { return task_of(r, "third").contains("heldBy"); });
  CHECK(task_of(run, "third")["attempts"].empty());
  CHECK(task_of(run, "third")["heldBy"].get<std::string>().find("shared.txt") != std::string::npos);
  ProcessResult status = run_long(instance, {"workflows", "status", workflow});
  CHECK(status.out.find("held: shared.txt") != std::string::npos);

  // One side reverts: the item goes, it is told, and the held task starts.
  write_file(notes / "revert", "");
  CHECK(eventually([&] { return live_conflicts(instance).empty(); }, 30s));
  CHECK(eventually(
      [&] { return has_note(notes / "left-cleared", "conflict resolved: shared.txt"); }, 30s));
  run = wait_for_run(instance, workflow,
                     [](const json& r) { return !task_of(r, "third")["attempts"].empty(); });
  CHECK_FALSE(task_of(run, "third").contains("heldBy"));

  // third's footer and right's first line merge: no conflict comes back.
  write_file(notes / "right-go", "");
  run = wait_for_run(instance, workflow, ended, 60s);
  INFO(run.dump());
  CHECK(run["status"] == "completed");
  const std::string merged =
      show(instance, repo, run["integrationBranch"].get<std::string>() + ":shared.txt");
  CHECK(merged.find("right was here") != std::string::npos);
  CHECK(merged.find("footer") != std::string::npos);
  CHECK(live_conflicts(instance).empty());
}

TEST_CASE(
    "two running agents that change different parts of the same file hear of no conflict over it, "
    "only of one they then make in another file") {
  // Not watched: each check looks at the worktrees whole.
  LiveSetup setup({});
  auto& [instance, daemon, repo, planner, notes] = setup;
  const std::string workflow =
      planned(*planner, json::array({plan_task("top", "reword the first line"),
                                     plan_task("bottom", "reword the last line")}));
  // Each changes its own end of shared.txt, then, once both have, the same
  // line of other.txt: the check that finds that one has merged
  // shared.txt too.
  const std::string body =
      note_function(notes) +
      "if [ \"$MISSION_TASK_NAME\" = top ]; then sed -i '1s/.*/top/' shared.txt;\n"
      "else sed -i '10s/.*/bottom/' shared.txt; fi\n"
      ": > \"$notes/$MISSION_TASK_NAME-wrote\"\n"
      "while [ ! -f \"$notes/top-wrote\" ] || [ ! -f \"$notes/bottom-wrote\" ]; do sleep 0.01; "
      "done\n"
      "sed -i \"1s/.*/$MISSION_TASK_NAME/\" other.txt\n"
      "read heard; note \"$MISSION_TASK_NAME-heard\" \"$heard\"\n"
      "cat > /dev/null\n";
  ProcessResult started =
      run_long(instance, args({"workflows", "run", workflow, "--detach", "--parallel", "2",
                               "--sandbox", "off", "--task-timeout", "5m"},
                              agent(notes, body)));
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
  REQUIRE(eventually([&] { return fs::exists(notes / "top-heard"); }, 30s));
  REQUIRE(eventually([&] { return fs::exists(notes / "bottom-heard"); }, 30s));
  CHECK(read_file(notes / "top-heard").find("conflict: other.txt") != std::string::npos);
  CHECK(read_file(notes / "bottom-heard").find("conflict: other.txt") != std::string::npos);
  const json live = live_conflicts(instance);
  INFO(live.dump());
  REQUIRE(live.size() == 1);
  CHECK(live[0]["path"] == "other.txt");
  // Stopped, their conflicts end with them.
  REQUIRE(run_mission(instance, {"workflows", "stop", workflow}).exit_code == 0);
  wait_for_run(instance, workflow, ended, 60s);
  CHECK(eventually([&] { return live_conflicts(instance).empty(); }, 30s));
}
