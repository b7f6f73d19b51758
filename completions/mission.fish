# fish completion for mission(1)
complete -c mission -f
complete -c mission -l json -d 'Print one JSON document on stdout'
complete -c mission -l socket -r -F -d 'Daemon socket'
complete -c mission -l no-autostart -d 'Exit 3 instead of starting the daemon'
complete -c mission -s h -l help -d 'Print help'
complete -c mission -l version -d 'Print the version'
complete -c mission -n __fish_use_subcommand -a status -d 'Show the daemon and what it tracks'
complete -c mission -n __fish_use_subcommand -a daemon -d 'Start, stop, inspect or run the daemon'
complete -c mission -n __fish_use_subcommand -a exec -d 'List, show and create agent executions'
complete -c mission -n __fish_use_subcommand -a mcp -d 'Connect an MCP client to mission (stdio bridge)'
complete -c mission -n '__fish_seen_subcommand_from daemon; and not __fish_seen_subcommand_from start stop status run' -a start -d 'Start missiond in the background'
complete -c mission -n '__fish_seen_subcommand_from daemon; and not __fish_seen_subcommand_from start stop status run' -a stop -d 'Stop missiond gracefully'
complete -c mission -n '__fish_seen_subcommand_from daemon; and not __fish_seen_subcommand_from start stop status run' -a status -d 'Show whether missiond runs'
complete -c mission -n '__fish_seen_subcommand_from daemon; and not __fish_seen_subcommand_from start stop status run' -a run -d 'Run missiond in the foreground'

# mission exec list|show|create
complete -c mission -n '__fish_seen_subcommand_from exec; and not __fish_seen_subcommand_from list show create' -a list -d 'List agent executions, newest first'
complete -c mission -n '__fish_seen_subcommand_from exec; and not __fish_seen_subcommand_from list show create' -a show -d 'Show one execution and its MCP sessions'
complete -c mission -n '__fish_seen_subcommand_from exec; and not __fish_seen_subcommand_from list show create' -a create -d 'Create an execution to launch elsewhere'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from list' -l state -x -a 'created launching running awaiting_input blocked completed failed cancelled lost' -d 'Only executions in this state'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from list' -l limit -x -d 'At most this many (default 50)'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from create' -l adapter -x -d 'Agent adapter (default generic)'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from create' -l delivery -x -a 'mcp-tool stdout-marker' -d 'Signal delivery (default mcp-tool)'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from create' -l cwd -x -a '(__fish_complete_directories)' -d 'Working directory'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from create' -l toolsets -x -a signals -d 'MCP toolsets, comma-separated'
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from create' -l print-token -d 'Also print the MCP session token (a secret)'
# After `mission exec create ... --`: the agent's command line.
function __mission_after_dashdash
    set -l tokens (commandline -opc) (commandline -ct)
    if set -l i (contains -i -- -- $tokens)
        printf '%s\n' $tokens[(math $i + 1)..-1]
    end
end
complete -c mission -n '__fish_seen_subcommand_from exec; and __fish_seen_subcommand_from create; and contains -- -- (commandline -opc)' -a '(__fish_complete_subcommand --commandline (__mission_after_dashdash))'

# mission mcp connect
complete -c mission -n '__fish_seen_subcommand_from mcp; and not __fish_seen_subcommand_from connect' -a connect -d 'Serve MCP on stdin/stdout for one agent execution'
complete -c mission -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from connect' -l agent-execution -x -d 'Attach to this execution (token from $MISSION_MCP_TOKEN)'
complete -c mission -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from connect' -l toolsets -x -a signals -d 'Toolsets of the execution created without --agent-execution'
