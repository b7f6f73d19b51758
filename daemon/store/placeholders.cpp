#include "daemon/store/placeholders.hpp"

#include <cctype>
#include <utility>

namespace mission::store {
namespace {

// Copies from `sql[i]` (an opening quote) through its closing quote, a
// doubled quote being part of the literal; returns the index after it.
std::size_t copy_quoted(std::string_view sql, std::size_t i, std::string& out) {
  char quote = sql[i];
  out += quote;
  for (++i; i < sql.size(); ++i) {
    out += sql[i];
    if (sql[i] != quote) continue;
    if (i + 1 < sql.size() && sql[i + 1] == quote) {
      out += sql[++i];
      continue;
    }
    return i + 1;
  }
  return i;
}

}  // namespace

DollarSql dollar_placeholders(std::string_view sql) {
  std::string out;
  out.reserve(sql.size() + 8);
  int highest = 0;
  std::size_t i = 0;
  while (i < sql.size()) {
    char c = sql[i];
    if (c == '\'' || c == '"') {
      i = copy_quoted(sql, i, out);
    } else if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
      std::size_t end = sql.find('\n', i);
      if (end == std::string_view::npos) end = sql.size();
      out.append(sql.substr(i, end - i));
      i = end;
    } else if (c == '?') {
      std::size_t digits = i + 1;
      int number = 0;
      while (digits < sql.size() && std::isdigit(static_cast<unsigned char>(sql[digits]))) {
        number = number * 10 + (sql[digits] - '0');
        ++digits;
      }
      if (digits == i + 1) number = highest + 1;
      if (number > highest) highest = number;
      out += '$';
      out += std::to_string(number);
      i = digits;
    } else {
      out += c;
      ++i;
    }
  }
  return {std::move(out), highest};
}

}  // namespace mission::store
