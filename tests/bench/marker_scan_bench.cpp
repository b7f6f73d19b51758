// Scanning throughput of the stdout MarkerReader over realistic agent output,
// fed in 64 KiB chunks as libuv delivers it. Usage:
//   mission_marker_bench [MiB=256] [passes=5]
// Exits 1 if the reader finds the wrong markers.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "shared/marker_reader.hpp"

namespace {

constexpr std::size_t kChunkBytes = 64 * 1024;

struct Rng {  // xorshift64*: fast and reproducible
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  std::uint64_t next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545f4914f6cdd1dull;
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
};

const std::vector<std::string_view> kWords = {"compiling",
                                              "src/main.rs",
                                              "test",
                                              "passed",
                                              "failed",
                                              "warning:",
                                              "error[E0308]:",
                                              "npm",
                                              "@types/node",
                                              "user@example.com",
                                              "=>",
                                              "{",
                                              "}",
                                              "const",
                                              "function",
                                              "return",
                                              "42",
                                              "0.153s",
                                              "ok",
                                              "running",
                                              "Reading",
                                              "file",
                                              "/home/user/project/src/index.ts",
                                              "at",
                                              "Object.<anonymous>",
                                              "(node:internal/modules/cjs/loader:1105:14)",
                                              "✓",
                                              "✗",
                                              "—",
                                              "build",
                                              "Finished",
                                              "release",
                                              "[optimized]",
                                              "target(s)",
                                              "in",
                                              "diff",
                                              "--git",
                                              "a/b"};

// Lines of 20-200 characters: plain text, indented stack frames, coloured
// status lines, progress lines with erase-line codes, some '@' in the text.
void append_line(Rng& rng, std::string& out) {
  const std::size_t target = 20 + rng.below(181);
  const std::size_t kind = rng.below(10);
  const std::size_t start = out.size();
  if (kind == 0) out += "    ";
  if (kind == 1) out += "\x1b[32m";
  if (kind == 2) out += "\x1b[1;31m";
  if (kind == 3) out += "\x1b[2K\x1b[G";
  while (out.size() - start < target) {
    out += kWords[rng.below(kWords.size())];
    out += ' ';
  }
  out.resize(start + target);
  if (kind == 1 || kind == 2) out += "\x1b[0m";
  out += '\n';
}

std::string make_output(std::size_t bytes, std::size_t marker_every, std::size_t& markers) {
  Rng rng;
  std::string out;
  out.reserve(bytes + 4096);
  markers = 0;
  std::size_t line = 0;
  while (out.size() < bytes) {
    if (marker_every != 0 && ++line % marker_every == 0) {
      out += mission::kMarkerPrefix;
      out += R"({"version":1,"agentExecutionId":"ae-0123456789","eventId":"ev-)";
      out += std::to_string(markers);
      out += R"(","signal":{"type":"progress","summary":"step done"}})";
      out += '\n';
      ++markers;
    } else {
      append_line(rng, out);
    }
  }
  return out;
}

struct Pass {
  double seconds;
  std::size_t markers;
};

Pass scan(std::string_view data) {
  mission::MarkerReader reader;
  std::vector<mission::MarkerLine> found;
  std::size_t markers = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t at = 0; at < data.size(); at += kChunkBytes) {
    reader.feed(data.substr(at, kChunkBytes), found);
    markers += found.size();
    found.clear();
  }
  reader.finish(found);
  markers += found.size();
  const auto stop = std::chrono::steady_clock::now();
  return {std::chrono::duration<double>(stop - start).count(), markers};
}

bool run(const char* label, std::size_t bytes, std::size_t marker_every, int passes) {
  std::size_t expected = 0;
  const std::string data = make_output(bytes, marker_every, expected);
  std::vector<double> seconds;
  for (int i = 0; i < passes; ++i) {
    const Pass pass = scan(data);
    if (pass.markers != expected) {
      std::fprintf(stderr, "%s: found %zu markers, expected %zu\n", label, pass.markers, expected);
      return false;
    }
    seconds.push_back(pass.seconds);
  }
  std::sort(seconds.begin(), seconds.end());
  const double gb = static_cast<double>(data.size()) / 1e9;
  const double median = seconds[seconds.size() / 2];
  std::printf("%-24s %7.1f MiB x %d: best %6.2f GB/s, median %6.2f GB/s", label,
              static_cast<double>(data.size()) / (1024.0 * 1024.0), passes, gb / seconds.front(),
              gb / median);
  if (expected != 0) {
    std::printf(", %zu markers/pass, %.2f M markers/s", expected,
                static_cast<double>(expected) / median / 1e6);
  }
  std::printf("\n");
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 256;
  const int passes = argc > 2 ? std::atoi(argv[2]) : 5;
  if (mib == 0 || passes <= 0) {
    std::fprintf(stderr, "usage: %s [MiB=256] [passes=5]\n", argv[0]);
    return 2;
  }
  const std::size_t bytes = mib * 1024 * 1024;
  bool ok = run("no markers", bytes, 0, passes);
  ok = run("1 marker / 100 lines", bytes, 100, passes) && ok;
  return ok ? 0 : 1;
}
