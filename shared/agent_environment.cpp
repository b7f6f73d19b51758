#include "shared/agent_environment.hpp"

#include <algorithm>

extern char** environ;

namespace mission {

bool is_execution_variable(std::string_view name) {
  return std::find(kExecutionVariables.begin(), kExecutionVariables.end(), name) !=
         kExecutionVariables.end();
}

std::map<std::string, std::string> without_execution_variables(
    std::map<std::string, std::string> env) {
  std::erase_if(env, [](const auto& entry) { return is_execution_variable(entry.first); });
  return env;
}

std::map<std::string, std::string> process_environment() {
  std::map<std::string, std::string> env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    std::string_view text(*entry);
    const std::size_t equals = text.find('=');
    if (equals == std::string_view::npos) continue;
    std::string name(text.substr(0, equals));
    if (!is_execution_variable(name))
      env.emplace(std::move(name), std::string(text.substr(equals + 1)));
  }
  return env;
}

}  // namespace mission
