// Records that travel with the code: `mission export` writes a mission's
// record to git notes or a file, and `mission check --from-notes` / `--from`
// judge it on a fresh clone where no daemon runs and no database exists.

#include <catch2/catch.hpp>
#include <string>

#include "integration/harness.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// `mission ARGS...` with a git identity, since notes are commits.
ProcessResult mission_in(const Instance& instance, const fs::path& dir,
                         std::vector<std::string> args) {
  std::map<std::string, std::string> env = instance.env();
  for (const auto& [name, value] : git_env(instance)) env[name] = value;
  std::vector<std::string> argv = {MISSION_PATH, "--no-autostart"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("--cwd");
  argv.push_back(dir.string());
  return run_process(argv, env);
}

// A mission with one task that commits `path`; areas src/auth/**.
std::string tracked_mission(Agent& agent, const Instance& instance, const fs::path& repo,
                            const std::string& name, const std::string& path) {
  json mission = agent.ok("start_mission", {{"name", name}, {"objective", "Work on " + name}});
  const std::string mission_id = mission["mission_id"];
  json task = agent.ok("start_task", {{"mission_id", mission_id},
                                      {"phase", 1},
                                      {"phase_name", "Build"},
                                      {"name", name + " task"},
                                      {"goal", "Change " + path},
                                      {"areas", strings({"src/auth/**"})}});
  write_file(repo / path, "changed by " + name + "\n");
  git(instance, repo, {"add", "-A"});
  git(instance, repo, {"commit", "-q", "-m", name});
  agent.ok(
      "complete_task",
      {{"task_id", task["task_id"]}, {"status", "success"}, {"outcome", {{"summary", "done"}}}});
  return mission_id;
}

}  // namespace

TEST_CASE(
    "an exported mission travels in git notes to a fresh clone and gates CI there with no daemon") {
  Instance instance;
  fs::path repo;
  std::string good_id, bad_id;
  fs::path record_file = instance.root.path() / "bad-record.json";
  {
    DaemonProcess daemon(instance);
    REQUIRE(daemon.ready());
    repo = make_repo(instance);
    Agent agent(instance, repo);
    good_id = tracked_mission(agent, instance, repo, "good", "src/auth/jwt.ts");
    ProcessResult exported = mission_in(instance, repo, {"export", good_id});
    INFO(exported.err);
    REQUIRE(exported.exit_code == 0);
    CHECK(exported.out.find("refs/notes/mission") != std::string::npos);
    // Exporting again replaces the mission's line in the note, keeps one.
    REQUIRE(mission_in(instance, repo, {"export", good_id}).exit_code == 0);

    bad_id = tracked_mission(agent, instance, repo, "bad", "docs/outside.md");
    REQUIRE(mission_in(instance, repo, {"export", bad_id}).exit_code == 0);
    REQUIRE(mission_in(instance, repo, {"export", bad_id, "--output", record_file.string()})
                .exit_code == 0);
  }

  // A fresh clone, as CI makes it, with the notes fetched.
  fs::path clone = instance.root.path() / "clone";
  git(instance, instance.root.path(), {"clone", "-q", repo.string(), clone.string()});
  fs::path bare_clone = instance.root.path() / "clone-without-notes";
  git(instance, instance.root.path(), {"clone", "-q", repo.string(), bare_clone.string()});
  git(instance, clone, {"fetch", "-q", "origin", "refs/notes/mission:refs/notes/mission"});

  // No daemon runs (every call says --no-autostart): the notes alone decide.
  ProcessResult all = mission_in(instance, clone, {"check", "--from-notes"});
  INFO(all.out << all.err);
  CHECK(all.exit_code == 1);
  CHECK(all.out.find(good_id) != std::string::npos);
  CHECK(all.out.find(bad_id) != std::string::npos);
  CHECK(all.out.find("docs/outside.md") != std::string::npos);

  ProcessResult json_all = mission_in(instance, clone, {"--json", "check", "--from-notes", "HEAD"});
  json verdict = json::parse(json_all.out);
  REQUIRE(verdict["missions"].size() == 2);
  CHECK(verdict["ok"] == false);

  // The range decides which commits' notes count: HEAD~1 holds only the good one.
  CHECK(mission_in(instance, clone, {"check", "--from-notes", "HEAD~1"}).exit_code == 0);
  CHECK(mission_in(instance, clone, {"check", "--from-notes", "--mission", good_id}).exit_code ==
        0);
  CHECK(mission_in(instance, clone, {"check", "--from-notes", "--allow-scope"}).exit_code == 0);

  // The same record from a file.
  CHECK(mission_in(instance, clone, {"check", "--from", record_file.string()}).exit_code == 1);
  CHECK(mission_in(instance, clone, {"check", "--from", record_file.string(), "--allow-scope"})
            .exit_code == 0);

  // A clone whose notes were never fetched fails closed and says how to fetch them.
  ProcessResult missing = mission_in(instance, bare_clone, {"check", "--from-notes"});
  CHECK(missing.exit_code == 1);
  CHECK(missing.err.find("git fetch origin refs/notes/mission") != std::string::npos);

  // A file that is not a record is named as such.
  fs::path junk = instance.root.path() / "junk.json";
  write_file(junk, "{\"hello\": 1}\n");
  ProcessResult refused = mission_in(instance, clone, {"check", "--from", junk.string()});
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("not a mission record") != std::string::npos);

  // An empty or blank file judges nothing, and fails.
  for (const char* text : {"", "\n  \n"}) {
    fs::path empty = instance.root.path() / "empty.json";
    write_file(empty, text);
    ProcessResult nothing = mission_in(instance, clone, {"check", "--from", empty.string()});
    CHECK(nothing.exit_code == 1);
    CHECK(nothing.err.find("holds no mission record") != std::string::npos);
  }
}
