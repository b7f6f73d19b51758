// get_context: a mission's state for an agent (often a subagent joining
// late): phase summary, tasks, decisions, milestones and open blockers,
// narrowed by phase, agent and time. Each list is one page: the newest
// items first; `cursor` pages back through the lists a page cut, and
// `after_cursor` returns only what is newer than an earlier answer
// (oldest first, so a poller misses nothing). See mission-mcp(7), CONTEXT.

#include <map>

#include "daemon/store/journal_repository.hpp"
#include "daemon/tracking/tracker.hpp"
#include "daemon/tracking/tracker_support.hpp"
#include "daemon/tracking/tracking_view.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::tracking {
namespace {

// The pageable lists and their letters in a cursor ("t12.d4").
struct ListCode {
  ContextList list;
  char code;
  const char* key;
};
constexpr ListCode kLists[] = {
    {ContextList::tasks, 't', "tasks"},
    {ContextList::decisions, 'd', "decisions"},
    {ContextList::milestones, 'm', "milestones"},
    {ContextList::blockers, 'b', "blockers"},
};

using Positions = std::map<ContextList, std::int64_t>;

std::string encode(const Positions& positions) {
  std::string out;
  for (const ListCode& entry : kLists) {
    auto found = positions.find(entry.list);
    if (found == positions.end()) continue;
    if (!out.empty()) out += '.';
    out += entry.code + std::to_string(found->second);
  }
  return out;
}

Positions decode(const std::string& text, const char* field) {
  Positions positions;
  auto bad = [&] {
    return MissionError(ErrorCode::invalid_argument,
                        std::string(field) + " '" + text + "' is not one mission gave",
                        std::string("pass the ") +
                            (std::string(field) == "cursor" ? "next_cursor" : "after_cursor") +
                            " of an earlier get_context answer unchanged",
                        {{"field", field}});
  };
  std::size_t at = 0;
  while (at < text.size()) {
    const char code = text[at++];
    const ListCode* entry = nullptr;
    for (const ListCode& known : kLists) {
      if (known.code == code) entry = &known;
    }
    std::size_t end = text.find('.', at);
    if (end == std::string::npos) end = text.size();
    const std::string number = text.substr(at, end - at);
    if (entry == nullptr || number.empty() || number.size() > 18 ||
        number.find_first_not_of("0123456789") != std::string::npos) {
      throw bad();
    }
    positions[entry->list] = std::stoll(number);
    at = end + 1;
  }
  return positions;
}

// Phases the mission has, and the planned ones no task has started yet
// (pending: a phase is created by its first task, as the seed says).
nlohmann::json phase_summary(store::Database& db, const store::MissionRow& mission,
                             const ContextFilter& filter, KeyStyle style) {
  auto counts = store::TaskRepository(db).tasks_per_phase(mission.id);
  nlohmann::json phases = nlohmann::json::array();
  std::int64_t highest = 0;
  for (const auto& phase : store::MissionRepository(db).phases(mission.id)) {
    highest = std::max(highest, phase.number);
    if (filter.phase && phase.number != *filter.phase) continue;
    phases.push_back(phase_json(phase, counts.count(phase.id) ? counts.at(phase.id) : 0, style));
  }
  for (std::int64_t number = 1; number <= mission.total_phases.value_or(0); ++number) {
    if (filter.phase && number != *filter.phase) continue;
    if (store::MissionRepository(db).find_phase(mission.id, number)) continue;
    if (phases.size() >= limits::kMaxPageItems) break;
    phases.push_back({{key(style, "phase_number"), number},
                      {key(style, "status"), PhaseStatus::pending},
                      {key(style, "tasks_count"), 0}});
  }
  return phases;
}

struct ListPage {
  nlohmann::json items = nlohmann::json::array();
  std::optional<std::int64_t> oldest;  // position of the last item, paging back
  std::optional<std::int64_t> newest;  // position of the newest item seen
  bool more = false;
};

template <class Row, class Render>
ListPage to_list(const store::Page<Row>& page, Render render) {
  ListPage out;
  for (std::size_t i = 0; i < page.rows.size(); ++i) {
    out.items.push_back(render(page.rows[i]));
    const std::int64_t position = page.positions[i];
    out.newest = out.newest ? std::max(*out.newest, position) : position;
    out.oldest = out.oldest ? std::min(*out.oldest, position) : position;
  }
  out.more = page.more;
  return out;
}

}  // namespace

nlohmann::json mission_context(store::Database& db, const GetContextRequest& request,
                               KeyStyle style) {
  if (request.cursor && request.after_cursor) {
    throw MissionError(
        ErrorCode::mixed_pagination, "get_context takes cursor or after_cursor, not both",
        "pass cursor to page back through older items, after_cursor for only newer ones");
  }
  store::MissionRow mission = require_mission(db, request.mission_id, "mission_id");
  const Positions from_cursor = request.cursor ? decode(*request.cursor, "cursor") : Positions{};
  const Positions from_after =
      request.after_cursor ? decode(*request.after_cursor, "after_cursor") : Positions{};
  const std::size_t limit = request.limit == 0 ? limits::kMaxContextItems
                                               : std::min(request.limit, limits::kMaxPageItems);

  nlohmann::json out = {{key(style, "mission_id"), mission.id},
                        {key(style, "kind"), mission.kind},
                        {key(style, "mission_name"), mission.name},
                        {key(style, "mission_status"), mission.status},
                        {key(style, "current_phase"), mission.current_phase}};
  if (mission.total_phases) out[key(style, "total_phases")] = *mission.total_phases;
  if (request.include.count(ContextList::phase_summary) && !request.cursor) {
    out[key(style, "phase_summary")] = phase_summary(db, mission, request.filter, style);
  }

  store::RecordFilter filter{request.filter.phase, request.filter.agent, request.filter.since_ms};
  Positions next_cursor;
  Positions after_cursor = from_after;
  for (const ListCode& entry : kLists) {
    if (!request.include.count(entry.list)) continue;
    store::PageRequest page_request;
    page_request.limit = limit;
    if (request.cursor) {
      auto found = from_cursor.find(entry.list);
      if (found == from_cursor.end()) continue;  // that list was complete
      page_request.cursor = found->second;
    }
    if (request.after_cursor) {
      auto found = from_after.find(entry.list);
      page_request.after = found == from_after.end() ? 0 : found->second;
    }
    ListPage page;
    store::JournalRepository journal(db);
    switch (entry.list) {
      case ContextList::tasks: {
        auto rows = store::TaskRepository(db).page(mission.id, filter, page_request);
        std::vector<std::string> ids;
        for (const auto& row : rows.rows) ids.push_back(row.id);
        auto changes = load_task_changes(db, ids);
        page = to_list(rows, [&](const store::TaskRow& row) {
          return task_json(row, changes[row.id], style);
        });
        break;
      }
      case ContextList::decisions:
        page = to_list(journal.decisions(mission.id, filter, page_request),
                       [&](const store::DecisionRow& row) { return decision_json(row, style); });
        break;
      case ContextList::milestones:
        page = to_list(journal.milestones(mission.id, filter, page_request),
                       [&](const store::MilestoneRow& row) { return milestone_json(row, style); });
        break;
      case ContextList::blockers:
        page = to_list(journal.issues(mission.id, filter, page_request, true),
                       [&](const store::IssueRow& row) { return issue_json(row, style); });
        break;
      case ContextList::phase_summary:
        break;
    }
    out[key(style, entry.key)] = std::move(page.items);
    if (request.after_cursor) {
      if (page.newest) after_cursor[entry.list] = *page.newest;
      if (page.more) out[key(style, "more")] = true;
    } else {
      if (page.more && page.oldest) next_cursor[entry.list] = *page.oldest;
      if (!request.cursor && page.newest) after_cursor[entry.list] = *page.newest;
      if (!request.cursor && !page.newest) after_cursor[entry.list] = 0;
    }
  }
  if (!next_cursor.empty()) out[key(style, "next_cursor")] = encode(next_cursor);
  if (!request.cursor) out[key(style, "after_cursor")] = encode(after_cursor);
  return out;
}

}  // namespace mission::daemon::tracking
