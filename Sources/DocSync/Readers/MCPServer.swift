internal import DocSyncSupport
import Foundation

/// `docsync mcp`: a Model Context Protocol server (JSON-RPC 2.0, one message per line on standard input and
/// output), read-only, offering the installed docsets to coding agents through four tools (`MCPTools`).
///
/// Methods: `initialize` (the protocol version negotiated: the client's when this server speaks it, else the
/// newest this server speaks), `ping`, `tools/list`, `tools/call`; every notification (`notifications/initialized`,
/// `notifications/cancelled`, …) is read and left unanswered, as JSON-RPC requires. An unknown method is error
/// -32601, a line that is not JSON -32700, a message that is not a request -32600, an unknown tool -32602; a
/// tool's bad argument is a tool result with `isError: true`, and the session goes on. Batches (JSON arrays) are
/// not part of MCP since 2025-06-18 and are refused (-32600).
package struct MCPServer: Sendable {
    /// Protocol versions spoken, newest first.
    package static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// The longest message read, in bytes.
    package static let maximumMessageBytes = 1 << 20

    private let tools: MCPTools
    private let version: String

    /// A server over `configuration`'s root and state folder; `version` is reported as `serverInfo.version`.
    package init(configuration: DocSyncConfiguration, version: String) {
        tools = MCPTools(configuration: configuration)
        self.version = version
    }

    /// Answers one message (a line without its newline): the response line, or nil for a notification.
    package func handle(_ line: [UInt8]) async -> String? {
        guard line.count <= Self.maximumMessageBytes else { return Self.tooLong }
        let message: JSONValue
        do { message = try JSONDecoder().decode(JSONValue.self, from: Data(line)) } catch {
            return Self.error(id: .null, code: -32700, "parse error: not JSON")
        }
        guard let object = message.object, object["jsonrpc"] == .string("2.0"),
            let method = object["method"]?.string
        else {
            if let object = message.object, object["method"] == nil, object["result"] != nil || object["error"] != nil {
                return nil  // a response to a request this server never sends
            }
            return Self.error(id: message.object?["id"] ?? .null, code: -32600, "invalid request: not a JSON-RPC 2.0 request")
        }
        guard let id = object["id"], id != .null else { return nil }  // a notification: never answered
        let params = object["params"]?.object ?? [:]
        switch method {
        case "initialize":
            let asked = params["protocolVersion"]?.string ?? ""
            let chosen = Self.protocolVersions.contains(asked) ? asked : Self.protocolVersions[0]
            return Self.result(
                id: id,
                .object([
                    "protocolVersion": .string(chosen),
                    "capabilities": .object(["tools": .object(["listChanged": .bool(false)])]),
                    "serverInfo": .object(["name": .string("docsync"), "version": .string(version)]),
                    "instructions": .string(
                        "Read-only access to the installed documentation sets: find entries by name (search), pages "
                            + "by what they say (search_text), and read a page as text (read_page)."),
                ]))
        case "ping":
            return Self.result(id: id, .object([:]))
        case "tools/list":
            return Self.result(id: id, .object(["tools": .array(MCPTools.definitions)]))
        case "tools/call":
            guard let name = params["name"]?.string else {
                return Self.error(id: id, code: -32602, "tools/call needs a tool name")
            }
            guard MCPTools.names.contains(name) else {
                return Self.error(id: id, code: -32602, "unknown tool: \(name.escapingControlCharacters)")
            }
            let arguments = params["arguments"]?.object ?? [:]
            return Self.result(id: id, await tools.call(name, arguments: arguments).json)
        default:
            return Self.error(id: id, code: -32601, "method not found: \(method.escapingControlCharacters)")
        }
    }

    /// The answer to a message over ``maximumMessageBytes`` (the reader drops the rest of its line).
    package static let tooLong = error(
        id: .null, code: -32600, "invalid request: the message is more than \(maximumMessageBytes) bytes")

    static func result(id: JSONValue, _ result: JSONValue) -> String {
        encode(.object(["jsonrpc": .string("2.0"), "id": id, "result": result]))
    }

    static func error(id: JSONValue, code: Int, _ message: String) -> String {
        encode(
            .object([
                "jsonrpc": .string("2.0"), "id": id,
                "error": .object(["code": .number(Double(code)), "message": .string(message)]),
            ]))
    }

    static func encode(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
