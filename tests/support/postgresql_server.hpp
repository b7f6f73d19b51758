#pragma once
// A private PostgreSQL 15 for the store's tests (docs/adr/0052): one server
// per test process, started on first use and stopped at exit, in a
// temporary folder, listening on a Unix socket there only (no TCP port to
// clash with another run). Each test case asks for a fresh database.
//
// Under ctest, where every case is a process of its own, the cases share
// one server that a fixture starts (tests/support/postgresql_fixture.sh) in
// a folder they are given, and no server is started.
//
// postgres refuses to run as root and tests run as root in CI: then initdb
// and the server run as `nobody`, the folder owned by it.

#include <grp.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/eventually.hpp"

namespace mission::test {

// Where Debian puts PostgreSQL 15's programs; MISSION_TEST_POSTGRESQL_BIN
// names another folder.
inline constexpr const char* kPostgresqlBin = "/usr/lib/postgresql/15/bin";

class PostgresqlServer {
 public:
  // The process's server, started on first use; the one already running
  // in `shared` when that is not empty.
  static PostgresqlServer& instance(const std::string& shared = {}) {
    static PostgresqlServer server(shared);
    return server;
  }

  // A URL for a new, empty database of its own.
  std::string fresh_database() {
    static std::atomic<int> next{0};
    std::string name = "t" + std::to_string(::getpid()) + "_" + std::to_string(++next);
    PGconn* admin = PQconnectdb(url("postgres").c_str());
    PGresult* result = PQexec(admin, ("CREATE DATABASE " + name).c_str());
    bool ok = PQresultStatus(result) == PGRES_COMMAND_OK;
    std::string error = PQerrorMessage(admin);
    PQclear(result);
    PQfinish(admin);
    if (!ok) throw std::runtime_error("test PostgreSQL: CREATE DATABASE failed: " + error);
    return url(name);
  }

  // The URL of database `name` on this server.
  std::string url(const std::string& name) const {
    return "postgresql:///" + name + "?host=" + folder_.string() + "&user=postgres";
  }

  ~PostgresqlServer() {
    if (shared_) return;
    if (server_ > 0) {
      ::kill(server_, SIGINT);  // a fast shutdown: no client waits for it
      int status = 0;
      ::waitpid(server_, &status, 0);
    }
    std::error_code ignored;
    std::filesystem::remove_all(folder_, ignored);
  }
  PostgresqlServer(const PostgresqlServer&) = delete;
  PostgresqlServer& operator=(const PostgresqlServer&) = delete;

 private:
  explicit PostgresqlServer(const std::string& shared) {
    if (!shared.empty()) {
      folder_ = shared;
      if (PQping(url("postgres").c_str()) != PQPING_OK) {
        throw std::runtime_error("test PostgreSQL: no server answers in " + folder_.string() +
                                 ": run tests/support/postgresql_fixture.sh start there");
      }
      shared_ = true;
      return;
    }
    const char* bin_env = std::getenv("MISSION_TEST_POSTGRESQL_BIN");
    std::filesystem::path bin = bin_env != nullptr ? bin_env : kPostgresqlBin;
    if (!std::filesystem::exists(bin / "postgres")) {
      throw std::runtime_error("test PostgreSQL: no " + (bin / "postgres").string() +
                               ": install postgresql-15 (scripts/install-deps.sh) or set "
                               "MISSION_TEST_POSTGRESQL_BIN");
    }
    std::string pattern = (std::filesystem::temp_directory_path() / "mission-pg-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("test PostgreSQL: mkdtemp");
    folder_ = pattern;
    if (::geteuid() == 0) {
      const passwd* nobody = ::getpwnam("nobody");
      if (nobody == nullptr) throw std::runtime_error("test PostgreSQL: no user nobody");
      uid_ = nobody->pw_uid;
      gid_ = nobody->pw_gid;
      if (::chown(folder_.c_str(), uid_, gid_) != 0) {
        throw std::runtime_error("test PostgreSQL: cannot chown " + folder_.string());
      }
    }
    std::string data = (folder_ / "data").string();
    // No fsync: a test's database dies with the test.
    int status = run({(bin / "initdb").string(), "-D", data, "-U", "postgres", "--auth=trust", "-E",
                      "UTF8", "--locale=C", "--no-sync", "--no-instructions"});
    if (status != 0) {
      throw std::runtime_error("test PostgreSQL: initdb failed, see " +
                               (folder_ / "initdb.log").string());
    }
    server_ = start({(bin / "postgres").string(), "-D", data, "-k", folder_.string(), "-c",
                     "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c",
                     "full_page_writes=off", "-c", "max_connections=200"});
    std::string conninfo = url("postgres");
    if (!eventually([&] { return PQping(conninfo.c_str()) == PQPING_OK; }, 60s, 20ms)) {
      throw std::runtime_error("test PostgreSQL: the server did not start, see " +
                               (folder_ / "server.log").string());
    }
  }

  // In the child: become the unprivileged user, send output to a log.
  void child_setup(const char* log) const {
    if (::geteuid() == 0) {
      if (::setgroups(0, nullptr) != 0 || ::setgid(gid_) != 0 || ::setuid(uid_) != 0) _exit(126);
    }
    // A test process that dies without its destructors takes its server
    // with it (set after setuid, which clears it).
    ::prctl(PR_SET_PDEATHSIG, SIGINT);
    std::string path = (folder_ / log).string();
    FILE* out = std::freopen(path.c_str(), "a", stdout);
    if (out == nullptr || ::dup2(::fileno(stdout), 2) < 0) _exit(126);
  }

  pid_t start(const std::vector<std::string>& argv, const char* log = "server.log") const {
    pid_t pid = ::fork();
    if (pid == 0) {
      child_setup(log);
      std::vector<char*> args;
      for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
      args.push_back(nullptr);
      ::execv(args[0], args.data());
      _exit(127);
    }
    if (pid < 0) throw std::runtime_error("test PostgreSQL: fork failed");
    return pid;
  }

  int run(const std::vector<std::string>& argv) const {
    pid_t pid = start(argv, "initdb.log");
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  std::filesystem::path folder_;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  pid_t server_ = -1;
  bool shared_ = false;  // the fixture's server: not ours to stop
};

}  // namespace mission::test
