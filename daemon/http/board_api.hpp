#pragma once
// The board's JSON API under /api/, for a person the board has signed in
// (the caller checks the cookie, and Origin and CSRF for a POST). Each
// route is a control-API method called through the same dispatcher as
// `mission` (one source of truth, one encoding of each record):
//
//   GET  /api/board[?workflow=ID]       all the page draws, in one reply:
//                                       {csrf, workflows, inbox, agents,
//                                       selected, workflow} (the workflow
//                                       asked for, else the first listed)
//   GET  /api/workflows                 workflow.list
//   GET  /api/workflows/ID              workflow.graph and workflow.runStatus
//   GET  /api/inbox                     inbox.list
//   GET  /api/agents                    execution.list
//   POST /api/executions/ID/answer      execution.answer {text, choice}
//   POST /api/tasks/ID/approve          task.approve
//   POST /api/tasks/ID/reject           task.reject {reason}

#include <memory>
#include <string>

#include "daemon/http/http_connection.hpp"
#include "daemon/rpc/method_context.hpp"

namespace mission::daemon::http {

// Answers `exchange`, whose path starts with /api/, for the session whose
// CSRF token is `csrf`.
void answer_board_api(ControlServices& services, const std::shared_ptr<HttpExchange>& exchange,
                      const std::string& csrf);

}  // namespace mission::daemon::http
