#include "cli/log_follower.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "cli/output.hpp"
#include "shared/agent_stream.hpp"
#include "shared/display_text.hpp"
#include "shared/limits.hpp"

namespace mission::cli {
namespace {

// Where a log line (or an unfinished one) of the agent goes: its stderr to
// ours, the rest to stdout.
std::FILE* sink_of(const nlohmann::json& line) {
  return line.value("stream", "") == "stderr" ? stderr : stdout;
}

}  // namespace

std::uint64_t print_log_lines(const nlohmann::json& page, bool json_lines,
                              std::uint64_t last_printed, bool raw) {
  // Streaming JSON from a headless agent is shown as steps; --raw and
  // --json keep the bytes.
  const StreamDecoder* decoder =
      raw || json_lines ? nullptr : find_stream_decoder(page.value("outputFormat", ""));
  for (const auto& line : page.value("lines", nlohmann::json::array())) {
    std::uint64_t number = line.value("n", std::uint64_t{0});
    if (number <= last_printed) continue;
    last_printed = number;
    if (json_lines) {
      std::printf("%s\n", json_text(line).c_str());
      continue;
    }
    std::FILE* sink = sink_of(line);
    if (decoder != nullptr && sink == stdout) {
      const std::string raw_text = line.value("text", "");
      if (auto steps = decode_stream_line(*decoder, raw_text)) {
        for (const auto& step : *steps) {
          for (const auto& rendered : render_stream_step(step, output_columns())) {
            std::fprintf(stdout, "%s\n", rendered.c_str());
          }
        }
      } else {
        // Not an event (a warning the agent printed): as it is.
        std::fprintf(stdout, "%s\n", text::neutralised(raw_text).c_str());
      }
      continue;
    }
    std::string text = raw ? line.value("text", "") : text::neutralised(line.value("text", ""));
    text.push_back('\n');
    std::fwrite(text.data(), 1, text.size(), sink);
  }
  std::fflush(stdout);
  return last_printed;
}

void print_partial_lines(const nlohmann::json& page, bool raw) {
  for (const auto& line : page.value("partialLines", nlohmann::json::array())) {
    std::FILE* sink = sink_of(line);
    std::string text = raw ? line.value("text", "") : text::neutralised(line.value("text", ""));
    text.push_back('\n');
    std::fwrite(text.data(), 1, text.size(), sink);
  }
  std::fflush(stdout);
}

namespace {

// What a followed agent printed after its last newline (a question waiting
// for its answer), shown on the terminal while it waits and erased before
// the next complete lines, which hold it. Only on a terminal, and only a
// prompt that fits on one row, so that erasing it is one carriage return.
class PendingPrompt {
 public:
  explicit PendingPrompt(bool enabled) : enabled_(enabled) {}

  void erase() {
    if (shown_ == nullptr) return;
    std::fputs("\r\x1b[K", shown_);
    std::fflush(shown_);
    shown_ = nullptr;
    text_.clear();
  }

  void show(const nlohmann::json& page) {
    // Streaming JSON is shown as steps: half an event is not one.
    if (!enabled_ || page.contains("outputFormat")) return;
    for (const auto& line : page.value("partialLines", nlohmann::json::array())) {
      std::FILE* sink = sink_of(line);
      if (::isatty(::fileno(sink)) != 1) continue;
      std::string text = text::neutralised(line.value("text", ""));
      if (text.empty() || text::display_width(text) >= output_columns()) continue;
      if (sink == shown_ && text == text_) return;
      erase();
      std::fwrite(text.data(), 1, text.size(), sink);
      std::fflush(sink);
      shown_ = sink;
      text_ = std::move(text);
      return;
    }
    erase();
  }

 private:
  bool enabled_;
  std::FILE* shown_ = nullptr;
  std::string text_;
};

}  // namespace

nlohmann::json follow_log(DaemonClient& client, const std::string& execution_id,
                          std::uint64_t after, bool json_lines,
                          const std::function<void()>& between_polls, bool raw) {
  // Waits of a quarter of the time followed so far: a quick agent is seen
  // ending within a millisecond or so, a long one costs a request every
  // kFollowPollMs.
  const auto started = std::chrono::steady_clock::now();
  PendingPrompt prompt(!json_lines && !raw);
  for (;;) {
    nlohmann::json page =
        client.call("execution.logs",
                    {{"id", execution_id}, {"after", after}, {"limit", limits::kFollowPageLines}});
    const std::size_t count = page.value("lines", nlohmann::json::array()).size();
    if (count > 0) prompt.erase();
    after = print_log_lines(page, json_lines, after, raw);
    // A full page means more is waiting; a final execution with a short
    // page has nothing left to say.
    if (count >= limits::kFollowPageLines) continue;
    prompt.show(page);
    if (page.value("final", false)) return page;
    if (between_polls) between_polls();
    const auto followed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - started);
    const int wait_ms = std::clamp(static_cast<int>(followed.count() / 4),
                                   limits::kFollowPollInitialMs, limits::kFollowPollMs);
    std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
  }
}

}  // namespace mission::cli
