// Owns the daemon layers' precompiled header (daemon/CMakeLists.txt).
