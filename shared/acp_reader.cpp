#include "shared/acp_reader.hpp"

#include "shared/bounded_json.hpp"

namespace mission {
namespace {

constexpr std::size_t kExcerptBytes = 200;

AcpMessage invalid(std::string reason, std::string_view line) {
  AcpMessage message;
  message.reason = std::move(reason);
  message.excerpt = valid_utf8_excerpt(line, kExcerptBytes);
  return message;
}

// JSON-RPC ids are strings or integers; null, fractions and structures are
// not ids anyone can answer.
bool usable_id(const nlohmann::json& id) {
  return id.is_string() || id.is_number_integer() || id.is_number_unsigned();
}

}  // namespace

AcpMessage read_acp_line(std::string_view line) {
  if (json_too_deep(line)) return invalid(json_too_deep_error().what(), line);
  nlohmann::json parsed = parse_json_or_discarded(line);
  if (parsed.is_discarded()) return invalid("the line is not JSON", line);
  if (!parsed.is_object()) return invalid("the line is not a JSON object", line);
  auto version = parsed.find("jsonrpc");
  if (version == parsed.end() || *version != "2.0") {
    return invalid("the message is not JSON-RPC 2.0 (no \"jsonrpc\": \"2.0\")", line);
  }
  AcpMessage message;
  auto id = parsed.find("id");
  auto method = parsed.find("method");
  const bool has_id = id != parsed.end();
  if (has_id && !usable_id(*id))
    return invalid("the message's id is not a string or integer", line);
  if (method != parsed.end()) {
    if (!method->is_string()) return invalid("the message's method is not a string", line);
    message.method = method->get<std::string>();
    auto params = parsed.find("params");
    if (params != parsed.end()) {
      if (!params->is_object() && !params->is_null()) {
        return invalid("the " + message.method + " message's params are not an object", line);
      }
      message.params = std::move(*params);
    }
    if (has_id) {
      message.kind = AcpMessage::Kind::request;
      message.id = std::move(*id);
    } else {
      message.kind = AcpMessage::Kind::notification;
    }
    return message;
  }
  if (!has_id) return invalid("the message has neither a method nor an id", line);
  auto result = parsed.find("result");
  auto error = parsed.find("error");
  if ((result == parsed.end()) == (error == parsed.end())) {
    return invalid("the response has not exactly one of result and error", line);
  }
  message.kind = AcpMessage::Kind::response;
  message.id = std::move(*id);
  if (error != parsed.end()) {
    if (!error->is_object()) return invalid("the response's error is not an object", line);
    message.error = std::move(*error);
  } else {
    message.result = std::move(*result);
  }
  return message;
}

std::vector<AcpMessage> AcpReader::feed(std::string_view bytes) {
  std::vector<AcpMessage> out;
  for (Frame& frame : framer_.feed(bytes)) {
    if (frame.kind == Frame::Kind::oversized) {
      out.push_back(
          invalid("the line is longer than " + std::to_string(framer_.max_frame_bytes()) + " bytes",
                  frame.head));
      continue;
    }
    out.push_back(read_acp_line(frame.text));
  }
  return out;
}

}  // namespace mission
