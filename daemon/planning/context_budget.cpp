#include "daemon/planning/context_budget.hpp"

#include <algorithm>

namespace mission::daemon::planning {
namespace {

constexpr std::size_t kBytesPerToken = 4;
// A count as wide as any the answer can hold, so the reserved space of
// `omitted` and `token_estimate` never grows once filled in.
constexpr std::int64_t kWidestCount = 99999999;

constexpr const char* kOmittedKeys[] = {
    "checkpoint_details",  "prior_tasks", "source_text_chars", "siblings",
    "dependency_outcomes", "checkpoints", "shortened_texts"};

std::size_t bytes_of(const nlohmann::json& value) {
  return compact(value).size();
}

// The longest string inside `value` (objects and arrays searched), or null.
std::string* longest_string(nlohmann::json& value) {
  std::string* best = nullptr;
  auto visit = [&](auto& self, nlohmann::json& node) -> void {
    if (node.is_string()) {
      auto& text = node.get_ref<std::string&>();
      if (best == nullptr || text.size() > best->size()) best = &text;
    } else if (node.is_structured()) {
      for (auto& child : node) self(self, child);
    }
  };
  visit(visit, value);
  return best;
}

nlohmann::json assemble(const ContextParts& parts, const std::string& source,
                        const std::vector<nlohmann::json>& checkpoints, std::size_t prior_count,
                        const nlohmann::json& omitted) {
  nlohmann::json workflow = parts.workflow;
  workflow["source_summary"] = source;
  nlohmann::json current = parts.current_task;
  current["checkpoints"] = checkpoints;
  nlohmann::json out = {{"workflow", std::move(workflow)}, {"current_task", std::move(current)}};
  if (parts.include_prior) {
    nlohmann::json prior = nlohmann::json::array();
    for (std::size_t i = 0; i < prior_count; ++i) prior.push_back(parts.prior_tasks[i]);
    out["prior_tasks"] = std::move(prior);
  }
  if (parts.include_siblings) out["sibling_tasks"] = parts.siblings;
  if (parts.include_dependency_outcomes) out["dependency_outcomes"] = parts.dependency_outcomes;
  out["omitted"] = omitted;
  out["token_estimate"] = kWidestCount;
  return out;
}

}  // namespace

std::size_t estimate_tokens(std::string_view text) {
  return (text.size() + kBytesPerToken - 1) / kBytesPerToken;
}

std::size_t estimate_tokens(const nlohmann::json& value) {
  return estimate_tokens(std::string_view(compact(value)));
}

std::string compact(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string utf8_prefix(std::string_view text, std::size_t bytes) {
  if (bytes >= text.size()) return std::string(text);
  while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) --bytes;
  return std::string(text.substr(0, bytes));
}

nlohmann::json fit_context(ContextParts parts, std::size_t max_tokens) {
  const std::size_t budget = max_tokens * kBytesPerToken;
  nlohmann::json omitted = nlohmann::json::object();
  for (const char* name : kOmittedKeys) omitted[name] = kWidestCount;

  // Everything the cut order may drop is set aside: the older checkpoints'
  // details, every prior task, the source text.
  std::vector<nlohmann::json> checkpoints = parts.checkpoints;
  std::vector<nlohmann::json> details(checkpoints.size());
  for (std::size_t i = 0; i + 1 < checkpoints.size(); ++i) {
    if (checkpoints[i].contains("detail")) {
      details[i] = checkpoints[i]["detail"];
      checkpoints[i].erase("detail");
    }
  }
  std::int64_t siblings_cut = 0;
  std::int64_t dependencies_cut = 0;
  std::int64_t checkpoints_cut = 0;
  std::int64_t shortened = 0;
  std::size_t base = bytes_of(assemble(parts, "", checkpoints, 0, omitted));
  // Beyond the documented order: what must go for the rest to fit.
  while (base > budget) {
    if (!parts.siblings.empty()) {
      parts.siblings.pop_back();
      ++siblings_cut;
    } else if (!parts.dependency_outcomes.empty()) {
      parts.dependency_outcomes.pop_back();
      ++dependencies_cut;
    } else if (checkpoints.size() > 1) {
      checkpoints.erase(checkpoints.begin());
      details.erase(details.begin());
      ++checkpoints_cut;
    } else if (!checkpoints.empty() && checkpoints.back().contains("detail")) {
      checkpoints.back().erase("detail");
      ++checkpoints_cut;
    } else {
      nlohmann::json fixed = {{"w", parts.workflow}, {"t", parts.current_task}, {"c", checkpoints}};
      std::string* text = longest_string(fixed);
      if (text == nullptr || text->size() < 16) break;
      *text = utf8_prefix(*text, text->size() / 2) + "…";
      parts.workflow = fixed["w"];
      parts.current_task = fixed["t"];
      checkpoints = fixed["c"].get<std::vector<nlohmann::json>>();
      ++shortened;
    }
    base = bytes_of(assemble(parts, "", checkpoints, 0, omitted));
  }
  std::size_t room = base <= budget ? budget - base : 0;

  // 3 goes last: the source text is kept first.
  std::string source = parts.source_text;
  std::size_t source_cost = bytes_of(nlohmann::json(source)) - 2;
  if (source_cost > room) {
    std::size_t keep = room;
    // Escapes make the JSON longer than the text: shrink until it fits.
    while (true) {
      source = utf8_prefix(parts.source_text, keep);
      source_cost = bytes_of(nlohmann::json(source)) - 2;
      if (source_cost <= room || keep == 0) break;
      keep = keep > source_cost - room ? keep - (source_cost - room) : 0;
    }
  }
  room -= std::min(room, source_cost);
  // 2: prior tasks, newest first, while they fit.
  std::size_t prior_count = 0;
  if (parts.include_prior) {
    for (const auto& entry : parts.prior_tasks) {
      const std::size_t cost = bytes_of(entry) + 1;
      if (cost > room) break;
      room -= cost;
      ++prior_count;
    }
  }
  // 1: older checkpoints' details, newest first, while they fit.
  std::int64_t details_cut = 0;
  for (std::size_t i = checkpoints.size(); i-- > 0;) {
    if (details[i].is_null()) continue;
    nlohmann::json with = checkpoints[i];
    with["detail"] = details[i];
    const std::size_t cost = bytes_of(with) - bytes_of(checkpoints[i]);
    if (cost > room) {
      // Cut from the oldest: once one does not fit, the older ones go too.
      for (std::size_t j = 0; j <= i; ++j) details_cut += details[j].is_null() ? 0 : 1;
      break;
    }
    room -= cost;
    checkpoints[i] = std::move(with);
  }

  omitted = {
      {"checkpoint_details", details_cut},
      {"prior_tasks",
       static_cast<std::int64_t>(parts.include_prior ? parts.prior_tasks.size() - prior_count : 0)},
      {"source_text_chars", static_cast<std::int64_t>(parts.source_text.size() - source.size())},
      {"siblings", siblings_cut},
      {"dependency_outcomes", dependencies_cut},
      {"checkpoints", checkpoints_cut},
      {"shortened_texts", shortened}};
  nlohmann::json out = assemble(parts, source, checkpoints, prior_count, omitted);
  out["token_estimate"] = 0;
  std::size_t estimate = estimate_tokens(out);
  out["token_estimate"] = estimate;
  estimate = estimate_tokens(out);
  out["token_estimate"] = estimate;
  return out;
}

}  // namespace mission::daemon::planning
