#include "daemon/git/landing_proof.hpp"

#include "daemon/git/git_backend.hpp"

namespace mission::daemon::git {

LandingProof prove_landing(const std::string& repository, const std::string& branch,
                           const LandedChange& change) {
  return git_backend().prove_landing(repository, branch, change);
}

}  // namespace mission::daemon::git
