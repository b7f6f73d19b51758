#include "daemon/rpc/deferred_reply.hpp"

#include <memory>
#include <optional>
#include <utility>

#include "daemon/loop/work_queue.hpp"
#include "shared/error_code.hpp"
#include "shared/error_of.hpp"
#include "shared/jsonrpc.hpp"
#include "shared/limits.hpp"

namespace mission::daemon {

std::string bounded_reply_line(const nlohmann::json& id, const nlohmann::json& response,
                               std::string_view hint) {
  std::string line = jsonrpc::to_line(response);
  if (line.size() <= limits::kMaxReplyBytes) return line;
  return jsonrpc::to_line(jsonrpc::error(
      id, MissionError(ErrorCode::payload_too_large,
                       "the reply would be " + std::to_string(line.size()) + " bytes, over the " +
                           std::to_string(limits::kMaxReplyBytes) + "-byte reply limit",
                       std::string(hint), {{"limit", limits::kMaxReplyBytes}})));
}

void answer_later(ControlServices& services, nlohmann::json id, DeferredReply deferred,
                  std::function<void(std::string line)> deliver) {
  struct Job {
    DeferredReply deferred;
    std::optional<MissionError> error;
  };
  auto job = std::make_shared<Job>(Job{std::move(deferred), std::nullopt});
  ControlServices* shared_services = &services;
  loop::queue_work(
      services.mcp.loop, [job] { job->error = error_of(job->deferred.work); },
      [job, shared_services, id = std::move(id), deliver = std::move(deliver)] {
        nlohmann::json response;
        events::EventBatch batch(shared_services->events);
        try {
          if (job->error) throw *job->error;
          store::Transaction transaction(shared_services->db);
          nlohmann::json result = job->deferred.finish(shared_services->db, batch);
          transaction.commit();
          batch.publish_to(shared_services->events);
          response = jsonrpc::result(id, std::move(result));
        } catch (const MissionError& e) {
          batch.discard();
          response = jsonrpc::error(id, e);
        } catch (const std::exception& e) {
          batch.discard();
          response = jsonrpc::error(id, MissionError(ErrorCode::internal, e.what()));
        }
        deliver(bounded_reply_line(id, response, "ask for less: name one workflow"));
      });
}

}  // namespace mission::daemon
