package io.quarry.app;

import com.hazelcast.multimap.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.spi.cluster.RegistrationInfo;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import io.vertx.spi.cluster.hazelcast.impl.HazelcastRegistrationInfo;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bus registrations of nodes no longer in the cluster, removed after a departure. Every member removes a departed
 * node's registrations as it hears of the departure (vertx-hazelcast), but a removal made while Hazelcast's partitions
 * move after a kill can miss some, and nothing removes them later: the bus then keeps choosing the dead node for
 * those addresses, and a message sent there is lost without a word (FailoverIT saw storage's addresses point at a
 * killed node for over a minute, and answers never end). So each member looks again once the departure has settled,
 * and once more later, for registrations of any node that is not a member.
 *
 * <p>Then it has every member read each address's registrations again: Vert.x's node selector keeps what it read of an
 * address until it hears of a change to that address, and ignores the cluster manager's word that registrations were
 * lost; a change it did not hear of (the removal event lost while partitions moved) leaves a dead node in its choice
 * for good. A marker that no node may choose (local to a node that does not exist) is added to each address and
 * removed again: every member hears of both and reads the address anew.
 */
final class StaleRegistrations {

  private static final Logger log = LoggerFactory.getLogger(StaleRegistrations.class);

  /** vertx-hazelcast's map of every node's registrations, address to registration. */
  static final String REGISTRATIONS = "__vertx.subs";
  /** When to look: once partitions have usually settled after a departure, and again after a slow migration. */
  static final long[] AFTER_MS = {2_000, 15_000};
  /** The node of the marker: no member has this id, so no member sends to it (local registrations are their node's). */
  static final String NOBODY = "quarry-reread-marker";

  private StaleRegistrations() {
  }

  /**
   * Looks for stale registrations after a departure, off the event loop (Hazelcast's calls block). The oldest member
   * looks, for all: every member hears of each change it makes, and N members each touching every address would send
   * N² events per address.
   */
  static void sweepAfterDeparture(Vertx vertx, HazelcastClusterManager manager) {
    try {
      for (long delay : AFTER_MS) {
        vertx.setTimer(delay, t -> vertx.executeBlocking(() -> oldest(manager) ? sweep(manager) : 0, false));
      }
    } catch (RejectedExecutionException stopping) {
      // This node is stopping: it routes nothing any more.
    }
  }

  private static boolean oldest(HazelcastClusterManager manager) {
    return manager.isActive() && manager.getHazelcastInstance().getCluster().getMembers().iterator().next().localMember();
  }

  /**
   * Removes the registrations of nodes that are not members now; blocks. Answers how many it removed, not counting
   * another sweep's markers (removed too, in case their sweeper died before it could: their owner's own removal then
   * finds nothing, which is no harm).
   */
  static int sweep(HazelcastClusterManager manager) {
    if (!manager.isActive()) {
      return 0;
    }
    Set<String> members = new HashSet<>(manager.getNodes());
    MultiMap<String, HazelcastRegistrationInfo> registrations =
        manager.getHazelcastInstance().getMultiMap(REGISTRATIONS);
    int removed = 0;
    for (Map.Entry<String, HazelcastRegistrationInfo> entry : registrations.entrySet()) {
      String node = entry.getValue().unwrap().nodeId();
      if (!members.contains(node) && registrations.remove(entry.getKey(), entry.getValue()) && !NOBODY.equals(node)) {
        removed++;
      }
    }
    if (removed > 0) {
      log.warn("Removed {} bus registrations of nodes no longer in the cluster", removed);
    }
    HazelcastRegistrationInfo marker = new HazelcastRegistrationInfo(new RegistrationInfo(NOBODY, 0, true));
    for (String address : registrations.keySet()) {
      registrations.put(address, marker);
      registrations.remove(address, marker);
    }
    return removed;
  }
}
