#pragma once
// The MCP protocol revisions missiond speaks. Legacy revisions open a session
// with initialize; the modern (stateless) one carries its version in every
// request's _meta and is probed with server/discover.

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mission::daemon::mcp {

// Oldest first; the last is the one offered when a client asks for another.
std::span<const std::string_view> legacy_versions();
std::span<const std::string_view> modern_versions();
// Every supported revision, newest first (server/discover, -32004 errors).
std::span<const std::string_view> all_versions_newest_first();

// The version initialize answers: the requested one if it is a supported
// legacy revision, else the latest legacy revision.
std::string_view negotiate_legacy(std::string_view requested);

bool is_supported_modern(std::string_view version);

// _meta keys of the modern revision.
inline constexpr std::string_view kMetaProtocolVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view kMetaClientCapabilities =
    "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view kMetaClientInfo = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view kMetaServerInfo = "io.modelcontextprotocol/serverInfo";

// JSON-RPC error code of the modern revision for an unsupported version.
inline constexpr int kUnsupportedProtocolVersion = -32004;

}  // namespace mission::daemon::mcp
