#include "daemon/terminal/screen.hpp"

#include <vterm.h>

#include <algorithm>
#include <cstdio>

#include "shared/terminal_limits.hpp"

namespace mission::daemon::terminal {
namespace {

void append_utf8(std::string& out, std::uint32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xc0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
  }
}

void append_color(std::string& sgr, const VTermColor& color, bool foreground) {
  if (foreground ? VTERM_COLOR_IS_DEFAULT_FG(&color) : VTERM_COLOR_IS_DEFAULT_BG(&color)) return;
  char code[32];
  if (VTERM_COLOR_IS_INDEXED(&color)) {
    const int index = color.indexed.idx;
    if (index < 8) {
      std::snprintf(code, sizeof code, ";%d", (foreground ? 30 : 40) + index);
    } else if (index < 16) {
      std::snprintf(code, sizeof code, ";%d", (foreground ? 90 : 100) + index - 8);
    } else {
      std::snprintf(code, sizeof code, ";%d;5;%d", foreground ? 38 : 48, index);
    }
  } else {
    std::snprintf(code, sizeof code, ";%d;2;%d;%d;%d", foreground ? 38 : 48, color.rgb.red,
                  color.rgb.green, color.rgb.blue);
  }
  sgr += code;
}

// The SGR sequence that sets exactly `cell`'s attributes from a reset.
std::string sgr_of(const VTermScreenCell& cell) {
  std::string sgr = "\x1b[0";
  if (cell.attrs.bold) sgr += ";1";
  if (cell.attrs.italic) sgr += ";3";
  if (cell.attrs.underline == VTERM_UNDERLINE_SINGLE) sgr += ";4";
  if (cell.attrs.underline == VTERM_UNDERLINE_DOUBLE) sgr += ";21";
  if (cell.attrs.underline == VTERM_UNDERLINE_CURLY) sgr += ";4";
  if (cell.attrs.blink) sgr += ";5";
  if (cell.attrs.reverse) sgr += ";7";
  if (cell.attrs.strike) sgr += ";9";
  append_color(sgr, cell.fg, true);
  append_color(sgr, cell.bg, false);
  sgr += "m";
  return sgr;
}

void output_to_reply(const char* bytes, std::size_t length, void* user) {
  auto* reply = static_cast<std::function<void(std::string_view)>*>(user);
  if (*reply) (*reply)(std::string_view(bytes, length));
}

}  // namespace

namespace {

// libvterm allocates every cell of a size it is given, and fails on none:
// sizes are refused before they reach here (TerminalSession, the control
// schemas), and clamped here should one slip through.
unsigned short bounded_rows(unsigned short rows) {
  return std::clamp(rows, limits::kMinTerminalRows, limits::kMaxTerminalRows);
}
unsigned short bounded_columns(unsigned short columns) {
  return std::clamp(columns, limits::kMinTerminalColumns, limits::kMaxTerminalColumns);
}

}  // namespace

Screen::Screen(unsigned short rows, unsigned short columns)
    : vterm_(vterm_new(bounded_rows(rows), bounded_columns(columns))),
      rows_(bounded_rows(rows)),
      columns_(bounded_columns(columns)) {
  vterm_set_utf8(vterm_, 1);
  screen_ = vterm_obtain_screen(vterm_);
  static const VTermScreenCallbacks kCallbacks = {
      nullptr,
      nullptr,
      nullptr,
      [](VTermProp property, VTermValue* value, void* user) {
        return Screen::on_property(static_cast<int>(property), value, user);
      },
      nullptr,
      nullptr,
      nullptr,
      nullptr};
  vterm_screen_set_callbacks(screen_, &kCallbacks, this);
  vterm_screen_enable_altscreen(screen_, 1);
  vterm_screen_reset(screen_, 1);
  vterm_output_set_callback(vterm_, output_to_reply, &reply_);
}

Screen::~Screen() {
  vterm_free(vterm_);
}

int Screen::on_property(int property, void* value, void* user) {
  auto* self = static_cast<Screen*>(user);
  const auto* v = static_cast<const VTermValue*>(value);
  switch (static_cast<VTermProp>(property)) {
    case VTERM_PROP_ALTSCREEN:
      self->alternate_ = v->boolean != 0;
      break;
    case VTERM_PROP_CURSORVISIBLE:
      self->cursor_visible_ = v->boolean != 0;
      break;
    default:
      break;
  }
  return 1;
}

void Screen::feed(std::string_view bytes) {
  vterm_input_write(vterm_, bytes.data(), bytes.size());
}

void Screen::resize(unsigned short rows, unsigned short columns) {
  rows = bounded_rows(rows);
  columns = bounded_columns(columns);
  if (rows == rows_ && columns == columns_) return;
  rows_ = rows;
  columns_ = columns;
  vterm_set_size(vterm_, rows, columns);
}

std::string Screen::repaint() const {
  std::string out;
  out.reserve(static_cast<std::size_t>(rows_) * columns_ * 2 + 64);
  // Screen first (the alternate one for a full-screen program), then the
  // cells from the top left, attributes changed only where they change.
  out += alternate_ ? "\x1b[?1049h" : "\x1b[?1049l";
  out += "\x1b[?25l\x1b[0m\x1b[H\x1b[2J";
  std::string current_sgr = "\x1b[0m";
  VTermScreenCell cell;
  for (int row = 0; row < rows_; ++row) {
    char move[32];
    std::snprintf(move, sizeof move, "\x1b[%d;1H", row + 1);
    out += move;
    for (int column = 0; column < columns_;) {
      vterm_screen_get_cell(screen_, VTermPos{row, column}, &cell);
      std::string sgr = sgr_of(cell);
      if (sgr != current_sgr) {
        out += sgr;
        current_sgr = std::move(sgr);
      }
      if (cell.chars[0] == 0) {
        out.push_back(' ');
      } else {
        for (int i = 0; i < VTERM_MAX_CHARS_PER_CELL && cell.chars[i] != 0; ++i) {
          append_utf8(out, cell.chars[i]);
        }
      }
      column += cell.width > 1 ? cell.width : 1;
    }
  }
  out += "\x1b[0m";
  VTermPos cursor;
  vterm_state_get_cursorpos(vterm_obtain_state(vterm_), &cursor);
  char move[32];
  std::snprintf(move, sizeof move, "\x1b[%d;%dH", cursor.row + 1, cursor.col + 1);
  out += move;
  if (cursor_visible_) out += "\x1b[?25h";
  return out;
}

std::string Screen::text() const {
  std::string out;
  VTermScreenCell cell;
  for (int row = 0; row < rows_; ++row) {
    std::string line;
    for (int column = 0; column < columns_;) {
      vterm_screen_get_cell(screen_, VTermPos{row, column}, &cell);
      if (cell.chars[0] == 0) {
        line.push_back(' ');
      } else {
        for (int i = 0; i < VTERM_MAX_CHARS_PER_CELL && cell.chars[i] != 0; ++i) {
          append_utf8(line, cell.chars[i]);
        }
      }
      column += cell.width > 1 ? cell.width : 1;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (row > 0) out.push_back('\n');
    out += line;
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace mission::daemon::terminal
