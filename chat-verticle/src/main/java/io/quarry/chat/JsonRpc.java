package io.quarry.chat;

import io.vertx.core.json.JsonObject;

/** JSON-RPC 2.0 messages as MCP carries them, and the error codes it uses. */
final class JsonRpc {

  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int METHOD_NOT_FOUND = -32601;
  static final int INVALID_PARAMS = -32602;
  static final int INTERNAL_ERROR = -32603;
  /** MCP's code for a resource URI that names nothing the caller may read. */
  static final int RESOURCE_NOT_FOUND = -32002;
  /** Refused before any method ran: no token, or one not known. */
  static final int UNAUTHORIZED = -32001;

  private JsonRpc() {
  }

  static JsonObject result(Object id, JsonObject result) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", result);
  }

  static JsonObject error(Object id, int code, String message) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", id)
        .put("error", new JsonObject().put("code", code).put("message", message));
  }

  static JsonObject notification(String method, JsonObject params) {
    return new JsonObject().put("jsonrpc", "2.0").put("method", method).put("params", params);
  }

  /** A failure that answers its request with a JSON-RPC error rather than a tool's error. */
  static final class Failure extends RuntimeException {
    final int code;

    Failure(int code, String message) {
      super(message, null, false, false);
      this.code = code;
    }
  }
}
