// The other side's patch a task sent back by a landing conflict is shown:
// only the sections of the conflicting files, bounded, cut at a line.

#include "daemon/runs/conflict_patch.hpp"

#include <catch2/catch.hpp>

using mission::daemon::runs::patch_of_paths;

namespace {

const std::string kPatch =
    "diff --git a/README.md b/README.md\n"
    "--- a/README.md\n"
    "+++ b/README.md\n"
    "@@ -1 +1 @@\n"
    "-old\n"
    "+new\n"
    "diff --git a/src/my file.c b/src/my file.c\n"
    "--- a/src/my file.c\n"
    "+++ b/src/my file.c\n"
    "@@ -1 +1,2 @@\n"
    " int a;\n"
    "+int b;\n"
    "diff --git a/old.txt b/shared.txt\n"
    "similarity index 90%\n"
    "rename from old.txt\n"
    "rename to shared.txt\n";

}  // namespace

TEST_CASE("a conflict's patch keeps the sections of the conflicting files only") {
  const std::string kept = patch_of_paths(kPatch, {"src/my file.c"}, 4096);
  CHECK(kept ==
        "diff --git a/src/my file.c b/src/my file.c\n"
        "--- a/src/my file.c\n"
        "+++ b/src/my file.c\n"
        "@@ -1 +1,2 @@\n"
        " int a;\n"
        "+int b;\n");
  // A renamed file is found by either of its names.
  CHECK(patch_of_paths(kPatch, {"old.txt"}, 4096).rfind("diff --git a/old.txt b/shared.txt\n", 0) ==
        0);
  CHECK(patch_of_paths(kPatch, {"shared.txt"}, 4096).find("rename to shared.txt\n") !=
        std::string::npos);
  CHECK(patch_of_paths(kPatch, {"elsewhere.c"}, 4096).empty());
}

TEST_CASE("a conflict's patch longer than its bound is cut at a line and says so") {
  const std::string kept = patch_of_paths(kPatch, {"README.md", "src/my file.c"}, 100);
  CHECK(kept.rfind("diff --git a/README.md b/README.md\n", 0) == 0);
  CHECK(kept.find("+new\n") != std::string::npos);
  CHECK(kept.find("int b") == std::string::npos);
  CHECK(kept.find("left out") != std::string::npos);
  const std::string body = kept.substr(0, kept.find("[..."));
  CHECK(body.size() <= 100);
  CHECK(body.back() == '\n');
}
