#include "cli/completion_script.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <sstream>

#include "shared/vocabulary.hpp"

namespace mission::cli {

namespace {

// The adapters `--adapter` takes, as the daemon's adapter table names them
// (mission adapters list shows the same).
constexpr std::array<std::string_view, 9> kAdapterNames = {
    "claude-code", "codex",           "copilot",   "opencode", "pi",
    "acp",         "claude-code-acp", "codex-acp", "generic"};

// A value's kind from its type name, where no IsMember check lists the
// words: the one table that says what TYPE in `--option TYPE` completes to.
struct TypeHint {
  std::string_view type_name;
  ValueKind kind;
};
constexpr TypeHint kTypeHints[] = {
    {"EXEC", ValueKind::executions},   {"DIR", ValueKind::directories},
    {"FILE", ValueKind::files},        {"PATH", ValueKind::files},
    {"K=V", ValueKind::environment},   {"ADAPTER", ValueKind::words},
    {"TOOLSETS", ValueKind::list},     {"WF", ValueKind::workflows},
    {"MISSION", ValueKind::workflows},
};

// The words of an IsMember check: CLI11 describes it as "{a,b,c}".
std::vector<std::string> member_words(CLI::Option& option) {
  for (int i = 0;; ++i) {
    CLI::Validator* validator = nullptr;
    try {
      validator = option.get_validator(i);
    } catch (const CLI::OptionNotFound&) {
      return {};
    }
    const std::string description = validator->get_description();
    if (description.size() < 2 || description.front() != '{' || description.back() != '}') continue;
    std::vector<std::string> words;
    std::stringstream items(description.substr(1, description.size() - 2));
    for (std::string item; std::getline(items, item, ',');) words.push_back(item);
    return words;
  }
}

std::string base_type_name(const CLI::Option& option) {
  std::string type = option.get_type_name();
  // CLI11 appends the check's description ("D:{a,b}"); the name is before it.
  if (auto colon = type.find(':'); colon != std::string::npos) type.resize(colon);
  return type;
}

void classify(CLI::Option& option, CompletionOption& out) {
  const std::string type = base_type_name(option);
  out.words = member_words(option);
  if (!out.words.empty()) {
    out.kind = option.get_delimiter() != '\0' ? ValueKind::list : ValueKind::words;
    return;
  }
  for (const auto& hint : kTypeHints) {
    if (type != hint.type_name) continue;
    out.kind = hint.kind;
    if (type == "ADAPTER") out.words.assign(kAdapterNames.begin(), kAdapterNames.end());
    if (type == "TOOLSETS") {
      for (const auto& entry : vocabulary<Toolset>()) out.words.emplace_back(entry.name);
    }
    return;
  }
  if (option.get_positional() && !option.nonpositional() && type.ends_with("...")) {
    out.kind = ValueKind::command;
  }
}

void collect(CLI::App& app, const std::string& path, const std::set<std::string>& root_names,
             std::vector<CompletionCommand>& out) {
  CompletionCommand command;
  command.path = path;
  command.description = app.get_description();
  for (CLI::Option* option : app.get_options()) {
    if (option->get_group().empty()) continue;  // hidden
    CompletionOption entry;
    for (const auto& name : option->get_lnames()) entry.names.push_back("--" + name);
    for (const auto& name : option->get_snames()) entry.names.push_back("-" + name);
    entry.description = option->get_description();
    entry.takes_value = option->get_items_expected_max() > 0;
    if (entry.takes_value) classify(*option, entry);
    if (entry.names.empty()) {
      command.positionals.push_back(entry.kind);
      continue;
    }
    // The options of mission itself (--help, --json...) are offered at every
    // level once, not again as a command's own.
    if (!path.empty() && root_names.count(entry.names.front()) != 0) continue;
    command.options.push_back(std::move(entry));
  }
  auto subcommands = app.get_subcommands([](CLI::App* sub) { return !sub->get_group().empty(); });
  for (CLI::App* sub : subcommands)
    command.subcommands.emplace_back(sub->get_name(), sub->get_description());
  out.push_back(std::move(command));
  for (CLI::App* sub : subcommands) {
    collect(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), root_names, out);
  }
}

std::string kind_name(ValueKind kind) {
  switch (kind) {
    case ValueKind::none:
      return "none";
    case ValueKind::words:
      return "words";
    case ValueKind::list:
      return "list";
    case ValueKind::files:
      return "files";
    case ValueKind::directories:
      return "directories";
    case ValueKind::environment:
      return "environment";
    case ValueKind::executions:
      return "executions";
    case ValueKind::workflows:
      return "workflows";
    case ValueKind::command:
      return "command";
  }
  return "none";
}

std::string join(const std::vector<std::string>& items, std::string_view separator = " ") {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

// 'text' for sh, zsh and fish alike: a quote is closed, escaped, reopened.
std::string single_quoted(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// The descriptions shells show: the summary up to its first newline.
std::string one_line(std::string_view text) {
  return std::string(text.substr(0, text.find('\n')));
}

bool takes_command(const CompletionCommand& command) {
  return std::find(command.positionals.begin(), command.positionals.end(), ValueKind::command) !=
         command.positionals.end();
}

std::vector<std::string> option_names(const CompletionCommand& command) {
  std::vector<std::string> names;
  for (const auto& option : command.options)
    names.insert(names.end(), option.names.begin(), option.names.end());
  return names;
}

std::vector<std::string> subcommand_names(const CompletionCommand& command) {
  std::vector<std::string> names;
  for (const auto& [name, summary] : command.subcommands) names.push_back(name);
  return names;
}

std::vector<std::string> positional_kinds(const CompletionCommand& command) {
  std::vector<std::string> kinds;
  for (ValueKind kind : command.positionals) kinds.push_back(kind_name(kind));
  return kinds;
}

std::string header(std::string_view comment_lead, std::string_view shell) {
  const std::string lead(comment_lead);
  return lead + std::string(shell) +
         " completion for mission(1), generated from the command table by\n" + lead +
         "`mission completion " + std::string(shell) + "`: regenerate it rather than edit it.\n";
}

std::string bash_script(const std::vector<CompletionCommand>& model) {
  std::string out = header("# ", "bash");
  out +=
      "\n# __mission_node PATH: the subcommands, options and positional arguments\n"
      "# (their kinds) of the command PATH: '' is mission itself, then 'exec',\n"
      "# 'exec list'.\n"
      "__mission_node() {\n"
      "  case $1 in\n";
  for (const auto& command : model) {
    out += "    " + single_quoted(command.path) +
           ") subs=" + single_quoted(join(subcommand_names(command))) +
           " opts=" + single_quoted(join(option_names(command))) +
           " args=" + single_quoted(join(positional_kinds(command))) + " ;;\n";
  }
  out +=
      "    *) subs='' opts='' args='' ;;\n"
      "  esac\n"
      "}\n"
      "# __mission_value PATH OPTION: the kind of OPTION's value and its words;\n"
      "# kind is empty when OPTION takes no value.\n"
      "__mission_value() {\n"
      "  kind='' values=''\n"
      "  case \"$1|$2\" in\n";
  for (const auto& command : model) {
    for (const auto& option : command.options) {
      if (!option.takes_value) continue;
      for (const auto& name : option.names) {
        out +=
            "    " + single_quoted(command.path + "|" + name) + ") kind=" + kind_name(option.kind);
        if (!option.words.empty()) out += " values=" + single_quoted(join(option.words));
        out += " ;;\n";
      }
    }
  }
  out += R"SH(  esac
}
# __mission_known KIND: the executions or workflows the daemon knows, ids
# then names; nothing, at once, when no daemon runs (mission __complete
# never starts one).
__mission_known() {
  local listed
  listed=$("${words[0]}" ${socket:+--socket "$socket"} __complete "$1" 2>/dev/null) || true
  COMPREPLY=($(compgen -W "$listed" -- "$cur"))
}
# __mission_offer KIND WORDS: the completions of a value of that kind.
__mission_offer() {
  case $1 in
    words) COMPREPLY=($(compgen -W "$2" -- "$cur")) ;;
    list)
      # Items separated by commas: complete the one after the last comma,
      # among those not typed yet.
      local items=" $2 " head="" item
      [[ $cur == *,* ]] && head=${cur%,*},
      for item in ${head//,/ }; do items=${items/ $item / }; done
      COMPREPLY=($(compgen -P "$head" -W "$items" -- "${cur##*,}")) ;;
    files) compopt -o filenames 2>/dev/null || true; COMPREPLY=($(compgen -f -- "$cur")) ;;
    directories) compopt -o filenames 2>/dev/null || true; COMPREPLY=($(compgen -d -- "$cur")) ;;
    environment)
      # K=V: the names of the environment, then the value is free.
      if [[ $cur != *=* ]]; then
        COMPREPLY=($(compgen -e -S = -- "$cur"))
        compopt -o nospace 2>/dev/null || true
      fi ;;
    executions | workflows) __mission_known "$1" ;;
  esac
}
# __mission_command_line N: words from N on are a command line of their own
# (after `mission run --`): its command as bash completes a command word,
# commands on PATH or a path with a slash, then its arguments.
__mission_command_line() {
  if declare -F _command_offset >/dev/null; then
    _command_offset "$1"
    return
  fi
  if (($1 == cword)); then
    [[ -z $cur ]] && shopt -q no_empty_cmd_completion && return
    if [[ $cur == */* ]]; then
      compopt -o filenames 2>/dev/null || true
      COMPREPLY=($(compgen -f -- "$cur"))
    else
      COMPREPLY=($(compgen -c -- "$cur"))
    fi
  else
    compopt -o filenames 2>/dev/null || true
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
_mission() {
  local cur prev words cword
  _init_completion 2>/dev/null || {
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
  }
  local node='' subs opts args kind values globals word i positional=0
  local value_kind='' value_words='' socket=''
  __mission_node ''
  globals=$opts
  # A value split at "=" by readline (--env K=V): the value is free.
  [[ $cur == = || $prev == = ]] && return
  for ((i = 1; i < cword; i++)); do
    word=${words[i]}
    case $word in
      --)
        if [[ " $args " == *" command "* ]]; then
          __mission_command_line $((i + 1))
          return
        fi ;;
      =) i=$((i + 1)) ;;
      -*)
        __mission_value "$node" "$word"
        [[ -n $kind ]] || __mission_value '' "$word"
        if [[ -n $kind ]]; then
          [[ $word == --socket ]] && socket=${words[i + 1]}
          ((i + 1 == cword)) && value_kind=$kind value_words=$values
          i=$((i + 1))
        fi ;;
      *)
        if [[ " $subs " == *" $word "* ]]; then
          node=${node:+$node }$word
          positional=0
          __mission_node "$node"
        else
          positional=$((positional + 1))
        fi ;;
    esac
  done
  if [[ -n $value_kind ]]; then
    __mission_offer "$value_kind" "$value_words"
    return
  fi
  [[ -n $node ]] && opts="$opts $globals"
  local -a kinds=($args)
  local arg_kind=${kinds[positional]-}
  if [[ $cur != -* && -z $subs && ($arg_kind == executions || $arg_kind == workflows) ]]; then
    __mission_known "$arg_kind"
  else
    COMPREPLY=($(compgen -W "$subs $opts" -- "$cur"))
  fi
}
complete -F _mission mission
)SH";
  return out;
}

std::string zsh_script(const std::vector<CompletionCommand>& model) {
  std::string out = "#compdef mission\n" + header("# ", "zsh");
  out +=
      "\n# __mission_node PATH: the subcommands and options (name:description) and\n"
      "# the kinds of the positional arguments of the command PATH: '' is\n"
      "# mission itself, then 'exec', 'exec list'.\n"
      "__mission_node() {\n"
      "  case $1 in\n";
  for (const auto& command : model) {
    out += "    (" + single_quoted(command.path) + ")\n      subs=(";
    for (const auto& [name, summary] : command.subcommands)
      out += " " + single_quoted(name + ":" + one_line(summary));
    out += " )\n      opts=(";
    for (const auto& option : command.options) {
      for (const auto& name : option.names)
        out += " " + single_quoted(name + ":" + one_line(option.description));
    }
    out += " )\n      args=(" + join(positional_kinds(command)) + ") ;;\n";
  }
  out +=
      "    (*) subs=() opts=() args=() ;;\n"
      "  esac\n"
      "}\n"
      "# __mission_value PATH OPTION: the kind of OPTION's value and its words;\n"
      "# kind is empty when OPTION takes no value.\n"
      "__mission_value() {\n"
      "  kind= values=()\n"
      "  case \"$1|$2\" in\n";
  for (const auto& command : model) {
    for (const auto& option : command.options) {
      if (!option.takes_value) continue;
      for (const auto& name : option.names) {
        out +=
            "    (" + single_quoted(command.path + "|" + name) + ") kind=" + kind_name(option.kind);
        if (!option.words.empty()) out += " values=(" + join(option.words) + ")";
        out += " ;;\n";
      }
    }
  }
  out += R"SH(  esac
}
# __mission_known KIND: the executions or workflows the daemon knows, ids
# then names; nothing, at once, when no daemon runs (mission __complete
# never starts one).
__mission_known() {
  local -a listed
  listed=(${(f)"$(${words[1]} ${socket:+--socket} ${socket:+$socket} __complete $1 2>/dev/null)"})
  compadd -a listed
}
_mission() {
  local node= kind word socket= value_kind= arg_kind
  local -a subs opts args values value_words globals
  local -i i positional=0
  __mission_node ''
  globals=($opts)
  for ((i = 2; i < CURRENT; i++)); do
    word=$words[i]
    case $word in
      (--)
        if ((${args[(I)command]})); then
          # The agent's command line, completed as a command of its own.
          words=("${(@)words[i+1,-1]}")
          ((CURRENT -= i))
          _normal
          return
        fi ;;
      (-*)
        __mission_value "$node" "$word"
        [[ -n $kind ]] || __mission_value '' "$word"
        if [[ -n $kind ]]; then
          [[ $word == --socket ]] && socket=$words[i+1]
          if ((i + 1 == CURRENT)); then value_kind=$kind; value_words=($values); fi
          ((i++))
        fi ;;
      (*)
        if ((${subs[(I)${(b)word}:*]})); then
          node=${node:+$node }$word
          positional=0
          __mission_node "$node"
        else
          ((positional++))
        fi ;;
    esac
  done
  case $value_kind in
    (words) compadd -a value_words; return ;;
    (list) _values -s , value $value_words; return ;;
    (files) _files; return ;;
    (directories) _files -/; return ;;
    (environment)
      [[ $PREFIX == *=* ]] || compadd -S = -- ${(k)parameters[(R)*export*]}
      return ;;
    (executions|workflows) __mission_known $value_kind; return ;;
    (?*) _message value; return ;;
  esac
  arg_kind=${args[positional+1]}
  if [[ $PREFIX != -* && $#subs -eq 0 && ($arg_kind == executions || $arg_kind == workflows) ]]; then
    __mission_known $arg_kind
  elif [[ $PREFIX == -* ]]; then
    if [[ -n $node ]]; then
      _describe -t options option opts -- globals
    else
      _describe -t options option globals
    fi
  elif (($#subs)); then
    _describe -t commands command subs
  fi
}
_mission "$@"
)SH";
  return out;
}

std::string fish_condition(const std::string& path) {
  return "__mission_at " + single_quoted(path);
}

std::string fish_value_arguments(const CompletionOption& option) {
  switch (option.kind) {
    case ValueKind::words:
      return " -x -a " + single_quoted(join(option.words));
    case ValueKind::list:
      return " -x -a " + single_quoted("(__fish_append , " + join(option.words) + ")");
    case ValueKind::files:
      return " -r -F";
    case ValueKind::directories:
      return " -x -a '(__fish_complete_directories)'";
    case ValueKind::environment:
      return " -x -a '(set -nx | string replace -r \\'$\\' =)'";
    case ValueKind::executions:
      return " -x -a '(__mission_known executions)'";
    case ValueKind::workflows:
      return " -x -a '(__mission_known workflows)'";
    case ValueKind::none:
    case ValueKind::command:
      return " -x";
  }
  return " -x";
}

std::string fish_script(const std::vector<CompletionCommand>& model) {
  std::string out = header("# ", "fish");
  std::set<std::string> valued_set;
  std::vector<std::string> valued;
  std::vector<std::string> with_command;
  for (const auto& command : model) {
    if (takes_command(command)) with_command.push_back(single_quoted(command.path));
    for (const auto& option : command.options) {
      if (!option.takes_value) continue;
      for (const auto& name : option.names) {
        if (valued_set.insert(name).second) valued.push_back(name);
      }
    }
  }
  out += "\n# The options that take a value, in any command: their value is no command.\n";
  out += "set -g __mission_valued " + join(valued) + "\n";
  out += "# The commands whose arguments after -- are a command line of its own.\n";
  out += "set -g __mission_with_command " + join(with_command) + "\n";
  out +=
      "# __mission_subcommands PATH: the subcommands of the command PATH.\n"
      "function __mission_subcommands\n"
      "    switch \"$argv[1]\"\n";
  for (const auto& command : model) {
    if (command.subcommands.empty()) continue;
    out += "        case " + single_quoted(command.path) + "\n            echo " +
           join(subcommand_names(command)) + "\n";
  }
  out += R"SH(    end
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
)SH";
  for (const auto& command : model) {
    const std::string condition = " -n " + single_quoted(fish_condition(command.path));
    for (const auto& [name, summary] : command.subcommands) {
      out += "complete -c mission" + condition + " -a " + single_quoted(name) + " -d " +
             single_quoted(one_line(summary)) + "\n";
    }
    for (const auto& option : command.options) {
      // mission's own options apply everywhere; a command's only under it.
      out +=
          "complete -c mission" +
          (command.path.empty() ? std::string(" -n 'not __mission_in_command_line'") : condition);
      for (const auto& name : option.names) {
        out += name.starts_with("--") ? " -l " + name.substr(2) : " -s " + name.substr(1);
      }
      if (option.takes_value) out += fish_value_arguments(option);
      out += " -d " + single_quoted(one_line(option.description)) + "\n";
    }
    if (!command.positionals.empty() && (command.positionals.front() == ValueKind::executions ||
                                         command.positionals.front() == ValueKind::workflows)) {
      out += "complete -c mission" + condition + " -a '(__mission_known " +
             kind_name(command.positionals.front()) + ")'\n";
    }
  }
  return out;
}

}  // namespace

std::vector<CompletionCommand> completion_model(CLI::App& root) {
  std::set<std::string> root_names;
  for (const CLI::Option* option : root.get_options()) {
    for (const auto& name : option->get_lnames()) root_names.insert("--" + name);
    for (const auto& name : option->get_snames()) root_names.insert("-" + name);
  }
  std::vector<CompletionCommand> model;
  collect(root, "", root_names, model);
  return model;
}

std::optional<std::string> completion_script(std::string_view shell, CLI::App& root) {
  const auto model = completion_model(root);
  if (shell == "bash") return bash_script(model);
  if (shell == "zsh") return zsh_script(model);
  if (shell == "fish") return fish_script(model);
  return std::nullopt;
}

}  // namespace mission::cli
