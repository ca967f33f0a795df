package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.bus.Addresses;
import io.quarry.bus.Keys;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.WorkerReply;
import io.quarry.testing.BusCertificates;
import io.quarry.testing.JarCommand;
import io.quarry.testing.OwnCluster;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import io.vertx.core.Promise;
import com.hazelcast.core.EntryAdapter;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.multimap.MultiMap;
import io.vertx.spi.cluster.hazelcast.impl.HazelcastRegistrationInfo;
import java.util.concurrent.TimeUnit;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster whose event bus runs TLS with mutual authentication, on loopback: a web node and a worker node with
 * the cluster CA's certificates, and outsiders that join the Hazelcast cluster with a certificate of another CA,
 * or with none.
 */
class BusTlsTest {

  @TempDir
  static Path dir;
  static Vertx outside;
  static ParquetServer files;
  static Map<String, String> base;
  static BusCertificates cluster;
  static BusCertificates rogue;
  static final List<Node> nodes = new ArrayList<>();
  static final List<Vertx> outsiders = new ArrayList<>();
  static Node web;
  /**
   * Whom the conversation lists that reached the web node's storage were asked for: a stranger's request names a user of
   * its own, so that the node's own work meanwhile (a scheduler's tick, a sweep) cannot be mistaken for it.
   */
  static final List<String> listedFor = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    outside = Vertx.vertx();
    files = ParquetServer.start(outside);
    files.route("/people.parquet").content(ParquetFixtures.people(dir));
    cluster = BusCertificates.authority(dir.resolve("certs"), "cluster");
    rogue = BusCertificates.authority(dir.resolve("certs"), "rogue");
    base = new HashMap<>(TestNodes.env(dir));
    base.putAll(OwnCluster.env("quarry-tls-"));
    base.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    web = node("web", "storage,dataset,web", cluster.issue("web"));
    node("worker", "worker", cluster.issue("worker"));
    web.vertx().eventBus().addInboundInterceptor(ctx -> {
      if (ctx.message().address().equals(Addresses.STORAGE_CONVERSATION_LIST)
          && ctx.message().body() instanceof JsonObject request) {
        listedFor.add(String.valueOf(request.getString(Keys.USER_ID)));
      }
      ctx.next();
    });
  }

  private static Node node(String name, String roles, BusCertificates.Identity identity) throws Exception {
    Map<String, String> env = new HashMap<>(base);
    env.put("QUARRY_DATA_DIR", Files.createDirectories(dir.resolve(name)).toString());
    env.put("QUARRY_CLUSTER_KEY_FILE", identity.key().toString());
    env.put("QUARRY_CLUSTER_CERT_FILE", identity.cert().toString());
    env.put("QUARRY_CLUSTER_CA_FILE", identity.ca().toString());
    Node node = TestNodes.start(env, dir, "--cluster", "--roles", roles);
    nodes.add(node);
    return node;
  }

  /** A Vert.x that joins the same Hazelcast cluster, its event bus as given. */
  private static Vertx outsider(EventBusOptions bus) {
    JsonObject section = TestNodes.clusterSection(base);
    Vertx vertx = Vertx.builder().with(new VertxOptions().setEventBusOptions(bus.setHost("127.0.0.1").setPort(0)))
        .withClusterManager(new HazelcastClusterManager(Clustering.hazelcastConfig(section, null))).buildClustered()
        .await();
    outsiders.add(vertx);
    return vertx;
  }

  @AfterAll
  static void stop() {
    outsiders.forEach(v -> v.close().await());
    nodes.forEach(n -> n.stop().await());
    outside.close().await();
  }

  @Test
  @DisplayName("members with the cluster's certificates talk over TLS: the web node's queries run on the worker node")
  void membersTalk() {
    QueryRequest query = new QueryRequest("SELECT count(*) AS n FROM people",
        Map.of("people", files.url("/people.parquet")), 10_000);
    Buffer reply = web.vertx().eventBus().<Buffer>request(Addresses.WORKER_QUERY_RUN, query.toJson()).await().body();
    assertThat(WorkerReply.decode(reply).rowValues().getJsonArray(0).getLong(0)).isEqualTo(100);
  }

  @Test
  @DisplayName("a member whose certificate another CA signed can neither send to the cluster nor receive from it")
  void otherCa() throws Exception {
    BusCertificates.Identity stranger = rogue.issue("stranger");
    Vertx vertx = outsider(new EventBusOptions().setSsl(true)
        .setKeyCertOptions(new io.vertx.core.net.PemKeyCertOptions().setKeyPath(stranger.key().toString())
            .setCertPath(stranger.cert().toString()))
        .setTrustAll(true)); // it would talk to anyone: only the members' checks keep it out
    refused(vertx);
  }

  @Test
  @DisplayName("a member whose event bus runs in the clear can neither send to the cluster nor receive from it")
  void noTls() throws Exception {
    refused(outsider(new EventBusOptions()));
  }

  @Test
  @DisplayName("a member without a certificate that registers a consumer where storage listens is not sent to: once"
      + " its registration is checked and removed, every request there is answered")
  void uncertifiedNotSentTo() {
    HazelcastClusterManager manager = new HazelcastClusterManager(
        Clustering.hazelcastConfig(TestNodes.clusterSection(base), null));
    Vertx stranger = Vertx.builder().with(new VertxOptions().setEventBusOptions(
            new EventBusOptions().setHost("127.0.0.1").setPort(0)))
        .withClusterManager(manager).buildClustered().await();
    outsiders.add(stranger);
    MultiMap<String, HazelcastRegistrationInfo> registrations =
        manager.getHazelcastInstance().getMultiMap(StaleRegistrations.REGISTRATIONS);
    Promise<Void> removed = Promise.promise();
    registrations.addEntryListener(new EntryAdapter<>() {
      @Override
      public void entryRemoved(EntryEvent<String, HazelcastRegistrationInfo> event) {
        if (event.getOldValue().unwrap().nodeId().equals(manager.getNodeId())) {
          removed.tryComplete();
        }
      }
    }, Addresses.STORAGE_CONVERSATION_LIST, true);
    stranger.eventBus().consumer(Addresses.STORAGE_CONVERSATION_LIST, m -> m.reply(new JsonArray())).completion().await();
    // Within the recheck and a handshake's time, were the first check not to end.
    removed.future().timeout(UncertifiedMembers.RECHECK_MS + 30_000, TimeUnit.MILLISECONDS).await();
    for (int i = 0; i < 6; i++) {
      web.vertx().eventBus().request(Addresses.STORAGE_CONVERSATION_LIST, new JsonObject().put(Keys.USER_ID, "anyone"),
          new DeliveryOptions().setSendTimeout(5_000)).await();
    }
  }

  @Test
  @DisplayName("a certified member whose bus is too slow to finish a handshake has its registrations removed, and gets"
      + " them back within seconds of answering, not at the next recheck")
  void slowMemberBackSoon() throws Exception {
    // The member's bus is reached through a door that holds every connection until it opens, then passes them on.
    AtomicBoolean open = new AtomicBoolean();
    List<NetSocket> held = new CopyOnWriteArrayList<>();
    int busPort = JarCommand.freePort();
    NetClient onward = outside.createNetClient();
    NetServer door = outside.createNetServer().connectHandler(in -> {
      if (!open.get()) {
        in.pause();
        held.add(in);
        return;
      }
      in.pause();
      onward.connect(busPort, "127.0.0.1").onSuccess(out -> {
        in.pipeTo(out);
        out.pipeTo(in);
        in.resume();
      }).onFailure(e -> in.close());
    }).listen(0, "127.0.0.1").await();
    try {
      BusCertificates.Identity slow = cluster.issue("slow");
      HazelcastClusterManager manager = new HazelcastClusterManager(
          Clustering.hazelcastConfig(TestNodes.clusterSection(base), null));
      Vertx member = Vertx.builder().with(new VertxOptions().setEventBusOptions(new EventBusOptions()
              .setHost("127.0.0.1").setPort(busPort).setClusterPublicHost("127.0.0.1")
              .setClusterPublicPort(door.actualPort()).setSsl(true)
              .setKeyCertOptions(new io.vertx.core.net.PemKeyCertOptions().setKeyPath(slow.key().toString())
                  .setCertPath(slow.cert().toString()))
              .setTrustOptions(new io.vertx.core.net.PemTrustOptions().addCertPath(slow.ca().toString()))
              .setClientAuth(io.vertx.core.http.ClientAuth.REQUIRED)))
          .withClusterManager(manager).buildClustered().await();
      outsiders.add(member);
      String address = "quarry.test.slow." + UUID.randomUUID();
      Promise<Long> removed = Promise.promise();
      Promise<Long> back = Promise.promise();
      manager.getHazelcastInstance().<String, HazelcastRegistrationInfo>getMultiMap(StaleRegistrations.REGISTRATIONS)
          .addEntryListener(new EntryAdapter<>() {
            @Override
            public void entryRemoved(EntryEvent<String, HazelcastRegistrationInfo> event) {
              removed.tryComplete(System.nanoTime());
            }

            @Override
            public void entryAdded(EntryEvent<String, HazelcastRegistrationInfo> event) {
              if (removed.future().isComplete()) {
                back.tryComplete(System.nanoTime());
              }
            }
          }, address, true);
      member.eventBus().consumer(address, m -> m.reply("here")).completion().await();
      // Its handshake runs out of time (the bus's own limit), and the members remove what it registered.
      removed.future().timeout(UncertifiedMembers.RECHECK_MS + 30_000, TimeUnit.MILLISECONDS).await();
      open.set(true);
      long at = back.future().timeout(UncertifiedMembers.RECHECK_MS + 30_000, TimeUnit.MILLISECONDS).await();
      assertThat(TimeUnit.NANOSECONDS.toMillis(at - removed.future().result()))
          .as("from the removal to the registration put back (the recheck comes every %d ms)",
              UncertifiedMembers.RECHECK_MS)
          .isLessThan(UncertifiedMembers.SLOW_RECHECK_MS + 10_000);
      assertThat(web.vertx().eventBus().<String>request(address, "anyone?").await().body()).isEqualTo("here");
    } finally {
      held.forEach(NetSocket::close);
      door.close().await();
    }
  }

  private static void refused(Vertx stranger) {
    String user = "stranger-" + UUID.randomUUID();
    Future<?> sent = stranger.eventBus().request(Addresses.STORAGE_CONVERSATION_LIST,
        new JsonObject().put(Keys.USER_ID, user), new DeliveryOptions().setSendTimeout(3_000));
    assertThatThrownBy(sent::await).as("a request from outside the CA").isNotNull();
    assertThat(listedFor).as("conversation lists that reached storage").doesNotContain(user);
    // What a certified member sends there is seen: the look above could have found the stranger's.
    String member = "member-" + UUID.randomUUID();
    nodes.get(1).vertx().eventBus().request(Addresses.STORAGE_CONVERSATION_LIST,
            new JsonObject().put(Keys.USER_ID, member))
        .transform(done -> Future.succeededFuture()).await();
    assertThat(listedFor).as("a member's conversation list").contains(member);

    AtomicInteger received = new AtomicInteger();
    String probe = "quarry.test.probe." + UUID.randomUUID();
    stranger.eventBus().consumer(probe, m -> {
      received.incrementAndGet();
      m.reply("stolen");
    }).completion().await();
    Future<?> asked = web.vertx().eventBus().request(probe, new JsonObject().put("secret", "x"),
        new DeliveryOptions().setSendTimeout(3_000));
    assertThatThrownBy(asked::await).as("a request to a consumer outside the CA").isNotNull();
    assertThat(received.get()).isZero();
  }

  @Test
  @DisplayName("a configured cluster's bus in the clear is refused on loopback and off it, saying how to set TLS or"
      + " that cluster.insecure=true allows it; a node's private cluster needs no certificates")
  void inTheClear() {
    for (String host : List.of("127.0.0.1", "127.0.0.2", "::1", "0:0:0:0:0:0:0:1", "localhost", "LOCALHOST")) {
      assertThat(BusTls.loopback(host)).as(host).isTrue();
      JsonObject open = new JsonObject().put("name", "quarry").put("host", host);
      assertThatThrownBy(() -> BusTls.options(open, false)).as(host)
          .hasMessageContaining("would run its event bus in the clear on loopback (" + host + "), where any program"
              + " of this machine could join it").hasMessageContaining("cluster.insecure=true")
          .hasMessageContaining("cluster.caFile");
      assertThat(BusTls.options(open.copy().put("insecure", true), false).isSsl()).isFalse();
      assertThat(BusTls.options(open, true).isSsl()).as("a private cluster").isFalse();
    }
    for (String host : List.of("0.0.0.0", "10.0.0.5", "192.168.1.2", "::", "node-1.internal", "2130706433")) {
      assertThat(BusTls.loopback(host)).as(host).isFalse();
      JsonObject open = new JsonObject().put("name", "quarry").put("host", host);
      assertThatThrownBy(() -> BusTls.options(open, false)).as(host)
          .hasMessageContaining("on " + host + ", which is not a loopback address");
      assertThat(BusTls.options(open.copy().put("insecure", true), false).isSsl()).isFalse();
    }
  }

  @Test
  @DisplayName("bus TLS half configured, or with a file that cannot be read, is refused by name")
  void badTlsSettings() {
    JsonObject half = new JsonObject().put("host", "127.0.0.1").put("keyFile", "/k.pem").put("certFile", "/c.pem");
    assertThatThrownBy(() -> BusTls.options(half, false)).hasMessage("Event-bus TLS needs cluster.keyFile, cluster.certFile"
        + " and cluster.caFile; missing: cluster.caFile");
    JsonObject absent = half.copy().put("caFile", dir.resolve("absent-ca.pem").toString());
    assertThatThrownBy(() -> BusTls.options(absent, false)).hasMessage("cluster.keyFile names /k.pem, which cannot be read");
  }

  @Test
  @DisplayName("a node told to join a cluster without bus TLS does not start, on loopback or off it, and says why")
  void nodeRefuses() {
    Map<String, String> env = new HashMap<>(base);
    env.remove("QUARRY_CLUSTER_INSECURE");
    assertThatThrownBy(() -> TestNodes.start(env, dir, "--cluster", "--roles", "worker"))
        .hasMessageContaining("would run its event bus in the clear on loopback (127.0.0.1)");
    env.put("QUARRY_CLUSTER_HOST", "0.0.0.0");
    assertThatThrownBy(() -> TestNodes.start(env, dir, "--cluster", "--roles", "worker"))
        .hasMessageContaining("on 0.0.0.0, which is not a loopback address");
  }
}
