package io.quarry.app;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Where a clustered node's event bus listens ({@code cluster.busPort}): a port, or a range of them, so that a firewall
 * between the cluster's machines can be opened for it; empty for a port the system picks. A node and its worker
 * processes share one range, each taking the first free port from its own place in it: the node the first, worker
 * process N the (N+1)th.
 */
record BusPort(int first, int last) {

  /** Any free port: no setting. */
  static final BusPort ANY = new BusPort(0, 0);

  /** {@code text}: "", "5710" or "5710-5720". */
  static BusPort parse(String text) {
    String given = text == null ? "" : text.strip();
    if (given.isEmpty()) {
      return ANY;
    }
    String[] ends = given.split("-", -1);
    int first = ends.length <= 2 ? port(ends[0]) : -1;
    int last = ends.length == 2 ? port(ends[1]) : first;
    if (first < 1 || last < first) {
      throw new IllegalArgumentException("cluster.busPort (QUARRY_CLUSTER_BUS_PORT) must be a port from 1 to 65535"
          + " or a range of them such as 5710-5720, not '" + given + "'");
    }
    return new BusPort(first, last);
  }

  private static int port(String text) {
    try {
      int port = Integer.parseInt(text.strip());
      return port >= 1 && port <= 65535 ? port : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * The port to listen on at {@code host}: 0 (the system's pick) when none is set, else the first of the range free
   * there from {@code place} on (wrapping round). Checked just before the bus binds, so another program can still take
   * it in between: the bus then fails to start, saying so.
   */
  int pick(String host, int place) {
    if (this == ANY || first == 0) {
      return 0;
    }
    int size = last - first + 1;
    for (int i = 0; i < size; i++) {
      int port = first + (place + i) % size;
      if (free(host, port)) {
        return port;
      }
    }
    throw new IllegalStateException("No port of cluster.busPort " + this + " is free on " + host
        + ": every one is in use (widen the range, or stop what holds them)");
  }

  private static boolean free(String host, int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(InetAddress.getByName(host), port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return first == last ? String.valueOf(first) : first + "-" + last;
  }
}
