# Benchmark for the execution log (tests/bench/log_bench.cpp): writes a 1 GiB
# log and times reading pages of it. A tool, not a ctest test. Included from
# tests/bench/CMakeLists.txt.
add_executable(mission_log_bench ${CMAKE_CURRENT_LIST_DIR}/log_bench.cpp)
target_link_libraries(mission_log_bench PRIVATE mission_daemon_core)
