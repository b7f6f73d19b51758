// Every MCP tool through its input schema: one MCP session to a real daemon
// (daemon_fixture.hpp) with every toolset, over a git repository, with a
// workflow of three planned tasks, a mission and its task, an agent, a
// message, a template, a repository, a workspace and an attempt already
// recorded. Each input makes up to kMaxCallsPerInput tools/calls: it picks
// a tool and walks that tool's input schema (schema_values.hpp) into
// arguments of the right shape with hostile values, the ids among them
// those of the records above and of what the input's earlier calls made.
// Each call goes through the real session: the frame limits, validation,
// the gate, the decoders and the handlers, deferred git work included.
// Every call must be answered with a reply mission itself can read, never
// with `internal` (a handler threw something it did not mean to), and the
// daemon must keep serving.
//
// The session and its records outlive an input, so that an input costs a
// few calls, not a session: a crash that needs what earlier inputs did may
// not replay from its input alone (its calls are printed, see below). When
// the session's execution ends (a signal tool can end it), a new session
// records new seeds.
//
// What must not run from a fuzzer is tamed: an attempt's agent is
// /bin/true or a shell that exits (every adapter's binary is /bin/true),
// paths point into the fixture's tree, message_wait waits 20 ms at most.
// FUZZ_TOOLS_REPORT=1 prints the calls of each tool and the answers' codes
// at exit; a one-line summary is always printed. FUZZ_TOOLS_TRACE=1 prints
// each frame sent (replaying a crash input, say).
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "daemon/adapters/adapter.hpp"
#include "daemon/adapters/adapter_table.hpp"
#include "shared/embedded_schemas.hpp"
#include "shared/schema_registry.hpp"
#include "shared/vocabulary.hpp"
#include "tests/fuzz/daemon_fixture.hpp"
#include "tests/fuzz/fuzz_choices.hpp"
#include "tests/fuzz/mcp_tool_session.hpp"
#include "tests/fuzz/schema_values.hpp"

extern char** environ;

namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using mission::fuzz::FuzzChoices;
using mission::fuzz::SchemaValues;
using mission::fuzz::ValuePools;

// Calls one input makes at most: enough for a call to act on what the one
// before made (create_task, then start_task_attempt on it).
constexpr std::size_t kMaxCallsPerInput = 4;
// Ids a pool holds at most; the oldest harvested go first.
constexpr std::size_t kMaxPoolIds = 64;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "mcp_tools: %.4000s\n", what.c_str());
  __builtin_trap();
}

void run(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  if (::posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ) != 0)
    fail("cannot run " + argv[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fail(argv[0] + " " + argv[1] + " failed");
}

// Every git the daemon or this target runs sees no configuration of the
// machine's, and every agent an attempt launches is /bin/true. Set before
// the daemon's thread starts: setenv is not safe beside a getenv.
void set_environment() {
  ::setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
  ::setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
  ::setenv("GIT_AUTHOR_NAME", "fuzz", 1);
  ::setenv("GIT_AUTHOR_EMAIL", "fuzz@example.com", 1);
  ::setenv("GIT_COMMITTER_NAME", "fuzz", 1);
  ::setenv("GIT_COMMITTER_EMAIL", "fuzz@example.com", 1);
  for (const auto* adapter : mission::daemon::adapters::adapter_table()) {
    ::setenv(mission::daemon::adapters::bin_variable(adapter->name).c_str(), "/bin/true", 1);
  }
}

fs::path make_repository(const fs::path& under) {
  fs::path repo = under / "repo";
  fs::create_directories(repo / "src");
  std::ofstream(repo / "README.md") << "# fuzzed\n";
  std::ofstream(repo / "src" / "main.c") << "int main(void) { return 0; }\n";
  run({"git", "-C", repo.string(), "init", "-q", "-b", "main"});
  run({"git", "-C", repo.string(), "add", "-A"});
  run({"git", "-C", repo.string(), "commit", "-q", "-m", "first"});
  return repo;
}

// Adds every id under `value` (keys "id" or "..._id", strings) to `ids`.
void harvest_ids(const json& value, std::vector<std::string>& ids, int depth = 0) {
  if (depth > 6) return;
  if (value.is_array()) {
    for (const auto& item : value) harvest_ids(item, ids, depth + 1);
    return;
  }
  if (!value.is_object()) return;
  for (const auto& [key, item] : value.items()) {
    const bool id_key =
        key == "id" || (key.size() > 3 && key.compare(key.size() - 3, 3, "_id") == 0);
    if (id_key && item.is_string() && !item.get_ref<const std::string&>().empty() &&
        item.get_ref<const std::string&>().size() <= 64 &&
        std::find(ids.begin(), ids.end(), item.get<std::string>()) == ids.end()) {
      if (ids.size() >= kMaxPoolIds) ids.erase(ids.begin());
      ids.push_back(item.get<std::string>());
    } else if (item.is_structured()) {
      harvest_ids(item, ids, depth + 1);
    }
  }
}

// A tool and the schema its arguments are made from: its input schema,
// with the fields it publishes as bare objects replaced by the schemas its
// decoder checks them against, so those get past the decoder too.
struct ToolSpec {
  std::string name;
  json schema;
};

ToolSpec tool_spec(mission::SchemaRegistry& registry, const std::string& name) {
  ToolSpec spec{name, registry.resolved("tools/" + name + ".input")};
  json& properties = spec.schema["properties"];
  if (name == "workflow_set_plan") {
    properties["plan"]["properties"]["tasks"]["items"] =
        registry.resolved("tools/fields/plan_task");
  } else if (name == "task_set_plan") {
    properties["plan"] = registry.resolved("tools/fields/task_plan");
  } else if (name == "task_replan") {
    properties["new_plan"] = registry.resolved("tools/fields/task_plan");
  } else if (name == "task_load_context") {
    properties["include"] = registry.resolved("tools/fields/context_include");
  } else if (name == "template_create") {
    properties["template"] = registry.resolved("tools/fields/template_definition");
  }
  return spec;
}

// What the fuzzer may not choose freely: the command of an attempt's
// agent, and a wait longer than a few milliseconds (30 s by default).
void tame(const std::string& tool, json& arguments, FuzzChoices& choices) {
  if (!arguments.is_object()) return;
  if (tool == "message_wait") {
    if (!arguments.contains("timeout_ms") || !arguments.at("timeout_ms").is_number_integer()) {
      arguments["timeout_ms"] = 1 + choices.below(20);
    }
  }
  if (tool != "start_task_attempt" || !arguments.contains("args")) return;
  static const json kArgs[] = {json::array({"/bin/true"}), json::array({"/bin/sh", "-c", "exit 3"}),
                               json::array(), json::array({"/nonexistent/agent"})};
  arguments["args"] = kArgs[choices.below(std::size(kArgs))];
}

struct Tally {
  std::map<std::string, std::uint64_t> calls;    // by tool
  std::map<std::string, std::uint64_t> answers;  // "ok", an error code, or "rpc:<code>"
  std::uint64_t inputs = 0;
  std::uint64_t bytes = 0;  // of the frames sent
};

class Harness {
 public:
  static Harness& get() {
    static Harness* harness = new Harness();
    return *harness;
  }

  void run_input(const std::uint8_t* data, std::size_t size);
  void report() const;

 private:
  Harness();
  void start_session();
  void seed();
  void check(const std::string& tool, const json& reply, const std::string& frame);

  mission::fuzz::DaemonFixture* daemon_ = nullptr;
  // Used by this thread only: the embedded registry is the daemon's.
  std::unique_ptr<mission::SchemaRegistry> registry_;
  fs::path repo_;
  std::vector<std::string> toolsets_;
  std::unique_ptr<mission::fuzz::McpToolSession> session_;
  std::vector<ToolSpec> tools_;
  ValuePools pools_;
  Tally tally_;
  bool session_ended_ = false;
  int sessions_ = 0;
};

Harness::Harness() {
  set_environment();
  daemon_ = &mission::fuzz::DaemonFixture::get();
  std::vector<std::pair<std::string, std::string>> documents;
  for (std::size_t i = 0; i < mission::kEmbeddedSchemaCount; ++i) {
    documents.emplace_back(mission::kEmbeddedSchemas[i].id, mission::kEmbeddedSchemas[i].text);
  }
  registry_ = std::make_unique<mission::SchemaRegistry>(documents);
  repo_ = make_repository(daemon_->root() / "work");
  for (const auto& entry : mission::vocabulary<mission::Toolset>())
    toolsets_.emplace_back(entry.name);
  pools_.paths = {repo_.string(),
                  (repo_ / "src").string(),
                  (repo_ / "README.md").string(),
                  daemon_->work_dir().string(),
                  (daemon_->root() / "work" / "missing").string(),
                  (daemon_->root() / "work" / "new-a").string(),
                  (daemon_->root() / "work" / "new-b" / "deeper").string(),
                  (daemon_->root() / "work" / "\xe2\x80\xae\xcc\x81").string(),
                  ""};
  pools_.names = {"alpha", "beta", "gamma", "main", "mission/x", "alpha "};
  start_session();
  for (const std::string& name : session_->tool_names())
    tools_.push_back(tool_spec(*registry_, name));
  if (tools_.empty()) fail("the session lists no tools");
  std::atexit([] { Harness::get().report(); });
}

void Harness::start_session() {
  session_ = std::make_unique<mission::fuzz::McpToolSession>(*daemon_, repo_, toolsets_);
  session_ended_ = false;
  pools_.ids = {session_->execution_id()};
  seed();
}

// The records the ids of hostile values name, made by the session itself
// so that it owns them.
void Harness::seed() {
  std::vector<std::string>& ids = pools_.ids;
  // Names that must be unique get the session's number.
  const std::string session = std::to_string(++sessions_);
  json workflow = session_->call_ok("workflow_create", {{"name", "fuzzed"},
                                                        {"source_type", "prompt"},
                                                        {"source_content", "fuzz the tools"},
                                                        {"repository_path", repo_.string()},
                                                        {"max_parallel_tasks", 2}});
  const std::string workflow_id = workflow.at("id");
  json tasks = json::array(
      {{{"name", "alpha"}, {"description", "a"}, {"sequence", 1}},
       {{"name", "beta"}, {"description", "b"}, {"sequence", 2}, {"depends_on", {"alpha"}}},
       {{"name", "gamma"}, {"description", "c"}, {"sequence", 2}}});
  session_->call_ok(
      "workflow_set_plan",
      {{"id", workflow_id}, {"plan", {{"summary", "s"}, {"approach", "a"}, {"tasks", tasks}}}});
  json listed = session_->call_ok("list_tasks", {{"workflow_id", workflow_id}});
  harvest_ids(listed, ids);
  harvest_ids(workflow, ids);
  json mission =
      session_->call_ok("start_mission", {{"name", "fuzzed mission"}, {"objective", "fuzz"}});
  harvest_ids(mission, ids);
  json task = session_->call_ok(
      "start_task", {{"mission_id", mission.at("mission_id")}, {"name", "t"}, {"goal", "g"}});
  harvest_ids(task, ids);
  harvest_ids(
      session_->call_ok("checkpoint_add",
                        {{"task_id", task.at("task_id")}, {"type", "progress"}, {"summary", "s"}}),
      ids);
  json agent = session_->call_ok("agent_register", {{"name", "fuzz agent"}, {"runtime", "custom"}});
  harvest_ids(agent, ids);
  harvest_ids(session_->call_ok("message_send", {{"recipient_id", agent.at("id")},
                                                 {"message_type", "query"},
                                                 {"body", "hello"},
                                                 {"workflow_id", workflow_id}}),
              ids);
  harvest_ids(session_->call_ok("template_create", {{"name", "fuzzed template " + session},
                                                    {"from_workflow_id", workflow_id}}),
              ids);
  harvest_ids(session_->call_ok("repository_register", {{"path", repo_.string()}}), ids);
  harvest_ids(session_->call_ok("workspace_create", {{"workflow_id", workflow_id}}), ids);
  const std::string alpha = listed.at("tasks").at(0).at("task_id");
  harvest_ids(session_->call_ok("start_task_attempt", {{"task_id", alpha},
                                                       {"executor", "generic"},
                                                       {"args", json::array({"/bin/true"})}}),
              ids);
}

void Harness::check(const std::string& tool, const json& reply, const std::string& frame) {
  auto internal = [&](const std::string& code) {
    if (code == "internal")
      fail("tool " + tool + " answered internal: " + reply.dump() +
           "\nframe: " + frame.substr(0, 4000));
  };
  if (reply.contains("error")) {
    const json& error = reply.at("error");
    const json data = error.value("data", json::object());
    const std::string code = data.is_object() ? data.value("code", "") : "";
    internal(code);
    ++tally_.answers["rpc:" + (code.empty() ? error.value("message", "?").substr(0, 40) : code)];
    return;
  }
  if (!reply.contains("result") || !reply.at("result").is_object())
    fail("tool " + tool + " answered neither result nor error: " + reply.dump());
  const json& result = reply.at("result");
  if (!result.contains("content") || !result.at("content").is_array() ||
      !result.contains("isError")) {
    fail("tool " + tool + " answered no CallToolResult: " + reply.dump());
  }
  if (!result.at("isError").get<bool>()) {
    ++tally_.answers["ok"];
    return;
  }
  const json error = result.value("structuredContent", json::object());
  const std::string code = error.value("code", "");
  internal(code);
  const bool schema =
      code == "invalid_argument" && error.value("message", "").starts_with("invalid arguments for");
  ++tally_.answers[schema ? "invalid_argument (schema)" : code];
  if (code == "execution_final") session_ended_ = true;
}

void Harness::run_input(const std::uint8_t* data, std::size_t size) {
  if (session_ended_) start_session();  // every writing tool would answer execution_final
  ++tally_.inputs;
  FuzzChoices choices(data, size);
  ValuePools pools = pools_;  // what this input's calls make joins it
  for (std::size_t call = 0; call < kMaxCallsPerInput && (call == 0 || !choices.exhausted());
       ++call) {
    const ToolSpec& tool = tools_[choices.below(tools_.size())];
    // Most calls stay within every bound, to reach the handlers.
    SchemaValues values(choices, pools, tool.name, !choices.one_in(4));
    json arguments = values.value(tool.schema);
    tame(tool.name, arguments, choices);
    const std::int64_t id = session_->next_id();
    json message = {{"jsonrpc", "2.0"},
                    {"id", id},
                    {"method", "tools/call"},
                    {"params", {{"name", tool.name}, {"arguments", std::move(arguments)}}}};
    const std::string frame = SchemaValues::dump_with_raw(message) + "\n";
    ++tally_.calls[tool.name];
    tally_.bytes += frame.size();
    json reply = session_->exchange(frame, id);
    check(tool.name, reply, frame);
    if (reply.contains("result"))
      harvest_ids(reply.at("result").value("structuredContent", json()), pools.ids);
  }
}

void Harness::report() const {
  std::uint64_t calls = 0;
  std::uint64_t fewest = UINT64_MAX;
  std::string fewest_tool;
  for (const auto& tool : tools_) {
    auto found = tally_.calls.find(tool.name);
    const std::uint64_t count = found == tally_.calls.end() ? 0 : found->second;
    calls += count;
    if (count < fewest) {
      fewest = count;
      fewest_tool = tool.name;
    }
  }
  auto ok = tally_.answers.find("ok");
  std::printf(
      "mcp_tools: %llu inputs, %llu calls over %zu tools (fewest: %llu, %s), %llu answered ok, "
      "%llu KiB sent\n",
      static_cast<unsigned long long>(tally_.inputs), static_cast<unsigned long long>(calls),
      tools_.size(), static_cast<unsigned long long>(fewest), fewest_tool.c_str(),
      static_cast<unsigned long long>(ok == tally_.answers.end() ? 0 : ok->second),
      static_cast<unsigned long long>(tally_.bytes / 1024));
  if (std::getenv("FUZZ_TOOLS_REPORT") == nullptr) return;
  for (const auto& tool : tools_) {
    auto found = tally_.calls.find(tool.name);
    std::printf("  %-26s %llu\n", tool.name.c_str(),
                static_cast<unsigned long long>(found == tally_.calls.end() ? 0 : found->second));
  }
  for (const auto& [code, count] : tally_.answers) {
    std::printf("  answer %-40s %llu\n", code.c_str(), static_cast<unsigned long long>(count));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Harness::get().run_input(data, size);
  return 0;
}
