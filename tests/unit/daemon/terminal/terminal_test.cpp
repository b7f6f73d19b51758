#include <catch2/catch.hpp>
#include <chrono>

#include "daemon/terminal/screen.hpp"
#include "daemon/terminal/terminal_session.hpp"
#include "shared/terminal_frames.hpp"
#include "shared/terminal_limits.hpp"
#include "support/test_loop.hpp"

using mission::daemon::terminal::Screen;
using mission::daemon::terminal::TerminalSession;
using mission::daemon::terminal::Viewer;
using Loop = mission::test::TestLoop;

namespace {

class RecordingViewer : public Viewer {
 public:
  void send_output(std::string_view bytes) override { output += bytes; }
  void send_notice(std::string_view text) override { notices += std::string(text) + "\n"; }
  void send_end(const std::string& status) override { ended = status; }
  std::size_t backlog() const override { return queued; }
  std::string output;
  std::string notices;
  std::string ended;
  std::size_t queued = 0;
};

}  // namespace

TEST_CASE("a repaint draws the same screen on a fresh terminal") {
  Screen agent(10, 40);
  agent.feed(
      "\x1b[?1049h\x1b[2J\x1b[3;5H\x1b[1;31mred title\x1b[0m\r\n日本語 and 🚀\x1b[6;2Hcursor");
  Screen viewer(10, 40);
  viewer.feed("old junk on the viewer's screen\r\nmore");
  viewer.feed(agent.repaint());
  CHECK(viewer.text() == agent.text());
  CHECK(agent.text().find("    red title") != std::string::npos);
  CHECK(agent.repaint().find("\x1b[?1049h") == 0);
  // Wide characters take their two cells once, not twice.
  CHECK(agent.text().find("日本語 and 🚀") != std::string::npos);
}

TEST_CASE("the screen model answers the agent's queries only where told to") {
  Screen screen(24, 80);
  std::string replies;
  screen.on_reply([&](std::string_view bytes) { replies += bytes; });
  screen.feed("\x1b[5;7H\x1b[6n");
  CHECK(replies == "\x1b[5;7R");
}

TEST_CASE("the screen model answers the agent's queries while a viewer types") {
  // A viewer's terminal never sees the query (the CLI drops it): if the
  // model kept quiet, the agent would wait for ever.
  std::string typed;
  Loop loop;
  TerminalSession session(loop.get(), 24, 80,
                          {[&](std::string_view bytes) { typed += bytes; }, {}, {}});
  RecordingViewer typist;
  session.attach(typist, true, 0, 0);
  session.on_output("\x1b[3;4H\x1b[6n\x1b[c");
  CHECK(typed.find("\x1b[3;4R") == 0);
  CHECK(typed.find("c") != std::string::npos);  // the device attributes
}

TEST_CASE("viewers: one types and sets the size, the others watch") {
  std::string typed;
  unsigned short rows = 0;
  unsigned short columns = 0;
  Loop loop;
  TerminalSession session(loop.get(), 24, 80,
                          {[&](std::string_view bytes) { typed += bytes; },
                           [&](unsigned short r, unsigned short c) {
                             rows = r;
                             columns = c;
                           },
                           {}});
  session.on_output("hello");
  RecordingViewer first;
  session.attach(first, true, 30, 100);
  CHECK(rows == 30);
  CHECK(columns == 100);
  CHECK(first.output.find("hello") != std::string::npos);  // the repaint
  RecordingViewer second;
  session.attach(second, false, 10, 10);
  CHECK(rows == 30);  // a watcher does not resize
  session.input(first, "a");
  session.input(second, "b");
  CHECK(typed == "a");
  session.type("answer", true);
  loop.run();
  CHECK(typed == "aanswer\r");
  // A viewer that takes the keyboard leaves the other watching.
  RecordingViewer third;
  session.attach(third, true, 0, 0);
  CHECK(first.notices.find("took the keyboard") != std::string::npos);
  session.input(first, "x");
  CHECK(typed == "aanswer\r");
  session.end(R"({"state":"completed"})");
  CHECK(second.ended == R"({"state":"completed"})");
  CHECK(session.viewers() == 0);
}

TEST_CASE(
    "a size outside the terminal limits is refused with a notice and never reaches the model") {
  using namespace mission::limits;
  std::vector<std::pair<unsigned short, unsigned short>> sizes;
  Loop loop;
  TerminalSession session(
      loop.get(), 24, 80,
      {{}, [&](unsigned short r, unsigned short c) { sizes.emplace_back(r, c); }, {}});
  RecordingViewer typist;
  session.attach(typist, true, 65535, 65535);
  CHECK(typist.notices.find("65535x65535") != std::string::npos);
  CHECK(typist.notices.find("stays 24x80") != std::string::npos);
  for (auto [rows, columns] : {std::pair<unsigned short, unsigned short>{0, 80},
                               {24, 0},
                               {static_cast<unsigned short>(kMaxTerminalRows + 1), 80},
                               {24, static_cast<unsigned short>(kMaxTerminalColumns + 1)}}) {
    typist.notices.clear();
    session.resize(typist, rows, columns);
    CHECK(typist.notices.find("was refused") != std::string::npos);
  }
  CHECK(sizes.empty());
  CHECK(session.screen().rows() == 24);
  CHECK(session.screen().columns() == 80);
  session.resize(typist, kMaxTerminalRows, kMaxTerminalColumns);
  REQUIRE(sizes.size() == 1);
  CHECK(session.screen().rows() == kMaxTerminalRows);
  CHECK(session.screen().columns() == kMaxTerminalColumns);
  // The model itself never takes more, whoever asks.
  Screen screen(60000, 60000);
  CHECK(screen.rows() == kMaxTerminalRows);
  screen.resize(0, 0);
  CHECK(screen.rows() == kMinTerminalRows);
  CHECK(screen.columns() == kMinTerminalColumns);
}

TEST_CASE("resizes back to back reach the model once an interval, and the last one follows") {
  // Each resize near the largest size costs the loop tens of ms: a viewer
  // sending them back to back had the daemon answer nobody for minutes.
  using namespace mission::limits;
  std::vector<std::pair<unsigned short, unsigned short>> sizes;
  Loop loop;
  TerminalSession session(
      loop.get(), 24, 80,
      {{}, [&](unsigned short r, unsigned short c) { sizes.emplace_back(r, c); }, {}});
  RecordingViewer typist;
  session.attach(typist, true, 0, 0);
  uv_update_time(loop.get());
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 1000; ++i) {
    session.resize(typist, i % 2 == 0 ? kMaxTerminalRows : kMaxTerminalRows - 1,
                   kMaxTerminalColumns);
  }
  session.resize(typist, 40, 120);
  // The first at once; the 1,000 others wait, and only the last is kept.
  REQUIRE(sizes.size() == 1);
  CHECK(sizes[0] ==
        std::pair<unsigned short, unsigned short>{kMaxTerminalRows, kMaxTerminalColumns});
  loop.run();
  REQUIRE(sizes.size() == 2);
  CHECK(sizes[1] == std::pair<unsigned short, unsigned short>{40, 120});
  CHECK(std::chrono::steady_clock::now() - start >=
        std::chrono::milliseconds(kTerminalResizeIntervalMs - 10));
  CHECK(session.screen().rows() == 40);
  CHECK(session.screen().columns() == 120);
  // Once the interval has passed with nothing asked, the next one is at once.
  session.resize(typist, 30, 100);
  CHECK(sizes.size() == 3);
  loop.run();
  // A size asked for that is the one the terminal has costs nothing.
  session.resize(typist, 30, 100);
  CHECK(sizes.size() == 3);
}

TEST_CASE("typed text gets its Enter after a pause, and keys typed meanwhile follow it") {
  // Codex takes keys arriving together for a paste, and an Enter among
  // them for a newline in it: a person's Enter comes after the text.
  std::string typed;
  std::vector<std::chrono::steady_clock::time_point> writes;
  Loop loop;
  TerminalSession session(loop.get(), 24, 80,
                          {[&](std::string_view bytes) {
                             typed += bytes;
                             writes.push_back(std::chrono::steady_clock::now());
                           },
                           {},
                           {}});
  uv_update_time(loop.get());  // as the loop does each turn
  const auto start = std::chrono::steady_clock::now();
  session.type("say hello", true);
  CHECK(typed == "say hello");  // the text at once, the Enter not yet
  session.type("/exit", true);
  session.type("no enter", false);
  RecordingViewer typist;
  session.attach(typist, true, 0, 0);
  session.input(typist, "k");
  CHECK(typed == "say hello");  // all of it waits behind the first Enter
  loop.run();
  CHECK(typed == "say hello\r/exit\rno enterk");
  // libuv times from its loop's clock, read once a turn in whole
  // milliseconds: a few ms of slack.
  const auto pause = std::chrono::milliseconds(mission::limits::kTypedEnterPauseMs - 10);
  REQUIRE(writes.size() == 6);
  CHECK(writes[1] - start >= pause);      // the first Enter
  CHECK(writes[3] - writes[2] >= pause);  // the second, after its own text
  // With nothing waiting, a typist's keys go at once.
  session.input(typist, "x");
  CHECK(typed.back() == 'x');
  session.type("", true);
  CHECK(typed.back() == 'x');
  loop.run();
  CHECK(typed.back() == '\r');
}

TEST_CASE("a viewer that falls behind gets a repaint instead of the bytes it missed") {
  Loop loop;
  TerminalSession session(loop.get(), 5, 20, {});
  RecordingViewer slow;
  session.attach(slow, false, 0, 0);
  slow.output.clear();
  slow.queued = 100 * 1024 * 1024;
  session.on_output("missed");
  CHECK(slow.output.empty());
  slow.queued = 0;
  session.on_output(" then");
  CHECK(slow.output.find("\x1b[2J") != std::string::npos);
  CHECK(slow.output.find("missed then") != std::string::npos);
}

TEST_CASE("a viewer that goes away detaches itself") {
  Loop loop;
  TerminalSession session(loop.get(), 5, 20, {});
  {
    RecordingViewer gone;
    session.attach(gone, true, 0, 0);
    CHECK(session.viewers() == 1);
  }
  CHECK(session.viewers() == 0);
  CHECK_FALSE(session.has_typist());
}

TEST_CASE("terminal frames survive arbitrary chunking") {
  using namespace mission::terminal_frames;
  std::string stream =
      encode(kOutput, "abc") + encode_resize(30, 100) + encode(kInput, std::string(70000, 'x'));
  Decoder decoder;
  std::vector<Frame> frames;
  for (std::size_t at = 0; at < stream.size(); at += 7) {
    decoder.feed(std::string_view(stream).substr(at, 7));
    while (auto frame = decoder.next()) frames.push_back(*frame);
  }
  REQUIRE(frames.size() == 3);
  CHECK(frames[0].payload == "abc");
  unsigned short rows = 0;
  unsigned short columns = 0;
  REQUIRE(decode_resize(frames[1].payload, rows, columns));
  CHECK(rows == 30);
  CHECK(columns == 100);
  CHECK(frames[2].payload.size() == 70000);
  Decoder hostile;
  hostile.feed(std::string("o\xff\xff\xff\xff", 5));
  CHECK_THROWS_AS(hostile.next(), std::length_error);
}

TEST_CASE("a burst of output shows its last lines without feeding all of it to the model") {
  Loop loop;
  TerminalSession session(loop.get(), 5, 40, {});
  std::string burst;
  for (int i = 0; i < 200000; ++i) burst += "line " + std::to_string(i) + "\r\n";
  for (std::size_t at = 0; at < burst.size(); at += 65536) {
    session.on_output(std::string_view(burst).substr(at, 65536));
  }
  const std::string text = session.screen().text();
  CHECK(text.find("line 199999") != std::string::npos);
  CHECK(text.find("line 199996") != std::string::npos);
  RecordingViewer late;
  session.attach(late, false, 0, 0);
  CHECK(late.output.find("line 199999") != std::string::npos);
}

TEST_CASE(
    "a burst in reads of a few KiB, then a quiet line, leaves the screen at the burst's end") {
  Loop loop;
  TerminalSession session(loop.get(), 5, 40, {});
  RecordingViewer viewer;
  session.attach(viewer, false, 0, 0);
  viewer.output.clear();
  std::string burst;
  for (int i = 0; i < 100000; ++i) burst += "row " + std::to_string(i) + "\r\n";
  for (std::size_t at = 0; at < burst.size(); at += 4095) {
    session.on_output(std::string_view(burst).substr(at, 4095));
  }
  // The viewer got every byte, whatever the model kept.
  CHECK(viewer.output == burst);
  const std::string text = session.screen().text();
  CHECK(text.find("row 99999") != std::string::npos);
  CHECK(text.find("row 99996") != std::string::npos);
  CHECK(text.find("row 99995") == std::string::npos);
}

TEST_CASE("a query after a burst is answered once the agent is quiet, with no viewer attached") {
  // A program that writes a lot, then asks where the cursor is and waits:
  // the model lags behind a burst, and nothing more comes to make it catch up.
  std::string answered;
  Loop loop;
  TerminalSession session(loop.get(), 5, 40,
                          {[&](std::string_view bytes) { answered += bytes; }, {}, {}});
  uv_update_time(loop.get());
  std::string burst;
  for (int i = 0; i < 10000; ++i) burst += "line " + std::to_string(i) + "\r\n";
  for (std::size_t at = 0; at < burst.size(); at += 4096) {
    session.on_output(std::string_view(burst).substr(at, 4096));
  }
  session.on_output("\x1b[2;3H\x1b[6n");
  CHECK(answered.empty());  // still behind
  loop.run();
  CHECK(answered == "\x1b[2;3R");
}

TEST_CASE("the screen is looked at once its output settles, not once per write") {
  Loop loop;
  TerminalSession session(loop.get(), 24, 80, {});
  int settled = 0;
  std::string seen;
  session.on_settled([&] {
    ++settled;
    seen = session.screen().text();
  });
  for (int i = 0; i < 100; ++i) session.on_output("line " + std::to_string(i) + "\r\n");
  loop.run();
  CHECK(settled == 1);
  // The model is up to date when it is looked at.
  CHECK(seen.find("line 99") != std::string::npos);
  session.on_output("more\r\n");
  loop.run();
  CHECK(settled == 2);
}
