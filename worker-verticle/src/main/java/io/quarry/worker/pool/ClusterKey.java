package io.quarry.worker.pool;

import io.quarry.bus.BusSecret;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * What lets a process into a node's private cluster, all random per node start: its Hazelcast cluster name,
 * the event bus's secret, and the member secret with which every cluster connection proves, both ways, that
 * its two ends were started by this node (the name alone admits nobody: see {@code MemberGate}). The node hands
 * them to its worker processes over their standard input, never on a command line or in a file, where another
 * program on the machine could read them.
 *
 * @param memberSecret null in a configured cluster, whose members prove themselves with the bus's certificates
 * @param urlSecret what signed links' credentials are sealed under, the same at every start of the node (its data
 *     directory keeps it); null in a configured cluster, whose members share no secret
 */
public record ClusterKey(String name, String busSecret, String memberSecret, String urlSecret) {

  /** Members of a configured cluster know its name from their configuration, and have no bus secret yet. */
  public static ClusterKey named(String name) {
    return new ClusterKey(name, null, null, null);
  }

  /** A node that joins no cluster: only its own key for signed links. */
  public static ClusterKey alone(String urlSecret) {
    return new ClusterKey(null, null, null, urlSecret);
  }

  public static ClusterKey random(String urlSecret) {
    return new ClusterKey("quarry-local-" + BusSecret.random(), BusSecret.random(), BusSecret.random(), urlSecret);
  }

  /** One line, written to a worker process's standard input (which stays open: see {@link NodeWatch}). */
  void send(OutputStream toWorker) throws IOException {
    String line = new JsonObject().put("name", name).put("bus_secret", busSecret).put("member_secret", memberSecret)
        .put("url_secret", urlSecret).encode() + "\n";
    toWorker.write(line.getBytes(StandardCharsets.UTF_8));
    toWorker.flush();
  }

  /** The node's line, as {@link NodeWatch} read it off standard input. */
  public static ClusterKey parse(String line) {
    JsonObject key = new JsonObject(line);
    return new ClusterKey(key.getString("name"), key.getString("bus_secret"), key.getString("member_secret"),
        key.getString("url_secret"));
  }
}
