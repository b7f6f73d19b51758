#pragma once
// How a deferred control method is answered, whoever asked: its work on a
// pool thread, its finish in one transaction on the loop with its events
// published after the commit, and the reply line bounded as the dispatcher
// bounds every reply. A control connection and the board (over HTTP) both
// answer through it.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "daemon/rpc/method_context.hpp"

namespace mission::daemon {

// The response line for `response`, or a payload_too_large error for `id`
// naming `hint` when the line would pass kMaxReplyBytes.
std::string bounded_reply_line(const nlohmann::json& id, const nlohmann::json& response,
                               std::string_view hint);

// Runs `deferred` and hands the reply line to request `id` to `deliver` on
// the loop. `deliver` decides whether anyone is still there to read it.
void answer_later(ControlServices& services, nlohmann::json id, DeferredReply deferred,
                  std::function<void(std::string line)> deliver);

}  // namespace mission::daemon
