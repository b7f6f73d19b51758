#include "daemon/sandbox/secret_paths.hpp"

#include <system_error>

#include "shared/error_code.hpp"

namespace mission::daemon::sandbox {
namespace {

constexpr SecretPath kSecretPaths[] = {
    // SSH private keys, and known_hosts naming every host the person reaches.
    {".ssh", ""},
    // GnuPG's private keys and its agent's socket folder.
    {".gnupg", ""},
    // AWS access keys (credentials) and SSO tokens (sso/cache).
    {".aws", ""},
    // Azure CLI's tokens (msal_token_cache.json) and service principals.
    {".azure", ""},
    // Google Cloud SDK's refresh tokens and application default credentials.
    {".config/gcloud", ""},
    // Kubernetes cluster certificates and bearer tokens.
    {".kube", ""},
    // Docker registry logins (auths, in base64).
    {".docker/config.json", ""},
    // Passwords for FTP and HTTP hosts, read by curl, git and ftp.
    {".netrc", ""},
    // git's credential store helper keeps passwords and tokens in clear.
    {".git-credentials", ""},
    // npm registry tokens (_authToken).
    {".npmrc", ""},
    // PyPI upload tokens.
    {".pypirc", ""},
    // pass(1)'s password store (encrypted, but with the names of every
    // account the person has).
    {".password-store", ""},
    // The GitHub CLI's OAuth token; Copilot CLI signs in with it.
    {".config/gh/hosts.yml", "copilot"},
    // Claude Code's OAuth login; its own launches need it.
    {".claude/.credentials.json", "claude-code"},
    // Claude Code's settings file, which holds an API key when one was
    // given at its first run (primaryApiKey).
    {".claude.json", "claude-code"},
    // Codex's login (an API key or ChatGPT tokens).
    {".codex/auth.json", "codex"},
    // OpenCode's provider keys and OAuth tokens.
    {".local/share/opencode/auth.json", "opencode"},
    // Copilot CLI's own login when no system keychain holds it.
    {".copilot/config.json", "copilot"},
    // Pi's provider keys and OAuth tokens.
    {".pi/agent/auth.json", "pi"},
    // Gemini CLI's OAuth tokens (no adapter of mission's runs it).
    {".gemini/oauth_creds.json", ""},
};

[[noreturn]] void refuse(const std::filesystem::path& path, const std::string& why,
                         const std::string& hint) {
  throw MissionError(ErrorCode::invalid_argument, "--hide " + path.string() + ": " + why, hint,
                     {{"field", "hide"}, {"path", path.string()}});
}

}  // namespace

std::vector<std::filesystem::path> secret_paths(const std::filesystem::path& home,
                                                std::string_view adapter) {
  std::vector<std::filesystem::path> paths;
  if (!home.is_absolute()) return paths;
  for (const SecretPath& secret : kSecretPaths) {
    if (!secret.owner.empty() && secret.owner == adapter) continue;
    paths.push_back((home / secret.home_relative).lexically_normal());
  }
  return paths;
}

void check_hidden_paths(const std::vector<std::filesystem::path>& paths) {
  if (paths.size() > kMaxHiddenPaths) {
    throw MissionError(
        ErrorCode::invalid_argument, std::to_string(paths.size()) + " --hide paths are too many",
        "give at most " + std::to_string(kMaxHiddenPaths) + ", or hide a folder that holds them",
        {{"field", "hide"}});
  }
  for (const std::filesystem::path& path : paths) {
    if (!path.is_absolute()) refuse(path, "is not absolute", "give the whole path, from /");
    std::error_code ec;
    const std::filesystem::path real = std::filesystem::canonical(path, ec);
    if (ec) refuse(path, "does not exist", "give a path that exists: there is nothing to hide");
    if (real == real.root_path()) {
      refuse(path, "is the root folder", "hide the folders that hold what the agent must not read");
    }
  }
}

std::string hidden_paths_note(const std::vector<std::filesystem::path>& paths) {
  std::string note;
  for (const auto& path : paths) note += (note.empty() ? ", also hides " : ", ") + path.string();
  return note;
}

}  // namespace mission::daemon::sandbox
