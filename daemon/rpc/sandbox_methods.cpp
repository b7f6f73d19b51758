#include "daemon/rpc/sandbox_methods.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <optional>

#include "daemon/adapters/adapter_table.hpp"
#include "daemon/execution/agent_launch.hpp"
#include "daemon/sandbox/confinement.hpp"
#include "daemon/sandbox/confinement_probe.hpp"
#include "daemon/sandbox/kernel_support.hpp"
#include "daemon/sandbox/network_filter.hpp"
#include "daemon/sandbox/path_beneath.hpp"
#include "daemon/sandbox/private_temp.hpp"
#include "daemon/sandbox/profile.hpp"
#include "daemon/sandbox/sandbox_policy.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon {
namespace {

namespace fs = std::filesystem;

nlohmann::json paths_json(const std::vector<fs::path>& paths) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& path : paths) list.push_back(path.string());
  return list;
}

// A folder the daemon itself may write that no rule of `profile` covers:
// where the probe tries a write the profile must refuse. The state dir
// first (the daemon's own files), then HOME, then the cwd's parent.
std::optional<fs::path> outside_folder(const sandbox::Profile& profile,
                                       const std::vector<fs::path>& candidates) {
  for (const auto& candidate : candidates) {
    if (candidate.empty() || !candidate.is_absolute()) continue;
    std::error_code ec;
    if (!fs::is_directory(candidate, ec) || ::access(candidate.c_str(), W_OK) != 0) continue;
    bool covered = false;
    for (const auto& tree : profile.writable_trees)
      covered = covered || sandbox::beneath(candidate, tree);
    if (!covered) return candidate;
  }
  return std::nullopt;
}

// What the kernel leaves open under this profile, and why.
nlohmann::json not_confined(const sandbox::KernelSupport& support,
                            const sandbox::Profile& profile) {
  nlohmann::json list = nlohmann::json::array();
  auto add = [&list](const char* what, const std::string& why) {
    list.push_back({{"what", what}, {"why", why}});
  };
  if (support.landlock_abi == 0) add("writes", support.landlock_missing);
  if (support.landlock_abi == 0) {
    add("reads", "secrets not hidden: " + support.landlock_missing);
  } else if (!profile.secrets_not_hidden.empty()) {
    add("reads", "secrets not hidden: " + profile.secrets_not_hidden);
  }
  add("network", support.network_rules()
                     ? "mission does not restrict the network yet"
                     : "mission does not restrict the network yet, and this kernel's Landlock "
                       "has no network rules (ABI 4)");
  if (!support.scopes()) {
    add("signals",
        "the agent can signal and ptrace-attach to the daemon's other processes: scoping needs "
        "Landlock ABI 6");
  }
  if (support.landlock_abi > 0 && support.landlock_abi < 3) {
    add("truncation", "truncating a file outside the profile needs Landlock ABI 3");
  }
  return list;
}

std::optional<fs::path> first_existing(const std::vector<fs::path>& paths) {
  for (const auto& path : paths) {
    std::error_code ec;
    if (fs::exists(path, ec)) return path;
  }
  return std::nullopt;
}

std::string probe_name() {
  static std::atomic<unsigned> counter{0};
  return "sandbox-check-" + std::to_string(::getpid()) + "-" + std::to_string(++counter);
}

}  // namespace

void from_json(const nlohmann::json& j, SandboxCheckRequest& request) {
  request.adapter = j.value("adapter", std::string("generic"));
  request.cwd = j.at("cwd").get<std::string>();
  request.env = j.value("env", std::map<std::string, std::string>{});
}

nlohmann::json handle_sandbox_check(MethodContext& context, const SandboxCheckRequest& request) {
  const adapters::AgentAdapter& adapter = adapters::require_adapter(request.adapter);
  const fs::path cwd(request.cwd);
  std::error_code ec;
  if (!cwd.is_absolute() || !fs::is_directory(cwd, ec)) {
    throw MissionError(ErrorCode::invalid_argument,
                       "the working directory " + request.cwd + " is not an existing folder",
                       "give an absolute path to a folder with --cwd");
  }
  const sandbox::KernelSupport& support = sandbox::kernel_support();
  const RuntimePaths& paths = context.services.paths;

  const fs::path temp = sandbox::make_private_temp(paths.sandbox_temp_dir(), probe_name());
  // Not created here: a launch creates the missing folders, a check does not.
  // As a launch of the adapter sees its environment (acp's state folder).
  std::map<std::string, std::string> env = request.env;
  env[std::string(adapters::kAgentHomeVariable)] = paths.agent_home_dir(adapter.name).string();
  const std::vector<fs::path> state = execution::state_paths(adapter, env, false);
  sandbox::LaunchPlace place{cwd, temp, {}, state, {}, {}};
  place.hidden = execution::hidden_paths(paths, adapter.name, request.env, {});
  sandbox::Profile profile;
  std::vector<sandbox::ProbeOutcome> outcomes;
  std::vector<bool> inside;  // of each write target
  std::optional<fs::path> hidden;
  try {
    profile = sandbox::launch_profile(place);
    std::optional<sandbox::Confinement> rules;
    if (support.landlock_abi > 0) rules.emplace(profile, support);
    std::vector<fs::path> folders;
    // Inside: the working directory (when the person may write it at all)
    // and the private TMPDIR every launch gets.
    if (::access(cwd.c_str(), W_OK) == 0) {
      folders.push_back(cwd);
      inside.push_back(true);
    }
    folders.push_back(temp);
    inside.push_back(true);
    auto home = request.env.find("HOME");
    if (auto outside = outside_folder(
            profile,
            {paths.state_dir, home != request.env.end() ? fs::path(home->second) : fs::path(),
             cwd.parent_path()})) {
      folders.push_back(*outside);
      inside.push_back(false);
    }
    std::vector<sandbox::ProbeTarget> targets;
    for (const auto& folder : folders) targets.push_back({folder, sandbox::ProbeAccess::write});
    // Reads: the working directory stays readable; a hidden path that
    // exists (the daemon's own state dir always does) is refused.
    targets.push_back({cwd, sandbox::ProbeAccess::read});
    hidden = first_existing(profile.hidden);
    if (hidden) targets.push_back({*hidden, sandbox::ProbeAccess::read});
    outcomes = sandbox::probe_access(rules ? &*rules : nullptr, targets);
  } catch (...) {
    sandbox::remove_private_temp(temp);
    throw;
  }
  sandbox::remove_private_temp(temp);

  const bool confined = support.landlock_abi > 0;
  bool holds = true;
  nlohmann::json probe = nlohmann::json::array();
  nlohmann::json read_probe = nlohmann::json::array();
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const sandbox::ProbeOutcome& outcome = outcomes[i];
    if (outcome.access == sandbox::ProbeAccess::write) {
      const bool expected = inside[i] || !confined;
      holds = holds && outcome.allowed == expected;
      nlohmann::json entry = {{"path", outcome.file.string()},
                              {"inside", static_cast<bool>(inside[i])},
                              {"written", outcome.allowed},
                              {"expected", expected ? "written" : "refused"}};
      if (!outcome.allowed) entry["error"] = std::strerror(outcome.error);
      probe.push_back(std::move(entry));
      continue;
    }
    const bool is_hidden = hidden && outcome.file == *hidden;
    // A hidden path the kernel could not hide is said in notConfined, and
    // read by the probe as by an agent.
    const bool expected =
        !is_hidden || !confined ||
        profile.secrets_not_hidden.find(outcome.file.string()) != std::string::npos;
    holds = holds && outcome.allowed == expected;
    nlohmann::json entry = {{"path", outcome.file.string()},
                            {"hidden", is_hidden},
                            {"read", outcome.allowed},
                            {"expected", expected ? "read" : "refused"}};
    if (!outcome.allowed) entry["error"] = std::strerror(outcome.error);
    read_probe.push_back(std::move(entry));
  }
  nlohmann::json kernel = {{"landlockAbi", support.landlock_abi},
                           {"scoping", support.scopes()},
                           {"networkRules", support.network_rules()},
                           {"noNewPrivs", support.no_new_privs},
                           {"userNamespaces", support.user_namespaces},
                           {"networkFilter", sandbox::network_filter_support()}};
  if (!confined) kernel["landlockMissing"] = support.landlock_missing;
  return {{"kernel", std::move(kernel)},
          {"policy", sandbox::name_of(sandbox::policy())},
          {"confined", confined},
          {"adapter", adapter.name},
          {"cwd", cwd.string()},
          {"profile",
           {{"writableTrees", paths_json(profile.writable_trees)},
            {"writableFiles", paths_json(profile.writable_files)},
            {"hidden", paths_json(profile.hidden)},
            {"readOnly",
             confined ? "everything else: reads and execution stay open but beneath the hidden "
                        "paths, writes are refused"
                      : "nothing: the agent writes wherever you can"},
            {"statePaths", paths_json(state)},
            {"notes", profile.notes},
            {"notConfined", not_confined(support, profile)}}},
          {"probe", std::move(probe)},
          {"readProbe", std::move(read_probe)},
          {"holds", holds}};
}

}  // namespace mission::daemon
