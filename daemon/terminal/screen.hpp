#pragma once
// What an agent's terminal shows now, kept by libvterm from the bytes the
// agent writes, so that a viewer attaching later gets the current screen
// in one repaint instead of a replay of everything ever written.

#include <functional>
#include <string>
#include <string_view>

struct VTerm;
struct VTermScreen;

namespace mission::daemon::terminal {

class Screen {
 public:
  Screen(unsigned short rows, unsigned short columns);
  ~Screen();
  Screen(const Screen&) = delete;
  Screen& operator=(const Screen&) = delete;

  // Feeds the agent's output.
  void feed(std::string_view bytes);
  void resize(unsigned short rows, unsigned short columns);

  unsigned short rows() const { return rows_; }
  unsigned short columns() const { return columns_; }

  // Bytes that draw the current screen on a terminal of the same size from
  // any state: screen modes, every cell with its attributes, the cursor.
  std::string repaint() const;

  // The screen's text, rows joined by "\n" with trailing blanks dropped (for
  // tests and plain views).
  std::string text() const;

  // Where libvterm's answers to the agent's queries (cursor position,
  // device attributes) go; none by default.
  void on_reply(std::function<void(std::string_view)> reply) { reply_ = std::move(reply); }

 private:
  static int on_property(int property, void* value, void* user);

  VTerm* vterm_;
  VTermScreen* screen_;
  unsigned short rows_;
  unsigned short columns_;
  bool alternate_ = false;
  bool cursor_visible_ = true;
  std::function<void(std::string_view)> reply_;
};

}  // namespace mission::daemon::terminal
