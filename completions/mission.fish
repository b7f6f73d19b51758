# fish completion for mission(1), generated from the command table by
# `mission completion fish`: regenerate it rather than edit it.

# The options that take a value, in any command: their value is no command.
set -g __mission_valued --socket --adapter --bin --delivery --toolsets --name --cwd --env --sandbox --network --allow-write --hide --prompt --allow --deny --policy --state --limit --cursor --after --execution --notify --agent-execution --http --task --include --phase --agent --since --format --mission --from --from-notes --output -o --commit --note --priority --choice --status --workflow --parallel --check --gate --gate-parallel --max-attempts --task-timeout --budget-tokens --budget-usd --run-budget-tokens --run-budget-usd --base --tokens --usd --into --from-issue --var --repository --max-parallel
# The commands whose arguments after -- are a command line of its own.
set -g __mission_with_command 'run' 'exec create' 'workflows run' 'workflows plan'
# __mission_subcommands PATH: the subcommands of the command PATH.
function __mission_subcommands
    switch "$argv[1]"
        case ''
            echo status daemon run adapters exec attach watch mcp missions tasks context report usage check export resolve inbox send answer agents workspaces workflows approve reject plan next progress templates board sandbox gc
        case 'daemon'
            echo start stop status run
        case 'adapters'
            echo list
        case 'exec'
            echo list show create stop logs signals instructions
        case 'mcp'
            echo connect config
        case 'missions'
            echo list show
        case 'workspaces'
            echo list conflicts clean
        case 'workflows'
            echo list show create rm run stop reset retry status budget diff land plan edit
        case 'templates'
            echo list show apply
        case 'sandbox'
            echo check
    end
end
# The command path of the line before the cursor ('' is mission itself,
# then 'exec', 'exec list'), followed by ' --' once the agent's command line
# has begun.
function __mission_path
    set -l tokens (commandline -opc)
    set -l node ''
    set -l skip 0
    for word in $tokens[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case --
                if contains -- "$node" $__mission_with_command
                    echo "$node --"
                    return
                end
            case '-*'
                contains -- $word $__mission_valued; and set skip 1
            case '*'
                if contains -- $word (string split ' ' -- (__mission_subcommands "$node"))
                    set node (string trim -- "$node $word")
                end
        end
    end
    echo "$node"
end
function __mission_at
    set -l node (__mission_path)
    test "$node" = "$argv[1]"
end
function __mission_in_command_line
    string match -q -- '* --' (__mission_path)
end
# The agent's command line after --, for __fish_complete_subcommand.
function __mission_after_dashdash
    set -l tokens (commandline -opc) (commandline -ct)
    if set -l i (contains -i -- -- $tokens)
        printf '%s\n' $tokens[(math $i + 1)..-1]
    end
end
# __mission_known KIND: the executions or workflows the daemon knows, ids
# then names; nothing, at once, when no daemon runs (mission __complete
# never starts one).
function __mission_known
    set -l tokens (commandline -opc)
    set -l socket
    if set -l i (contains -i -- --socket $tokens)
        set socket --socket $tokens[(math $i + 1)]
    end
    $tokens[1] $socket __complete $argv[1] 2>/dev/null
end
complete -c mission -f
complete -c mission -n __mission_in_command_line -a '(__fish_complete_subcommand --commandline (__mission_after_dashdash))'
complete -c mission -n '__mission_at '\'''\''' -a 'status' -d 'Show the daemon and what it tracks'
complete -c mission -n '__mission_at '\'''\''' -a 'daemon' -d 'Start, stop, inspect or run the daemon'
complete -c mission -n '__mission_at '\'''\''' -a 'run' -d 'Launch an agent command and follow it (-- CMD ARGS...)'
complete -c mission -n '__mission_at '\'''\''' -a 'adapters' -d 'List the agent adapters, their binaries and deliveries'
complete -c mission -n '__mission_at '\'''\''' -a 'exec' -d 'List, show, stop and follow agent executions'
complete -c mission -n '__mission_at '\'''\''' -a 'attach' -d 'Attach to an agent'\''s terminal (Ctrl-] detaches)'
complete -c mission -n '__mission_at '\'''\''' -a 'watch' -d 'Print executions'\'' events as they happen'
complete -c mission -n '__mission_at '\'''\''' -a 'mcp' -d 'Connect an MCP client to mission (stdio bridge)'
complete -c mission -n '__mission_at '\'''\''' -a 'missions' -d 'List and show the missions agents recorded'
complete -c mission -n '__mission_at '\'''\''' -a 'tasks' -d 'List a mission'\''s tasks with their change sets'
complete -c mission -n '__mission_at '\'''\''' -a 'context' -d 'Show a mission'\''s context as get_context gives it'
complete -c mission -n '__mission_at '\'''\''' -a 'report' -d 'Summarise a mission for a pull request (Markdown)'
complete -c mission -n '__mission_at '\'''\''' -a 'usage' -d 'Tokens and cost agents used, by workflow or execution (--since)'
complete -c mission -n '__mission_at '\'''\''' -a 'check' -d 'CI gate: fail on failed tasks, open blockers, scope'
complete -c mission -n '__mission_at '\'''\''' -a 'export' -d 'Write a mission'\''s record to git notes or a file for CI'
complete -c mission -n '__mission_at '\'''\''' -a 'resolve' -d 'Mark a blocker issue as reviewed by a person'
complete -c mission -n '__mission_at '\'''\''' -a 'inbox' -d 'What waits on you (questions, approvals, conflicts) and messages'
complete -c mission -n '__mission_at '\'''\''' -a 'send' -d 'Send a message to an agent execution (EXEC TEXT)'
complete -c mission -n '__mission_at '\'''\''' -a 'answer' -d 'Answer an execution'\''s open question (EXEC TEXT | --choice N)'
complete -c mission -n '__mission_at '\'''\''' -a 'agents' -d 'List the registered agents and whether they are alive'
complete -c mission -n '__mission_at '\'''\''' -a 'workspaces' -d 'List worktrees of tasks, their conflicts, clean them'
complete -c mission -n '__mission_at '\'''\''' -a 'workflows' -d 'List, show, run and stop planned workflows'
complete -c mission -n '__mission_at '\'''\''' -a 'approve' -d 'Approve the merge of a task a run waits on (--approve)'
complete -c mission -n '__mission_at '\'''\''' -a 'reject' -d 'Reject a task a run waits on, with a reason (TASK REASON)'
complete -c mission -n '__mission_at '\'''\''' -a 'plan' -d 'Draw a planned workflow'\''s task DAG (--format dot|mermaid)'
complete -c mission -n '__mission_at '\'''\''' -a 'next' -d 'The tasks of a planned workflow that can start now'
complete -c mission -n '__mission_at '\'''\''' -a 'progress' -d 'A planned workflow'\''s progress by sequence and group'
complete -c mission -n '__mission_at '\'''\''' -a 'templates' -d 'List, show and apply workflow templates'
complete -c mission -n '__mission_at '\'''\''' -a 'board' -d 'Serve the web board on loopback and print a sign-in link (--open)'
complete -c mission -n '__mission_at '\'''\''' -a 'sandbox' -d 'What confines agents here, and a probe that proves it (check)'
complete -c mission -n '__mission_at '\'''\''' -a 'gc' -d 'Free what the retention settings no longer keep (--dry-run)'
complete -c mission -n 'not __mission_in_command_line' -l help -s h -d 'Print this help message and exit'
complete -c mission -n 'not __mission_in_command_line' -l version -d 'Display program version information and exit'
complete -c mission -n 'not __mission_in_command_line' -l json -d 'Print one JSON document on stdout'
complete -c mission -n 'not __mission_in_command_line' -l socket -r -F -d 'Daemon socket (or $MISSION_SOCKET)'
complete -c mission -n 'not __mission_in_command_line' -l utc -d 'Show times in UTC instead of local time'
complete -c mission -n 'not __mission_in_command_line' -l no-autostart -d 'Exit 3 instead of starting the daemon'
complete -c mission -n '__mission_at '\''daemon'\''' -a 'start' -d 'Start missiond in the background, wait until ready'
complete -c mission -n '__mission_at '\''daemon'\''' -a 'stop' -d 'Stop missiond gracefully and wait for it to exit'
complete -c mission -n '__mission_at '\''daemon'\''' -a 'status' -d 'Show whether missiond runs (exit 3 if not)'
complete -c mission -n '__mission_at '\''daemon'\''' -a 'run' -d 'Run missiond in the foreground'
complete -c mission -n '__mission_at '\''daemon stop'\''' -l force -d 'Stop even while executions are active, without asking'
complete -c mission -n '__mission_at '\''run'\''' -l adapter -x -a 'claude-code codex copilot opencode pi acp claude-code-acp codex-acp generic' -d 'Agent adapter: claude-code, codex, copilot, opencode, pi, acp, generic (default)'
complete -c mission -n '__mission_at '\''run'\''' -l bin -r -F -d 'The adapter'\''s executable (default $MISSION_<ADAPTER>_BIN, else PATH)'
complete -c mission -n '__mission_at '\''run'\''' -l delivery -x -a 'mcp-tool stdout-marker' -d 'Signal delivery (default: the adapter'\''s preferred one)'
complete -c mission -n '__mission_at '\''run'\''' -l toolsets -x -a '(__fish_append , signals tracking legacy inspect planning templates coordination workspaces control)' -d 'MCP toolsets for mcp-tool delivery'
complete -c mission -n '__mission_at '\''run'\''' -l name -x -d 'A name to call the execution by instead of its id (exec show NAME, attach NAME)'
complete -c mission -n '__mission_at '\''run'\''' -l cwd -x -a '(__fish_complete_directories)' -d 'Working directory (default: current)'
complete -c mission -n '__mission_at '\''run'\''' -l env -x -a '(set -nx | string replace -r \'$\' =)' -d 'Set K=V in the agent'\''s environment (repeatable)'
complete -c mission -n '__mission_at '\''run'\''' -l detach -d 'Print the execution id and return at once'
complete -c mission -n '__mission_at '\''run'\''' -l tty -d 'Run the agent on a terminal of the daemon'\''s even when not on one (mission attach)'
complete -c mission -n '__mission_at '\''run'\''' -l no-tty -d 'Stream the output as lines even on a terminal'
complete -c mission -n '__mission_at '\''run'\''' -l keep-mcp-servers -d 'Keep the agent'\''s own MCP servers beside mission'\''s'
complete -c mission -n '__mission_at '\''run'\''' -l stdin-answers -d 'Write answers and messages to the command'\''s stdin, one line each (generic adapter)'
complete -c mission -n '__mission_at '\''run'\''' -l sandbox -x -a 'on off' -d 'on (default): the agent writes only its cwd, a private TMPDIR and its CLI'\''s state; off: with all your rights'
complete -c mission -n '__mission_at '\''run'\''' -l network -x -a 'on none' -d 'on (default), or none: the agent opens no network socket (Unix sockets stay)'
complete -c mission -n '__mission_at '\''run'\''' -l allow-write -r -F -d 'Let the confined agent write PATH too, a folder or file (repeatable)'
complete -c mission -n '__mission_at '\''run'\''' -l hide -r -F -d 'Hide PATH from the confined agent too, beside your secrets (repeatable)'
complete -c mission -n '__mission_at '\''run'\''' -l prompt -x -d 'The prompt of an ACP agent'\''s session (--adapter acp -- CMD ARGS...)'
complete -c mission -n '__mission_at '\''run'\''' -l keep-open -d 'Keep an ACP agent'\''s session open between turns (idle) for mission send, until mission exec stop'
complete -c mission -n '__mission_at '\''run'\''' -l allow -x -d 'Answer an ACP agent'\''s permission requests that PATTERN matches with allow (repeatable): KIND or KIND:GLOB, e.g. edit, '\''execute:git status*'\'''
complete -c mission -n '__mission_at '\''run'\''' -l deny -x -d 'Answer those PATTERN matches with reject, whatever --allow says (repeatable), e.g. '\''execute:rm *'\'''
complete -c mission -n '__mission_at '\''run'\''' -l policy -r -F -d 'Read allow and deny patterns from a TOML FILE too'
complete -c mission -n '__mission_at '\''adapters'\''' -a 'list' -d 'Each adapter: its binary and version, and the deliveries it supports'
complete -c mission -n '__mission_at '\''exec'\''' -a 'list' -d 'List agent executions, newest first'
complete -c mission -n '__mission_at '\''exec'\''' -a 'show' -d 'Show one execution and its MCP sessions'
complete -c mission -n '__mission_at '\''exec'\''' -a 'create' -d 'Create an execution to launch elsewhere; prints its id'
complete -c mission -n '__mission_at '\''exec'\''' -a 'stop' -d 'Stop an execution: SIGTERM to its process group, SIGKILL after 5 s'
complete -c mission -n '__mission_at '\''exec'\''' -a 'logs' -d 'Print an execution'\''s output (newest lines)'
complete -c mission -n '__mission_at '\''exec'\''' -a 'signals' -d 'List an execution'\''s observations and their acknowledgements'
complete -c mission -n '__mission_at '\''exec'\''' -a 'instructions' -d 'Print what to tell a stdout-marker agent'
complete -c mission -n '__mission_at '\''exec list'\''' -l state -x -a 'created launching running awaiting_input awaiting_permission idle blocked completed failed cancelled lost' -d 'Only executions in this state'
complete -c mission -n '__mission_at '\''exec list'\''' -l limit -x -d 'At most this many (default 50, at most 500)'
complete -c mission -n '__mission_at '\''exec list'\''' -l cursor -x -d 'Older ones: the cursor a list printed'
complete -c mission -n '__mission_at '\''exec show'\''' -l follow -s f -d 'Then print its events until it ends'
complete -c mission -n '__mission_at '\''exec show'\''' -a '(__mission_known executions)'
complete -c mission -n '__mission_at '\''exec create'\''' -l adapter -x -a 'claude-code codex copilot opencode pi acp claude-code-acp codex-acp generic' -d 'Agent adapter (default generic)'
complete -c mission -n '__mission_at '\''exec create'\''' -l delivery -x -a 'mcp-tool stdout-marker' -d 'Signal delivery (default mcp-tool)'
complete -c mission -n '__mission_at '\''exec create'\''' -l cwd -x -a '(__fish_complete_directories)' -d 'Working directory (default: current)'
complete -c mission -n '__mission_at '\''exec create'\''' -l toolsets -x -a '(__fish_append , signals tracking legacy inspect planning templates coordination workspaces control)' -d 'MCP toolsets (default: signals,tracking)'
complete -c mission -n '__mission_at '\''exec create'\''' -l print-token -d 'Also print the MCP session token (a secret: pass it as MISSION_MCP_TOKEN)'
complete -c mission -n '__mission_at '\''exec stop'\''' -l force -d 'SIGKILL at once'
complete -c mission -n '__mission_at '\''exec stop'\''' -a '(__mission_known executions)'
complete -c mission -n '__mission_at '\''exec logs'\''' -l follow -s f -d 'Keep printing new output until it ends'
complete -c mission -n '__mission_at '\''exec logs'\''' -l raw -d 'The output'\''s bytes as the agent wrote them, escape sequences included'
complete -c mission -n '__mission_at '\''exec logs'\''' -l after -x -d 'Only lines after line number N'
complete -c mission -n '__mission_at '\''exec logs'\''' -l cursor -x -d 'Page back: the lines before line C'
complete -c mission -n '__mission_at '\''exec logs'\''' -l limit -x -d 'At most N lines (default 100)'
complete -c mission -n '__mission_at '\''exec logs'\''' -a '(__mission_known executions)'
complete -c mission -n '__mission_at '\''exec signals'\''' -a '(__mission_known executions)'
complete -c mission -n '__mission_at '\''exec instructions'\''' -a '(__mission_known executions)'
complete -c mission -n '__mission_at '\''attach'\''' -l read-only -s r -d 'Watch only: the viewer that types keeps the keyboard'
complete -c mission -n '__mission_at '\''attach'\''' -a '(__mission_known executions)'
complete -c mission -n '__mission_at '\''watch'\''' -l execution -x -a '(__mission_known executions)' -d 'Only this execution'\''s events'
complete -c mission -n '__mission_at '\''watch'\''' -l notify -x -d 'Run CMD (with sh) when an execution needs input, is blocked or ends, or a run'\''s task has its outcome; default $MISSION_NOTIFY_CMD'
complete -c mission -n '__mission_at '\''mcp'\''' -a 'connect' -d 'Serve MCP on stdin/stdout for one agent execution (for MCP clients)'
complete -c mission -n '__mission_at '\''mcp'\''' -a 'config' -d 'Print the MCP server entry to paste into an agent'\''s own config'
complete -c mission -n '__mission_at '\''mcp connect'\''' -l agent-execution -x -a '(__mission_known executions)' -d 'Attach to this execution (token from $MISSION_MCP_TOKEN); without it, create one for the current directory'
complete -c mission -n '__mission_at '\''mcp connect'\''' -l toolsets -x -a '(__fish_append , signals tracking legacy inspect planning templates coordination workspaces control)' -d 'Toolsets of the execution created without --agent-execution'
complete -c mission -n '__mission_at '\''mcp config'\''' -l adapter -x -a 'claude-code codex copilot opencode pi acp claude-code-acp codex-acp generic' -d 'The agent: claude-code, codex, copilot, opencode or generic'
complete -c mission -n '__mission_at '\''mcp config'\''' -l agent-execution -x -a '(__mission_known executions)' -d 'For this execution (the agent supplies $MISSION_MCP_TOKEN); without it, each session makes its own'
complete -c mission -n '__mission_at '\''mcp config'\''' -l http -x -d 'The remote form: MCP over HTTP at URL/mcp/EXEC (missiond --http), the token from $MISSION_MCP_TOKEN; needs --agent-execution'
complete -c mission -n '__mission_at '\''mcp config'\''' -l add-json -d 'claude-code: print the `claude mcp add-json` command that adds it instead'
complete -c mission -n '__mission_at '\''missions'\''' -a 'list' -d 'List missions and workflows, newest first'
complete -c mission -n '__mission_at '\''missions'\''' -a 'show' -d 'Show a mission: phases, tasks, blockers'
complete -c mission -n '__mission_at '\''missions list'\''' -l cwd -x -a '(__fish_complete_directories)' -d 'Only those recorded in DIR or below it'
complete -c mission -n '__mission_at '\''missions list'\''' -l here -d 'Only those in the current directory or below it'
complete -c mission -n '__mission_at '\''missions list'\''' -l limit -x -d 'At most this many (default 50)'
complete -c mission -n '__mission_at '\''missions show'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''tasks'\''' -l task -x -d 'List every path this task changed (its id, a prefix or its name)'
complete -c mission -n '__mission_at '\''tasks'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''context'\''' -l include -x -a '(__fish_append , phase_summary tasks decisions milestones blockers)' -d 'Parts to show (default: all)'
complete -c mission -n '__mission_at '\''context'\''' -l phase -x -d 'Only this phase'
complete -c mission -n '__mission_at '\''context'\''' -l agent -x -d 'Only tasks of this agent_name'
complete -c mission -n '__mission_at '\''context'\''' -l since -x -d 'Only items since then: 2h, 3d, yesterday or an ISO 8601 time'
complete -c mission -n '__mission_at '\''context'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''report'\''' -l format -x -a 'markdown json' -d 'markdown (default) or json'
complete -c mission -n '__mission_at '\''report'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''usage'\''' -l since -x -d 'Only executions started since then: 2h, 3d, yesterday or an ISO 8601 time'
complete -c mission -n '__mission_at '\''usage'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''check'\''' -l mission -x -d 'Check this mission only (as ID)'
complete -c mission -n '__mission_at '\''check'\''' -l cwd -x -a '(__fish_complete_directories)' -d 'Check the missions in DIR or below, or the repository of --from-notes (default: current)'
complete -c mission -n '__mission_at '\''check'\''' -l from -r -F -d 'Check the records in FILE (mission export -o), no daemon'
complete -c mission -n '__mission_at '\''check'\''' -l from-notes -x -d 'Check the records in git notes on RANGE (default HEAD), no daemon'
complete -c mission -n '__mission_at '\''check'\''' -l allow-failed -d 'Failed tasks do not fail the check'
complete -c mission -n '__mission_at '\''check'\''' -l allow-blockers -d 'Open blockers do not fail the check'
complete -c mission -n '__mission_at '\''check'\''' -l allow-scope -d 'Changes outside areas do not fail the check'
complete -c mission -n '__mission_at '\''check'\''' -l allow-unfinished -d 'Tasks never started or completed, and runs under way, do not fail the check'
complete -c mission -n '__mission_at '\''export'\''' -l output -s o -r -F -d 'Write the record to FILE ('\''-'\'': stdout), not to git notes'
complete -c mission -n '__mission_at '\''export'\''' -l commit -x -d 'Commit that carries the note (default: a workflow run'\''s commits, else HEAD)'
complete -c mission -n '__mission_at '\''export'\''' -l cwd -x -a '(__fish_complete_directories)' -d 'Repository to write the note in (default: current)'
complete -c mission -n '__mission_at '\''export'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''resolve'\''' -l note -x -d 'What the review concluded'
complete -c mission -n '__mission_at '\''inbox'\''' -l all -d 'Read messages too, not only unread ones'
complete -c mission -n '__mission_at '\''inbox'\''' -l limit -x -d 'At most N messages (default 20)'
complete -c mission -n '__mission_at '\''send'\''' -l priority -x -a 'low normal high urgent' -d 'low, normal, high or urgent (default normal)'
complete -c mission -n '__mission_at '\''send'\''' -l no-enter -d 'Type the text into the agent without pressing Enter after it'
complete -c mission -n '__mission_at '\''send'\''' -a '(__mission_known executions)'
complete -c mission -n '__mission_at '\''answer'\''' -l choice -x -d 'Answer with the question'\''s Nth choice (1-based)'
complete -c mission -n '__mission_at '\''answer'\''' -l no-enter -d 'Type the answer into the agent without pressing Enter after it'
complete -c mission -n '__mission_at '\''answer'\''' -a '(__mission_known executions)'
complete -c mission -n '__mission_at '\''agents'\''' -l status -x -a '(__fish_append , online busy offline)' -d 'Only agents in these states (online,busy,offline)'
complete -c mission -n '__mission_at '\''workspaces'\''' -a 'list' -d 'List workspaces (all but removed), newest first'
complete -c mission -n '__mission_at '\''workspaces'\''' -a 'conflicts' -d 'Conflicts between running agents'\'' worktrees now, then files two active workspaces both change and whether their branches merge (WORKFLOW)'
complete -c mission -n '__mission_at '\''workspaces'\''' -a 'clean' -d 'Remove the worktrees mission made that are merged, abandoned or of ended workflows'
complete -c mission -n '__mission_at '\''workspaces list'\''' -l workflow -x -a '(__mission_known workflows)' -d 'Only this workflow'\''s (id, prefix, name or @last)'
complete -c mission -n '__mission_at '\''workspaces list'\''' -l status -x -a '(__fish_append , active merged abandoned removed)' -d 'Only these states (active,merged,abandoned,removed)'
complete -c mission -n '__mission_at '\''workspaces conflicts'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''workspaces clean'\''' -l workflow -x -a '(__mission_known workflows)' -d 'Only this workflow'\''s (id, prefix, name or @last)'
complete -c mission -n '__mission_at '\''workflows'\''' -a 'list' -d 'List planned workflows'
complete -c mission -n '__mission_at '\''workflows'\''' -a 'show' -d 'Show a planned workflow, its plan and tasks'
complete -c mission -n '__mission_at '\''workflows'\''' -a 'create' -d 'Create a planned workflow from a plan file (TOML or JSON)'
complete -c mission -n '__mission_at '\''workflows'\''' -a 'rm' -d 'Delete a workflow with its tasks and records (not while it runs)'
complete -c mission -n '__mission_at '\''workflows'\''' -a 'run' -d 'Run a workflow: agents on its ready tasks, checked, merged in order'
complete -c mission -n '__mission_at '\''workflows'\''' -a 'stop' -d 'Stop a workflow'\''s run; its tasks go back to ready'
complete -c mission -n '__mission_at '\''workflows'\''' -a 'reset' -d 'Put a workflow'\''s failed tasks (or one) back to ready, to run them again'
complete -c mission -n '__mission_at '\''workflows'\''' -a 'retry' -d 'Run a workflow again with its last run'\''s options, on what failed (or one task)'
complete -c mission -n '__mission_at '\''workflows'\''' -a 'status' -d 'Show a workflow'\''s last run: tasks, attempts, times'
complete -c mission -n '__mission_at '\''workflows'\''' -a 'budget' -d 'Set a task'\''s (or the run'\''s) token or cost budget; a task waiting at it goes on'
complete -c mission -n '__mission_at '\''workflows'\''' -a 'diff' -d 'Show a workflow run'\''s patch, or one task'\''s, through git diff'
complete -c mission -n '__mission_at '\''workflows'\''' -a 'land' -d 'Move the base branch to a finished run'\''s branch (fast-forward, or --merge)'
complete -c mission -n '__mission_at '\''workflows'\''' -a 'plan' -d 'Have an agent plan a new workflow for a goal; review, edit and run it after'
complete -c mission -n '__mission_at '\''workflows'\''' -a 'edit' -d 'Edit a workflow'\''s plan in $EDITOR as a plan file, before any task starts'
complete -c mission -n '__mission_at '\''workflows list'\''' -l limit -x -d 'At most this many (default 20)'
complete -c mission -n '__mission_at '\''workflows show'\''' -l follow -d 'Follow its run until it ends: a live board on a terminal, else a line per change'
complete -c mission -n '__mission_at '\''workflows show'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''workflows create'\''' -l from -r -F -d 'The plan file: .toml, .json, or - to read it from stdin (see PLAN FILES)'
complete -c mission -n '__mission_at '\''workflows create'\''' -l cwd -x -a '(__fish_complete_directories)' -d 'The workflow'\''s working directory (default: current)'
complete -c mission -n '__mission_at '\''workflows rm'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''workflows run'\''' -l adapter -x -a 'claude-code codex copilot opencode pi acp claude-code-acp codex-acp generic' -d 'Agent adapter: claude-code, codex, copilot, opencode, pi, acp, generic (default)'
complete -c mission -n '__mission_at '\''workflows run'\''' -l parallel -x -d 'Agents at once (default 1, most 32)'
complete -c mission -n '__mission_at '\''workflows run'\''' -l check -x -d 'Judge each task with CMD (sh -c in its worktree; exit 0 passes)'
complete -c mission -n '__mission_at '\''workflows run'\''' -l gate -x -d 'Before each merge lands, run CMD on the merged result; exit 0 lands it'
complete -c mission -n '__mission_at '\''workflows run'\''' -l gate-parallel -x -d 'Gate N prefixes of the merge queue at once (default 1, most 8)'
complete -c mission -n '__mission_at '\''workflows run'\''' -l max-attempts -x -d 'Attempts per task (default 3, most 10)'
complete -c mission -n '__mission_at '\''workflows run'\''' -l task-timeout -x -d 'Stop an agent after DUR (90s, 15m, 2h)'
complete -c mission -n '__mission_at '\''workflows run'\''' -l budget-tokens -x -d 'Each task may use N tokens over its attempts; then it waits for a raise'
complete -c mission -n '__mission_at '\''workflows run'\''' -l budget-usd -x -d 'Each task may cost X USD over its attempts; then it waits for a raise'
complete -c mission -n '__mission_at '\''workflows run'\''' -l run-budget-tokens -x -d 'The whole run may use N tokens; then its tasks wait for a raise'
complete -c mission -n '__mission_at '\''workflows run'\''' -l run-budget-usd -x -d 'The whole run may cost X USD; then its tasks wait for a raise'
complete -c mission -n '__mission_at '\''workflows run'\''' -l base -x -d 'Start the integration branch here (default HEAD)'
complete -c mission -n '__mission_at '\''workflows run'\''' -l env -x -a '(set -nx | string replace -r \'$\' =)' -d 'Set K=V in the agents'\'' environment (repeatable)'
complete -c mission -n '__mission_at '\''workflows run'\''' -l detach -d 'Print the run id and return; the daemon runs it'
complete -c mission -n '__mission_at '\''workflows run'\''' -l approve -d 'A person approves each merge: mission approve|reject TASK'
complete -c mission -n '__mission_at '\''workflows run'\''' -l sandbox -x -a 'on off' -d 'on (default): agents and checks write only their worktrees, a private TMPDIR and their CLI'\''s state; off: with all your rights'
complete -c mission -n '__mission_at '\''workflows run'\''' -l network -x -a 'on none' -d 'on (default), or none: the agents open no network socket; checks keep it'
complete -c mission -n '__mission_at '\''workflows run'\''' -l allow-write -r -F -d 'Let the confined agents and checks write PATH too (repeatable)'
complete -c mission -n '__mission_at '\''workflows run'\''' -l hide -r -F -d 'Hide PATH from the confined agents too, beside your secrets (repeatable)'
complete -c mission -n '__mission_at '\''workflows run'\''' -l allow -x -d 'Answer an ACP agent'\''s permission requests that PATTERN matches with allow (repeatable): KIND or KIND:GLOB, e.g. edit, '\''execute:git status*'\'''
complete -c mission -n '__mission_at '\''workflows run'\''' -l deny -x -d 'Answer those PATTERN matches with reject, whatever --allow says (repeatable), e.g. '\''execute:rm *'\'''
complete -c mission -n '__mission_at '\''workflows run'\''' -l policy -r -F -d 'Read allow and deny patterns from a TOML FILE too'
complete -c mission -n '__mission_at '\''workflows run'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''workflows stop'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''workflows reset'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''workflows retry'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''workflows status'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''workflows budget'\''' -l task -x -d 'This task'\''s budget (name or id); default: the run'\''s'
complete -c mission -n '__mission_at '\''workflows budget'\''' -l tokens -x -d 'Tokens its attempts may use together (200k, 2M)'
complete -c mission -n '__mission_at '\''workflows budget'\''' -l usd -x -d 'USD its agents may cost together'
complete -c mission -n '__mission_at '\''workflows budget'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''workflows diff'\''' -l stat -d 'Only the files and their changed lines'
complete -c mission -n '__mission_at '\''workflows diff'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''workflows land'\''' -l into -x -d 'The branch to land on (default: the run'\''s --base, else the checked-out branch)'
complete -c mission -n '__mission_at '\''workflows land'\''' -l merge -d 'When the base moved: merge the run'\''s branch into it if they merge cleanly'
complete -c mission -n '__mission_at '\''workflows land'\''' -l partial -d 'Land what merged though some tasks did not'
complete -c mission -n '__mission_at '\''workflows land'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''workflows plan'\''' -l from-issue -r -F -d 'Plan for the issue in this file (its first line names the workflow)'
complete -c mission -n '__mission_at '\''workflows plan'\''' -l workflow -x -a '(__mission_known workflows)' -d 'Plan this workflow, one none of whose tasks has started, instead of a new one (the goal defaults to its own)'
complete -c mission -n '__mission_at '\''workflows plan'\''' -l name -x -d 'The workflow'\''s name (default: the goal'\''s first line)'
complete -c mission -n '__mission_at '\''workflows plan'\''' -l adapter -x -a 'claude-code codex copilot opencode pi acp claude-code-acp codex-acp generic' -d 'The planning agent: claude-code, codex, copilot, opencode, pi, or generic with an MCP agent'\''s command after --'
complete -c mission -n '__mission_at '\''workflows plan'\''' -l bin -r -F -d 'The adapter'\''s executable (default $MISSION_<ADAPTER>_BIN, else PATH)'
complete -c mission -n '__mission_at '\''workflows plan'\''' -l delivery -x -a 'mcp-tool stdout-marker' -d 'Signal delivery (default: mcp-tool)'
complete -c mission -n '__mission_at '\''workflows plan'\''' -l cwd -x -a '(__fish_complete_directories)' -d 'The repository to plan in (default: current)'
complete -c mission -n '__mission_at '\''workflows plan'\''' -l env -x -a '(set -nx | string replace -r \'$\' =)' -d 'Set K=V in the agent'\''s environment (repeatable)'
complete -c mission -n '__mission_at '\''workflows plan'\''' -l sandbox -x -a 'on off' -d 'on (default): confined as under mission run; off: with all your rights'
complete -c mission -n '__mission_at '\''workflows plan'\''' -l detach -d 'Print the workflow'\''s and the agent'\''s ids and return at once'
complete -c mission -n '__mission_at '\''workflows edit'\''' -l from -r -F -d 'Apply this plan file (.toml, .json, or - for stdin) instead of an editor'
complete -c mission -n '__mission_at '\''workflows edit'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''plan'\''' -l format -x -a 'text dot mermaid' -d 'text (default), dot or mermaid'
complete -c mission -n '__mission_at '\''plan'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''next'\''' -l limit -x -d 'At most this many tasks (default and most: 50)'
complete -c mission -n '__mission_at '\''next'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''progress'\''' -a '(__mission_known workflows)'
complete -c mission -n '__mission_at '\''templates'\''' -a 'list' -d 'List workflow templates'
complete -c mission -n '__mission_at '\''templates'\''' -a 'show' -d 'Show a template: variables and tasks'
complete -c mission -n '__mission_at '\''templates'\''' -a 'apply' -d 'Create a planned workflow from a template'
complete -c mission -n '__mission_at '\''templates list'\''' -l limit -x -d 'At most this many (default 50)'
complete -c mission -n '__mission_at '\''templates apply'\''' -l var -x -d 'Give the template'\''s {{NAME}} a value (repeatable)'
complete -c mission -n '__mission_at '\''templates apply'\''' -l name -x -d 'The workflow'\''s name (default: the template'\''s)'
complete -c mission -n '__mission_at '\''templates apply'\''' -l repository -x -a '(__fish_complete_directories)' -d 'Register the workflow'\''s repository (a path)'
complete -c mission -n '__mission_at '\''templates apply'\''' -l max-parallel -x -d 'Tasks that may run at once (default 1)'
complete -c mission -n '__mission_at '\''templates apply'\''' -l cwd -x -a '(__fish_complete_directories)' -d 'The workflow'\''s working directory (default: current)'
complete -c mission -n '__mission_at '\''board'\''' -l open -d 'Open the link in a browser (xdg-open, with a display)'
complete -c mission -n '__mission_at '\''sandbox'\''' -a 'check' -d 'What this kernel confines, an adapter'\''s profile, and a confined probe'\''s writes and reads'
complete -c mission -n '__mission_at '\''sandbox check'\''' -l adapter -x -d 'The adapter whose launch to show (generic)'
complete -c mission -n '__mission_at '\''sandbox check'\''' -l cwd -x -a '(__fish_complete_directories)' -d 'The launch'\''s working directory (current)'
complete -c mission -n '__mission_at '\''gc'\''' -l dry-run -s n -d 'Only say what would be freed'
