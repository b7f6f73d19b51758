#pragma once
// The messages an Agent Client Protocol agent writes on its stdout: JSON-RPC
// 2.0, one message a line. Bytes arrive in any chunks; what comes out is
// each complete line classified (a request the agent makes of the client,
// a notification, a response to one of ours) or refused with the reason,
// never more than the line limit held.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "shared/framing.hpp"

namespace mission {

struct AcpMessage {
  enum class Kind {
    request,       // method and id: the agent asks the client (request_permission)
    notification,  // method, no id (session/update)
    response,      // id and result or error: an answer to a request of ours
    invalid,       // anything else; `reason` says what
  };
  Kind kind = Kind::invalid;
  nlohmann::json id;      // request or response; null otherwise
  std::string method;     // request or notification
  nlohmann::json params;  // request or notification; an object or null
  nlohmann::json result;  // response without error
  nlohmann::json error;   // response with error: {code, message}
  std::string reason;     // invalid: why, in a person's words
  std::string excerpt;    // invalid: the line's start, valid UTF-8
};

class AcpReader {
 public:
  // Lines longer than `max_line_bytes` are refused as they come.
  explicit AcpReader(std::size_t max_line_bytes) : framer_(max_line_bytes) {}

  // The messages the lines completed by `bytes` hold, in order.
  std::vector<AcpMessage> feed(std::string_view bytes);

  // Bytes of an unfinished line held now (at most the limit).
  std::size_t pending_bytes() const { return framer_.pending_bytes(); }

 private:
  LineFramer framer_;
};

// One line, without its newline, read as a message.
AcpMessage read_acp_line(std::string_view line);

}  // namespace mission
