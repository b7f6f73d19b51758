// The words a workflow run gives each adapter's CLI around its one-shot
// prompt (docs/adr/0023, 0027): the leave to edit first, the user's words
// after `--` next (so theirs win), then the CLI's prompt form.

#include "daemon/runs/task_prompt.hpp"

#include <catch2/catch.hpp>

using mission::daemon::runs::prompt_arguments;
using Strings = std::vector<std::string>;

TEST_CASE(
    "a run gives Claude Code, Codex and Copilot CLI the leave to edit before the user's words and "
    "the prompt") {
  CHECK(prompt_arguments("claude-code", {"--model", "m"}, "P", false) ==
        Strings{"--permission-mode", "acceptEdits", "--model", "m", "-p", "P"});
  CHECK(prompt_arguments("codex", {"-c", "model=\"m\""}, "P", false) ==
        Strings{"-c", "sandbox_mode=\"workspace-write\"", "-c", "model=\"m\"", "exec", "P"});
  CHECK(prompt_arguments("copilot", {"--allow-tool=shell"}, "P", false) ==
        Strings{"--allow-tool=write", "--allow-tool=shell", "-p", "P"});
}

TEST_CASE("a Codex that mission confines is told to leave its own sandbox off") {
  CHECK(prompt_arguments("codex", {"-c", "model=\"m\""}, "P", true) ==
        Strings{"-c", "sandbox_mode=\"danger-full-access\"", "-c", "model=\"m\"", "exec", "P"});
  CHECK(prompt_arguments("claude-code", {}, "P", true) ==
        Strings{"--permission-mode", "acceptEdits", "-p", "P"});
}

TEST_CASE("the other adapters get only their prompt form, and generic the command as given") {
  CHECK(prompt_arguments("opencode", {"--pure"}, "P", false) == Strings{"--pure", "run", "P"});
  CHECK(prompt_arguments("pi", {"--no-session"}, "P", false) == Strings{"--no-session", "-p", "P"});
  CHECK(prompt_arguments("generic", {"/bin/true"}, "P", false) == Strings{"/bin/true"});
}
