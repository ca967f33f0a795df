package io.quarry.testing;

import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The environment of a cluster of a test's own: a unique name, and ports of its own from which its members take
 * theirs and through which they join (ten of them, so that a member started later still finds the cluster when the
 * first has been killed). Not Hazelcast's 5701 and up, where the nodes of tests in the other forks run their private
 * clusters: a member told only "127.0.0.1" probes 5701–5703, and claiming mastership against members of another
 * cluster there cost BusTlsTest 110 s. Nor ports the system hands out at random: a shared node's server there once
 * held WorkerProcessTest's member in its join for 225 s. Its bus runs in the clear on loopback, which a node refuses
 * unless told that is meant (a test that runs TLS gives certificates, which take precedence).
 */
public final class OwnCluster {

  private OwnCluster() {
  }

  /** The QUARRY_CLUSTER_* settings of a new cluster whose name starts with {@code prefix}. */
  public static Map<String, String> env(String prefix) {
    int port = JarCommand.freeBlock(10);
    String members = IntStream.range(port, port + 10).mapToObj(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    return Map.of("QUARRY_CLUSTER_NAME", prefix + UUID.randomUUID(), "QUARRY_CLUSTER_PORT", String.valueOf(port),
        "QUARRY_CLUSTER_MEMBERS", members, "QUARRY_CLUSTER_INSECURE", "true");
  }
}
