package io.quarry.bench;

import io.quarry.bus.ApiOps;
import io.quarry.bus.ApiOps.CreateConversation;
import io.quarry.bus.ApiOps.Query;
import io.quarry.bus.Bus;
import io.quarry.testing.BridgeClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.util.Locale;

/**
 * {@code bench/run.sh bridge sql}: one query ({@code select 1}, which a worker runs and storage keeps) asked at each
 * door in one run, one at a time: by an application on the bus (the baseline), over the bridge, and as MCP's
 * {@code run_sql} (a JSON-RPC POST to {@code /mcp} on a kept-alive connection, as an agent's client sends it).
 */
final class McpSqlBench {

  private static final int WARM = 300;
  private static final int RUNS = 1_000;

  private McpSqlBench() {
  }

  static void run(Bus bus, BridgeClient bridge, Vertx client, int httpPort, String user, String token) {
    String conversation = ApiOps.CONVERSATION_CREATE.call(bus, new CreateConversation(user, null, "bench")).await()
        .id();
    WebClient web = WebClient.create(client, new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(httpPort).setKeepAlive(true));
    JsonObject sqlArgs = new JsonObject().put("conversation_id", conversation).put("sql", "select 1");
    java.util.function.Supplier<Future<Void>> onBus = () -> ApiOps.QUERY_RUN.call(bus,
        new Query(user, conversation, "select 1")).mapEmpty();
    java.util.function.Supplier<Future<Void>> overBridge = () -> BridgeBench.ok(bridge.request(
        ApiOps.QUERY_RUN.address(), new JsonObject().put("conversation_id", conversation).put("sql", "select 1")));
    java.util.function.Supplier<Future<Void>> overMcp = () -> web.post("/mcp")
        .putHeader("Authorization", "Bearer " + token).putHeader("Accept", "application/json, text/event-stream")
        .sendJsonObject(new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "tools/call")
            .put("params", new JsonObject().put("name", "run_sql").put("arguments", sqlArgs)))
        .compose(r -> r.statusCode() == 200 && !r.bodyAsJsonObject().getJsonObject("result").getBoolean("isError")
            ? Future.succeededFuture() : Future.failedFuture(r.bodyAsString()));

    System.out.printf(Locale.ROOT, "%nselect 1 (a query a worker runs and storage keeps), one at a time, %d cores%n",
        Runtime.getRuntime().availableProcessors());
    BridgeBench.sequential("bus (baseline)", WARM, onBus);
    BridgeBench.sequential("bridge", WARM, overBridge);
    BridgeBench.sequential("MCP run_sql", WARM, overMcp);
    double[] bus1 = BridgeBench.sequential("bus (baseline)", RUNS, onBus);
    double[] bridge1 = BridgeBench.sequential("bridge", RUNS, overBridge);
    double[] mcp1 = BridgeBench.sequential("MCP run_sql", RUNS, overMcp);
    System.out.printf(Locale.ROOT, "bridge / bus: p50 %.2f×, p99 %.2f×; MCP / bus: p50 %.2f×, p99 %.2f×%n",
        bridge1[0] / bus1[0], bridge1[1] / bus1[1], mcp1[0] / bus1[0], mcp1[1] / bus1[1]);
  }
}
