# Scanning throughput of the stdout MarkerReader (shared/marker_reader.cpp):
# `mission_marker_bench [MiB] [passes]`. A tool, not a ctest test.
add_executable(mission_marker_bench ${CMAKE_CURRENT_LIST_DIR}/marker_scan_bench.cpp)
target_link_libraries(mission_marker_bench PRIVATE mission_shared)
