# fish completion for mission(1)
complete -c mission -f
complete -c mission -l json -d 'Print one JSON document on stdout'
complete -c mission -l socket -r -F -d 'Daemon socket'
complete -c mission -l no-autostart -d 'Exit 3 instead of starting the daemon'
complete -c mission -s h -l help -d 'Print help'
complete -c mission -l version -d 'Print the version'
complete -c mission -n __fish_use_subcommand -a status -d 'Show the daemon and what it tracks'
complete -c mission -n __fish_use_subcommand -a daemon -d 'Start, stop, inspect or run the daemon'
complete -c mission -n '__fish_seen_subcommand_from daemon; and not __fish_seen_subcommand_from start stop status run' -a start -d 'Start missiond in the background'
complete -c mission -n '__fish_seen_subcommand_from daemon; and not __fish_seen_subcommand_from start stop status run' -a stop -d 'Stop missiond gracefully'
complete -c mission -n '__fish_seen_subcommand_from daemon; and not __fish_seen_subcommand_from start stop status run' -a status -d 'Show whether missiond runs'
complete -c mission -n '__fish_seen_subcommand_from daemon; and not __fish_seen_subcommand_from start stop status run' -a run -d 'Run missiond in the foreground'
