#include "shared/fault_points.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <new>

#include "shared/error_code.hpp"

using namespace mission::faults;

namespace {

struct Disarm {
  ~Disarm() { configure(""); }
};

}  // namespace

TEST_CASE("fault points: inert until configured, then act at exactly the hits named") {
  Disarm disarm;
  configure("");
  for (int i = 0; i < 5; ++i) CHECK_FALSE(hit(FaultPoint::db_write));
  configure("db_write:fail@3-4,log_write:full@2-,request:oom@2");
  CHECK_FALSE(hit(FaultPoint::db_write));
  CHECK_FALSE(hit(FaultPoint::db_write));
  CHECK(hit(FaultPoint::db_write) == FaultAction::fail);
  CHECK(hit(FaultPoint::db_write) == FaultAction::fail);
  CHECK_FALSE(hit(FaultPoint::db_write));  // the fault went
  CHECK_FALSE(hit(FaultPoint::log_write));
  for (int i = 0; i < 10; ++i)
    CHECK(hit(FaultPoint::log_write) == FaultAction::full);  // "2-": for good
  CHECK_NOTHROW(at(FaultPoint::request));
  CHECK_THROWS_AS(at(FaultPoint::request), std::bad_alloc);
  CHECK_NOTHROW(at(FaultPoint::request));
  // Points no rule names count but never act.
  CHECK_FALSE(hit(FaultPoint::before_commit));
}

TEST_CASE("fault points: a slow hit holds its thread, then goes on as if unarmed") {
  Disarm disarm;
  configure("worktree_made:slow@2");
  CHECK_FALSE(hit(FaultPoint::worktree_made));
  const auto before = std::chrono::steady_clock::now();
  CHECK_FALSE(hit(FaultPoint::worktree_made));  // nothing for the caller to do
  CHECK(std::chrono::steady_clock::now() - before >= std::chrono::milliseconds(kFaultSlowMs));
  CHECK_NOTHROW(at(FaultPoint::worktree_made));
}

TEST_CASE("fault points: a malformed spec is refused with what to write") {
  Disarm disarm;
  for (const char* spec : {"db_write", "nowhere:kill", "db_write:explode", "db_write:fail@0",
                           "db_write:fail@5-3", "db_write:fail@x", "db_write:fail@1-2-3"}) {
    INFO(spec);
    try {
      configure(spec);
      FAIL("accepted");
    } catch (const mission::MissionError& error) {
      CHECK(error.code() == mission::ErrorCode::invalid_argument);
      CHECK(std::string(error.what()).find("MISSIOND_TEST_FAULTS") != std::string::npos);
      CHECK(error.hint().find("POINT:ACTION") != std::string::npos);
    }
  }
  configure("");
  CHECK_FALSE(hit_is_armed());
}
