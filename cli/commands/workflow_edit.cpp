// mission workflows edit WF: the workflow's plan as the TOML plan file a
// person writes (PLAN FILES), opened in $VISUAL or $EDITOR, checked with
// the file's lines as `workflows create --from` checks it, then given to
// the daemon whole (workflow.set_plan), which replaces the plan or
// changes nothing. With --from FILE the file is applied without an
// editor. An edit the daemon refuses is kept, so nothing typed is lost.

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"
#include "cli/plan_file.hpp"
#include "cli/plan_file_writer.hpp"
#include "cli/workflow_reference.hpp"
#include "shared/error_code.hpp"

extern char** environ;

namespace mission::cli {
namespace {

struct EditOptions {
  std::string id;
  std::string from;  // a plan file to apply instead of opening an editor
};

// The person's editor, as git finds it: $VISUAL, then $EDITOR, then vi.
std::string editor_command() {
  for (const char* name : {"VISUAL", "EDITOR"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') return value;
  }
  return "vi";
}

// Runs the editor on `path` through the shell, so that EDITOR may carry
// arguments ("code --wait"), and returns its exit status. Ctrl-C belongs
// to the editor meanwhile, as under git.
int run_editor(const std::string& editor, const std::string& path) {
  const std::string script = editor + " \"$@\"";
  char* argv[] = {const_cast<char*>("/bin/sh"),      const_cast<char*>("-c"),
                  const_cast<char*>(script.c_str()), const_cast<char*>(editor.c_str()),
                  const_cast<char*>(path.c_str()),   nullptr};
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  struct sigaction old_int {};
  struct sigaction old_quit {};
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  // The editor gets the default dispositions back.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGQUIT);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, "/bin/sh", nullptr, &attributes, argv, environ);
  posix_spawnattr_destroy(&attributes);
  int status = 0;
  if (spawned == 0) {
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  if (spawned != 0) {
    throw MissionError(
        ErrorCode::internal,
        std::string("cannot start /bin/sh for the editor: ") + std::strerror(spawned),
        "apply an edited file instead: mission workflows edit WF --from FILE");
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

// A private file for the edit: $TMPDIR/mission-plan-WF-XXXXXX.toml, 0600.
std::filesystem::path write_edit_file(const std::string& workflow_id, const std::string& text) {
  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/mission-plan-" +
                     workflow_id + "-XXXXXX.toml";
  const int fd = ::mkstemps(path.data(), 5);
  if (fd < 0) {
    throw MissionError(ErrorCode::internal,
                       "cannot make a file for the edit: " + std::string(std::strerror(errno)),
                       "set TMPDIR to a folder you can write, or apply a file: mission workflows "
                       "edit WF --from FILE");
  }
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;
      ::close(fd);
      std::filesystem::remove(path);
      throw MissionError(ErrorCode::internal,
                         "cannot write the file for the edit: " + std::string(std::strerror(error)),
                         "free some space in " + std::string(tmp != nullptr ? tmp : "/tmp"));
    }
    written += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return path;
}

int print_replanned(const CliContext& context, const nlohmann::json& result) {
  if (context.options.json) {
    print_json(result);
    return kExitOk;
  }
  const std::string id = result.value("workflowId", std::string());
  const std::int64_t tasks = result.value("tasksCreated", std::int64_t{0});
  const std::int64_t dependencies = result.value("dependencies", std::int64_t{0});
  std::printf("Workflow %s (%s) has a new plan: %lld task%s, %lld dependenc%s, %s.\n", id.c_str(),
              safe(result.value("name", std::string())).c_str(), static_cast<long long>(tasks),
              tasks == 1 ? "" : "s", static_cast<long long>(dependencies),
              dependencies == 1 ? "y" : "ies", safe(result.value("status", std::string())).c_str());
  std::printf("Next: mission plan %s to review it; mission workflows run %s -- AGENT to run it.\n",
              id.c_str(), id.c_str());
  return kExitOk;
}

// Checks `text` as a plan file named `shown` and gives it to the daemon.
nlohmann::json apply_plan(const CliContext& context, const std::string& id, const std::string& text,
                          const std::string& shown) {
  nlohmann::json file = parse_plan_file(text, shown);
  nlohmann::json params = {{"id", id}, {"plan", file.at("plan")}};
  if (file.contains("maxParallelTasks")) params["maxParallelTasks"] = file["maxParallelTasks"];
  if (file.contains("autoCreateWorkspaces"))
    params["autoCreateWorkspaces"] = file["autoCreateWorkspaces"];
  return context.connect().client.call("workflow.set_plan", params);
}

std::string read_edited_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int run_edit(const CliContext& context, const EditOptions& options) {
  // No connection is held while the person edits, however long it takes.
  std::string id;
  {
    DaemonConnection connection = context.connect();
    id = resolve_workflow(connection.client, options.id);
  }
  if (!options.from.empty()) {
    const std::string shown = options.from == "-" ? "stdin" : options.from;
    const std::string text = read_plan_text(options.from);
    return print_replanned(context, apply_plan(context, id, text, shown));
  }
  const nlohmann::json document = context.connect().client.call("workflow.get_plan", {{"id", id}});
  // Refused before the editor opens: the daemon would refuse the edit.
  const nlohmann::json& started = document.at("startedTasks");
  if (!started.empty()) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "workflow " + id + " has started tasks (" + safe(started.front().get<std::string>()) +
            (started.size() > 1 ? " and " + std::to_string(started.size() - 1) + " more" : "") +
            "): only a plan none of whose tasks has started can be edited",
        "to run failed tasks again: mission workflows reset " + id +
            "; to change more, plan a new workflow: mission workflows create NAME --from FILE");
  }
  const std::string before = plan_file_toml(document);
  const std::filesystem::path path = write_edit_file(id, before);
  const std::string editor = editor_command();
  const int status = run_editor(editor, path.string());
  if (status != 0) {
    std::filesystem::remove(path);
    throw MissionError(ErrorCode::invalid_argument,
                       "the editor (" + editor + ") exited with " + std::to_string(status) +
                           "; the plan is unchanged",
                       "set VISUAL or EDITOR to an editor that waits until you close the file");
  }
  const std::string after = read_edited_file(path);
  if (after == before) {
    std::filesystem::remove(path);
    std::printf("No change: workflow %s keeps its plan.\n", id.c_str());
    return kExitOk;
  }
  nlohmann::json result;
  try {
    result = apply_plan(context, id, after, path.string());
  } catch (const MissionError& e) {
    // What was typed stays, to fix and apply.
    throw MissionError(e.code(), e.what(),
                       e.hint() + (e.hint().empty() ? "" : "; ") + "your edit is kept in " +
                           path.string() + ": fix it and apply it with mission workflows edit " +
                           id + " --from " + path.string(),
                       e.details());
  }
  std::filesystem::remove(path);
  return print_replanned(context, result);
}

}  // namespace

void define_workflow_edit_command(CLI::App& workflows, CliContext& context) {
  auto options = std::make_shared<EditOptions>();
  CLI::App* edit = workflows.add_subcommand(
      "edit", "Edit a workflow's plan in $EDITOR as a plan file, before any task starts");
  edit->add_option("id", options->id, kWorkflowArgumentHelp)->required()->type_name("WF");
  edit->add_option("--from", options->from,
                   "Apply this plan file (.toml, .json, or - for stdin) instead of an editor")
      ->type_name("FILE");
  edit->callback([&context, options] {
    context.action = [&context, options] { return run_edit(context, *options); };
  });
}

}  // namespace mission::cli
