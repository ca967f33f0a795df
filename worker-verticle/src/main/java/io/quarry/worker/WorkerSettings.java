package io.quarry.worker;

import io.quarry.bus.Defaults;
import io.quarry.bus.NodeInfo;
import io.quarry.bus.QueryTimeouts;
import io.quarry.bus.net.AddressPolicy;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;

/**
 * The {@code worker} section, over the defaults of {@code conf/config.json}; built by {@link #of} (a node) or
 * {@link #from} (a verticle deployed with its config) only.
 *
 * @param threads queries run at once (each on a DuckDB thread of the pool); {@code queueSize} more wait
 * @param servedBy which node answers, for operators and the tests of work spread across a cluster
 * @param localWorkerId the member address its pool gives it (empty when it is not deployed by a pool)
 * @param maxQueryFetchBytes the most one query may move from one file (column chunks it reads, or a whole file
 *     from a server that ignores {@code Range})
 * @param fetchConnections connections one fetch of columns uses at most
 * @param freshForMs how long a copy its origin confirmed current is used without asking again, unless the origin's
 *     {@code Cache-Control} says otherwise
 * @param progressIntervalMs how often a query waiting for its data tells its browsers how far the download is
 * @param instances databases kept idle, one per set of table bindings; 0 sizes them from memory
 *     ({@link DatabaseBudget})
 * @param wholeFileBelowBytes a file up to this size is fetched whole rather than column by column (see {@link Footer})
 * @param originCaFile a PEM file of the authorities trusted for https dataset origins instead of the JVM's; blank: the
 *     JVM's
 * @param warmUp whether it runs {@link Warmup} before it is ready (a worker process started for a query that waits for
 *     it does not: that query is its warm-up)
 */
public record WorkerSettings(Path home, int threads, int queueSize, String memoryLimit, int duckdbThreads,
    int instances, long cacheMaxBytes, long maxFileSizeBytes, long maxQueryFetchBytes, long maxFooterBytes,
    int fetchConnections, long downloadTimeoutMs, long revalidateWaitMs, long freshForMs, long progressIntervalMs,
    long wholeFileBelowBytes, AddressPolicy policy, String originCaFile, QueryTimeouts timeouts, String servedBy,
    String localWorkerId, boolean warmUp) {

  /** From a node's whole configuration. */
  public static WorkerSettings of(JsonObject nodeConfig, NodeInfo node) {
    return from(node.roleConfig(nodeConfig, "worker"));
  }

  public static WorkerSettings from(JsonObject config) {
    JsonObject c = Defaults.section("worker", config);
    String name = c.getString("name");
    return new WorkerSettings(Path.of(c.getString("dataDir")).toAbsolutePath().resolve("worker-" + name),
        c.getInteger("threads"), c.getInteger("queueSize"), c.getString("memoryLimit"), c.getInteger("duckdbThreads"),
        c.getInteger("instances"), c.getLong("cacheMaxBytes"), c.getLong("maxFileSizeBytes"),
        c.getLong("maxQueryFetchBytes"), c.getLong("maxFooterBytes"), c.getInteger("fetchConnections"),
        c.getLong("downloadTimeoutMs"), c.getLong("revalidateWaitMs"), c.getLong("freshForMs"),
        c.getLong("progressIntervalMs"),
        c.getLong("wholeFileBelowBytes"), AddressPolicy.of(c.getBoolean("allowPrivateNetworks"), c.getString("allowedAddresses"),
            c.getString("trustedUrlPrefixes")), c.getString("originCaFile"),
        QueryTimeouts.from(c), c.containsKey(NodeInfo.CONFIG_KEY) ? NodeInfo.of(c).id() : "worker-" + name,
        c.getString("localWorkerId", ""), c.getBoolean("warmUp"));
  }

  /** The same settings for a member of a pool, which answers on the address its pool gives it. */
  public WorkerSettings withLocalWorkerId(String id) {
    return new WorkerSettings(home, threads, queueSize, memoryLimit, duckdbThreads, instances, cacheMaxBytes,
        maxFileSizeBytes, maxQueryFetchBytes, maxFooterBytes, fetchConnections, downloadTimeoutMs, revalidateWaitMs,
        freshForMs, progressIntervalMs, wholeFileBelowBytes, policy, originCaFile, timeouts, servedBy, id, warmUp);
  }

  DuckInstances.Limits duckdb() {
    return new DuckInstances.Limits(memoryLimit, duckdbThreads, threads, instances, home);
  }

  ParquetCache.Settings cache() {
    return new ParquetCache.Settings(home.resolve("cache"), cacheMaxBytes, maxFileSizeBytes, maxQueryFetchBytes,
        maxFooterBytes, downloadTimeoutMs, fetchConnections, wholeFileBelowBytes, freshForMs);
  }
}
