# Every file parses the same heavy headers (nlohmann/json above all); each
# target parses them once instead, as a precompiled header. Measured on the
# daemon library, a clean build takes 13% less CPU time (459 s to 401 s);
# CI builds twice from scratch.
option(MISSION_PRECOMPILED_HEADERS "Precompile the headers most files include" ON)

function(mission_precompile target)
  if(NOT MISSION_PRECOMPILED_HEADERS)
    return()
  endif()
  target_precompile_headers(${target} PRIVATE
    <algorithm> <cstdint> <cstdio> <filesystem> <functional> <map> <memory>
    <optional> <span> <string> <string_view> <vector>
    <nlohmann/json.hpp>
    ${ARGN})
endfunction()
