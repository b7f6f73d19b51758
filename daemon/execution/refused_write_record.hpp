#pragma once
// The refused writes of an execution (docs/adr/0036): each one an
// observation of kind write_refused read from the agent's output, recorded
// as the output arrives and shown by exec show, workflows status, the
// report and the next attempt's prompt.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "daemon/events/event_sink.hpp"
#include "daemon/sandbox/refused_writes.hpp"
#include "daemon/store/database.hpp"

namespace mission::daemon::execution {

// Records `writes`, found in `execution_id`'s output, in one transaction,
// and adds an observation event per new one to `batch`. Key: the path.
void record_refused_writes(store::Database& db, events::EventBatch& batch,
                           const std::string& execution_id,
                           const std::vector<sandbox::RefusedWrite>& writes);

// The execution's refused writes, oldest first.
std::vector<sandbox::RefusedWrite> refused_writes_of(store::Database& db,
                                                     const std::string& execution_id);

// [{path, operation, from: "the agent's output"}]: their JSON on the
// control API; empty when there are none.
nlohmann::json refused_writes_json(const std::vector<sandbox::RefusedWrite>& writes);

}  // namespace mission::daemon::execution
