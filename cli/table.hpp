#pragma once
// Tables for human output, laid out once for every list view: each column
// as wide as its widest value, the flexible column (a title, a question)
// given the room left, and when the terminal is too narrow the columns that
// matter least dropped before anything is cut. A status word is never cut.
// Cells are neutralised (cli/output.hpp): agents' text is shown as text.

#include <cstddef>
#include <string>
#include <vector>

#include "cli/output.hpp"

namespace mission::cli {

struct TableColumn {
  enum class Fit {
    elide,     // shortened by eliding its middle when it must give way
    whole,     // never cut (an id, a status word): dropped or kept whole
    flexible,  // takes the room the others leave, its end elided
  };
  std::string header;
  Fit fit = Fit::elide;
  // 0: the column always shows; else columns are dropped from the highest
  // rank down while the table is wider than the terminal.
  int drop_rank = 0;
  // At most this wide (0: as wide as its widest value).
  std::size_t max_width = 0;
};

struct TableCell {
  std::string text;
  Tone tone = Tone::plain;
};

class Table {
 public:
  explicit Table(std::vector<TableColumn> columns);
  // One row: a cell per column, in order (missing cells are empty).
  void add_row(std::vector<TableCell> cells);
  // The header and the rows, no line wider than `columns` display columns.
  std::vector<std::string> lines(std::size_t columns) const;
  // The lines at output_columns() on stdout.
  void print() const;

 private:
  std::vector<TableColumn> columns_;
  std::vector<std::vector<TableCell>> rows_;
};

}  // namespace mission::cli
