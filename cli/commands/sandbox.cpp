// mission sandbox check [--adapter NAME] [--cwd DIR]: what the daemon's
// kernel lets it confine agents with, the profile an adapter's launch in
// DIR gets, and the proof: a confined child of the daemon's writes inside
// and outside that profile (docs/adr/0036). Fails when agents would run
// unconfined or the probe contradicts the profile.

#include <cstdio>
#include <memory>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"

namespace mission::cli {
namespace {

struct SandboxCheckOptions {
  std::string adapter = "generic";
  std::string cwd;
};

const char* yes_no(const nlohmann::json& object, const char* key) {
  return object.value(key, false) ? "yes" : "no";
}

void print_kernel(const nlohmann::json& result) {
  const nlohmann::json& kernel = result.at("kernel");
  const int abi = kernel.value("landlockAbi", 0);
  std::printf("%s\n", styled("kernel", Tone::bold).c_str());
  if (abi > 0) {
    std::printf("  landlock          ABI %d\n", abi);
  } else {
    std::printf("  landlock          %s: %s\n", styled("no", Tone::bad).c_str(),
                safe(kernel.value("landlockMissing", "")).c_str());
  }
  std::printf("  scoping           %s (signals, abstract sockets: ABI 6)\n",
              yes_no(kernel, "scoping"));
  std::printf("  network rules     %s (ABI 4)\n", yes_no(kernel, "networkRules"));
  std::printf("  no_new_privs      %s\n", yes_no(kernel, "noNewPrivs"));
  std::printf("  --network none    %s\n", safe(kernel.value("networkFilter", "")).c_str());
  std::printf("  user namespaces   %s\n", yes_no(kernel, "userNamespaces"));
  std::printf("  missiond policy   --sandbox %s\n", safe(result.value("policy", "")).c_str());
}

void print_list(const char* label, const nlohmann::json& items) {
  bool first = true;
  for (const auto& item : items) {
    std::printf("  %-17s %s\n", first ? label : "", safe(item.get<std::string>()).c_str());
    first = false;
  }
}

void print_profile(const nlohmann::json& result) {
  const nlohmann::json& profile = result.at("profile");
  std::printf("\n%s\n", styled("profile of a " + safe(result.value("adapter", "")) + " launch in " +
                                   safe(result.value("cwd", "")),
                               Tone::bold)
                            .c_str());
  print_list("writable", profile.value("writableTrees", nlohmann::json::array()));
  print_list("writable files", profile.value("writableFiles", nlohmann::json::array()));
  print_list("adapter state", profile.value("statePaths", nlohmann::json::array()));
  print_list("hidden", profile.value("hidden", nlohmann::json::array()));
  std::printf("  %-17s %s\n", "read-only", safe(profile.value("readOnly", "")).c_str());
  for (const auto& note : profile.value("notes", nlohmann::json::array()))
    std::printf("  %-17s %s\n", "note", safe(note.get<std::string>()).c_str());
  for (const auto& open : profile.value("notConfined", nlohmann::json::array())) {
    std::printf("  %-17s %s: %s\n", "not confined", safe(open.value("what", "")).c_str(),
                safe(open.value("why", "")).c_str());
  }
}

void print_probe(const nlohmann::json& result) {
  std::printf("\n%s\n",
              styled("probe (a child of the daemon, confined as an agent)", Tone::bold).c_str());
  for (const auto& write : result.value("probe", nlohmann::json::array())) {
    const bool written = write.value("written", false);
    const bool as_expected = (write.value("expected", "") == "written") == written;
    std::string outcome = written ? "written" : "refused (" + write.value("error", "") + ")";
    std::printf("  %-7s %-40s %s\n", write.value("inside", false) ? "inside" : "outside",
                styled(outcome, as_expected ? Tone::good : Tone::bad).c_str(),
                safe(write.value("path", "")).c_str());
  }
  for (const auto& read : result.value("readProbe", nlohmann::json::array())) {
    const bool was_read = read.value("read", false);
    const bool as_expected = (read.value("expected", "") == "read") == was_read;
    std::string outcome = was_read ? "read" : "refused (" + read.value("error", "") + ")";
    std::printf("  %-7s %-40s %s\n", read.value("hidden", false) ? "hidden" : "read",
                styled(outcome, as_expected ? Tone::good : Tone::bad).c_str(),
                safe(read.value("path", "")).c_str());
  }
}

int check_sandbox(const CliContext& context, const SandboxCheckOptions& options) {
  nlohmann::json params = {{"adapter", options.adapter},
                           {"cwd", CliContext::working_directory(options.cwd)},
                           {"env", CliContext::agent_environment({})}};
  nlohmann::json result = context.connect().client.call("sandbox.check", params);
  const bool confined = result.value("confined", false);
  const bool holds = result.value("holds", false);
  if (context.options.json) {
    print_json(result);
  } else {
    print_kernel(result);
    print_profile(result);
    print_probe(result);
  }
  if (!confined) {
    std::fprintf(stderr,
                 "mission sandbox check: agents run unconfined here, with all of your rights\n"
                 "  enable Landlock (Linux 5.13 or later, landlock in the lsm= boot parameter), "
                 "or start missiond with --sandbox require to refuse such launches\n");
    return kExitFailure;
  }
  if (!holds) {
    std::fprintf(stderr,
                 "mission sandbox check: the probe's writes or reads contradict the profile\n"
                 "  run agents with care, and report this output\n");
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

void define_sandbox_command(CLI::App& command, CliContext& context) {
  command.require_subcommand(1);
  auto options = std::make_shared<SandboxCheckOptions>();
  CLI::App* check_command = command.add_subcommand(
      "check",
      "What this kernel confines, an adapter's profile, and a confined probe's writes and reads");
  check_command
      ->add_option("--adapter", options->adapter, "The adapter whose launch to show (generic)")
      ->type_name("NAME");
  check_command->add_option("--cwd", options->cwd, "The launch's working directory (current)")
      ->type_name("DIR");
  check_command->callback([&context, options] {
    context.action = [&context, options] { return check_sandbox(context, *options); };
  });
}

}  // namespace mission::cli
