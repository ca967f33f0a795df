package io.quarry.app;

import io.netty.util.NetUtil;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clustered event bus's transport: TLS with mutual authentication when the cluster section names a key, a
 * certificate and the cluster's CA (PEM files). Every member then proves itself with a certificate the CA signed,
 * both when it connects and when it is connected to, so a process without one can neither send to the members
 * nor receive from them. A configured cluster runs in the clear only where the operator says so, on loopback too:
 * any program of the machine could join it there and act for any user. A node's private cluster (its own worker
 * processes, on loopback) needs no certificates: its members prove themselves with the node's secrets instead.
 */
final class BusTls {

  private static final Logger log = LoggerFactory.getLogger(BusTls.class);
  static final List<String> FILES = List.of("keyFile", "certFile", "caFile");

  private BusTls() {
  }

  /** {@code cluster}'s event-bus options; refuses a configured cluster's bus in the clear unless it is allowed. */
  static EventBusOptions options(JsonObject cluster, boolean privateCluster) {
    String host = cluster.getString("host");
    EventBusOptions options = new EventBusOptions().setHost(host).setPort(0);
    List<String> given = FILES.stream().filter(key -> !cluster.getString(key, "").isBlank()).toList();
    if (given.isEmpty()) {
      return privateCluster ? options : inClear(cluster, host, options);
    }
    if (given.size() < FILES.size()) {
      throw new IllegalArgumentException("Event-bus TLS needs cluster.keyFile, cluster.certFile and cluster.caFile;"
          + " missing: " + String.join(", ", FILES.stream().filter(k -> !given.contains(k)).map(k -> "cluster." + k)
          .toList()));
    }
    Stream.of("keyFile", "certFile", "caFile").forEach(key -> readable(key, cluster.getString(key)));
    return options.setSsl(true)
        .setKeyCertOptions(new PemKeyCertOptions().setKeyPath(cluster.getString("keyFile"))
            .setCertPath(cluster.getString("certFile")))
        .setTrustOptions(new PemTrustOptions().addCertPath(cluster.getString("caFile")))
        .setClientAuth(ClientAuth.REQUIRED)
        // The event bus trusts every server certificate unless told otherwise: it would then send to any member.
        .setTrustAll(false);
  }

  private static EventBusOptions inClear(JsonObject cluster, String host, EventBusOptions options) {
    if (!cluster.getBoolean("insecure", false)) {
      String where = loopback(host) ? "on loopback (" + host + "), where any program of this machine could join it"
          : "on " + host + ", which is not a loopback address";
      throw new IllegalArgumentException("This node's cluster would run its event bus in the clear " + where
          + ", and whoever joins acts for any user. Set cluster.keyFile, cluster.certFile and"
          + " cluster.caFile (QUARRY_CLUSTER_KEY_FILE, ..._CERT_FILE, ..._CA_FILE) to run it with TLS and mutual"
          + " authentication, or set cluster.insecure=true (QUARRY_CLUSTER_INSECURE) to run it in the clear among"
          + " programs you trust.");
    }
    log.warn("INSECURE: the cluster's event bus on {} runs in the clear (cluster.insecure=true): anyone who can"
        + " reach it can act for any user", host);
    return options;
  }

  /** A loopback literal or {@code localhost}; a name is never looked up, so any other counts as off loopback. */
  static boolean loopback(String host) {
    if ("localhost".equalsIgnoreCase(host)) {
      return true;
    }
    byte[] address = NetUtil.createByteArrayFromIpAddressString(host);
    try {
      return address != null && InetAddress.getByAddress(address).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static void readable(String key, String file) {
    if (!Files.isReadable(Path.of(file))) {
      throw new IllegalArgumentException("cluster." + key + " names " + file + ", which cannot be read");
    }
  }
}
