package io.quarry.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.bus.ApiOps.ConversationRead;
import io.quarry.client.ClusterSettings;
import io.quarry.client.Conversations;
import io.quarry.client.QuarryBus;
import io.quarry.client.Users;
import io.quarry.testing.BusCertificates;
import io.quarry.testing.FakeGemini;
import io.quarry.testing.JarCommand;
import io.quarry.testing.JarNode;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example against a cluster of Quarry's jar whose event bus runs TLS with mutual authentication: a node of every
 * role but the worker's, and a worker node; and what an application with the wrong TLS settings hears when it joins.
 */
class BusClientIT {

  @TempDir
  static Path dir;
  static Vertx outside;
  static FakeGemini gemini;
  static ParquetServer files;
  static BusCertificates ca;
  static String name;
  static List<String> members;
  static final List<JarNode> nodes = new ArrayList<>();

  @BeforeAll
  static void cluster() throws Exception {
    outside = Vertx.vertx();
    gemini = FakeGemini.start(outside);
    files = ParquetServer.start(outside);
    files.route("/people.parquet").content(ParquetFixtures.people(dir));
    ca = BusCertificates.authority(dir.resolve("certs"), "example");
    int port = JarCommand.freeBlock(10);
    name = "quarry-example-" + UUID.randomUUID();
    members = IntStream.range(port, port + 10).mapToObj(p -> "127.0.0.1:" + p).toList();
    Map<String, String> env = new HashMap<>();
    env.put("QUARRY_CLUSTER_NAME", name);
    env.put("QUARRY_CLUSTER_PORT", String.valueOf(port));
    env.put("QUARRY_CLUSTER_MEMBERS", String.join(",", members));
    env.put("GEMINI_API_KEY", "test-key");
    env.put("GEMINI_BASE_URL", gemini.baseUrl());
    env.put("QUARRY_LLM_RETRIES", "0");
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    env.put("QUARRY_HTTP_PORT", "0");
    env.put("QUARRY_METRICS_PORT", "0");
    launch(env, "web", "storage,dataset,llm,web");
    launch(env, "worker", "worker");
    for (JarNode node : nodes) {
      node.awaitStarted(240);
    }
  }

  private static void launch(Map<String, String> common, String member, String roles) throws Exception {
    Map<String, String> env = new HashMap<>(common);
    BusCertificates.Identity identity = ca.issue(member);
    env.put("QUARRY_CLUSTER_KEY_FILE", identity.key().toString());
    env.put("QUARRY_CLUSTER_CERT_FILE", identity.cert().toString());
    env.put("QUARRY_CLUSTER_CA_FILE", identity.ca().toString());
    env.put("QUARRY_DATA_DIR", Files.createDirectories(dir.resolve(member)).toString());
    nodes.add(JarNode.launch(dir.resolve(member + ".log"), env, "--cluster", "--roles", roles, "--config",
        dir.resolve("absent.json").toString()));
  }

  @AfterAll
  static void stop() throws Exception {
    for (JarNode node : nodes) {
      node.terminate();
    }
    outside.close().await();
  }

  private static ClusterSettings settings(String cluster, ClusterSettings.Tls tls) {
    return new ClusterSettings(cluster, members, "127.0.0.1", JarCommand.freePort(), tls);
  }

  private static ClusterSettings.Tls tls(BusCertificates.Identity identity) {
    return new ClusterSettings.Tls(identity.key(), identity.cert(), identity.ca());
  }

  @Test
  @DisplayName("the example joins with TLS, makes a conversation, adds a dataset, runs a query, streams an answer and"
      + " reads the usage; the conversation then holds the question and its answer")
  void example() throws Exception {
    gemini.next().answer("The oldest ", "person is 80.").usage(30, 5);
    Vertx vertx = QuarryBus.join(settings(name, tls(ca.issue("app")))).await();
    try {
      ByteArrayOutputStream printed = new ByteArrayOutputStream();
      new BusClient(vertx, new PrintStream(printed, true, StandardCharsets.UTF_8))
          .run(null, files.url("/people.parquet"), "How old is the oldest person?").await();
      List<String> lines = printed.toString(StandardCharsets.UTF_8).lines().toList();
      assertThat(lines).as(String.join("\n", lines)).containsSubsequence(
          "dataset table1 (100 rows)", "query [n] [[100]]", "The oldest person is 80.", "answered (35 tokens)",
          "usage 35 of 5000000 tokens");
      String conversation = lines.get(0).substring("conversation ".length());
      String user = new Users(vertx).local().await().id();
      ConversationRead read = new Conversations(vertx).get(user, conversation).await();
      assertThat(read.messages()).extracting(m -> m.role() + ": " + m.content())
          .containsExactly("user: How old is the oldest person?", "assistant: The oldest person is 80.");
      assertThat(read.datasets()).hasSize(1);
    } finally {
      vertx.close().await();
    }
  }

  @Test
  @DisplayName("the README's run command, exactly as it stands, runs the example against the cluster from its build's"
      + " target/classpath, which holds the jars the example runs with and no test jar")
  void readme() throws Exception {
    gemini.next().answer("The oldest ", "person is 80.").usage(30, 5);
    Path example = Path.of(System.getProperty("example.dir"));
    String command = Readme.shellBlock(example.resolve("README.md"), "## Run");
    BusCertificates.Identity app = ca.issue("readme-app");
    ProcessBuilder builder = new ProcessBuilder("bash", "-euo", "pipefail", "-c", command).directory(example.toFile())
        .redirectOutput(dir.resolve("readme.out").toFile()).redirectError(dir.resolve("readme.err").toFile());
    Map<String, String> env = builder.environment();
    env.remove("USER_EMAIL");
    // The README says "java": the one this test runs on.
    String javaHome = System.getProperty("java.home");
    env.put("PATH", Path.of(javaHome, "bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    env.putAll(Map.of("QUARRY_CLUSTER_NAME", name, "QUARRY_CLUSTER_MEMBERS", String.join(",", members),
        "APP_HOST", "127.0.0.1", "APP_CLUSTER_PORT", String.valueOf(JarCommand.freePort()),
        "APP_KEY_FILE", app.key().toString(), "APP_CERT_FILE", app.cert().toString(),
        "QUARRY_CLUSTER_CA_FILE", app.ca().toString(), "PARQUET_URL", files.url("/people.parquet"),
        "QUESTION", "How old is the oldest person?"));
    Process run = builder.start();
    boolean ended = run.waitFor(120, TimeUnit.SECONDS);
    String err = Files.readString(dir.resolve("readme.err"));
    if (!ended) {
      run.destroyForcibly();
    }
    assertThat(ended).as("the example ended within 120 s; its log:\n" + err).isTrue();
    List<String> printed = Files.readAllLines(dir.resolve("readme.out"));
    assertThat(run.exitValue()).as(String.join("\n", printed) + "\n" + err).isZero();
    assertThat(printed).containsSubsequence("dataset table1 (100 rows)", "query [n] [[100]]",
        "The oldest person is 80.", "answered (35 tokens)");
    assertThat(printed).anyMatch(line -> line.matches("usage \\d+ of 5000000 tokens"));
    String classpath = Files.readString(example.resolve("target/classpath"));
    assertThat(classpath).contains("vertx-hazelcast").doesNotContain("test-support").doesNotContain("junit")
        .doesNotContain("quarry.jar").doesNotContain("/app/");
  }

  @Test
  @DisplayName("an application whose certificate another CA signed is refused as it joins, and told why")
  void otherCa() throws Exception {
    BusCertificates stranger = BusCertificates.authority(dir.resolve("other"), "other");
    assertThatThrownBy(() -> QuarryBus.join(settings(name, tls(stranger.issue("app")))).await())
        .hasMessageContaining("did not agree on TLS")
        .hasMessageContaining("this application's certificate must be signed by the cluster's CA");
  }

  @Test
  @DisplayName("an application with TLS off is refused as it joins a cluster that runs TLS, and told so")
  void noTls() {
    assertThatThrownBy(() -> QuarryBus.join(settings(name, null)).await())
        .hasMessageContaining("The cluster's event bus runs TLS")
        .hasMessageContaining("and this application's does not");
  }
}
