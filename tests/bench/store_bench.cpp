// The store's hot statements, timed without the daemon around them
// (docs/adr/0052): a signal recorded in the ledger in its own transaction,
// a claim taken and released, and the reads an agent's call makes (its
// execution, its unread messages). Each round runs all three on one
// connection; the figure is the median and p90 of a round in blocks.
//   mission_store_bench STORE [ROUNDS] [BLOCKS]
// STORE is a SQLite file to create, or a postgresql:// URL of an empty
// database (the SQLite default against the team store, same run).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "daemon/store/claim_repository.hpp"
#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/message_repository.hpp"
#include "daemon/store/migrations.hpp"
#include "daemon/store/observation_repository.hpp"
#include "daemon/store/postgresql_engine.hpp"

using namespace mission;
using namespace mission::store;

namespace {

void seed(Database& db, int tasks) {
  ExecutionRow row;
  row.id = "ex-bench";
  row.adapter = "generic";
  row.delivery = Delivery::mcp_tool;
  row.descriptor = "{}";
  row.cwd = "/";
  row.command = "[]";
  row.state = ExecutionState::running;
  row.created_at = row.updated_at = 1;
  ExecutionRepository(db).insert(row);
  db.exec(
      "INSERT INTO missions (id, kind, cwd, name, status, created_at, updated_at) "
      "VALUES ('wf-bench', 'planned', '/', 'wf', 'ready', 1, 1)");
  Transaction transaction(db);
  for (int i = 0; i < tasks; ++i) {
    db.prepare(
          "INSERT INTO tasks (id, mission_id, name, goal, areas, status, plan_order, sequence, "
          "created_at) VALUES (?1, 'wf-bench', ?1, 'g', '[]', 'pending', ?2, 1, 1)")
        .bind(1, "t-" + std::to_string(i))
        .bind(2, i)
        .run();
  }
  transaction.commit();
}

void round(Database& db, int n) {
  ObservationRow signal;
  signal.execution_id = "ex-bench";
  signal.event_id = "ev-" + std::to_string(n);
  signal.origin = "mcp-tool";
  signal.kind = "progress";
  signal.payload = R"({"message":"working"})";
  signal.created_at = n;
  {
    Transaction transaction(db);
    ObservationRepository(db).insert_unique(signal);
    transaction.commit();
  }
  ClaimRepository claims(db);
  std::string task = "t-" + std::to_string(n % 64);
  claims.try_claim(task, "ex-bench", n);
  claims.release(task, "ex-bench", "bench", "released by the bench", n);
  ExecutionRepository(db).find("ex-bench");
  MessageRepository(db).unread("ex-bench", n, 10);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: mission_store_bench STORE [ROUNDS] [BLOCKS]\n");
    return 2;
  }
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 2000;
  const int blocks = argc > 3 ? std::atoi(argv[3]) : 5;
  mission::store::install_postgresql_engine();
  Database db(argv[1]);
  migrate(db);
  seed(db, 64);
  int n = 0;
  for (int i = 0; i < 200; ++i) round(db, ++n);  // warm the statement cache
  std::vector<double> block_medians;
  std::vector<double> all;
  for (int b = 0; b < blocks; ++b) {
    std::vector<double> times;
    for (int i = 0; i < rounds; ++i) {
      auto start = std::chrono::steady_clock::now();
      round(db, ++n);
      times.push_back(
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
              .count());
    }
    std::sort(times.begin(), times.end());
    block_medians.push_back(times[times.size() / 2]);
    all.insert(all.end(), times.begin(), times.end());
  }
  std::sort(all.begin(), all.end());
  std::sort(block_medians.begin(), block_medians.end());
  std::printf(
      "store round (signal + claim + release + reads): p50 %.1f us, p90 %.1f us, "
      "block medians %.1f..%.1f us, %zu rounds\n",
      all[all.size() / 2], all[all.size() * 9 / 10], block_medians.front(), block_medians.back(),
      all.size());
  return 0;
}
