package io.quarry.app;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.EntryAdapter;
import com.hazelcast.multimap.MultiMap;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.quarry.client.BusProbe;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.spi.cluster.NodeInfo;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import io.vertx.spi.cluster.hazelcast.impl.HazelcastRegistrationInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Members of a TLS cluster that this member's event bus cannot reach over TLS with the cluster's CA: they have no
 * certificate it signed, or run their bus in the clear. Hazelcast's own port is not encrypted, so such a process can
 * join and register consumers; the bus would then choose it for their addresses in turn, and every message sent there
 * is lost without a word (the connection fails, and the request waits out its timeout). So every registration of a
 * member not yet seen is checked with a TLS handshake to the member's bus, made as the bus makes its own; a member
 * that fails it is not a place to send to: its registrations are removed (every member's bus hears of the removal),
 * and those it adds later too. It is asked again every {@link #RECHECK_MS}: one that was only slow gets back what was
 * removed. (A handshake that has not ended when the bus's own would have given up counts as failed.) One whose
 * handshake ran out of time rather than failing is asked again after {@link #SLOW_RECHECK_MS}, and so on while it does:
 * eight nodes starting at once on two cores took longer than a handshake may, and their registrations stayed removed
 * until the next recheck, with every question meanwhile answered 'No handlers'.
 */
final class UncertifiedMembers {

  private static final Logger log = LoggerFactory.getLogger(UncertifiedMembers.class);
  static final long RECHECK_MS = 30_000;
  /** How soon a member whose handshake ran out of time is asked again; twice as long after each time it does again. */
  static final long SLOW_RECHECK_MS = 2_000;
  /** How long a node's bus address may take to read. */
  static final long LOOKUP_MS = 5_000;

  private final Vertx vertx;
  private final HazelcastClusterManager manager;
  private final BusProbe probe;
  private final MultiMap<String, HazelcastRegistrationInfo> registrations;
  private final Map<String, Future<Verdict>> checked = new ConcurrentHashMap<>();
  /** How long until a slow member is asked again, by node. */
  private final Map<String, Long> slowDelays = new ConcurrentHashMap<>();
  /** What this member removed, by node, to put back should the node pass a later check. */
  private final Map<String, List<Map.Entry<String, HazelcastRegistrationInfo>>> removed = new ConcurrentHashMap<>();

  private UncertifiedMembers(Vertx vertx, HazelcastClusterManager manager, EventBusOptions bus) {
    this.vertx = vertx;
    this.manager = manager;
    this.probe = BusProbe.asMember(vertx, bus);
    this.registrations = manager.getHazelcastInstance().getMultiMap(StaleRegistrations.REGISTRATIONS);
  }

  /** Watches the registrations of a cluster whose bus runs TLS; nothing to do for one in the clear. */
  static void watch(Vertx vertx, HazelcastClusterManager manager, EventBusOptions bus) {
    if (!bus.isSsl()) {
      return;
    }
    UncertifiedMembers members = new UncertifiedMembers(vertx, manager, bus);
    // Hazelcast's calls block: the listener's registration is a request to every member.
    vertx.executeBlocking(() -> {
      members.registrations.addEntryListener(members.new Added(), true);
      return Set.copyOf(members.registrations.values());
    }, false).onSuccess(present -> present.forEach(r -> members.seen(r.unwrap().nodeId())));
    vertx.setPeriodic(RECHECK_MS, t -> members.recheck());
  }

  private void seen(String nodeId) {
    if (nodeId.equals(manager.getNodeId()) || nodeId.equals(StaleRegistrations.NOBODY)) {
      return;
    }
    checked.computeIfAbsent(nodeId, this::check).onComplete(result -> {
      if (result.failed()) {
        // Not learned: asked again at its next registration, or at the next recheck.
        checked.remove(nodeId);
      } else if (result.result() != Verdict.CERTIFIED) {
        vertx.executeBlocking(() -> removeAll(nodeId), false);
      }
    });
  }

  /**
   * Whether the node's bus completes a TLS handshake with this one's settings in the time the bus itself would give it;
   * failed when that could not be learned (the node has no bus address: it left, or has not started one).
   */
  private Future<Verdict> check(String nodeId) {
    Promise<Verdict> verdict = Promise.promise();
    Promise<NodeInfo> info = Promise.promise();
    manager.getNodeInfo(nodeId, info);
    info.future().timeout(LOOKUP_MS, TimeUnit.MILLISECONDS)
        .compose(node -> probe.handshake(node)
            .timeout(BusProbe.HANDSHAKE_MS + LOOKUP_MS, TimeUnit.MILLISECONDS)
            .map(Verdict.CERTIFIED)
            .recover(e -> Future.succeededFuture(refused(nodeId, node, e, verdict.future()))))
        .onComplete(verdict);
    return verdict.future();
  }

  /**
   * A check that did not pass, said and acted on when it is still the node's latest (a node found slow is asked again
   * soon); one overtaken by a fresher check says nothing.
   */
  private Verdict refused(String nodeId, NodeInfo node, Throwable e, Future<Verdict> check) {
    Verdict verdict = Verdict.of(e);
    if (checked.get(nodeId) != check) {
      return verdict;
    }
    if (verdict == Verdict.SLOW) {
      soon(nodeId);
    }
    log.warn("The member {} at {}:{} {} a TLS handshake with this cluster's settings ({}): its bus registrations are"
        + " removed, so that nothing is sent where it would be lost{}", nodeId, node.host(), node.port(),
        verdict == Verdict.SLOW ? "did not finish" : "failed", e.toString(),
        verdict == Verdict.SLOW ? " until it does" : "");
    return verdict;
  }

  private int removeAll(String nodeId) {
    int count = 0;
    for (Map.Entry<String, HazelcastRegistrationInfo> entry : registrations.entrySet()) {
      if (entry.getValue().unwrap().nodeId().equals(nodeId) && registrations.remove(entry.getKey(), entry.getValue())) {
        removed.computeIfAbsent(nodeId, n -> new ArrayList<>()).add(entry);
        count++;
      }
    }
    return count;
  }

  /**
   * Asks the uncertified again (one that passes, and is still a member, gets back what this member removed), and looks
   * for registrations of nodes not checked yet (an event missed while partitions moved, a check that could not end).
   */
  private void recheck() {
    checked.forEach((nodeId, result) -> result.onSuccess(verdict -> {
      if (verdict != Verdict.CERTIFIED) {
        again(nodeId, false);
      }
    }));
    vertx.executeBlocking(() -> registrations.values().stream().map(r -> r.unwrap().nodeId()).distinct().toList(),
            false)
        .onSuccess(nodes -> nodes.forEach(this::seen));
  }

  /**
   * Asks a member that did not pass once more. One being asked already is asked again only when {@code overtake}: a
   * slow member's quick second look must not wait for a check begun while it was still slow (a recheck that came at
   * that moment held it out for that check's whole 15 s).
   */
  private void again(String nodeId, boolean overtake) {
    if (!manager.getNodes().contains(nodeId)) {
      checked.remove(nodeId);
      removed.remove(nodeId);
      slowDelays.remove(nodeId);
      return;
    }
    Future<Verdict> asking = checked.get(nodeId);
    if (asking != null && !asking.isComplete() && !overtake) {
      return;
    }
    Future<Verdict> again = check(nodeId);
    checked.put(nodeId, again);
    again.onComplete(now -> {
      if (checked.get(nodeId) != again) {
        return; // overtaken: the fresher check decides
      }
      if (now.failed()) {
        checked.put(nodeId, Future.succeededFuture(Verdict.REFUSED));
      } else if (now.result() == Verdict.CERTIFIED) {
        slowDelays.remove(nodeId);
        vertx.executeBlocking(() -> restore(nodeId), false);
      } else {
        vertx.executeBlocking(() -> removeAll(nodeId), false);
      }
    });
  }

  /** Asks a slow member again soon: a bus in the clear never answers a hello either, so less often each time. */
  private void soon(String nodeId) {
    long delay = slowDelays.merge(nodeId, SLOW_RECHECK_MS, (last, first) -> Math.min(last * 2, RECHECK_MS));
    vertx.setTimer(delay, t -> again(nodeId, true));
  }

  private int restore(String nodeId) {
    List<Map.Entry<String, HazelcastRegistrationInfo>> back = removed.remove(nodeId);
    if (back == null) {
      return 0;
    }
    back.forEach(entry -> registrations.put(entry.getKey(), entry.getValue()));
    log.info("The member {} now passes the TLS handshake: {} bus registrations put back", nodeId, back.size());
    return back.size();
  }

  /** Hazelcast's listener: every registration added anywhere in the cluster. */
  private final class Added extends EntryAdapter<String, HazelcastRegistrationInfo> {
    @Override
    public void entryAdded(EntryEvent<String, HazelcastRegistrationInfo> event) {
      seen(event.getValue().unwrap().nodeId());
    }
  }

  /** What a member's handshake came to: passed, refused (no certificate the CA signed, a bus in the clear), or slow. */
  enum Verdict {
    CERTIFIED, REFUSED, SLOW;

    /** A handshake that ran out of time says the member was slow, not that it holds no certificate. */
    static Verdict of(Throwable failure) {
      return failure instanceof TimeoutException || failure instanceof SslHandshakeTimeoutException
          || failure instanceof ConnectTimeoutException ? SLOW : REFUSED;
    }
  }
}
