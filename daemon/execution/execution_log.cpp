#include "daemon/execution/execution_log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "shared/error_code.hpp"
#include "shared/fault_points.hpp"

namespace mission::daemon::execution {
namespace {

struct IndexRecord {
  std::uint64_t offset = 0;
  std::uint32_t length = 0;
  char stream = 'o';
  std::uint8_t flags = 0;
};

void put_le(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

std::uint64_t get_le(const unsigned char* in, int bytes) {
  std::uint64_t value = 0;
  for (int i = bytes - 1; i >= 0; --i) value = (value << 8) | in[i];
  return value;
}

void encode(std::string& out, const IndexRecord& record) {
  put_le(out, record.offset, 8);
  put_le(out, record.length, 4);
  out.push_back(record.stream);
  out.push_back(static_cast<char>(record.flags));
  put_le(out, 0, 2);
}

IndexRecord decode(const unsigned char* in) {
  IndexRecord record;
  record.offset = get_le(in, 8);
  record.length = static_cast<std::uint32_t>(get_le(in + 8, 4));
  record.stream = in[12] == 'e' ? 'e' : 'o';
  record.flags = in[13];
  return record;
}

std::string errno_text(int error) {
  return std::strerror(error);
}

// The id names two files: it must be a plain file name.
void check_execution_id(const std::string& id) {
  if (id.empty() || id == "." || id == ".." || id.find('/') != std::string::npos ||
      id.find('\0') != std::string::npos) {
    throw MissionError(ErrorCode::invalid_argument,
                       "'" + id + "' is not a valid agent execution id",
                       "check the id with 'mission exec list'");
  }
}

// mkdir -p, with 0700 for every directory it has to create.
void make_private_directories(const std::filesystem::path& directory) {
  std::filesystem::path path;
  for (const auto& part : directory) {
    path /= part;
    if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
      int error = errno;
      throw MissionError(ErrorCode::internal,
                         "cannot create " + path.string() + ": " + errno_text(error),
                         "check that the state dir is writable");
    }
  }
}

bool write_all(int fd, std::string_view bytes) {
  if (auto fault = faults::hit(faults::FaultPoint::log_write);
      fault == faults::FaultAction::fail || fault == faults::FaultAction::full) {
    errno = fault == faults::FaultAction::full ? ENOSPC : EIO;
    return false;
  }
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// Reads exactly `size` bytes at `offset`; false on an error or end of file
// (errno is 0 for the latter).
bool pread_all(int fd, void* buffer, std::size_t size, std::uint64_t offset) {
  auto* out = static_cast<char*>(buffer);
  while (size > 0) {
    ssize_t n = ::pread(fd, out, size, static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (n == 0) {
      errno = 0;
      return false;
    }
    out += n;
    size -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
  return true;
}

// Where to cut a run of text that is longer than `max`: at `max`, or a few
// bytes before it so a UTF-8 sequence is not split.
std::size_t cut_point(std::string_view text, std::size_t max) {
  std::size_t cut = max;
  while (cut > max - 3 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80) --cut;
  if ((static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80) return max;  // not UTF-8
  return cut;
}

std::string_view without_cr(std::string_view text) {
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return text;
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

int open_log_file(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0 || ::fchmod(fd, 0600) != 0) {
    int error = errno;
    if (fd >= 0) ::close(fd);
    throw MissionError(ErrorCode::internal,
                       "cannot open execution log " + path.string() + ": " + errno_text(error),
                       "check that the state dir is writable");
  }
  return fd;
}

[[noreturn]] void damaged(const std::filesystem::path& path, const std::string& what) {
  throw MissionError(ErrorCode::internal, "execution log " + path.string() + " " + what,
                     "the log is damaged; its execution's output cannot be shown");
}

std::string limit_notice(std::uint64_t max_log_bytes) {
  return "[mission: log limit of " + std::to_string(max_log_bytes) +
         " bytes reached; further output is dropped]";
}

}  // namespace

ExecutionLogWriter::ExecutionLogWriter(std::filesystem::path directory, std::string execution_id,
                                       std::uint64_t max_log_bytes)
    : execution_id_(std::move(execution_id)),
      max_log_bytes_(max_log_bytes),
      notice_(limit_notice(max_log_bytes)) {
  check_execution_id(execution_id_);
  make_private_directories(directory);
  log_path_ = directory / (execution_id_ + ".log");
  index_path_ = directory / (execution_id_ + ".idx");
  Fd log(open_log_file(log_path_));
  Fd index(open_log_file(index_path_));

  // Continue existing files, without what a crash left half-written: a
  // partial last record, records whose text never reached the log, text that
  // no record points at.
  struct stat log_stat {};
  struct stat index_stat {};
  if (::fstat(log.get(), &log_stat) != 0 || ::fstat(index.get(), &index_stat) != 0) {
    int error = errno;
    throw MissionError(ErrorCode::internal, "cannot open execution log " + log_path_.string() +
                                                ": " + errno_text(error));
  }
  const auto log_size = static_cast<std::uint64_t>(log_stat.st_size);
  std::uint64_t lines = static_cast<std::uint64_t>(index_stat.st_size) / kLogIndexRecordBytes;
  IndexRecord last;
  while (lines > 0) {
    unsigned char raw[kLogIndexRecordBytes];
    if (!pread_all(index.get(), raw, sizeof raw, (lines - 1) * kLogIndexRecordBytes)) break;
    last = decode(raw);
    if (last.offset + last.length + 1 <= log_size) break;
    --lines;
  }
  const std::uint64_t log_end = lines == 0 ? 0 : last.offset + last.length + 1;
  if (::ftruncate(index.get(), static_cast<off_t>(lines * kLogIndexRecordBytes)) != 0 ||
      ::ftruncate(log.get(), static_cast<off_t>(log_end)) != 0) {
    int error = errno;
    throw MissionError(ErrorCode::internal, "cannot open execution log " + log_path_.string() +
                                                ": " + errno_text(error));
  }
  lines_ = lines;
  log_size_ = log_end;
  if (lines > 0 && last.stream == 'e' && last.length == notice_.size()) {
    std::string text(last.length, '\0');
    if (pread_all(log.get(), text.data(), text.size(), last.offset) && text == notice_) {
      full_ = true;
    }
  }
  log_fd_ = log.release();
  index_fd_ = index.release();
}

ExecutionLogWriter::~ExecutionLogWriter() {
  close();
}

void ExecutionLogWriter::append(char stream, std::string_view bytes) {
  if (closed_ || full_) {
    dropped_ += bytes.size();
    return;
  }
  Stream& s = stream == 'e' ? err_ : out_;
  std::size_t pos = 0;
  while (pos < bytes.size() && !full_) {
    std::size_t newline = bytes.find('\n', pos);
    if (newline == std::string_view::npos) {
      s.partial.append(bytes.substr(pos));
      pos = bytes.size();
      take_oversized_partial(s);
      break;
    }
    std::string_view line = bytes.substr(pos, newline - pos);
    std::uint64_t raw_bytes = s.partial.size() + line.size() + 1;
    pos = newline + 1;
    if (!s.partial.empty()) {
      s.partial.append(line);
      line = s.partial;
    }
    line = without_cr(line);
    // A long line is stored in pieces; only the last is not continued.
    while (line.size() > limits::kMaxLogLineBytes && !full_) {
      std::size_t cut = cut_point(line, limits::kMaxLogLineBytes);
      take_line(s.name, line.substr(0, cut), true, cut);
      raw_bytes -= cut;
      line.remove_prefix(cut);
    }
    if (full_) {
      dropped_ += raw_bytes;
    } else {
      take_line(s.name, line, false, raw_bytes);
    }
    s.partial.clear();
  }
  if (full_) {
    dropped_ += bytes.size() - pos;
    drop_everything_pending();
  }
  flush();
}

std::vector<PartialLine> ExecutionLogWriter::partial_lines() const {
  std::vector<PartialLine> out;
  if (closed_ || full_) return out;
  for (const Stream* s : {&out_, &err_}) {
    if (!s->partial.empty()) out.push_back({s->name, std::string(without_cr(s->partial))});
  }
  return out;
}

void ExecutionLogWriter::close() {
  if (closed_) return;
  for (Stream* s : {&out_, &err_}) {
    if (s->partial.empty()) continue;
    take_line(s->name, without_cr(s->partial), false, s->partial.size());
    s->partial.clear();
  }
  flush();
  closed_ = true;
  if (log_fd_ >= 0) ::close(log_fd_);
  if (index_fd_ >= 0) ::close(index_fd_);
  log_fd_ = index_fd_ = -1;
}

void ExecutionLogWriter::take_oversized_partial(Stream& stream) {
  std::size_t start = 0;
  while (stream.partial.size() - start > limits::kMaxLogLineBytes && !full_) {
    std::string_view rest = std::string_view(stream.partial).substr(start);
    std::size_t cut = cut_point(rest, limits::kMaxLogLineBytes);
    take_line(stream.name, rest.substr(0, cut), true, cut);
    start += cut;
  }
  stream.partial.erase(0, start);
}

void ExecutionLogWriter::take_line(char stream, std::string_view text, bool continued,
                                   std::uint64_t raw_bytes) {
  if (closed_ || full_) {
    dropped_ += raw_bytes;
    return;
  }
  // Room is kept for the notice, so the log never grows past the bound. The
  // bound covers the index too: a flood of empty lines costs 16 bytes of
  // index for each byte of text.
  const std::uint64_t stored = log_size_ + lines_ * kLogIndexRecordBytes;
  if (stored + text.size() + 1 + notice_.size() + 1 + 2 * kLogIndexRecordBytes > max_log_bytes_) {
    full_ = true;
    dropped_ += raw_bytes;
    push_record('e', notice_, 0);
    return;
  }
  push_record(stream, text, continued ? kLogLineContinued : 0);
  batch_raw_bytes_ += raw_bytes;
}

void ExecutionLogWriter::push_record(char stream, std::string_view text, std::uint8_t flags) {
  encode(index_batch_, {log_size_, static_cast<std::uint32_t>(text.size()), stream, flags});
  log_batch_.append(text);
  log_batch_.push_back('\n');
  log_size_ += text.size() + 1;
  ++lines_;
}

void ExecutionLogWriter::drop_everything_pending() {
  dropped_ += out_.partial.size() + err_.partial.size();
  out_.partial.clear();
  err_.partial.clear();
}

void ExecutionLogWriter::flush() {
  if (log_batch_.empty()) return;
  // Text first: a record must never point at text not yet written.
  if (!write_all(log_fd_, log_batch_)) return fail("write", errno);
  if (!write_all(index_fd_, index_batch_)) return fail("write the index of", errno);
  log_batch_.clear();
  index_batch_.clear();
  batch_raw_bytes_ = 0;
}

void ExecutionLogWriter::fail(const char* what, int error) {
  std::fprintf(stderr, "missiond: %s: cannot %s %s: %s; further output is dropped\n",
               execution_id_.c_str(), what, log_path_.c_str(), std::strerror(error));
  dropped_ += batch_raw_bytes_;
  batch_raw_bytes_ = 0;
  log_batch_.clear();
  index_batch_.clear();
  drop_everything_pending();
  closed_ = true;
  ::close(log_fd_);
  ::close(index_fd_);
  log_fd_ = index_fd_ = -1;
}

LogPage read_execution_log(const std::filesystem::path& directory, const std::string& execution_id,
                           const LogQuery& query) {
  check_execution_id(execution_id);
  if (query.after && query.cursor) {
    throw MissionError(ErrorCode::mixed_pagination, "after and cursor cannot be used together",
                       "use --after to follow new lines or --cursor to page back, not both");
  }
  if (query.limit == 0) {
    throw MissionError(ErrorCode::invalid_argument, "limit must be at least 1",
                       "pass --limit 1 or more");
  }
  const std::filesystem::path index_path = directory / (execution_id + ".idx");
  const std::filesystem::path log_path = directory / (execution_id + ".log");

  LogPage page;
  Fd index(::open(index_path.c_str(), O_RDONLY | O_CLOEXEC));
  if (index.get() < 0 && errno != ENOENT) {
    int error = errno;
    throw MissionError(ErrorCode::internal, "cannot read execution log " + index_path.string() +
                                                ": " + errno_text(error));
  }
  if (index.get() >= 0) {
    struct stat index_stat {};
    if (::fstat(index.get(), &index_stat) != 0) {
      int error = errno;
      throw MissionError(ErrorCode::internal, "cannot read execution log " + index_path.string() +
                                                  ": " + errno_text(error));
    }
    // A record still being written is not a line yet.
    page.last_line = static_cast<std::uint64_t>(index_stat.st_size) / kLogIndexRecordBytes;
  }
  const std::uint64_t total = page.last_line;
  if (query.cursor && (*query.cursor == 0 || *query.cursor > total + 1)) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "cursor " + std::to_string(*query.cursor) + " is outside 1.." + std::to_string(total + 1),
        "use the nextCursor of a previous page", {{"lastLine", total}});
  }

  // The candidate lines [first, last], 1-based; trimmed to the byte budget
  // once their lengths are known.
  const std::uint64_t max_lines = std::max<std::uint64_t>(1, query.max_bytes / kLogLinePageCost);
  const std::uint64_t count = std::min<std::uint64_t>(query.limit, max_lines);
  const bool backward = !query.after;
  std::uint64_t first = 0;
  std::uint64_t last = 0;
  if (backward) {
    last = query.cursor ? *query.cursor - 1 : total;
    if (last == 0) return page;
    first = last >= count ? last - count + 1 : 1;
  } else {
    if (*query.after >= total) return page;
    first = *query.after + 1;
    last = std::min(total, *query.after + count);
  }

  std::string raw((last - first + 1) * kLogIndexRecordBytes, '\0');
  if (!pread_all(index.get(), raw.data(), raw.size(), (first - 1) * kLogIndexRecordBytes)) {
    int error = errno;
    throw MissionError(ErrorCode::internal, "cannot read execution log " + index_path.string() +
                                                ": " + errno_text(error));
  }
  std::vector<IndexRecord> records;
  records.reserve(last - first + 1);
  for (std::size_t at = 0; at < raw.size(); at += kLogIndexRecordBytes) {
    records.push_back(decode(reinterpret_cast<const unsigned char*>(raw.data() + at)));
  }

  // Keep the lines nearest the anchor that fit the budget, at least one.
  std::size_t keep = 0;
  std::uint64_t used = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const IndexRecord& record = backward ? records[records.size() - 1 - i] : records[i];
    std::uint64_t cost = record.length + kLogLinePageCost;
    if (keep > 0 && used + cost > query.max_bytes) break;
    used += cost;
    ++keep;
  }
  if (backward) {
    records.erase(records.begin(), records.end() - static_cast<std::ptrdiff_t>(keep));
    first = last - keep + 1;
  } else {
    records.resize(keep);
    last = first + keep - 1;
  }

  // The records of consecutive lines describe one contiguous run of text.
  const std::uint64_t begin = records.front().offset;
  std::uint64_t end = begin;
  for (const IndexRecord& record : records) {
    if (record.offset != end) damaged(index_path, "has records out of order");
    end += record.length + std::uint64_t{1};
  }
  Fd log(::open(log_path.c_str(), O_RDONLY | O_CLOEXEC));
  if (log.get() < 0) {
    int error = errno;
    throw MissionError(ErrorCode::internal,
                       "cannot read execution log " + log_path.string() + ": " + errno_text(error));
  }
  std::string text(end - begin, '\0');
  if (!pread_all(log.get(), text.data(), text.size(), begin)) {
    if (errno == 0) damaged(log_path, "is shorter than its index");
    int error = errno;
    throw MissionError(ErrorCode::internal,
                       "cannot read execution log " + log_path.string() + ": " + errno_text(error));
  }

  page.lines.reserve(records.size());
  std::uint64_t number = first;
  for (const IndexRecord& record : records) {
    page.lines.push_back({number++, record.stream,
                          text.substr(record.offset - begin, record.length),
                          (record.flags & kLogLineContinued) != 0});
  }
  if (backward && first > 1) page.next_cursor = first;
  return page;
}

}  // namespace mission::daemon::execution
