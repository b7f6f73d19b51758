// A run's budgets as its options keep them, when they are reached, and a
// person's new budget checked against what was used
// (daemon/runs/run_budget.hpp).

#include "daemon/runs/run_budget.hpp"

#include <catch2/catch.hpp>

#include "shared/error_code.hpp"

using namespace mission::daemon::runs;
using nlohmann::json;

TEST_CASE("budgets go into a run's options and come back, a task's raise over the run's own") {
  RunBudgets budgets;
  budgets.task = {500, 2.5};
  budgets.run.tokens = 4000;
  budgets.raised["tk-a"].tokens = 900;
  json options = json::object();
  put_budgets(options, budgets);
  CHECK(options == json{{"budgetTokens", 500},
                        {"budgetUsd", 2.5},
                        {"runBudgetTokens", 4000},
                        {"taskBudgets", {{"tk-a", {{"tokens", 900}}}}}});
  const RunBudgets back = budgets_from_json(options);
  CHECK(back.of_task("tk-a").tokens == 900);
  CHECK(back.of_task("tk-a").usd == 2.5);
  CHECK(back.of_task("tk-b").tokens == 500);
  CHECK(back.run.tokens == 4000);
  CHECK_FALSE(back.run.usd);
  CHECK_FALSE(budgets_from_json(json::object()).task.any());
}

TEST_CASE("a stored budget that is not above zero or not a number is refused naming it") {
  for (const json& bad :
       {json{{"budgetTokens", 0}}, json{{"budgetTokens", -3}}, json{{"budgetTokens", 1.5}},
        json{{"runBudgetUsd", 0}}, json{{"budgetUsd", "two"}},
        json{{"budgetTokens", kMaxBudgetTokens + 1}}}) {
    INFO(bad.dump());
    CHECK_THROWS_AS(budgets_from_json(bad), mission::MissionError);
  }
  try {
    budgets_from_json(json{{"budgetTokens", 0}});
  } catch (const mission::MissionError& e) {
    CHECK(std::string(e.what()).find("--budget-tokens 0 is not a budget of tokens") !=
          std::string::npos);
  }
}

TEST_CASE("a budget is reached at its figure, in tokens or in dollars") {
  const Budget budget{500, 1.0};
  CHECK_FALSE(reached(budget, {499, 0.99}, "task 'a'"));
  CHECK(reached(budget, {500, 0}, "task 'a'") == "task 'a' used 500 of 500 tokens");
  CHECK(reached(budget, {10, 1.25}, "the run") == "the run used $1.25 of $1.00");
  CHECK(reached(Budget{std::nullopt, 0.0831}, {0, 0.09}, "x") == "x used $0.09 of $0.0831");
  CHECK_FALSE(reached(Budget{}, {1'000'000, 1e6}, "x"));
}

TEST_CASE("a new budget must be above what was used, and is the task's or the run's") {
  RunBudgets budgets;
  budgets.task.tokens = 500;
  auto refused = [&](const BudgetChange& change, const std::string& said) {
    try {
      apply_change(budgets, change, {612, 0.4}, "task 'big'", "wf-1");
      FAIL("accepted");
    } catch (const mission::MissionError& e) {
      CHECK(std::string(e.what()).find(said) != std::string::npos);
    }
  };
  refused({"tk-a", 612, std::nullopt}, "task 'big' has already used 612 tokens");
  refused({"tk-a", std::nullopt, 0.4}, "task 'big' has already used $0.40");
  refused({"tk-a", std::nullopt, std::nullopt}, "no budget given");
  refused({"tk-a", 0, std::nullopt}, "--tokens 0 is not a budget of tokens");
  apply_change(budgets, {"tk-a", 613, std::nullopt}, {612, 0}, "task 'big'", "wf-1");
  CHECK(budgets.of_task("tk-a").tokens == 613);
  CHECK(budgets.of_task("tk-b").tokens == 500);
  apply_change(budgets, {std::nullopt, std::nullopt, 3.0}, {0, 1}, "the run", "wf-1");
  CHECK(budgets.run.usd == 3.0);
  CHECK_FALSE(budgets.run.tokens);
}
