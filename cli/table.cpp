#include "cli/table.hpp"

#include <algorithm>
#include <cstdio>

#include "shared/display_text.hpp"

namespace mission::cli {
namespace {

// Two spaces between columns; one when the terminal is too narrow for two.
constexpr std::size_t kGap = 2;
// A flexible column keeps at least this much (or its widest value) before
// any other column is dropped: a title cut to a few letters says nothing.
constexpr std::size_t kFlexibleMinimum = 16;

}  // namespace

Table::Table(std::vector<TableColumn> columns) : columns_(std::move(columns)) {}

void Table::add_row(std::vector<TableCell> cells) {
  for (auto& cell : cells) cell.text = safe(cell.text);
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

std::vector<std::string> Table::lines(std::size_t columns) const {
  const std::size_t count = columns_.size();
  // Each column's natural width: its widest value or header.
  std::vector<std::size_t> natural(count, 0);
  for (std::size_t i = 0; i < count; ++i) {
    natural[i] = text::display_width(columns_[i].header);
    for (const auto& row : rows_)
      natural[i] = std::max(natural[i], text::display_width(row[i].text));
    if (columns_[i].max_width > 0 && columns_[i].fit != TableColumn::Fit::whole)
      natural[i] = std::min(natural[i], std::max(columns_[i].max_width, columns_[i].header.size()));
  }
  std::vector<bool> shown(count, true);
  std::vector<std::size_t> width = natural;
  std::size_t gap = kGap;
  auto total = [&] {
    std::size_t sum = 0;
    std::size_t visible = 0;
    for (std::size_t i = 0; i < count; ++i) {
      if (!shown[i]) continue;
      sum += width[i];
      ++visible;
    }
    return sum + (visible > 0 ? (visible - 1) * gap : 0);
  };
  // First the flexible column gives way down to its minimum.
  for (std::size_t i = 0; i < count; ++i) {
    if (columns_[i].fit == TableColumn::Fit::flexible)
      width[i] = std::min(natural[i], std::max(kFlexibleMinimum, columns_[i].header.size()));
  }
  // Then the columns that matter least go, highest rank first.
  while (total() > columns) {
    std::size_t drop = count;
    for (std::size_t i = 0; i < count; ++i) {
      if (shown[i] && columns_[i].drop_rank > 0 &&
          (drop == count || columns_[i].drop_rank > columns_[drop].drop_rank))
        drop = i;
    }
    if (drop == count) break;
    shown[drop] = false;
  }
  if (total() > columns) gap = 1;
  // Then the columns that may be elided shrink to their header.
  for (std::size_t i = count; i-- > 0 && total() > columns;) {
    if (!shown[i] || columns_[i].fit != TableColumn::Fit::elide) continue;
    const std::size_t over = total() - columns;
    const std::size_t floor =
        std::min(width[i], std::max<std::size_t>(columns_[i].header.size(), 4));
    width[i] -= std::min(over, width[i] - floor);
  }
  // The flexible column takes what is left, up to its widest value.
  for (std::size_t i = 0; i < count; ++i) {
    if (!shown[i] || columns_[i].fit != TableColumn::Fit::flexible) continue;
    const std::size_t used = total() - width[i];
    width[i] = used < columns ? std::min(natural[i], columns - used) : 0;
  }

  std::size_t first = count;
  std::size_t last = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (!shown[i]) continue;
    if (first == count) first = i;
    last = i;
  }
  // One line from the cells of a row; colour only around each cell's text.
  auto render = [&](const std::vector<TableCell>& cells) {
    std::string line;
    std::string plain;  // the same without colour, to measure
    for (std::size_t i = 0; i < count; ++i) {
      if (!shown[i]) continue;
      std::string text = columns_[i].fit == TableColumn::Fit::flexible
                             ? text::elide_end(cells[i].text, width[i])
                             : text::elide_middle(cells[i].text, width[i]);
      // The last column is not padded: no trailing spaces.
      if (i != last) text.append(width[i] - std::min(width[i], text::display_width(text)), ' ');
      const std::string separator = i == first ? "" : std::string(gap, ' ');
      plain += separator + text;
      line += separator + styled(text, cells[i].tone);
    }
    // Nothing wider than the terminal, whatever was left to cut.
    if (text::display_width(plain) > columns) return text::cut(plain, columns);
    return line;
  };
  std::vector<std::string> out;
  std::vector<TableCell> header;
  for (const auto& column : columns_) header.push_back({column.header, Tone::dim});
  out.push_back(render(header));
  for (const auto& row : rows_) out.push_back(render(row));
  return out;
}

void Table::print() const {
  for (const auto& line : lines(output_columns())) std::printf("%s\n", line.c_str());
}

}  // namespace mission::cli
