#pragma once
// The schema files of schemas/, compiled in by cmake/EmbedSchemas.cmake.

#include <cstddef>

namespace mission {

struct EmbeddedSchema {
  const char* id;    // path under schemas/ without ".json", e.g. "control/hello"
  const char* text;  // the file's JSON text
};

extern const EmbeddedSchema kEmbeddedSchemas[];
extern const std::size_t kEmbeddedSchemaCount;

}  // namespace mission
