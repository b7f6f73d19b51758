#include "daemon/sandbox/confinement.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "daemon/sandbox/landlock_abi.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::sandbox {
namespace {

// Reading a file, listing a folder and executing: handled only when the
// profile hides something (hidden_reads.hpp), else allowed everywhere.
constexpr std::uint64_t kReadRights =
    landlock::kFsReadFile | landlock::kFsReadDir | landlock::kFsExecute;

// The write rights this kernel knows of, and the read rights when `reads`.
// Device ioctls are not handled (a terminal's size and modes are ioctls).
std::uint64_t handled_rights(int abi, bool reads) {
  using namespace landlock;
  std::uint64_t rights = kFsWriteFile | kFsRemoveDir | kFsRemoveFile | kFsMakeChar | kFsMakeDir |
                         kFsMakeReg | kFsMakeSock | kFsMakeFifo | kFsMakeBlock | kFsMakeSym;
  if (abi >= kAbiRefer) rights |= kFsRefer;
  if (abi >= kAbiTruncate) rights |= kFsTruncate;
  if (reads) rights |= kReadRights;
  return rights;
}

// The rights a rule on a file may carry (the kernel refuses folder rights
// on a file).
std::uint64_t file_rights(std::uint64_t handled) {
  return handled & (landlock::kFsWriteFile | landlock::kFsTruncate | landlock::kFsReadFile |
                    landlock::kFsExecute);
}

// The size of RulesetAttr this ABI reads: an older kernel refuses a larger
// structure whose extra fields are set.
std::size_t ruleset_size(int abi) {
  if (abi >= landlock::kAbiScopes) return sizeof(landlock::RulesetAttr);
  return sizeof(std::uint64_t) * (abi >= 4 ? 2 : 1);
}

}  // namespace

Confinement::Confinement(const Profile& profile, const KernelSupport& support) {
  const std::uint64_t handled = handled_rights(support.landlock_abi, !profile.hidden.empty());
  landlock::RulesetAttr attr;
  attr.handled_access_fs = handled;
  if (support.scopes()) attr.scoped = landlock::kScopeSignal | landlock::kScopeAbstractUnixSocket;
  const long fd = landlock::create_ruleset(&attr, ruleset_size(support.landlock_abi), 0);
  if (fd < 0) {
    throw MissionError(
        ErrorCode::internal,
        std::string("cannot make the agent's Landlock rules: ") + std::strerror(errno),
        "run it with --sandbox off, and report this with 'mission sandbox check'");
  }
  ruleset_fd_ = static_cast<int>(fd);
  auto add = [&](const std::filesystem::path& path, std::uint64_t rights) {
    const int target = ::open(path.c_str(), O_PATH | O_CLOEXEC);
    if (target < 0) {
      // A path gone since the profile was made grants nothing.
      if (errno == ENOENT) return;
      const int cause = errno;
      ::close(ruleset_fd_);
      ruleset_fd_ = -1;
      throw MissionError(ErrorCode::internal,
                         "cannot open " + path.string() +
                             " for the agent's Landlock rules: " + std::strerror(cause),
                         "check the path's permissions, or run with --sandbox off");
    }
    add_beneath(target, path, rights, 0);
  };
  for (const auto& tree : profile.writable_trees) add(tree, handled);
  for (const auto& file : profile.writable_files) add(file, file_rights(handled));
  if (!profile.hidden.empty()) {
    for (const auto& path : profile.readable_trees) add_readable(path, kReadRights);
    for (const auto& path : profile.readable_files) add_readable(path, file_rights(kReadRights));
  }
}

// Not following a symbolic link: a link made since the profile was read
// gets a rule on itself, which opens nothing. What cannot be opened grants
// nothing (the agent cannot read it), nor does an entry that has become a
// file since it was listed as a folder (the kernel refuses folder rights
// on a file: EINVAL).
void Confinement::add_readable(const std::filesystem::path& path, std::uint64_t rights) {
  const int target = ::open(path.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
  if (target < 0) return;
  add_beneath(target, path, rights, EINVAL);
}

void Confinement::add_beneath(int target, const std::filesystem::path& path, std::uint64_t rights,
                              int tolerated) {
  landlock::PathBeneathAttr rule;
  rule.allowed_access = rights;
  rule.parent_fd = target;
  const long rc = landlock::add_rule(ruleset_fd_, landlock::kRulePathBeneath, &rule);
  const int cause = errno;
  ::close(target);
  if (rc != 0 && cause != tolerated) {
    ::close(ruleset_fd_);
    ruleset_fd_ = -1;
    throw MissionError(
        ErrorCode::internal,
        "the kernel refused a Landlock rule for " + path.string() + ": " + std::strerror(cause),
        "run it with --sandbox off, and report this with 'mission sandbox check'");
  }
}

Confinement::~Confinement() {
  if (ruleset_fd_ >= 0) ::close(ruleset_fd_);
}

int Confinement::apply_to_this_thread() const {
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -errno;
  if (landlock::restrict_self(ruleset_fd_) != 0) return -errno;
  return 0;
}

std::string unconfined_warning(const KernelSupport& support) {
  return "warning: this agent runs unconfined, with all of your rights (it can write outside its "
         "worktree): " +
         support.landlock_missing;
}

}  // namespace mission::daemon::sandbox
