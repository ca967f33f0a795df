package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import com.hazelcast.instance.EndpointQualifier;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import io.quarry.bus.Addresses;
import io.quarry.bus.BusSecret;
import io.quarry.bus.Keys;
import io.quarry.bus.StorageClient;
import io.quarry.testing.JarCommand;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The red team's attack on the default node: another program on the machine joins the node's private
 * cluster with what it can read (health, the workers' command lines and configuration files), then asks
 * storage for a user's password hash. It must get nowhere: a program that somehow learnt the cluster's name
 * cannot join without the member secret, and one that holds that too cannot send without the bus secret.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PrivateClusterTest {

  private static final String EMAIL = "victim@example.com";
  /** How long a request from the outsider waits for an answer that must never come. */
  private static final long REFUSED_WAIT_MS = 3_000;

  @TempDir
  static Path dir;

  ChatHarness chat;
  final List<Vertx> outsiders = new ArrayList<>();

  @BeforeAll
  void start() {
    chat = new ChatHarness(dir, Map.of("QUARRY_AUTH_MODE", "password", "QUARRY_LOCAL_WORKERS", "1"));
    String invite = new StorageClient(chat.node.vertx()).createInvite().await();
    assertThat(chat.send(HttpMethod.POST, "/api/auth/signup", new JsonObject().put("email", EMAIL)
        .put("password", "a long enough password").put("invite", invite)).statusCode()).isEqualTo(201);
  }

  @AfterAll
  void stop() {
    outsiders.forEach(v -> v.close().await());
    chat.close();
  }

  private HazelcastClusterManager nodeManager() {
    return (HazelcastClusterManager) ((VertxInternal) chat.node.vertx()).clusterManager();
  }

  private String realName() {
    return nodeManager().getHazelcastInstance().getConfig().getClusterName();
  }

  private List<Path> workerConfigs() throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("workers"))) {
      return files.filter(f -> f.getFileName().toString().matches("worker-\\d+\\.json")).toList();
    }
  }

  /** Everything another program on the machine can read about the node and its workers. */
  private String readable() throws IOException {
    StringBuilder seen = new StringBuilder(chat.send(HttpMethod.GET, "/api/health", null).bodyAsString());
    ProcessHandle.current().descendants()
        .forEach(p -> p.info().commandLine().ifPresent(line -> seen.append('\n').append(line)));
    for (Path config : workerConfigs()) {
      seen.append('\n').append(Files.readString(config));
    }
    return seen.toString();
  }

  /** The header this node's own members put on every message, taken from a message on its bus. */
  private String realSecret() {
    CompletableFuture<String> header = new CompletableFuture<>();
    var bus = chat.node.vertx().eventBus();
    bus.addInboundInterceptor(ctx -> {
      header.complete(ctx.message().headers().get(BusSecret.HEADER));
      ctx.next();
    });
    new StorageClient(chat.node.vertx()).sessionUser("no such session").otherwise((io.quarry.bus.User) null).await();
    return header.getNow(null);
  }

  /**
   * An outsider's attempt to join under {@code clusterName}: the cause of its failure to start, since no connection
   * it makes gets past the node's gate, and a member that cannot reach the one it was told to join gives up.
   */
  private Throwable refused(String clusterName) {
    // An outsider can wait as little as it likes for a join that is refused.
    Config config = Clustering.hazelcastConfig(outsiderCluster(true), null).setClusterName(clusterName)
        .setProperty("hazelcast.max.join.seconds", "2");
    config.getNetworkConfig().getJoin().getTcpIpConfig().setConnectionTimeoutSeconds(1);
    Future<Vertx> joined = Vertx.builder().withClusterManager(new HazelcastClusterManager(config)).buildClustered();
    Throwable cause = joined.<Throwable>transform(r -> Future.succeededFuture(r.cause())).await();
    if (joined.succeeded()) {
      outsiders.add(joined.result());
    }
    assertThat(cause).as("an outsider named '%s' started and sees %s", clusterName,
        joined.succeeded() ? ((VertxInternal) joined.result()).clusterManager().getNodes() : null).isNotNull();
    return cause;
  }

  /** A cluster section that names the node's member as the one to join. */
  private JsonObject outsiderCluster(boolean lite) {
    var address = nodeManager().getHazelcastInstance().getCluster().getLocalMember().getAddress();
    // Its own port, not 5701 and up, where the other forks' nodes run their private clusters and take a port it leaves.
    return new JsonObject().put("host", "127.0.0.1").put("members", address.getHost() + ":" + address.getPort())
        .put("port", JarCommand.freePort()).put("liteMember", lite);
  }

  private static Future<JsonObject> credentials(Vertx from, DeliveryOptions options) {
    return from.eventBus().<JsonObject>request(Addresses.STORAGE_USER_CREDENTIALS,
        new JsonObject().put(Keys.EMAIL, EMAIL), options.setSendTimeout(REFUSED_WAIT_MS)).map(m -> m.body());
  }

  private static ReplyFailure failure(Future<?> request) {
    Throwable cause = request.<Throwable>transform(r -> Future.succeededFuture(r.cause())).await();
    assertThat(cause).as("the outsider was answered: %s", request.result()).isInstanceOf(ReplyException.class);
    return ((ReplyException) cause).failureType();
  }

  @Test
  @DisplayName("nothing readable names the cluster or its secret; the workers' files are the node's account's only")
  void nothingReadableGivesTheKey() throws IOException {
    String readable = readable();
    assertThat(realName()).startsWith("quarry-local-").hasSizeGreaterThan(40);
    assertThat(readable).doesNotContain(realName().substring("quarry-local-".length())).doesNotContain(realSecret());
    for (Path config : workerConfigs()) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(config))).isEqualTo("rw-------");
    }
  }

  @Test
  @DisplayName("an outsider that learnt the cluster's real name is refused at every connection it makes: the name is no"
      + " key (any other name fares the same, since the door is passed before a name is read), only the member secret"
      + " the node drew at start and handed its workers")
  void cannotJoin() {
    assertThat(refused(realName())).as("why an outsider with the real name did not start")
        .hasMessageContaining("Node failed to start");
    assertThat(nodeManager().getNodes()).as("the node and its worker process, still members").hasSize(2);
  }

  @Test
  @DisplayName("a member admitted with the member secret but not the bus secret: what it sends is dropped")
  void cannotSendWithoutTheSecret() throws Exception {
    Vertx outsider = admitted();
    assertThat(failure(credentials(outsider, new DeliveryOptions()))).isEqualTo(ReplyFailure.TIMEOUT);
    assertThat(failure(credentials(outsider, new DeliveryOptions().addHeader(BusSecret.HEADER, "guessed"))))
        .isEqualTo(ReplyFailure.TIMEOUT);
    // The same request with the secret is answered: the drop above is the secret's doing, not the route's.
    JsonObject stolen = credentials(outsider, new DeliveryOptions().addHeader(BusSecret.HEADER, realSecret())).await();
    assertThat(stolen.getString("password_hash")).startsWith("$argon2");
  }

  /** A member that holds what the node's own worker processes are handed, but the bus secret. */
  private Vertx admitted() throws Exception {
    Config config = Clustering.hazelcastConfig(outsiderCluster(true), null).setClusterName(realName());
    HazelcastClusterManager manager = PrivateClusterManager.start(config, realMemberSecret()).await();
    Vertx vertx = Vertx.builder().withClusterManager(manager).buildClustered().await();
    outsiders.add(vertx);
    return vertx;
  }

  /** The node's member secret, as the gate of its Hazelcast member holds it. */
  private String realMemberSecret() throws ReflectiveOperationException {
    var node = ((HazelcastInstanceProxy) nodeManager().getHazelcastInstance()).getOriginal().node;
    MemberGate gate = (MemberGate) node.getNodeExtension().getSocketInterceptor(EndpointQualifier.MEMBER);
    Field key = MemberGate.class.getDeclaredField("key");
    key.setAccessible(true);
    return new String(((javax.crypto.spec.SecretKeySpec) key.get(gate)).getEncoded(), StandardCharsets.UTF_8);
  }

  @Test
  @DisplayName("the node's cluster and event-bus ports listen on loopback only, not on every interface")
  void loopbackOnly() throws IOException {
    int hazelcast = nodeManager().getHazelcastInstance().getCluster().getLocalMember().getAddress().getPort();
    int eventBus = ((VertxInternal) chat.node.vertx()).clusterManager().getNodeInfo().port();
    for (int port : new int[] {hazelcast, eventBus}) {
      List<String> listening = Listening.on(port);
      assertThat(listening).as("listening sockets on port %d", port).isNotEmpty().allMatch(Listening::loopback);
    }
  }

  /** Listening TCP sockets as the kernel lists them in procfs (reading a file, no traffic). */
  static final class Listening {

    private static final String LISTEN = "0A";

    static List<String> on(int port) throws IOException {
      List<String> addresses = new ArrayList<>();
      for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
        // Read once: the table changes as connections come and go, so a second read may be shorter than the first.
        List<String> lines = Files.readAllLines(Path.of(table));
        for (String line : lines.subList(1, lines.size())) {
          String[] fields = line.trim().split("\\s+");
          String[] local = fields[1].split(":");
          if (fields[3].equals(LISTEN) && Integer.parseInt(local[1], 16) == port) {
            addresses.add(local[0]);
          }
        }
      }
      return addresses;
    }

    /** 127.0.0.1 as procfs writes it, in IPv4 or as an IPv4-mapped IPv6 address. */
    static boolean loopback(String hex) {
      return hex.equals("0100007F") || hex.equals("0000000000000000FFFF00000100007F");
    }
  }
}
