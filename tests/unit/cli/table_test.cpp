// The layout every list view shares (cli/table.hpp): no line wider than
// the terminal, the free column given the room, the columns that matter
// least left out before anything is cut, a status word never cut.

#include "cli/table.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shared/display_text.hpp"

using namespace mission;
using namespace mission::cli;

namespace {

Table execution_like() {
  Table table({{"ID", TableColumn::Fit::whole},
               {"STATE", TableColumn::Fit::whole},
               {"ADAPTER", TableColumn::Fit::elide, 2, 12},
               {"DELIVERY", TableColumn::Fit::whole, 3},
               {"CREATED", TableColumn::Fit::whole, 1},
               {"NAME", TableColumn::Fit::flexible}});
  table.add_row({{"ae-7kq2m4x9"},
                 {"awaiting_approval"},
                 {"claude-code"},
                 {"stdout-marker"},
                 {"11-23 11:04"},
                 {"add a health endpoint with its tests and a page in the docs"}});
  table.add_row({{"ae-b3"}, {"running"}, {"generic"}, {"mcp"}, {"11-23 11:05"}, {"x"}});
  return table;
}

std::size_t widest(const std::vector<std::string>& lines) {
  std::size_t width = 0;
  for (const auto& line : lines) width = std::max(width, text::display_width(line));
  return width;
}

}  // namespace

TEST_CASE("a table is as wide as its values when the terminal has room") {
  const auto lines = execution_like().lines(200);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].rfind("ID           STATE              ADAPTER      DELIVERY", 0) == 0);
  CHECK(lines[1].find("add a health endpoint with its tests and a page in the docs") !=
        std::string::npos);
  // The last column is not padded.
  CHECK(lines[2].back() == 'x');
}

TEST_CASE("a narrow table leaves out its least useful columns before cutting a status") {
  for (std::size_t columns : {60, 72, 80, 100}) {
    INFO(columns);
    const auto lines = execution_like().lines(columns);
    CHECK(widest(lines) <= columns);
    CHECK(lines[1].find("awaiting_approval") != std::string::npos);
    CHECK(lines[1].find("ae-7kq2m4x9") != std::string::npos);
  }
  // The delivery goes first, then the adapter, then the time; the name
  // keeps the room.
  const auto middle = execution_like().lines(80);
  CHECK(middle[0].find("DELIVERY") == std::string::npos);
  CHECK(middle[0].find("ADAPTER") != std::string::npos);
  const auto narrow = execution_like().lines(60);
  CHECK(narrow[0].find("ADAPTER") == std::string::npos);
  CHECK(narrow[0].find("CREATED") == std::string::npos);
  CHECK(narrow[1].find("add a health endpoint") != std::string::npos);
  CHECK(narrow[1].find("...") != std::string::npos);  // the name, cut at its end
}

TEST_CASE("a table cut at any width keeps every line within it and neutralises its cells") {
  Table table({{"ID", TableColumn::Fit::whole}, {"NAME", TableColumn::Fit::flexible}});
  table.add_row({{"wf-1"}, {"\x1b[31mred\x1b[0m \xe4\xbd\xa0\xe5\xa5\xbd wide"}});
  for (std::size_t columns = 1; columns <= 30; ++columns) {
    INFO(columns);
    const auto lines = table.lines(columns);
    CHECK(widest(lines) <= columns);
    CHECK(lines[1].find('\x1b') == std::string::npos);
  }
}
