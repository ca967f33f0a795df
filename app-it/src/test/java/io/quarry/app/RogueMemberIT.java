package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import io.quarry.bus.Addresses;
import io.quarry.testing.JarCommand;
import io.quarry.testing.JarNode;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Security round three, item 1, as an attacker on the same host would run it against the jar in password mode with
 * its default private cluster (the node and its worker process: one, so that the one its user's query started is all
 * of them), whose first port is one of its own (other tests'
 * nodes run beside it, on Hazelcast's default 5701 onwards) and taken, so the node warns that ports seem occupied (a warning that once carried the cluster's name); the attacker learns the name from
 * the node's memory and its ports from procfs, as root can, and tries to join; meanwhile a signed-in user works.
 */
class RogueMemberIT {

  private static final int MOST_SEEN_TRIED = 3;
  private static final Pattern PRIVATE_NAME = Pattern.compile("quarry-local-[A-Za-z0-9_-]{43}");
  private static final String ORIGIN_HEADER = "Origin";
  /** What a signed-in user's requests ask storage, where the rogue would like to answer. */
  private static final List<String> STORAGE_ADDRESSES = List.of(Addresses.STORAGE_SESSION_FIND,
      Addresses.STORAGE_CONVERSATION_LIST, Addresses.STORAGE_USER_GET);

  @TempDir
  Path dir;

  final Vertx vertx = Vertx.vertx();
  final ParquetServer files = ParquetServer.start(vertx);
  final List<Vertx> rogues = new ArrayList<>();
  JarNode node;
  ServerSocket held;

  @AfterEach
  void stop() throws IOException {
    if (node != null) {
      node.kill();
    }
    if (held != null) {
      held.close();
    }
    rogues.forEach(r -> r.close().otherwiseEmpty().await());
    vertx.close().await();
  }

  @Test
  @DisplayName("a program that knows the private cluster's name and every port of the node cannot join it, receives"
      + " nothing and sends nothing that is answered; the user's requests all succeed; the name is in no log line,"
      + " file, command line, environment or thread name")
  void rogueGetsNowhere() throws Exception {
    // Hazelcast's members take ports from the first one up: those are free, and the first is taken.
    held = new ServerSocket(JarCommand.freeBlock(4), 1, InetAddress.getLoopbackAddress());
    int first = held.getLocalPort();
    files.route("/people.parquet").content(ParquetFixtures.people(dir));
    Map<String, String> env = new HashMap<>();
    env.put("QUARRY_DATA_DIR", dir.resolve("data").toString());
    env.put("QUARRY_AUTH_MODE", "password");
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    env.put("QUARRY_CLUSTER_PORT", String.valueOf(first));
    env.put("QUARRY_LOCAL_WORKERS", "1");
    // The worker warm, and ready before the first add, which then waits for no worker to start.
    env.put("QUARRY_LOCAL_WORKERS_KEEP_WARM", "1");
    String invite = JarCommand.invite(env, dir.resolve("absent.json"));
    int port = JarCommand.freePort();
    env.put("QUARRY_HTTP_PORT", String.valueOf(port));
    node = JarNode.launch(dir.resolve("node.log"), env, "--config", dir.resolve("absent.json").toString());
    node.awaitStarted(120);
    node.awaitWorkerReady(120);
    User user = User.signUp(vertx, port, invite);
    String conversation = user.conversationWithPeople(files.url("/people.parquet"));
    int members = user.clusterMembers();

    List<Long> pids = Stream.concat(Stream.of(node.process.pid()),
        node.process.descendants().map(ProcessHandle::pid)).toList();
    Map<String, Integer> seen = ProcessSpy.inMemory(node.process.pid(), PRIVATE_NAME, 64);
    assertThat(seen).as("the private cluster's name, as root reads it from the node's memory").isNotEmpty();
    // A copy torn by a write during the read looks like a name too: the attacker tries the most seen ones, as would
    // we, and the real one is among them.
    List<String> names = seen.keySet().stream().limit(MOST_SEEN_TRIED).toList();
    // Hazelcast's ports are the first one onwards, as its documentation says. The node's web port was drawn from the
    // same range as the first, and lands among them about one run in a hundred: it is no Hazelcast port.
    List<String> ports = new ArrayList<>();
    for (long pid : pids) {
      ProcessSpy.listening(pid).stream().filter(p -> p > first && p < first + 100 && p != port)
          .forEach(p -> ports.add("127.0.0.1:" + p));
    }
    assertThat(ports).as("the Hazelcast ports of the node and its worker (its web port %d)", port).hasSize(2);

    AtomicInteger received = new AtomicInteger();
    List<String> joined = new ArrayList<>();
    for (String name : names) {
      Future<Vertx> rogue = join(name, ports);
      rogue.<Void>transform(r -> Future.succeededFuture()).await();
      if (rogue.succeeded()) {
        joined.add(name);
        rogues.add(rogue.result());
        for (String address : STORAGE_ADDRESSES) {
          rogue.result().eventBus().consumer(address, m -> received.incrementAndGet()).completion().await();
        }
      }
    }
    for (int i = 0; i < 10; i++) {
      user.expectWorking(conversation);
    }
    assertThat(received).as("messages the rogue received").hasValue(0);
    assertThat(joined).as("names under which a rogue member joined %s", ports).isEmpty();
    node.awaitLine("Refused a cluster connection", 30);
    user.expectWorking(conversation);
    assertThat(user.clusterMembers()).as("the node's cluster members").isEqualTo(members);

    assertThat(node.lines()).as("log lines naming the private cluster").noneMatch(l -> l.contains("quarry-local"));
    assertThat(node.lines()).as("Hazelcast warned that its first port was taken")
        .anyMatch(l -> l.contains("ports seem occupied"));
    for (long pid : pids) {
      assertThat(ProcessSpy.readable(pid)).as("what is readable of process %d", pid).doesNotContain("quarry-local");
    }
    for (String name : names) {
      assertThat(filesNaming(name, dir)).as("files naming %s", name).isEmpty();
    }
  }

  /** A lite member under the real name, told to join at the Hazelcast ports of the node and its workers. */
  private Future<Vertx> join(String name, List<String> ports) {
    JsonObject cluster = new JsonObject().put("host", "127.0.0.1").put("members", String.join(",", ports))
        .put("port", 5901).put("liteMember", true);
    Config config = Clustering.hazelcastConfig(cluster, null).setClusterName(name)
        .setProperty("hazelcast.max.join.seconds", "5");
    config.getNetworkConfig().getJoin().getTcpIpConfig().setConnectionTimeoutSeconds(1);
    return Vertx.builder().withClusterManager(new HazelcastClusterManager(config)).buildClustered();
  }

  private static List<Path> filesNaming(String name, Path root) throws IOException {
    byte[] needle = name.getBytes(StandardCharsets.US_ASCII);
    try (Stream<Path> all = Files.walk(root)) {
      return all.filter(Files::isRegularFile).filter(f -> contains(f, needle)).collect(Collectors.toList());
    }
  }

  private static boolean contains(Path file, byte[] needle) {
    try {
      String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
      return text.contains(new String(needle, StandardCharsets.ISO_8859_1));
    } catch (IOException gone) {
      return false;
    }
  }



  /** A signed-in user of the node, over HTTP. */
  private record User(WebClient client, String origin, String cookie) {

    static User signUp(Vertx vertx, int port, String invite) {
      WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(port));
      String origin = "http://127.0.0.1:" + port;
      HttpResponse<Buffer> signedUp = client.post("/api/auth/signup").putHeader(ORIGIN_HEADER, origin)
          .sendJsonObject(new JsonObject().put("email", "bob@example.com").put("password", "a long enough password")
              .put("invite", invite)).await();
      assertThat(signedUp.statusCode()).as(signedUp.bodyAsString()).isEqualTo(201);
      // Sign-up sets the device cookie too: the session is the one to send.
      String session = signedUp.cookies().stream().filter(c -> c.startsWith("quarry_session=")).findFirst()
          .orElseThrow();
      return new User(client, origin, session.split(";")[0]);
    }

    String conversationWithPeople(String url) {
      String id = post("/api/conversations", new JsonObject(), 201).getString("id");
      post("/api/conversations/" + id + "/datasets", new JsonObject().put("url", url), 201);
      return id;
    }

    /** A query through a worker process, a conversation list and the user: each through the bus. */
    void expectWorking(String conversation) {
      JsonObject result = post("/api/conversations/" + conversation + "/query",
          new JsonObject().put("sql", "SELECT count(*) AS n FROM table1"), 200);
      assertThat(result.getJsonArray("rows").getJsonArray(0).getLong(0)).isPositive();
      assertThat(get("/api/conversations").getJsonArray("conversations")).hasSize(1);
      assertThat(get("/api/me").getString("email")).isEqualTo("bob@example.com");
    }

    int clusterMembers() {
      return get("/api/health").getJsonArray("cluster_members").size();
    }

    private JsonObject post(String path, JsonObject body, int status) {
      HttpResponse<Buffer> response = client.post(path).putHeader(ORIGIN_HEADER, origin).putHeader("Cookie", cookie)
          .sendJsonObject(body).await();
      assertThat(response.statusCode()).as("%s: %s", path, response.bodyAsString()).isEqualTo(status);
      return response.bodyAsJsonObject();
    }

    private JsonObject get(String path) {
      HttpResponse<Buffer> response = client.get(path).putHeader("Cookie", cookie).send().await();
      assertThat(response.statusCode()).as("%s: %s", path, response.bodyAsString()).isEqualTo(200);
      return response.bodyAsJsonObject();
    }
  }
}
