#pragma once
// Every limit of mission in one place. Each is documented in mission(1),
// missiond(8) or mission-mcp(7); change both together.

#include <cstddef>
#include <cstdint>

namespace mission::limits {

// Largest control-API or MCP frame (one JSON line) the daemon accepts. A
// larger frame is answered with payload_too_large and the connection goes on.
inline constexpr std::size_t kMaxFrameBytes = 1024 * 1024;

// Deepest nesting of arrays and objects the daemon accepts in any JSON it
// reads: control and MCP frames, markers, and JSON stored in the database.
// Checked by a scan without recursion before the (recursive) parser runs; a
// deeper message is answered invalid_request and the connection goes on.
inline constexpr std::size_t kMaxJsonDepth = 128;

// Deepest nesting of an MCP tool's arguments, the arguments object being
// the first level. What a tool stores (metadata, details, a message body)
// comes back inside replies a few levels deeper than it came in, and each
// such reply must stay within kMaxJsonDepth for the daemon's own clients;
// deeper arguments are answered invalid_argument.
inline constexpr std::size_t kMaxToolArgumentDepth = 64;

// Bytes queued for writing on one connection before the daemon stops reading
// from it until the peer drains its socket (backpressure).
inline constexpr std::size_t kMaxQueuedWriteBytes = 8 * 1024 * 1024;

// Connections the daemon holds open at once (missiond --max-connections);
// each agent's MCP bridge and each running CLI command hold one. When one
// more arrives, the oldest connection that has not completed hello is
// closed to make room; if every connection has, the new one is answered
// daemon_unavailable with the reason and closed.
inline constexpr std::size_t kMaxConnections = 256;

// Of those, this many are kept for people's commands (mission status,
// exec stop, ...): agents' MCP sessions may hold at most kMaxConnections
// less this, and one more mcp.attach is answered daemon_unavailable, so a
// daemon full of agents never locks the person out. A --max-connections
// smaller than twice the reserve keeps half of it instead.
inline constexpr std::size_t kReservedControlConnections = 16;

// Largest frame before hello: a hello is small, and a connection flood
// holds at most this much per connection.
inline constexpr std::size_t kMaxHelloFrameBytes = 256 * 1024;

// How long a new connection has to complete hello (or mcp.attach's hello)
// before the daemon closes it (missiond --hello-timeout).
inline constexpr int kHelloTimeoutMs = 10000;

// Messages one MCP batch (a JSON array) may hold; a longer batch is refused
// whole with invalid_request. The replies of a batch go in one line, so
// once they pass kMaxReplyBytes the remaining requests are not run: each
// is answered payload_too_large, to be sent again on its own.
inline constexpr std::size_t kMaxBatchMessages = 100;

// The HTTP listener (missiond --http, docs/adr/0035). A request's line and
// headers may take kMaxHttpHeaderBytes, its body kMaxHttpBodyBytes (one MCP
// message, as on the socket); more is answered 431 or 413 and the
// connection closed. At most kMaxHttpConnections are held at once; one
// more is answered 503 and closed.
inline constexpr std::size_t kMaxHttpHeaderBytes = 16 * 1024;
inline constexpr std::size_t kMaxHttpBodyBytes = kMaxFrameBytes;
inline constexpr std::size_t kMaxHttpConnections = 128;

// A request must arrive whole within kHttpRequestTimeoutMs of its first
// byte (a slow sender holds a connection), and a kept-alive connection
// with no request is closed after kHttpIdleTimeoutMs.
inline constexpr int kHttpRequestTimeoutMs = 10000;
inline constexpr int kHttpIdleTimeoutMs = 60000;

// MCP over HTTP has no socket whose close ends a session: a session with
// no request for kHttpMcpSessionIdleMs (and none in progress) is ended as
// if its client had gone. At most kMaxHttpMcpSessions are open at once;
// one more initialize is answered 503.
inline constexpr int kHttpMcpSessionIdleMs = 30 * 60 * 1000;
inline constexpr std::size_t kMaxHttpMcpSessions = 256;

// How long the CLI waits for an auto-started daemon to report readiness.
inline constexpr int kAutostartTimeoutMs = 5000;

// First delay between connection retries after a spawn; it doubles each time.
inline constexpr int kConnectRetryInitialMs = 10;

// How long `mission daemon stop` waits for the daemon to exit.
inline constexpr int kStopTimeoutMs = 5000;

// How long a CLI waits for one control-API answer before giving up.
inline constexpr int kRequestTimeoutMs = 30000;

// Bytes the MCP bridge holds in each direction before it stops reading from
// that side until the other side catches up.
inline constexpr std::size_t kBridgeBufferBytes = 4 * 1024 * 1024;

// Tools in one tools/list page; the rest follow through nextCursor. Larger
// than any catalog today, so clients that never page still see every tool.
inline constexpr std::size_t kToolsListPageSize = 100;

// Most the CLI reads from one git command (`mission check --from-notes`
// reading notes): past it, the range of commits is too wide to judge.
inline constexpr std::size_t kMaxGitOutputBytes = 64 * 1024 * 1024;

// Requests the daemon handles for one connection before it turns to the
// others: a client that sends hundreds at once waits its turn instead of
// holding the loop while each is answered.
inline constexpr std::size_t kMaxFramesPerTurn = 8;

// Time the daemon spends on one connection's requests in one turn of the
// loop before it turns to the others; the request that passes it is
// finished. A page of 300 executions takes about 3 ms, and 400 ms in the
// sanitized debug build, where eight of them kept `mission status` waiting
// for seconds: time, not only the count, bounds a turn.
inline constexpr std::uint64_t kMaxHandlingNsPerTurn = 2'000'000;

// An id prefix names a record (an execution "ae-", a workflow "wf-", a
// task "tk-") only with at least this many characters after its kind's
// prefix, as git asks four of an abbreviated hash.
inline constexpr std::size_t kMinExecutionIdPrefix = 4;
// How many candidates an ambiguous reference (to an execution, a workflow
// or a task) lists.
inline constexpr std::size_t kMaxReferenceCandidates = 5;

// Executions `mission exec list` asks for when no --limit is given.
inline constexpr std::size_t kDefaultExecutionListLimit = 50;

// Most items one page of any list may hold (executions, observations,
// missions, tasks, changed files, get_context lists), whatever `limit`
// asks for; the rest follow through the page's cursor.
inline constexpr std::size_t kMaxPageItems = 500;

// Largest reply the daemon sends on the control API or as one MCP result,
// below kMaxFrameBytes so that a reply always fits the peer's frame limit.
// Lists stop adding items before a page would grow past it and say where
// to go on; any other reply over it is answered payload_too_large.
inline constexpr std::size_t kMaxReplyBytes = 768 * 1024;

// MCP sessions of one execution shown in its JSON (the newest ones); the
// total is given beside them.
inline constexpr std::size_t kMaxSessionsShown = 20;

// After an agent exits, how long the daemon waits for the end of its output
// before it stops reading: a background process it left behind may keep the
// pipes open for ever.
inline constexpr int kChildOutputDrainMs = 2000;

// After `mission exec stop`, how long the agent's process group has between
// SIGTERM and SIGKILL.
inline constexpr int kStopGraceMs = 5000;

// `mission run` and `mission exec logs --follow` ask for new output this
// often, at most this many lines at a time.
inline constexpr int kFollowPollMs = 50;
// mission watch: how often it looks for a daemon that went away, and how
// many executions of each active state it shows when it starts.
inline constexpr int kWatchReconnectMs = 250;
inline constexpr int kWatchCurrentStateLimit = 100;
// mission daemon stop: how many active executions its warning names.
inline constexpr std::size_t kMaxStopWarningExecutions = 10;
inline constexpr std::size_t kFollowPageLines = 1000;

// The shortest wait between those requests. The wait is a quarter of the
// time followed so far, from this up to kFollowPollMs: an agent that ends
// at once (the launch benchmark's `true`) is seen ending within a
// millisecond or so, not after 50.
inline constexpr int kFollowPollInitialMs = 1;

// How long `mission adapters list` lets each agent binary answer
// `--version` (they run at once; some are node programs that take a second
// or two to start). One that does not answer in time is listed without a
// version, and its process group is killed.
inline constexpr int kAdapterVersionTimeoutMs = 5000;

// Largest marker line (`@agent-execution::{...}`) on an agent's stdout, prefix
// included, line ending excluded. A longer one becomes an oversized-marker
// diagnostic; its bytes are dropped as they arrive.
inline constexpr std::size_t kMaxMarkerBytes = 64 * 1024;

// Largest line an Agent Client Protocol agent may write on its stdout (one
// JSON-RPC message; a tool call's diff travels in one). A longer one is
// refused as an acp diagnostic and its bytes dropped as they arrive; a
// request in it goes unanswered, so the agent's turn may end in error.
inline constexpr std::size_t kMaxAcpLineBytes = 4 * 1024 * 1024;

// Most text of an ACP agent's message chunks coalesced into one
// observation and one log line (under the log line limit, escapes and
// all); past it the text goes on in the next one.
inline constexpr std::size_t kMaxAcpMessageBytes = 16 * 1024;

// Most ACP diagnostics (hostile or broken lines) recorded per execution;
// past it they are counted in the log only, so an agent printing garbage
// cannot fill the store.
inline constexpr std::size_t kMaxAcpDiagnostics = 32;

// Most permission requests an ACP agent may have open at once (one per
// tool call it runs in parallel); one past it is answered cancelled.
inline constexpr std::size_t kMaxAcpOpenPermissions = 16;

// After `mission exec stop` of an ACP agent in a turn: how long it has to
// end the turn after session/cancel before its process group is sent
// SIGTERM (then SIGKILL after kStopGraceMs). A turn that ends cancelled
// within it is followed by SIGTERM at once.
inline constexpr int kAcpCancelGraceMs = 3000;

// Longest question an ACP agent's turn ends on that is recorded as its
// needs_input (the bound of schemas/signals/fields/long_text.json); a
// longer last message keeps its end, where the question is.
inline constexpr std::size_t kMaxAcpQuestionBytes = 4000;

// Largest per-execution output log (`<state dir>/logs/<id>.log`, the lines'
// text and their newlines, plus its line index `<id>.idx`, 16 bytes a line). Output
// past it is dropped after one last stderr line saying so.
inline constexpr std::uint64_t kMaxExecutionLogBytes = std::uint64_t{1} << 30;

// Longest line in an execution log. A longer line, or a partial line that
// grows past it before its newline arrives, is stored as several lines, each
// but the last marked as continued.
inline constexpr std::size_t kMaxLogLineBytes = 64 * 1024;

// Largest page of `execution.logs` (and so `mission exec logs`), counting
// each line's text plus 64 bytes: small enough that the JSON reply, escapes
// included, stays under kMaxFrameBytes. A page always holds at least one
// line; the rest follow through the cursor or `after`.
inline constexpr std::size_t kMaxLogPageBytes = 128 * 1024;

// How long a request_id of a mutating tracking tool is remembered
// (DESIGN.md section 5): a completed call's result for 7 days, a call still
// in progress for 1 hour (after which its request_id may run again).
// missiond --idempotency-ttl and --idempotency-pending-ttl change them.
inline constexpr std::int64_t kIdempotencyTtlMs = std::int64_t{7} * 24 * 3600 * 1000;
inline constexpr std::int64_t kIdempotencyPendingTtlMs = std::int64_t{3600} * 1000;

// How often missiond deletes expired request_id records and sweeps what
// it keeps by the retention settings below (also at start-up).
inline constexpr std::uint64_t kIdempotencyPruneIntervalMs = 10 * 60 * 1000;

// Retention (missiond --log-retention, --execution-retention,
// --daemon-log-max; `mission gc` sweeps at once). The output log of an
// execution that ended more than 30 days ago is deleted; the execution
// itself, with its observations and MCP sessions, after 90 days (the
// missions and tasks it tracked stay). missiond.log is moved to
// missiond.log.1 once past 16 MiB.
inline constexpr std::int64_t kFinalLogRetentionMs = std::int64_t{30} * 24 * 3600 * 1000;
inline constexpr std::int64_t kFinalExecutionRetentionMs = std::int64_t{90} * 24 * 3600 * 1000;
inline constexpr std::uint64_t kDaemonLogMaxBytes = std::uint64_t{16} * 1024 * 1024;

// Most items of each kind (tasks, decisions, milestones, blockers) one
// get_context answer carries: the newest ones; the answer says how many
// were left out, and its filters narrow it.
inline constexpr std::size_t kMaxContextItems = 50;

// Changed paths one task shows wherever it is shown (the complete_task
// result, task lists, get_context): the first ones, with the counts of
// all. The whole change set pages through the task_changes tool and
// `mission tasks MISSION --task TASK`. The same bound applies to the paths
// a scope check lists as unexpected.
inline constexpr std::size_t kMaxChangedPathsShown = 50;

// Most missions `mission missions list` shows by default.
inline constexpr std::size_t kDefaultMissionListLimit = 50;

// Most files a checksum snapshot (a task started outside any git work tree)
// covers, counted after the skipped directories (node_modules, .git, ...).
// A larger tree is refused with payload_too_large: the snapshot reads every
// file, and its data is stored with the task.
inline constexpr std::size_t kMaxChecksumFiles = 200000;

// Largest file a checksum snapshot reads. A larger one (a dataset, a disk
// image) is compared by its stat data instead: size, mtime and inode, which
// any write changes; a write that keeps all three is not seen. Bounds the
// time start_task and complete_task spend hashing outside git.
inline constexpr std::uint64_t kMaxChecksumHashedFileBytes = std::uint64_t{64} * 1024 * 1024;

// Most bytes one snapshot or change set reads (files hashed, in git or
// checksum trees) and the longest it may run. Past either it fails with
// payload_too_large instead of holding a thread-pool thread for ever: a
// tree of endless or slow files, or simply too much to read for one task.
inline constexpr std::uint64_t kMaxSnapshotReadBytes = std::uint64_t{4} * 1024 * 1024 * 1024;
inline constexpr std::int64_t kMaxSnapshotMs = 120 * 1000;

// Worker threads of one snapshot's stat pass (and of hashing in checksum
// trees): as many as the machine has cores, at most this many. Past a few
// threads the file system's locks, not the cores, set the pace.
inline constexpr unsigned kMaxSnapshotThreads = 8;

// What the daemon keeps in memory from the latest snapshot of each tree, so
// the next one reads again only what changed: the latest snapshots of at
// most this many trees, and for each git tree at most this many files whose
// content was hashed (beyond that they are hashed again each time).
// Checksum trees keep their latest snapshot's data while the total stays
// under kMaxChecksumMemoBytes.
inline constexpr std::size_t kMaxRememberedTrees = 8;
inline constexpr std::size_t kMaxRememberedFilesPerTree = 100000;
inline constexpr std::size_t kMaxChecksumMemoBytes = 16 * 1024 * 1024;

// Watched trees (missiond --watch-trees, or `git config mission.watchTrees
// true` in a repository): one inotify watch per directory. A tree that needs
// more than kMaxWatchesPerTree, or more than its share of the user's limit
// (this fraction of /proc/sys/fs/inotify/max_user_watches, less what the
// daemon already holds), is not watched: its snapshots stay full ones and
// `mission status` says why. At most kMaxWatchedTrees trees at once.
inline constexpr std::size_t kMaxWatchesPerTree = 65536;
inline constexpr unsigned kWatchShareOfUserLimitPercent = 50;
inline constexpr std::size_t kMaxWatchedTrees = 16;

// Changed paths a watched tree remembers between two snapshots, and paths
// one watched snapshot looks at; past either the next snapshot is a full
// one (a checkout or a build that rewrote many files).
inline constexpr std::size_t kMaxWatchedChangedPaths = 20000;

// How often the daemon looks for watched trees no task in progress uses
// any more, to drop their watches (also right after a task completes).
inline constexpr int kWatchIdleCheckMs = 60 * 1000;

// Planned work (docs/adr/0015). A plan has at most kMaxPlanTasks tasks and
// kMaxPlanEdges depends_on edges; a task at most kMaxTaskDependencies.
inline constexpr std::size_t kMaxPlanTasks = 20000;
inline constexpr std::size_t kMaxPlanEdges = 100000;
inline constexpr std::size_t kMaxTaskDependencies = 256;

// The longest texts of one planned task, in characters (code points, as
// JSON Schema's maxLength counts them): its name (and so each name in its
// depends_on), its parallel group and its description.
// schemas/tools/fields/plan_task.json says the same. template_apply holds
// each task it fills in to them, and refuses as soon as a filled-in text
// would pass its limit, before it is built.
inline constexpr std::size_t kMaxPlanTaskNameChars = 200;
inline constexpr std::size_t kMaxPlanTaskGroupChars = 200;
inline constexpr std::size_t kMaxPlanTaskDescriptionChars = 8000;
// Most bytes template_apply fills a template's texts to, all its tasks
// together: no more than one workflow_set_plan request could carry.
inline constexpr std::size_t kMaxAppliedTemplateBytes = kMaxFrameBytes;

// workflow_next_tasks lists at most kMaxNextTasks ready tasks;
// workflow_progress at most kMaxBlockedShown blocked tasks (each with at
// most kMaxBlockersShown blockers) and kMaxGroupsShown groups and sequences.
inline constexpr std::size_t kMaxNextTasks = 50;
// ... and stops before its tasks' JSON passes kMaxNextTasksBytes (one task
// always goes in): 50 descriptions of 8,000 characters, which an MCP
// result carries twice (as structured content and as its text), passed
// kMaxReplyBytes and the call failed with payload_too_large. A quarter of
// it leaves room for the text copy's escaping of quotes and backslashes.
// available_count says how many are ready in all.
inline constexpr std::size_t kMaxNextTasksBytes = kMaxReplyBytes / 4;
inline constexpr std::size_t kMaxBlockedShown = 50;
inline constexpr std::size_t kMaxBlockersShown = 10;
inline constexpr std::size_t kMaxGroupsShown = 100;

// task_load_context's token budget: the default, the least and the most.
inline constexpr std::size_t kDefaultContextTokens = 8000;
inline constexpr std::size_t kMinContextTokens = 500;
inline constexpr std::size_t kMaxContextTokens = 200000;
// Checkpoints task_load_context shows when recent_checkpoints is not given.
inline constexpr std::size_t kDefaultRecentCheckpoints = 5;
// A prior task's outcome summary, in bytes, unless prior_task_full.
inline constexpr std::size_t kOutcomeSummaryBytes = 280;

// Workflows a planning DAG cache keeps in memory (least recently used
// dropped first).
inline constexpr std::size_t kMaxCachedPlans = 16;
// When an agent should beat again (agent_heartbeat's next_heartbeat_ms,
// seed 003's 30 seconds), and how long an agent mission did not launch may
// stay silent (no heartbeat, no MCP call) before it counts as offline.
inline constexpr std::int64_t kAgentHeartbeatIntervalMs = 30000;
inline constexpr std::int64_t kAgentOfflineAfterMs = 3 * kAgentHeartbeatIntervalMs;

// message_wait answers as soon as a message arrives, or after its
// timeout_ms: this by default, and never longer than the maximum, which
// stays below the tool-call timeouts of MCP clients (60 s in the
// TypeScript SDK and in Codex).
inline constexpr std::int64_t kMessageWaitDefaultMs = 30000;
inline constexpr std::int64_t kMessageWaitMaxMs = 50000;
// Messages one message_wait answer carries; the rest follow its after_cursor.
inline constexpr std::size_t kMaxWaitMessages = 20;

// The notice of unread messages in a tool result: at most this many
// messages, each cut to this many bytes of its text.
inline constexpr std::size_t kMaxNoticeMessages = 5;
inline constexpr std::size_t kNoticeBodyChars = 500;

// Claims (docs/adr/0019): a claim held by an agent mission did not launch
// ends when that agent has given no sign of life (heartbeat, MCP call) for
// the lease time; the daemon looks for such claims this often.
inline constexpr std::int64_t kClaimLeaseMs = kAgentOfflineAfterMs;
inline constexpr std::int64_t kClaimSweepIntervalMs = 5000;
// Workspaces: the longest branch name mission takes, and how many active
// workspaces one conflict scan compares (pairwise, so at most n(n-1)/2
// trial merges).
inline constexpr std::size_t kMaxBranchNameBytes = 200;
inline constexpr std::size_t kMaxConflictWorkspaces = 24;
// task_get_available's default and largest page.
inline constexpr std::size_t kDefaultAvailableTasks = 10;
inline constexpr std::size_t kMaxAvailableTasks = 100;

// Messages message_list and `mission inbox` give when no limit is asked for.
inline constexpr std::size_t kDefaultMessageListLimit = 20;

// The control toolset (docs/adr/0025): a coordinator's own instructions in
// start_task_attempt and a follow_up prompt; get_attempt_patch's default
// and largest patch; the changed files get_attempt_changes lists; the
// log lines tail_attempt_logs gives by default and at most; the attempts
// get_task shows of a task.
inline constexpr std::size_t kMaxAttemptPromptBytes = 64 * 1024;
inline constexpr std::size_t kDefaultAttemptPatchBytes = 64 * 1024;
inline constexpr std::size_t kMaxAttemptPatchBytes = 256 * 1024;
inline constexpr std::size_t kMaxAttemptChangedFiles = 500;
inline constexpr std::size_t kDefaultAttemptLogLines = 50;
inline constexpr std::size_t kMaxAttemptLogLines = 500;
inline constexpr std::size_t kTaskAttemptsShown = 10;

// The --allow-write paths of one `mission run` or `mission workflows run`:
// each is one more kernel rule on every launch (docs/adr/0036).
inline constexpr std::size_t kMaxAllowedWrites = 16;

}  // namespace mission::limits
