#pragma once
// The launched executions whose processes this daemon owns: it starts them,
// stops them, and forgets each once its process has ended and its final
// state is recorded. The one service through which anything launches.

#include <uv.h>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "daemon/adapters/launch_files.hpp"
#include "daemon/events/event_sink.hpp"
#include "daemon/execution/acp_session.hpp"
#include "daemon/execution/execution_log.hpp"
#include "daemon/sandbox/network_filter.hpp"
#include "daemon/store/database.hpp"
#include "daemon/terminal/permission_prompt.hpp"
#include "daemon/terminal/terminal_session.hpp"

namespace mission::daemon::execution {

class ExecutionRunner;

// What a runner needs of the daemon, and nothing more.
struct RunnerServices {
  uv_loop_t* loop;
  store::Database& db;
  events::EventSink& events;
  std::filesystem::path logs_dir;
  // Where confined launches get their private TMPDIR (daemon/sandbox/).
  std::filesystem::path temp_root;
  // Called with the execution's id each time its usage is committed (set
  // by the Launcher, which hands it to its usage observers).
  std::function<void(const std::string& execution_id)> usage_recorded;
};

struct LaunchSpec {
  std::string execution_id;  // committed, in state launching
  std::string cwd;
  std::vector<std::string> argv;
  std::vector<std::string> env;  // NAME=VALUE, the whole environment
  bool reads_markers = false;    // stdout-marker delivery
  // The streaming JSON its command asked for (shared/agent_stream.hpp),
  // read for the agent's tokens and cost; empty for text.
  std::string stream_format;
  // Its adapter: on a terminal, whose permission menus are read from its
  // screen (daemon/terminal/permission_prompt.hpp).
  std::string adapter;
  adapters::LaunchFiles files;  // removed when the process ends
  // On a pseudo-terminal the daemon owns, of this size (rows, columns), in
  // place of pipes; viewers attach to it (daemon/terminal/).
  bool on_terminal = false;
  unsigned short rows = 0;
  unsigned short columns = 0;
  bool stdin_lines = false;  // a pipe on stdin for inbound lines (ADR 17)
  // Driven over the Agent Client Protocol (daemon/execution/acp_session.hpp,
  // docs/adr/0043): its stdin and stdout carry JSON-RPC, and the session
  // starts with this cwd, these MCP servers and this prompt.
  std::optional<AcpSession::Start> acp;
  // Confined to its profile (daemon/sandbox/, docs/adr/0036): writes to
  // its cwd, its git metadata, `writable` (the adapter's state folders)
  // and its private TMPDIR only. False: --sandbox off.
  bool confined = true;
  std::vector<std::filesystem::path> writable;
  // Confined: what it must not read (the person's secrets, the daemon's
  // folders, --hide), and what it reads beneath them (its launch files).
  std::vector<std::filesystem::path> hidden;
  std::vector<std::filesystem::path> readable;
  // none: no network socket (--network none, daemon/sandbox/network_filter.hpp),
  // confined or not.
  sandbox::Network network = sandbox::Network::on;
};

class Launcher {
 public:
  explicit Launcher(RunnerServices services);
  ~Launcher();
  Launcher(const Launcher&) = delete;
  Launcher& operator=(const Launcher&) = delete;

  // Spawns the execution's process and marks it running. When the spawn
  // fails the execution is failed (the reason ends its log) and
  // MissionError is thrown. Call outside any transaction: the process must
  // not start before its row is committed.
  void launch(LaunchSpec spec);

  // SIGTERM to the process group, SIGKILL after the grace period (at once
  // with `force`). False when no process of ours runs for it.
  bool stop(const std::string& execution_id, bool force);

  // The terminal of a running execution launched on one; nullptr otherwise.
  terminal::TerminalSession* terminal(const std::string& execution_id) const;

  // The permission prompt a running execution of ours shows on its
  // terminal now (read afresh from the screen), if any.
  std::optional<terminal::PermissionPrompt> permission_prompt(
      const std::string& execution_id) const;

  // Types `text` into the execution's terminal, then Enter unless `enter`
  // is false: how answers and messages reach an agent on a terminal. False
  // when it runs on no terminal of this daemon.
  bool type_into(const std::string& execution_id, std::string_view text, bool enter);

  // Whether the execution is a running one of ours driven over ACP: its
  // permission requests are answered with answer_permission.
  bool speaks_acp(const std::string& execution_id) const;

  // Answers the permission request an ACP execution waits on with its
  // option `choice` (1-based); false when none is open or no such option.
  bool answer_permission(const std::string& execution_id, std::size_t choice);

  // Throws MissionError agent_not_reading when `bytes` more for the
  // execution's terminal or stdin would pass kMaxQueuedInputBytes waiting
  // for it to read; checked before a message, an answer or typed text is
  // accepted, so that nothing accepted is dropped. Nothing when no process
  // of ours takes lines for it.
  void require_input_room(const std::string& execution_id, std::size_t bytes) const;

  // The one seam through which the inbound channel (ADR 17) reaches a
  // launched process: `line` (no newline inside) is typed on the
  // execution's terminal or goes to its stdin pipe, Enter (a newline) after
  // it unless `press_enter` is false. False when no process of ours takes
  // lines (not on a terminal nor launched with --stdin-answers, or ended).
  bool deliver_inbound(const std::string& execution_id, const std::string& line, bool press_enter);

  // `observer` hears the id of every execution whose process has ended,
  // once its final state is committed (the workflow runner judges it then,
  // the control toolset launches a queued follow-up). The token removes it.
  using EndObserver = std::function<void(const std::string& execution_id)>;
  std::size_t add_end_observer(EndObserver observer) {
    end_observers_.emplace_back(++last_observer_token_, std::move(observer));
    return last_observer_token_;
  }
  void remove_end_observer(std::size_t token) {
    std::erase_if(end_observers_, [token](const auto& entry) { return entry.first == token; });
  }

  // `observer` hears the id of an execution of ours each time its agent's
  // usage (tokens, cost) is committed, from inside the runner's read: it
  // must not stop the execution there, but on a later turn (a run's
  // budgets, docs/adr/0049). The token removes it.
  std::size_t add_usage_observer(EndObserver observer) {
    usage_observers_.emplace_back(++last_observer_token_, std::move(observer));
    return last_observer_token_;
  }
  void remove_usage_observer(std::size_t token) {
    std::erase_if(usage_observers_, [token](const auto& entry) { return entry.first == token; });
  }

  // The unfinished last line of each output stream of a running execution
  // of ours (a prompt waiting for its answer); empty otherwise.
  std::vector<PartialLine> partial_lines(const std::string& execution_id) const;

  bool owns(const std::string& execution_id) const { return runners_.count(execution_id) != 0; }
  std::size_t running() const { return runners_.size(); }

  // The daemon stops: the agents run on, unread (a restarted daemon marks
  // their executions lost), and their launch files are removed.
  void release_all();

 private:
  RunnerServices services_;
  std::map<std::string, std::unique_ptr<ExecutionRunner>> runners_;
  std::vector<std::pair<std::size_t, EndObserver>> end_observers_;
  std::vector<std::pair<std::size_t, EndObserver>> usage_observers_;
  std::size_t last_observer_token_ = 0;
};

}  // namespace mission::daemon::execution
