// Runs a libFuzzer target without libFuzzer, so that the GCC build with
// AddressSanitizer and UndefinedBehaviorSanitizer fuzzes every target in the
// ordinary test suite (ADR 0021). No coverage feedback: it replays the seed
// corpus, then runs seeded random mutations of the seeds (byte flips,
// inserts, deletes, copies, splices of two seeds, dictionary tokens) for a
// bounded time and count. The coverage-guided long run is scripts/fuzz.sh.
//
//   driver [--seconds N] [--runs N] [--seed N] [--dict FILE] [--crash FILE] CORPUS_DIR
//   driver FILE...     replays these inputs only (a crash file, say)
//
// Before each input runs it is the "current input"; a crash, a sanitizer
// report, an abort or an input that runs past kInputTimeoutSeconds writes it
// to the crash file and names that file on stderr, then the process dies as
// it would have. FUZZ_SECONDS and FUZZ_SEED in the environment override the
// defaults (a longer local run: FUZZ_SECONDS=300 ctest -R fuzz:).
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define MISSION_DRIVER_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MISSION_DRIVER_SANITIZED 1
#endif
#endif
#ifdef MISSION_DRIVER_SANITIZED
#include <sanitizer/common_interface_defs.h>
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));

namespace {

// The CI budget per target: whichever comes first.
constexpr double kDefaultSeconds = 3.0;
constexpr std::uint64_t kDefaultMaxRuns = 1000000;
// An input that runs longer than this is a hang, reported like a crash.
constexpr unsigned kInputTimeoutSeconds = 25;
// Mutated inputs stay below this size (libFuzzer's -max_len in run_fuzz.sh
// is larger; the seeds here are small).
constexpr std::size_t kMaxInputBytes = 64 * 1024;
// Mutations stacked on one seed, at most.
constexpr int kMaxStackedMutations = 8;

// The input being run, for the crash handlers (no allocation there).
const std::uint8_t* g_current = nullptr;
std::size_t g_current_size = 0;
char g_crash_path[4096] = "fuzz-crash";

void write_all(int fd, const void* data, std::size_t size) {
  const char* at = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t n = ::write(fd, at, size);
    if (n <= 0) return;
    at += n;
    size -= static_cast<std::size_t>(n);
  }
}

void say(const char* text) {
  write_all(2, text, std::strlen(text));
}

// Async-signal-safe: open, write, close.
void save_current_input() {
  static volatile sig_atomic_t saved = 0;
  if (saved) return;
  saved = 1;
  if (g_current == nullptr) {
    say("\n==fuzz driver== no input was running (a report at exit, such as a leak)\n");
    return;
  }
  int fd = ::open(g_crash_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd >= 0) {
    write_all(fd, g_current, g_current_size);
    ::close(fd);
  }
  say("\n==fuzz driver== the failing input is in ");
  say(g_crash_path);
  say(" (replay: the driver with that file as its argument)\n");
}

void on_fatal_signal(int signal_number) {
  if (signal_number == SIGALRM)
    say("\n==fuzz driver== an input ran past the time limit (a hang)\n");
  save_current_input();
  ::signal(signal_number == SIGALRM ? SIGABRT : signal_number, SIG_DFL);
  ::raise(signal_number == SIGALRM ? SIGABRT : signal_number);
}

void install_handlers() {
#ifdef MISSION_DRIVER_SANITIZED
  // Sanitizer reports end in Die(), which calls this before aborting.
  __sanitizer_set_death_callback(save_current_input);
#endif
  // SIGSEGV stays with AddressSanitizer, which reports it and then dies
  // through the callback; without a sanitizer it comes here.
  int signals[] = {SIGILL, SIGABRT, SIGFPE, SIGBUS, SIGALRM,
#ifndef MISSION_DRIVER_SANITIZED
                   SIGSEGV
#endif
  };
  for (int signal_number : signals) {
    struct sigaction action {};
    action.sa_handler = on_fatal_signal;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal_number, &action, nullptr);
  }
}

using Bytes = std::vector<std::uint8_t>;

Bytes read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// libFuzzer's dictionary format: one "token" a line, with \\, \" and \xNN.
std::vector<Bytes> read_dictionary(const std::filesystem::path& path) {
  std::vector<Bytes> tokens;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::size_t open = line.find('"');
    std::size_t close = line.rfind('"');
    if (line.empty() || line[0] == '#' || open == std::string::npos || close <= open) continue;
    Bytes token;
    for (std::size_t i = open + 1; i < close; ++i) {
      if (line[i] == '\\' && i + 1 < close) {
        char next = line[++i];
        if (next == 'x' && i + 2 < close) {
          token.push_back(static_cast<std::uint8_t>(std::stoi(line.substr(i + 1, 2), nullptr, 16)));
          i += 2;
        } else {
          token.push_back(static_cast<std::uint8_t>(next));
        }
      } else {
        token.push_back(static_cast<std::uint8_t>(line[i]));
      }
    }
    tokens.push_back(std::move(token));
  }
  return tokens;
}

void run_one(const Bytes& input) {
  g_current = input.data();
  g_current_size = input.size();
  ::alarm(kInputTimeoutSeconds);
  LLVMFuzzerTestOneInput(input.data(), input.size());
  ::alarm(0);
  // The input is freed after this; a report at exit (a leak) names none.
  g_current = nullptr;
  g_current_size = 0;
}

class Mutator {
 public:
  Mutator(std::uint64_t seed, const std::vector<Bytes>& seeds, const std::vector<Bytes>& dictionary)
      : random_(seed), seeds_(seeds), dictionary_(dictionary) {}

  Bytes next() {
    Bytes data = seeds_.empty() ? Bytes{} : seeds_[below(seeds_.size())];
    int stacked = 1 + static_cast<int>(below(kMaxStackedMutations));
    for (int i = 0; i < stacked; ++i) mutate(data);
    if (data.size() > kMaxInputBytes) data.resize(kMaxInputBytes);
    return data;
  }

 private:
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(random_() % n); }

  void mutate(Bytes& data) {
    switch (below(8)) {
      case 0:  // flip a bit
        if (!data.empty()) data[below(data.size())] ^= static_cast<std::uint8_t>(1u << below(8));
        break;
      case 1:  // a random byte somewhere
        data.insert(data.begin() + static_cast<std::ptrdiff_t>(below(data.size() + 1)),
                    static_cast<std::uint8_t>(random_()));
        break;
      case 2: {  // delete a run
        if (data.empty()) break;
        std::size_t at = below(data.size());
        std::size_t count = 1 + below(std::min<std::size_t>(data.size() - at, 16));
        data.erase(data.begin() + static_cast<std::ptrdiff_t>(at),
                   data.begin() + static_cast<std::ptrdiff_t>(at + count));
        break;
      }
      case 3: {  // copy a run of itself elsewhere
        if (data.empty()) break;
        std::size_t from = below(data.size());
        std::size_t count = 1 + below(std::min<std::size_t>(data.size() - from, 64));
        Bytes run(data.begin() + static_cast<std::ptrdiff_t>(from),
                  data.begin() + static_cast<std::ptrdiff_t>(from + count));
        data.insert(data.begin() + static_cast<std::ptrdiff_t>(below(data.size() + 1)), run.begin(),
                    run.end());
        break;
      }
      case 4: {  // splice: the head of this one and the tail of another seed
        if (seeds_.empty()) break;
        const Bytes& other = seeds_[below(seeds_.size())];
        data.resize(below(data.size() + 1));
        std::size_t from = below(other.size() + 1);
        data.insert(data.end(), other.begin() + static_cast<std::ptrdiff_t>(from), other.end());
        break;
      }
      case 5:
      case 6: {  // a dictionary token, inserted or written over
        if (dictionary_.empty()) break;
        const Bytes& token = dictionary_[below(dictionary_.size())];
        std::size_t at = below(data.size() + 1);
        if (below(2) == 0 || at + token.size() > data.size()) {
          data.insert(data.begin() + static_cast<std::ptrdiff_t>(at), token.begin(), token.end());
        } else {
          std::copy(token.begin(), token.end(), data.begin() + static_cast<std::ptrdiff_t>(at));
        }
        break;
      }
      default: {  // an interesting byte: an edge of a range
        static constexpr std::uint8_t kInteresting[] = {0,    1,   0x7f, 0x80, 0xff,
                                                        '\n', '"', '\\', '{',  '['};
        if (!data.empty()) data[below(data.size())] = kInteresting[below(sizeof kInteresting)];
        break;
      }
    }
  }

  std::mt19937_64 random_;
  const std::vector<Bytes>& seeds_;
  const std::vector<Bytes>& dictionary_;
};

}  // namespace

int main(int argc, char** argv) {
  double seconds = kDefaultSeconds;
  std::uint64_t max_runs = kDefaultMaxRuns;
  std::uint64_t seed =
      static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  if (const char* value = std::getenv("FUZZ_SECONDS")) seconds = std::atof(value);
  if (const char* value = std::getenv("FUZZ_SEED")) seed = std::strtoull(value, nullptr, 10);
  std::filesystem::path dictionary_path;
  std::vector<std::filesystem::path> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--seconds") {
      seconds = std::atof(value().c_str());
    } else if (arg == "--runs") {
      max_runs = std::strtoull(value().c_str(), nullptr, 10);
    } else if (arg == "--seed") {
      seed = std::strtoull(value().c_str(), nullptr, 10);
    } else if (arg == "--dict") {
      dictionary_path = value();
    } else if (arg == "--crash") {
      std::string path = value();
      std::snprintf(g_crash_path, sizeof g_crash_path, "%s", path.c_str());
    } else {
      inputs.emplace_back(arg);
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr,
                 "usage: %s [--seconds N] [--runs N] [--seed N] [--dict FILE] [--crash FILE] "
                 "CORPUS_DIR | FILE...\n",
                 argv[0]);
    return 2;
  }
  g_crash_path[sizeof g_crash_path - 1] = '\0';
  install_handlers();
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);

  std::vector<Bytes> seeds;
  bool replay_only = true;
  for (const auto& input : inputs) {
    if (std::filesystem::is_directory(input)) {
      replay_only = false;
      std::vector<std::filesystem::path> files;
      for (const auto& entry : std::filesystem::directory_iterator(input)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
      for (const auto& file : files) seeds.push_back(read_file(file));
    } else {
      seeds.push_back(read_file(input));
    }
  }
  const auto started = std::chrono::steady_clock::now();
  for (const Bytes& input : seeds) run_one(input);
  std::printf("replayed %zu corpus inputs\n", seeds.size());
  if (replay_only) return 0;

  std::vector<Bytes> dictionary;
  if (!dictionary_path.empty()) dictionary = read_dictionary(dictionary_path);
  Mutator mutator(seed, seeds, dictionary);
  std::uint64_t runs = 0;
  const auto deadline = started + std::chrono::duration<double>(seconds);
  while (runs < max_runs && std::chrono::steady_clock::now() < deadline) {
    Bytes input = mutator.next();
    run_one(input);
    ++runs;
  }
  double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("Done %llu mutated runs in %.1f s (seed %llu, %zu dictionary tokens, %.0f exec/s)\n",
              static_cast<unsigned long long>(runs), elapsed, static_cast<unsigned long long>(seed),
              dictionary.size(), elapsed > 0 ? static_cast<double>(runs) / elapsed : 0.0);
  return 0;
}
