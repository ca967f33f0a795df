package io.quarry.client;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How an application joins a Quarry cluster: as Quarry's nodes are configured ({@code QUARRY_CLUSTER_NAME},
 * {@code QUARRY_CLUSTER_MEMBERS}), on an interface of its own, with a certificate the cluster's CA signed.
 *
 * @param name the cluster's name
 * @param members where Quarry's nodes listen for Hazelcast ({@code host} or {@code host:port}), at least one
 * @param host the interface this application listens on, for the cluster and for its event bus (the nodes connect
 *     back to it)
 * @param port where this application listens for the cluster (Hazelcast), or the first free port from 5701 when 0
 * @param tls the event bus's TLS files, or null for a cluster that runs its bus in the clear
 *     ({@code cluster.insecure=true})
 */
public record ClusterSettings(String name, List<String> members, String host, int port, Tls tls) {

  public ClusterSettings {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(host, "host");
    members = List.copyOf(members);
    if (members.isEmpty()) {
      throw new IllegalArgumentException("members: name at least one member of the cluster");
    }
  }

  /**
   * PEM files: this application's private key and certificate (signed by the cluster's CA), and the CA's certificate.
   *
   * @param key the private key
   * @param cert its certificate
   * @param ca the certificate of the CA that signed every member's
   */
  public record Tls(Path key, Path cert, Path ca) {
    public Tls {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(cert, "cert");
      Objects.requireNonNull(ca, "ca");
    }
  }
}
