#pragma once
// Control-API methods of the terminals the daemon owns: terminal.attach
// (the connection becomes a viewer) and terminal.input (type text in).

#include <nlohmann/json.hpp>
#include <string>

#include "daemon/rpc/dispatcher.hpp"
#include "daemon/terminal/terminal_session.hpp"
#include "shared/terminal_frames.hpp"

namespace mission::daemon {

struct TerminalAttachRequest {
  std::string id;
  unsigned short rows = 0;
  unsigned short columns = 0;
  bool read_only = false;
};
void from_json(const nlohmann::json& j, TerminalAttachRequest& request);

struct TerminalInputRequest {
  std::string id;
  std::string text;
  bool enter = true;
};
void from_json(const nlohmann::json& j, TerminalInputRequest& request);

// The running terminal of execution `id`, or the error that says why there
// is none; `resolved` gets the execution's whole id.
terminal::TerminalSession& require_terminal(ControlServices& services, const std::string& id,
                                            std::string* resolved = nullptr);

nlohmann::json handle_terminal_attach(MethodContext& context, const TerminalAttachRequest& request);
nlohmann::json handle_terminal_input(MethodContext& context, const TerminalInputRequest& request);

// A control connection after terminal.attach: terminal frames both ways.
class ConnectionViewer : public terminal::Viewer {
 public:
  explicit ConnectionViewer(loop::Connection& connection) : connection_(connection) {}

  void send_output(std::string_view bytes) override;
  void send_notice(std::string_view text) override;
  void send_end(const std::string& status) override;
  std::size_t backlog() const override { return connection_.queued_bytes(); }

  // Bytes from the client: keystrokes and sizes. A malformed stream closes
  // the connection.
  void on_bytes(std::string_view bytes);

 private:
  loop::Connection& connection_;
  terminal_frames::Decoder decoder_;
};

}  // namespace mission::daemon
