#include "daemon/rpc/run_methods.hpp"

#include <memory>

#include "daemon/runs/run_service.hpp"
#include "daemon/store/run_repository.hpp"

namespace mission::daemon {

void from_json(const nlohmann::json& j, WorkflowRunRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.options = j;
  request.options.erase("id");
}

void from_json(const nlohmann::json& j, WorkflowStopRequest& request) { request.id = j.at("id").get<std::string>(); }

void from_json(const nlohmann::json& j, WorkflowRunStatusRequest& request) {
  request.id = j.at("id").get<std::string>();
  if (j.contains("runId")) request.run_id = j.at("runId").get<std::string>();
}

void from_json(const nlohmann::json& j, TaskApprovalRequest& request) {
  request.task_id = j.at("taskId").get<std::string>();
  request.person = j.value("from", std::string("person"));
  if (j.contains("reason")) request.reason = j.at("reason").get<std::string>();
}

nlohmann::json handle_task_approve(MethodContext& context, const TaskApprovalRequest& request) {
  runs::RunService& service = context.services.runs;
  return {{"run", service.run_json(service.approve(request.task_id, request.person))}};
}

nlohmann::json handle_task_reject(MethodContext& context, const TaskApprovalRequest& request) {
  runs::RunService& service = context.services.runs;
  return {{"run", service.run_json(service.reject(request.task_id, request.person, request.reason.value_or("")))}};
}

nlohmann::json handle_workflow_run(MethodContext& context, const WorkflowRunRequest& request) {
  runs::RunService& service = context.services.runs;
  auto start = std::make_shared<runs::RunStart>(service.plan_start(request.id, runs::options_from_json(request.options)));
  auto error = std::make_shared<std::optional<MissionError>>();
  context.deferred = DeferredReply{
      [start, error] {
        try {
          runs::RunService::run_start(*start);
        } catch (const MissionError& e) {
          *error = e;
        } catch (const std::exception& e) {
          *error = MissionError(ErrorCode::git_error, e.what());
        }
      },
      [start, error, &service](store::Database&, events::EventBatch& events) {
        if (*error) throw **error;
        store::RunRow row = service.record_start(*start, events);
        service.activate(row.id);
        return nlohmann::json{{"run", service.run_json(row)}};
      }};
  return nullptr;
}

nlohmann::json handle_workflow_stop(MethodContext& context, const WorkflowStopRequest& request) {
  runs::RunService& service = context.services.runs;
  return {{"run", service.run_json(service.stop(request.id))}};
}

nlohmann::json handle_workflow_run_status(MethodContext& context, const WorkflowRunStatusRequest& request) {
  store::RunRepository repository(context.services.db);
  std::optional<store::RunRow> run = request.run_id ? repository.find(*request.run_id) : repository.latest_of(request.id);
  if (!run || run->workflow_id != request.id) {
    throw MissionError(ErrorCode::not_found,
                       request.run_id ? "workflow " + request.id + " has no run " + *request.run_id
                                      : "workflow " + request.id + " has never been run",
                       "start one with mission workflows run " + request.id, {{"workflow_id", request.id}});
  }
  return {{"run", context.services.runs.run_json(*run)}};
}

}  // namespace mission::daemon
