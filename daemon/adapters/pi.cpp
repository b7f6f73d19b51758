// Pi (`pi`, @mariozechner/pi-coding-agent). No MCP client, by design: it
// reports through stdout markers, in print mode (--print), with the marker
// instructions appended to its system prompt from a file (its
// --append-system-prompt reads a file when given a path).

#include "daemon/adapters/adapter.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::adapters {
namespace {

constexpr Delivery kDeliveries[] = {Delivery::stdout_marker};

LaunchPlan prepare(const LaunchRequest& request) {
  LaunchPlan plan{{request.binary}, {}, {}, LaunchFiles(request.files_dir)};
  auto file = plan.files.write("mission-markers.md", request.marker_instructions());
  // --print first: it would take a following word that is not an option as
  // its prompt.
  plan.argv.push_back("--print");
  plan.argv.push_back("--append-system-prompt");
  plan.argv.push_back(file.string());
  plan.argv.insert(plan.argv.end(), request.arguments.begin(), request.arguments.end());
  return plan;
}

}  // namespace

// What its CLI writes under HOME.
constexpr StatePath kStatePaths[] = {{"", ".pi", "", true}};

extern const AgentAdapter kPiAdapter;
const AgentAdapter kPiAdapter = {
    "pi",
    "pi",
    {kDeliveries, Delivery::stdout_marker, Delivery::stdout_marker, {false, false, false}, false},
    prepare,
    nullptr,
    nullptr,
    nullptr,
    kStatePaths,
};

}  // namespace mission::daemon::adapters
