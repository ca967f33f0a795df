package io.quarry.dataset;

import io.quarry.bus.Defaults;
import io.quarry.bus.NodeInfo;
import io.quarry.bus.QueryTimeouts;
import io.quarry.bus.net.AddressPolicy;
import io.vertx.core.json.JsonObject;

/**
 * The {@code dataset} section, over the defaults of {@code conf/config.json}; built by {@link #of} (a node) or
 * {@link #from} (a verticle deployed with its config) only.
 *
 * @param workerWaitMs how long a worker may take before the query goes to another one: {@code workerTimeoutMs}
 *     when set, else the query timeout plus 10 s
 * @param originCaFile a PEM file of the authorities trusted for https dataset origins instead of the JVM's; blank: the
 *     JVM's
 * @param profileMaxBytes the compressed bytes of columns a profile may scan (footer statistics cost none)
 * @param profilesCached how many profiles (one per version of a file) a node keeps
 * @param schedules the {@code schedule} section: the scheduler of scheduled questions, which runs on dataset nodes
 */
public record DatasetSettings(Pipeline.Settings pipeline, AddressPolicy policy, int maxDatasets, int maxSqlChars,
    int maxQueriesPerUser, int maxWaitingQueriesPerUser, QueryTimeouts timeouts, long workerWaitMs,
    long versionCheckIntervalMs, String originCaFile, long profileMaxBytes, int profilesCached,
    Scheduler.Settings schedules) {

  /** From a node's whole configuration. */
  public static DatasetSettings of(JsonObject nodeConfig, NodeInfo node) {
    return from(node.roleConfig(nodeConfig, "dataset").put("schedule", nodeConfig.getJsonObject("schedule").copy()));
  }

  public static DatasetSettings from(JsonObject config) {
    JsonObject c = Defaults.section("dataset", config);
    QueryTimeouts timeouts = QueryTimeouts.from(c);
    long workerWait = c.getLong("workerTimeoutMs");
    return new DatasetSettings(
        new Pipeline.Settings(c.getLong("headTimeoutMs"), c.getLong("magicTimeoutMs"), c.getLong("schemaTimeoutMs"),
            c.getLong("maxFileSizeBytes"), c.getLong("rangelessMaxBytes"), c.getInteger("maxFooterBytes"),
            c.getInteger("tailBytes"), c.getLong("textMaxBytes")),
        AddressPolicy.of(c.getBoolean("allowPrivateNetworks"), c.getString("allowedAddresses"),
            c.getString("trustedUrlPrefixes")),
        c.getInteger("maxDatasets"), c.getInteger("maxSqlChars"), c.getInteger("maxQueriesPerUser"),
        c.getInteger("maxWaitingQueriesPerUser"), timeouts, workerWait > 0 ? workerWait : timeouts.workerWaitMs(),
        c.getLong("versionCheckIntervalMs"), c.getString("originCaFile"), c.getLong("profileMaxBytes"),
        c.getInteger("profilesCached"), Scheduler.Settings.from(config == null ? null
            : config.getJsonObject("schedule")));
  }
}
