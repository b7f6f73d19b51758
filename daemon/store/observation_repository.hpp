#pragma once
// Persistence of the observation ledger (the observations table). The
// UNIQUE (execution_id, event_id) constraint is the idempotency guarantee.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "daemon/store/page.hpp"
#include "shared/vocabulary.hpp"

namespace mission::store {

// An observation's kind: a signal type's name, or this for what the daemon
// noticed on a delivery path (a malformed marker, say).
inline constexpr std::string_view kDiagnosticKind = "diagnostic";
// What the daemon read on an agent's terminal (origin kScreenOrigin): a
// permission prompt came up ({question, options, detected}) or left the
// screen, and the option a person picked in it.
inline constexpr std::string_view kPermissionPromptKind = "permission_prompt";
inline constexpr std::string_view kPermissionPromptClearedKind = "permission_prompt_cleared";
inline constexpr std::string_view kPermissionAnswerKind = "permission_answer";
inline constexpr std::string_view kScreenOrigin = "screen";
// A write of a confined agent that its sandbox refused, read from the
// agent's own output (origin kOutputOrigin): {path, operation}
// (docs/adr/0036, daemon/sandbox/refused_writes.hpp).
inline constexpr std::string_view kRefusedWriteKind = "write_refused";
inline constexpr std::string_view kOutputOrigin = "output";
// What an agent driven over the Agent Client Protocol reported on it.
inline constexpr std::string_view kAcpOrigin = "acp";

struct ObservationRow {
  std::int64_t id = 0;  // also its position in pages
  std::string execution_id;
  std::string event_id;
  std::string origin;   // mcp-tool, stdout-marker or daemon
  std::string kind;     // a signal type, or kDiagnosticKind
  std::string payload;  // JSON
  ObservationStatus status = ObservationStatus::accepted;
  std::optional<std::string> reason;
  std::int64_t created_at = 0;
};

class ObservationRepository {
 public:
  explicit ObservationRepository(Database& db) : db_(db) {}

  // Inserts `row` and returns its id, or nullopt if (execution_id, event_id)
  // is already recorded.
  std::optional<std::int64_t> insert_unique(const ObservationRow& row);
  std::optional<ObservationRow> find(const std::string& execution_id, const std::string& event_id);
  // One page of the execution's observations (see page.hpp).
  Page<ObservationRow> page(const std::string& execution_id, const PageRequest& request);
  std::int64_t count(const std::string& execution_id);
  // The execution's latest completed_claim or failed_claim.
  std::optional<SignalType> last_claim(const std::string& execution_id);
  // The newest accepted needs_input or blocked observation.
  std::optional<ObservationRow> waiting_on(const std::string& execution_id);
  // The permission prompt on the execution's screen when last read: its
  // newest permission_prompt, unless a permission_prompt_cleared came after.
  std::optional<ObservationRow> open_permission_prompt(const std::string& execution_id);
  // The execution's observations of `kind`, oldest first, at most `limit`.
  std::vector<ObservationRow> of_kind(const std::string& execution_id, std::string_view kind,
                                      std::size_t limit);
  // Marks the execution's recorded-only observations of `kind` promoted.
  void promote(const std::string& execution_id, SignalType kind);
  std::int64_t count_all();

 private:
  Database& db_;
};

}  // namespace mission::store
