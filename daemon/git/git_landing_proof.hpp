#pragma once
// The git module's landing proof (landing_proof.hpp says what it proves).

#include "daemon/git/landing_proof.hpp"

namespace mission::daemon::git {

LandingProof git_prove_landing(const std::string& repository, const std::string& branch,
                               const LandedChange& change);

}  // namespace mission::daemon::git
