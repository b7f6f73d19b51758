# Benchmark for task change sets (tests/bench/changes_bench.cpp, driven by
# tests/bench/changes_bench.sh): take_snapshot and compute_change_set against
# `git status --porcelain` and `sha1sum` on 50,000-file trees. A tool, not a
# ctest test. Included from tests/bench/CMakeLists.txt.
add_executable(mission_changes_bench ${CMAKE_CURRENT_LIST_DIR}/changes_bench.cpp)
target_link_libraries(mission_changes_bench PRIVATE mission_daemon_core)
