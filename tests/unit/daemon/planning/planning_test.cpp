// Planned work (docs/adr/0015): the DAG refuses cycles and unknown names,
// next_tasks offers only tasks whose prerequisites are done, ranked by the
// critical path, and context never exceeds its token budget. Random DAGs
// check the properties; an oracle reads the plan's definition directly.

#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>

#include "daemon/planning/context_budget.hpp"
#include "daemon/planning/dag.hpp"
#include "daemon/planning/plan_state.hpp"
#include "daemon/planning/templates.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/schema_registry.hpp"

using namespace mission;
using namespace mission::daemon::planning;
using nlohmann::json;

namespace {

std::string name_of_node(std::size_t i) {
  return "t" + std::to_string(i);
}

// A random plan: sequences 0..stages-1; some tasks name earlier tasks (by
// sequence) in depends_on, others rely on the sequence order.
std::vector<PlanEntry> random_plan(std::mt19937& rng, std::size_t n) {
  std::vector<PlanEntry> entries(n);
  std::uniform_int_distribution<int> stages(0, static_cast<int>(n / 3 + 1));
  for (std::size_t i = 0; i < n; ++i) {
    entries[i].name = name_of_node(i);
    entries[i].sequence = stages(rng);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (rng() % 3 == 0) continue;  // sequence order only
    const std::size_t count = rng() % 4;
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t j = rng() % n;
      // Only lower sequences, or a lower index in the same one: acyclic.
      if (entries[j].sequence < entries[i].sequence ||
          (entries[j].sequence == entries[i].sequence && j < i)) {
        entries[i].depends_on.push_back(entries[j].name);
      }
    }
  }
  return entries;
}

// The oracle: the prerequisites of a task straight from the ADR's words.
std::set<std::string> prerequisites_by_definition(const std::vector<PlanEntry>& entries,
                                                  std::size_t i) {
  std::set<std::string> out(entries[i].depends_on.begin(), entries[i].depends_on.end());
  if (!out.empty()) return out;
  std::optional<std::int64_t> previous;
  for (const auto& entry : entries) {
    if (entry.sequence < entries[i].sequence && (!previous || entry.sequence > *previous))
      previous = entry.sequence;
  }
  for (const auto& entry : entries) {
    if (previous && entry.sequence == *previous) out.insert(entry.name);
  }
  return out;
}

PlanState state_of(const std::vector<PlanEntry>& entries, std::mt19937& rng,
                   std::int64_t max_parallel) {
  PlanState state;
  state.workflow_id = "wf-test";
  state.workflow_status = MissionStatus::in_progress;
  state.max_parallel_tasks = max_parallel;
  state.dag = resolve_plan(entries);
  const TaskStatus statuses[] = {TaskStatus::pending,     TaskStatus::pending, TaskStatus::success,
                                 TaskStatus::in_progress, TaskStatus::failed,  TaskStatus::skipped};
  for (std::size_t i = 0; i < entries.size(); ++i) {
    PlanTask task;
    task.id = "id-" + entries[i].name;
    task.name = entries[i].name;
    task.sequence = entries[i].sequence;
    task.status = statuses[rng() % 6];
    if (rng() % 2 == 0) task.files = {"f" + std::to_string(rng() % 5)};
    const bool claimable = task.status == TaskStatus::pending || task.status == TaskStatus::failed;
    if (claimable && rng() % 4 == 0) task.claimed_by = "ex-" + std::to_string(i);
    state.tasks.push_back(std::move(task));
  }
  state.index();
  return state;
}

}  // namespace

TEST_CASE(
    "random DAGs: next_tasks never offers a task with an unfinished prerequisite, nor a claimed "
    "one") {
  std::mt19937 rng(20261125);
  for (int round = 0; round < 300; ++round) {
    const std::size_t n = 1 + rng() % 40;
    auto entries = random_plan(rng, n);
    PlanState state = state_of(entries, rng, 1 + static_cast<std::int64_t>(rng() % 4));
    json answer = next_tasks(state, {true, 50}, KeyStyle::snake);
    std::size_t recommended = 0;
    std::size_t in_progress = 0;  // and claimed: both hold a slot
    for (const auto& task : state.tasks) {
      in_progress += task.status == TaskStatus::in_progress || task.claimed_by ? 1 : 0;
    }
    for (const auto& offered : answer["tasks"]) {
      const std::string name = offered["name"];
      const std::size_t i = std::stoul(name.substr(1));
      INFO("round " << round << " task " << name);
      CHECK((state.tasks[i].status == TaskStatus::pending ||
             state.tasks[i].status == TaskStatus::failed));
      CHECK_FALSE(state.tasks[i].claimed_by);
      for (const auto& prerequisite : prerequisites_by_definition(entries, i)) {
        const std::size_t j = std::stoul(prerequisite.substr(1));
        CHECK(is_done(state.tasks[j].status));
      }
      if (offered["recommended"].get<bool>()) ++recommended;
    }
    // Every ready task by the definition is offered (up to the limit).
    std::size_t ready = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const auto status = state.tasks[i].status;
      if (status != TaskStatus::pending && status != TaskStatus::failed) continue;
      if (state.tasks[i].claimed_by) continue;
      bool ok = true;
      for (const auto& prerequisite : prerequisites_by_definition(entries, i)) {
        ok = ok && is_done(state.tasks[std::stoul(prerequisite.substr(1))].status);
      }
      ready += ok ? 1 : 0;
    }
    CHECK(answer["available_count"] == ready);
    // Never more than the free slots.
    const std::size_t slots = state.max_parallel_tasks > static_cast<std::int64_t>(in_progress)
                                  ? state.max_parallel_tasks - in_progress
                                  : 0;
    CHECK(recommended <= slots);
    CHECK(answer["recommended_count"] == recommended);
  }
}

TEST_CASE("random DAGs: every cycle is refused and named") {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    const std::size_t n = 2 + rng() % 30;
    auto entries = random_plan(rng, n);
    // Close a cycle: a chain a -> b -> ... back to a through depends_on.
    const std::size_t length = 1 + rng() % std::min<std::size_t>(n - 1, 5);
    std::vector<std::size_t> chain;
    std::set<std::size_t> used;
    while (chain.size() <= length) {
      std::size_t pick = rng() % n;
      if (used.insert(pick).second) chain.push_back(pick);
    }
    for (std::size_t k = 0; k + 1 < chain.size(); ++k)
      entries[chain[k]].depends_on.push_back(entries[chain[k + 1]].name);
    entries[chain.back()].depends_on.push_back(entries[chain.front()].name);
    INFO("round " << round);
    try {
      resolve_plan(entries);
      FAIL("a cycle was accepted");
    } catch (const MissionError& e) {
      CHECK(e.code() == ErrorCode::invalid_argument);
      const json cycle = e.details().at("cycle");
      REQUIRE(cycle.size() >= 2);
      CHECK(cycle.front() == cycle.back());
      // Each named task depends on the next, by its depends_on or its sequence.
      for (std::size_t k = 0; k + 1 < cycle.size(); ++k) {
        const std::size_t i = std::stoul(cycle[k].get<std::string>().substr(1));
        CHECK(prerequisites_by_definition(entries, i).count(cycle[k + 1]) == 1);
      }
      CHECK(std::string(e.what()).find(" -> ") != std::string::npos);
    }
  }
}

TEST_CASE("a dependency on an unknown name is refused with the name") {
  std::vector<PlanEntry> entries = {{"build", 0, {}}, {"test", 1, {"biuld"}}};
  try {
    resolve_plan(entries);
    FAIL("accepted");
  } catch (const MissionError& e) {
    CHECK(e.details().at("unknown") == "biuld");
    CHECK(std::string(e.what()).find("'biuld'") != std::string::npos);
  }
  std::vector<PlanEntry> twice = {{"a", 0, {}}, {"a", 1, {}}};
  CHECK_THROWS_AS(resolve_plan(twice), MissionError);
}

TEST_CASE("sequence orders tasks without depends_on, and depends_on overrides it") {
  // a, b in 1; c in 2 (no depends_on: waits for a and b); d in 2 depends
  // only on a; e in 3 waits for c and d.
  std::vector<PlanEntry> entries = {
      {"a", 1, {}}, {"b", 1, {}}, {"c", 2, {}}, {"d", 2, {"a"}}, {"e", 3, {}}};
  Dag dag = resolve_plan(entries);
  auto names = [&](Node node) {
    std::set<std::string> out;
    for (Node p : dag.prerequisites(node)) out.insert(entries[p].name);
    return out;
  };
  CHECK(names(0).empty());
  CHECK(names(1).empty());
  CHECK(names(2) == std::set<std::string>{"a", "b"});
  CHECK(names(3) == std::set<std::string>{"a"});
  CHECK(names(4) == std::set<std::string>{"c", "d"});
  CHECK(dag.ancestors(4) == std::vector<Node>{0, 1, 2, 3});
}

TEST_CASE(
    "next_tasks ranks by the critical path, then plan order, and keeps overlapping files apart") {
  // x leads a chain of three; y and z are leaves. All ready.
  std::vector<PlanEntry> entries = {
      {"y", 0, {}}, {"x", 0, {}}, {"z", 0, {}}, {"x2", 1, {"x"}}, {"x3", 2, {"x2"}}};
  PlanState state;
  state.workflow_id = "wf";
  state.max_parallel_tasks = 3;
  state.dag = resolve_plan(entries);
  for (const auto& entry : entries) {
    PlanTask task;
    task.id = entry.name;
    task.name = entry.name;
    task.sequence = entry.sequence;
    state.tasks.push_back(task);
  }
  state.tasks[0].files = {"src/a.cpp"};
  state.tasks[2].files = {"src/a.cpp"};
  state.index();
  json answer = next_tasks(state, {}, KeyStyle::snake);
  REQUIRE(answer["tasks"].size() == 3);
  CHECK(answer["tasks"][0]["name"] == "x");
  CHECK(answer["tasks"][0]["critical_path_length"] == 3);
  CHECK(answer["tasks"][1]["name"] == "y");
  CHECK(answer["tasks"][2]["name"] == "z");
  CHECK(answer["tasks"][2]["recommended"] == false);  // shares src/a.cpp with y
  CHECK(answer["recommended_count"] == 2);
  // With y in progress, one slot is taken and z still overlaps it.
  state.tasks[0].status = TaskStatus::in_progress;
  answer = next_tasks(state, {}, KeyStyle::snake);
  CHECK(answer["in_progress_count"] == 1);
  CHECK(answer["recommended_count"] == 1);
  json progress_json = progress(state, KeyStyle::snake);
  CHECK(progress_json["by_status"]["in_progress"] == 1);
  CHECK(progress_json["by_status"]["ready"] == 2);
  CHECK(progress_json["by_status"]["pending"] == 2);
  CHECK(progress_json["blocked_tasks"][0]["blocked_by"] == json::array({"x"}));
  // y back to pending but claimed: not offered, and it still holds its slot
  // and its files, so z stays held back beside it.
  state.tasks[0].status = TaskStatus::pending;
  state.tasks[0].claimed_by = "ex-1";
  answer = next_tasks(state, {}, KeyStyle::snake);
  REQUIRE(answer["tasks"].size() == 2);
  CHECK(answer["tasks"][0]["name"] == "x");
  CHECK(answer["tasks"][1]["name"] == "z");
  CHECK(answer["tasks"][1]["recommended"] == false);
  CHECK(answer["available_count"] == 2);
  CHECK(answer["claimed_count"] == 1);
  CHECK(answer["in_progress_count"] == 0);
  ReadyRanking ranking = rank_ready(state, true);
  REQUIRE(ranking.ready.size() == 2);
  CHECK(ranking.ready[0].node == 1);
  CHECK(ranking.ready[0].recommended);
  // A failed task that is claimed is not offered either.
  state.tasks[0].status = TaskStatus::failed;
  CHECK(rank_ready(state, true).ready.size() == 2);
  state.tasks[0].claimed_by.reset();
  CHECK(rank_ready(state, true).ready.size() == 3);
  CHECK(rank_ready(state, false).ready.size() == 2);
}

TEST_CASE("progress estimates the time left from finished durations") {
  std::vector<PlanEntry> entries = {{"a", 0, {}}, {"b", 0, {}}, {"c", 1, {}}, {"d", 1, {}}};
  PlanState state;
  state.max_parallel_tasks = 2;
  state.dag = resolve_plan(entries);
  for (const auto& entry : entries) {
    PlanTask task;
    task.id = entry.name;
    task.name = entry.name;
    task.sequence = entry.sequence;
    state.tasks.push_back(task);
  }
  state.tasks[0].status = TaskStatus::success;
  state.tasks[0].started_at = 0;
  state.tasks[0].completed_at = 60000;
  state.tasks[1].status = TaskStatus::success;
  state.tasks[1].started_at = 0;
  state.tasks[1].completed_at = 120000;
  state.index();
  json answer = progress(state, KeyStyle::snake);
  // Mean 90 s, two tasks left, two at once: 90 s.
  CHECK(answer["estimated_remaining"] == 90);
  CHECK(answer["completed_sequence"] == 0);
  CHECK(answer["current_sequence"] == 1);
}

TEST_CASE("the token estimator is four bytes a token, rounded up") {
  CHECK(estimate_tokens(std::string_view("")) == 0);
  CHECK(estimate_tokens(std::string_view("abcd")) == 1);
  CHECK(estimate_tokens(std::string_view("abcde")) == 2);
  CHECK(estimate_tokens(std::string(4000, 'x')) == 1000);
  // A known sentence: 44 bytes.
  CHECK(estimate_tokens(std::string_view("The quick brown fox jumps over the lazy dog.")) == 11);
  // JSON is estimated on its compact text: {"a":"b"} is 9 bytes.
  CHECK(estimate_tokens(json{{"a", "b"}}) == 3);
  // UTF-8 is counted in bytes and never cut inside a character.
  CHECK(utf8_prefix("héllo", 2) == "h");
}

TEST_CASE("random contexts never exceed the budget and cut in the documented order") {
  std::mt19937 rng(99);
  for (int round = 0; round < 200; ++round) {
    ContextParts parts;
    parts.workflow = {
        {"id", "wf"}, {"name", "w"}, {"plan_summary", std::string(rng() % 2000, 'p')}};
    parts.source_text = std::string(rng() % 40000, 's');
    parts.current_task = {{"id", "t"}, {"description", std::string(rng() % 3000, 'd')}};
    for (std::size_t i = 0, n = rng() % 8; i < n; ++i) {
      parts.checkpoints.push_back({{"sequence", i},
                                   {"summary", "step"},
                                   {"detail", {{"log", std::string(rng() % 4000, 'l')}}}});
    }
    for (std::size_t i = 0, n = rng() % 300; i < n; ++i) {
      parts.prior_tasks.push_back(
          {{"id", "p" + std::to_string(i)}, {"outcome", std::string(rng() % 300, 'o')}});
    }
    for (std::size_t i = 0, n = rng() % 20; i < n; ++i)
      parts.siblings.push_back({{"id", "s" + std::to_string(i)}});
    const std::size_t budget = 500 + rng() % 12000;
    const std::size_t sources = parts.source_text.size();
    const std::size_t priors = parts.prior_tasks.size();
    json out = fit_context(parts, budget);
    INFO("round " << round << " budget " << budget);
    CHECK(estimate_tokens(out) <= budget);
    CHECK(out["token_estimate"] == estimate_tokens(out));
    const json& omitted = out["omitted"];
    // Source text is cut only once every prior task is gone, and prior
    // tasks only once every older checkpoint's detail is.
    if (omitted["source_text_chars"].get<std::size_t>() > 0) CHECK(out["prior_tasks"].empty());
    if (omitted["prior_tasks"].get<std::size_t>() > 0) {
      for (std::size_t i = 0; i + 1 < out["current_task"]["checkpoints"].size(); ++i) {
        CHECK_FALSE(out["current_task"]["checkpoints"][i].contains("detail"));
      }
    }
    CHECK(out["workflow"]["source_summary"].get<std::string>().size() +
              omitted["source_text_chars"].get<std::size_t>() ==
          sources);
    CHECK(out["prior_tasks"].size() + omitted["prior_tasks"].get<std::size_t>() == priors);
  }
}

TEST_CASE("templates substitute variables, require them and use defaults") {
  TemplateDefinition definition;
  definition.tasks = {
      {"design {{feature}}", "Design {{feature}} for {{team}}", 0, std::nullopt, {}},
      {"build {{feature}}", "Build it", 1, std::nullopt, {"design {{feature}}"}}};
  definition.variables = {{"feature", "what to build", true, std::nullopt},
                          {"team", "who", false, "core"}};
  check_definition(definition);
  TemplateDefinition applied = instantiate(definition, {{"feature", "login"}});
  CHECK(applied.tasks[0].name == "design login");
  CHECK(applied.tasks[0].description == "Design login for core");
  CHECK(applied.tasks[1].depends_on == std::vector<std::string>{"design login"});
  CHECK_THROWS_AS(instantiate(definition, {}), MissionError);  // feature missing
  CHECK_THROWS_AS(instantiate(definition, {{"feature", "x"}, {"colour", "red"}}),
                  MissionError);  // unknown
  // A placeholder no variable declares is refused when the template is made.
  definition.tasks[0].description = "{{undeclared}}";
  CHECK_THROWS_AS(check_definition(definition), MissionError);
  // Round trip through JSON.
  definition.tasks[0].description = "Design {{feature}}";
  TemplateDefinition back = definition_from_json(definition_json(definition));
  CHECK(definition_json(back) == definition_json(definition));
  CHECK(placeholders("{{ a }} and {{b}}") == std::vector<std::string>{"a", "b"});
}

TEST_CASE("substitution stops at the limit it is held to, before building more") {
  const std::map<std::string, std::string> values = {{"x", std::string(2000, 'a')},
                                                     {"e", "\xC3\xA9"}};
  CHECK(substitute("{{x}}{{x}}", values, 4000, 4000) == std::string(4000, 'a'));
  CHECK_FALSE(substitute("{{x}}{{x}}!", values, 4000, 10000));  // one character over
  CHECK_FALSE(substitute("{{x}}{{x}}", values, 10000, 3999));   // one byte over
  // Characters are code points, as JSON Schema's maxLength counts them.
  CHECK(substitute("{{e}}{{e}}", values, 2, 4) == "\xC3\xA9\xC3\xA9");
  CHECK_FALSE(substitute("{{e}}{{e}}{{e}}", values, 2, 100));
  CHECK(text_chars("\xC3\xA9t\xE2\x82\xAC") == 3);
}

TEST_CASE("a template filled in is held to a plan's limits, each text and all together") {
  TemplateDefinition definition;
  std::string many;
  for (int i = 0; i < 1600; ++i) many += "{{x}}";
  definition.tasks = {{"t", many, 0, std::nullopt, {}}};
  definition.variables = {{"x", "", true, std::nullopt}};
  check_definition(definition);
  try {
    instantiate(definition, {{"x", std::string(2000, 'a')}});
    FAIL("a 3.2 MB description was made");
  } catch (const MissionError& e) {
    CHECK(e.code() == ErrorCode::invalid_argument);
    CHECK(std::string(e.what()).find("description") != std::string::npos);
    CHECK(e.details()["max_chars"] == mission::limits::kMaxPlanTaskDescriptionChars);
  }
  // Exactly at the limit is fine.
  CHECK(instantiate(definition, {{"x", "abcde"}}).tasks[0].description.size() == 8000);
  // Each text within its limit, all of them together over the budget.
  definition.tasks.clear();
  for (int i = 0; i < 200; ++i)
    definition.tasks.push_back(
        {"t{{i}}" + std::to_string(i), "{{x}}{{x}}{{x}}", 0, std::nullopt, {}});
  definition.variables = {{"x", "", true, std::nullopt}, {"i", "", false, std::nullopt}};
  try {
    instantiate(definition, {{"x", std::string(2000, 'a')}});
    FAIL("the template filled in past its budget");
  } catch (const MissionError& e) {
    CHECK(e.code() == ErrorCode::payload_too_large);
  }
  CHECK_THROWS_AS(instantiate(definition, {{"x", "a"}, {"i", std::string(200, 'n')}}),
                  MissionError);  // a name
}

TEST_CASE("the plan task limits are the ones its schema holds agents to") {
  const nlohmann::json& schema =
      mission::SchemaRegistry::embedded().resolved("tools/fields/plan_task");
  const nlohmann::json& properties = schema.at("properties");
  CHECK(properties.at("name").at("maxLength") == mission::limits::kMaxPlanTaskNameChars);
  CHECK(properties.at("description").at("maxLength") ==
        mission::limits::kMaxPlanTaskDescriptionChars);
  CHECK(properties.at("parallel_group").at("maxLength") == mission::limits::kMaxPlanTaskGroupChars);
  CHECK(properties.at("depends_on").at("items").at("maxLength") ==
        mission::limits::kMaxPlanTaskNameChars);
}
