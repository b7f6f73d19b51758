# Embeds every file under schemas/ into a generated C++ source, so the
# binaries carry the single source of truth for tool, signal and control-API
# schemas and never read them from disk at run time.
file(GLOB_RECURSE MISSION_SCHEMA_FILES CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/schemas/*.json)
set(MISSION_EMBEDDED_SCHEMAS_CPP ${PROJECT_BINARY_DIR}/generated/embedded_schemas.cpp)
add_custom_command(
  OUTPUT ${MISSION_EMBEDDED_SCHEMAS_CPP}
  COMMAND ${CMAKE_COMMAND} -DSCHEMA_ROOT=${PROJECT_SOURCE_DIR}/schemas
          -DOUTPUT=${MISSION_EMBEDDED_SCHEMAS_CPP}
          -P ${PROJECT_SOURCE_DIR}/cmake/GenerateEmbeddedSchemas.cmake
  DEPENDS ${MISSION_SCHEMA_FILES} ${PROJECT_SOURCE_DIR}/cmake/GenerateEmbeddedSchemas.cmake
  COMMENT "Embedding JSON schemas")
