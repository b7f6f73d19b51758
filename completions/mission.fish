# fish completion for mission(1)
complete -c mission -f
complete -c mission -l json -d 'Print one JSON document on stdout'
complete -c mission -l socket -r -F -d 'Daemon socket'
complete -c mission -l no-autostart -d 'Exit 3 instead of starting the daemon'
complete -c mission -s h -l help -d 'Print help'
complete -c mission -l version -d 'Print the version'
complete -c mission -n __fish_use_subcommand -a status -d 'Show the daemon and what it tracks'
complete -c mission -n __fish_use_subcommand -a daemon -d 'Start, stop, inspect or run the daemon'
complete -c mission -n __fish_use_subcommand -a run -d 'Launch an agent command and follow it'
complete -c mission -n __fish_use_subcommand -a adapters -d 'List the agent adapters, their binaries and deliveries'
complete -c mission -n __fish_use_subcommand -a exec -d 'List, show, stop and follow agent executions'
complete -c mission -n __fish_use_subcommand -a attach -d "Attach to an agent's terminal (Ctrl-] detaches)"
complete -c mission -n '__fish_seen_subcommand_from attach' -s r -l read-only -d 'Watch only'
complete -c mission -n __fish_use_subcommand -a watch -d "Print executions' events as they happen"
complete -c mission -n '__fish_seen_subcommand_from watch' -l execution -r -d "Only this execution's events"
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from show' -s f -l follow -d 'Then print its events until it ends'
complete -c mission -n __fish_use_subcommand -a mcp -d 'Connect an MCP client to mission (stdio bridge)'
complete -c mission -n __fish_use_subcommand -a missions -d 'List and show the missions agents recorded'
complete -c mission -n __fish_use_subcommand -a tasks -d "List a mission's tasks with their change sets"
complete -c mission -n __fish_use_subcommand -a context -d "Show a mission's context as get_context gives it"
complete -c mission -n __fish_use_subcommand -a report -d 'Summarise a mission for a pull request (Markdown)'
complete -c mission -n __fish_use_subcommand -a check -d 'CI gate: fail on failed tasks, open blockers, scope'
complete -c mission -n __fish_use_subcommand -a export -d 'Write a mission\'s record to git notes or a file for CI'
complete -c mission -n __fish_use_subcommand -a resolve -d 'Mark a blocker issue as reviewed by a person'
complete -c mission -n __fish_use_subcommand -a inbox -d 'Show the questions agents wait on and messages to you'
complete -c mission -n __fish_use_subcommand -a send -d 'Send a message to an agent execution'
complete -c mission -n __fish_use_subcommand -a answer -d "Answer an execution's open question"
complete -c mission -n __fish_use_subcommand -a agents -d 'List the registered agents and whether they are alive'
complete -c mission -n __fish_use_subcommand -a workspaces -d 'List worktrees of tasks, their conflicts, clean them'
complete -c mission -n __fish_use_subcommand -a workflows -d 'List and show planned workflows'
complete -c mission -n '__fish_seen_subcommand_from workflows; and not __fish_seen_subcommand_from list show' -a 'list show'
complete -c mission -n '__fish_seen_subcommand_from templates; and not __fish_seen_subcommand_from list show apply' -a 'list show apply'
complete -c mission -n '__fish_seen_subcommand_from templates; and __fish_seen_subcommand_from apply' -l var -r -d 'A template variable NAME=VALUE'
complete -c mission -n '__fish_seen_subcommand_from templates; and __fish_seen_subcommand_from apply' -l name -r -d 'The workflow name'
complete -c mission -n '__fish_seen_subcommand_from templates; and __fish_seen_subcommand_from apply' -l repository -r -a '(__fish_complete_directories)' -d 'Register the repository'
complete -c mission -n '__fish_seen_subcommand_from templates; and __fish_seen_subcommand_from apply' -l max-parallel -r -d 'Tasks at once'
complete -c mission -n '__fish_seen_subcommand_from templates; and __fish_seen_subcommand_from apply' -l cwd -r -a '(__fish_complete_directories)' -d 'Working directory'
complete -c mission -n __fish_use_subcommand -a plan -d "Draw a planned workflow's task DAG"
complete -c mission -n '__fish_seen_subcommand_from plan' -l format -r -a 'text dot mermaid' -d 'Picture format'
complete -c mission -n __fish_use_subcommand -a next -d 'The tasks of a planned workflow that can start now'
complete -c mission -n __fish_use_subcommand -a progress -d "A planned workflow's progress by sequence and group"
complete -c mission -n __fish_use_subcommand -a templates -d 'List, show and apply workflow templates'
complete -c mission -n __fish_use_subcommand -a gc -d 'Free what the retention settings no longer keep'
complete -c mission -n '__fish_seen_subcommand_from daemon; and not __fish_seen_subcommand_from start stop status run' -a start -d 'Start missiond in the background'
complete -c mission -n '__fish_seen_subcommand_from daemon; and not __fish_seen_subcommand_from start stop status run' -a stop -d 'Stop missiond gracefully'
complete -c mission -n '__fish_seen_subcommand_from daemon; and not __fish_seen_subcommand_from start stop status run' -a status -d 'Show whether missiond runs'
complete -c mission -n '__fish_seen_subcommand_from daemon; and not __fish_seen_subcommand_from start stop status run' -a run -d 'Run missiond in the foreground'

# After `mission run ... --` or `mission exec create ... --`: the agent's
# command line, completed as a command of its own.
function __mission_after_dashdash
    set -l tokens (commandline -opc) (commandline -ct)
    if set -l i (contains -i -- -- $tokens)
        printf '%s\n' $tokens[(math $i + 1)..-1]
    end
end
function __mission_no_dashdash
    not contains -- -- (commandline -opc)
end
# The command word (status, daemon, run, exec, mcp): the first word that is
# neither an option nor the value of --socket.
function __mission_command
    set -l tokens (commandline -opc)
    set -e tokens[1]
    while set -q tokens[1]
        switch $tokens[1]
            case --socket
                set -e tokens[1]
            case '-*'
            case '*'
                echo $tokens[1]
                return 0
        end
        set -e tokens[1]
    end
    return 1
end
function __mission_command_is
    test (__mission_command; or echo '') = $argv[1]
end
# The items of a list separated by commas (--toolsets, --include): each
# item not typed yet, after the ones already typed.
function __mission_list_items
    set -l head (string replace -r '[^,]*$' '' -- (commandline -ct))
    set -l typed (string split , -- $head)
    for item in $argv
        contains -- $item $typed; or echo $head$item
    end
end

# mission run [OPTIONS] -- CMD ARGS...
set -l run '__mission_command_is run; and __mission_no_dashdash'
set -l adapters 'claude-code codex copilot opencode pi generic'
complete -c mission -n $run -l adapter -x -a $adapters -d 'Agent adapter (default generic)'
complete -c mission -n $run -l bin -r -F -d "The adapter's executable"
complete -c mission -n $run -l delivery -x -a 'stdout-marker mcp-tool' -d "Signal delivery (default: the adapter's preferred)"
complete -c mission -n $run -l keep-mcp-servers -d "Keep the agent's own MCP servers beside mission's"
complete -c mission -n $run -l stdin-answers -d "Write answers and messages to the command's stdin"
complete -c mission -n $run -l toolsets -x -a '(__mission_list_items signals tracking legacy inspect planning templates coordination workspaces)' -d 'MCP toolsets, comma-separated'
complete -c mission -n $run -l cwd -x -a '(__fish_complete_directories)' -d 'Working directory'
complete -c mission -n $run -l env -x -a '(set -xn | string replace -r \'$\' =)' -d 'Set K=V in the agent environment (repeatable)'
complete -c mission -n $run -l detach -d 'Print the execution id and return at once'
complete -c mission -n '__mission_command_is run; and not __mission_no_dashdash' -a '(__fish_complete_subcommand --commandline (__mission_after_dashdash))'

# mission exec list|show|create|stop|logs|signals|instructions
set -l exec_actions list show create stop logs signals instructions
complete -c mission -n "__fish_seen_subcommand_from exec; and not __fish_seen_subcommand_from $exec_actions" -a list -d 'List agent executions, newest first'
complete -c mission -n "__fish_seen_subcommand_from exec; and not __fish_seen_subcommand_from $exec_actions" -a show -d 'Show one execution and its MCP sessions'
complete -c mission -n "__fish_seen_subcommand_from exec; and not __fish_seen_subcommand_from $exec_actions" -a create -d 'Create an execution to launch elsewhere'
complete -c mission -n "__fish_seen_subcommand_from exec; and not __fish_seen_subcommand_from $exec_actions" -a stop -d 'Stop an execution (SIGTERM, SIGKILL after 5 s)'
complete -c mission -n "__fish_seen_subcommand_from exec; and not __fish_seen_subcommand_from $exec_actions" -a logs -d "Print an execution's output"
complete -c mission -n "__fish_seen_subcommand_from exec; and not __fish_seen_subcommand_from $exec_actions" -a signals -d "List an execution's observations"
complete -c mission -n "__fish_seen_subcommand_from exec; and not __fish_seen_subcommand_from $exec_actions" -a instructions -d 'Print what to tell a stdout-marker agent'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from list' -l state -x -a 'created launching running awaiting_input blocked completed failed cancelled lost' -d 'Only executions in this state'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from list' -l limit -x -d 'At most this many (default 50)'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from list' -l cursor -x -d 'Older ones: the cursor a list printed'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from create' -l adapter -x -d 'Agent adapter (default generic)'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from create' -l delivery -x -a 'mcp-tool stdout-marker' -d 'Signal delivery (default mcp-tool)'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from create' -l cwd -x -a '(__fish_complete_directories)' -d 'Working directory'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from create' -l toolsets -x -a '(__mission_list_items signals tracking legacy inspect planning templates coordination workspaces)' -d 'MCP toolsets, comma-separated'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from create' -l print-token -d 'Also print the MCP session token (a secret)'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from create; and not __mission_no_dashdash' -a '(__fish_complete_subcommand --commandline (__mission_after_dashdash))'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from stop' -l force -d 'SIGKILL at once'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from logs' -s f -l follow -d 'Print new lines until the execution ends'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from logs' -l after -x -d 'Only lines after line N'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from logs' -l cursor -x -d 'Only lines before line C (page back)'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from logs' -l limit -x -d 'At most N lines (default 100)'

# mission adapters list
complete -c mission -n '__mission_command_is adapters; and not __fish_seen_subcommand_from list' -a list -d 'Each adapter, its binary and version, and its deliveries'

# mission mcp connect|config
complete -c mission -n '__fish_seen_subcommand_from mcp; and not __fish_seen_subcommand_from connect config' -a connect -d 'Serve MCP on stdin/stdout for one agent execution'
complete -c mission -n '__fish_seen_subcommand_from mcp; and not __fish_seen_subcommand_from connect config' -a config -d 'Print the MCP server entry to paste into an agent config'
complete -c mission -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from config' -l adapter -x -a $adapters -d 'The agent'
complete -c mission -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from config' -l agent-execution -x -d 'For this execution (token from the agent environment)'
complete -c mission -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from connect' -l agent-execution -x -d 'Attach to this execution (token from $MISSION_MCP_TOKEN)'
complete -c mission -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from connect' -l toolsets -x -a '(__mission_list_items signals tracking legacy inspect planning templates coordination workspaces)' -d 'Toolsets of the execution created without --agent-execution'

# mission missions list|show, tasks, context, report, check, resolve
complete -c mission -n '__mission_command_is missions; and not __fish_seen_subcommand_from list show' -a list -d 'List missions and workflows, newest first'
complete -c mission -n '__mission_command_is missions; and not __fish_seen_subcommand_from list show' -a show -d 'Show a mission: phases, tasks, blockers'
set -l missions_list '__mission_command_is missions; and __fish_seen_subcommand_from list'
complete -c mission -n $missions_list -l cwd -x -a '(__fish_complete_directories)' -d 'Only those recorded in DIR or below'
complete -c mission -n $missions_list -l here -d 'Only those in the current directory or below'
complete -c mission -n $missions_list -l limit -x -d 'At most this many (default 50)'
complete -c mission -n '__mission_command_is context' -l include -x -a '(__mission_list_items phase_summary tasks decisions milestones blockers)' -d 'Parts to show (default: all)'
complete -c mission -n '__mission_command_is context' -l phase -x -d 'Only this phase'
complete -c mission -n '__mission_command_is context' -l agent -x -d 'Only tasks of this agent_name'
complete -c mission -n '__mission_command_is context' -l since -x -d 'Only items since this ISO 8601 time'
complete -c mission -n '__mission_command_is report' -l format -x -a 'markdown json' -d 'Markdown (default) or JSON'
complete -c mission -n '__mission_command_is check' -l mission -x -d 'Check this mission only'
complete -c mission -n '__mission_command_is check' -l cwd -x -a '(__fish_complete_directories)' -d 'Check the missions in DIR or below'
complete -c mission -n '__mission_command_is check' -l from-notes -x -d 'Check the records in git notes on RANGE'
complete -c mission -n '__mission_command_is check' -l from -r -d 'Check the records in FILE'
complete -c mission -n '__mission_command_is check' -l allow-failed -d 'Failed tasks do not fail the check'
complete -c mission -n '__mission_command_is export' -l output -s o -r -d 'Write the record to FILE'
complete -c mission -n '__mission_command_is export' -l commit -x -d 'Commit that carries the note'
complete -c mission -n '__mission_command_is export' -l cwd -x -a '(__fish_complete_directories)' -d 'Repository to write the note in'
complete -c mission -n '__mission_command_is check' -l allow-blockers -d 'Open blockers do not fail the check'
complete -c mission -n '__mission_command_is check' -l allow-scope -d 'Changes outside areas do not fail the check'
complete -c mission -n '__mission_command_is resolve' -l note -x -d 'What the review concluded'
complete -c mission -n '__mission_command_is inbox' -l all -d 'Read messages too'
complete -c mission -n '__mission_command_is inbox' -l limit -x -d 'At most N messages'
complete -c mission -n '__mission_command_is send' -l priority -x -a 'low normal high urgent' -d 'Message priority'
complete -c mission -n '__mission_command_is answer' -l choice -x -d "Answer with the question's Nth choice"
complete -c mission -n '__mission_command_is agents' -l status -x -a 'online busy offline' -d 'Only agents in these states'
complete -c mission -n '__mission_command_is workspaces; and not __fish_seen_subcommand_from list conflicts clean' -x -a 'list conflicts clean'
complete -c mission -n '__mission_command_is workspaces; and __fish_seen_subcommand_from list clean' -l workflow -x -d 'Only this workflow'
complete -c mission -n '__mission_command_is workspaces; and __fish_seen_subcommand_from list' -l status -x -a 'active merged abandoned removed' -d 'Only these states'
complete -c mission -n '__mission_command_is tasks' -l task -x -d 'List every path this task changed'
complete -c mission -n '__mission_command_is gc' -s n -l dry-run -d 'Only say what would be freed'
