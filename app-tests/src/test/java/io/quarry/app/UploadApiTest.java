package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.JarCommand;
import io.quarry.testing.TextFixtures;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api/conversations/:id/datasets/upload}: a file from the user's disk becomes a dataset like a URL's,
 * within its limits (413 at once past them, nothing kept), kept 0600 by the node that received it, read by workers
 * through its signed URL only, gone with its dataset or conversation, and still read after the node restarts. One node
 * for the class (a node costs more than most tests here); each test's conversation is deleted after it, its uploads
 * with it, so that every test starts with none.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UploadApiTest {

  /** dataset.uploadMaxBytes here: the CSV fixture is a little smaller. */
  static final long MAX = 8_000;

  @TempDir
  static Path dir;

  int port;
  Node node;
  WebClient client;
  String conversation;

  @BeforeAll
  void start() throws Exception {
    port = JarCommand.freePort();
    node = startNode();
  }

  @BeforeEach
  void newConversation() {
    conversation = client.post("/api/conversations").send().await().bodyAsJsonObject().getString("id");
  }

  @AfterEach
  void deleteConversation() throws Exception {
    assertThat(client.delete("/api/conversations/" + conversation).send().await().statusCode()).isEqualTo(204);
    assertThat(uploadedFiles()).as("uploads after the conversation was deleted").isEmpty();
  }

  /** A fixed port, as a deployment has: the uploads' URLs name it, and the policy trusts it without private networks. */
  private Node startNode() {
    Map<String, String> env = TestNodes.env(dir.resolve("node"));
    env.put("QUARRY_HTTP_PORT", String.valueOf(port));
    env.put("QUARRY_LOCAL_WORKERS", "1");
    env.put("QUARRY_DATASET_UPLOAD_MAX_BYTES", String.valueOf(MAX));
    env.put("QUARRY_DATASET_USER_UPLOAD_BYTES", String.valueOf(2 * MAX));
    Node started = TestNodes.start(env, dir.resolve("node"));
    client = WebClient.create(started.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(started.httpPort()));
    return started;
  }

  @AfterAll
  void stop() {
    if (node != null) {
      node.stop().await();
    }
  }

  private HttpResponse<Buffer> upload(String name, byte[] bytes) {
    return client.post("/api/conversations/" + conversation + "/datasets/upload").addQueryParam("name", name)
        .putHeader("Content-Type", "application/octet-stream").sendBuffer(Buffer.buffer(bytes)).await();
  }

  private long count(String table) {
    HttpResponse<Buffer> answer = client.post("/api/conversations/" + conversation + "/query")
        .sendJsonObject(new JsonObject().put("sql", "SELECT count(*) AS n FROM " + table)).await();
    assertThat(answer.statusCode()).as(answer.bodyAsString()).isEqualTo(200);
    return answer.bodyAsJsonObject().getJsonArray("rows").getJsonArray(0).getLong(0);
  }

  private List<Path> uploadedFiles() throws Exception {
    Path uploads = dir.resolve("node/uploads");
    if (!Files.exists(uploads)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(uploads)) {
      return files.filter(Files::isRegularFile).toList();
    }
  }

  @Test
  @DisplayName("an uploaded CSV becomes table1, CSV, its 120 rows queried; the file is 0600 in 0700 folders; the URL's"
      + " signature is shown nowhere, and the file is served to no request without it")
  void uploadedCsvIsADataset() throws Exception {
    byte[] csv = TextFixtures.csv();
    HttpResponse<Buffer> added = upload("people.csv", csv);

    assertThat(added.statusCode()).as(added.bodyAsString()).isEqualTo(201);
    JsonObject dataset = added.bodyAsJsonObject();
    assertThat(dataset.getString("name")).isEqualTo("table1");
    assertThat(dataset.getString("format")).isEqualTo("csv");
    assertThat(dataset.getLong("row_count")).isEqualTo(TextFixtures.ROWS);
    assertThat(dataset.getString("url")).contains("/uploads/").endsWith("/people.csv?sig=[redacted]");
    assertThat(count("table1")).isEqualTo(TextFixtures.ROWS);

    List<Path> files = uploadedFiles();
    assertThat(files).hasSize(1);
    assertThat(Files.readAllBytes(files.get(0))).isEqualTo(csv);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(files.get(0)))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(files.get(0).getParent())))
        .isEqualTo("rwx------");
    String path = dataset.getString("url").replaceFirst("^http://[^/]+", "").replaceFirst("\\?.*", "");
    assertThat(client.get(path).send().await().statusCode()).as("without its signature").isEqualTo(404);
    assertThat(client.get(path + "?sig=AAAA").send().await().statusCode()).as("a wrong signature").isEqualTo(404);
  }

  @Test
  @DisplayName("a file of exactly dataset.uploadMaxBytes is taken; one byte more is 413 at once, with or without a"
      + " declared length, and nothing is kept")
  void fileLimit() throws Exception {
    byte[] atLimit = padded(MAX);
    assertThat(upload("at.csv", atLimit).statusCode()).isEqualTo(201);

    HttpResponse<Buffer> declared = upload("past.csv", padded(MAX + 1));
    assertThat(declared.statusCode()).isEqualTo(413);
    assertThat(declared.bodyAsJsonObject().getString("error"))
        .isEqualTo("The file is too large to upload (8,001 bytes); the maximum is 8,000 bytes");

    int chunked = chunkedUpload("chunked.csv", padded(MAX + 1));
    assertThat(chunked).as("a chunked body past the limit").isEqualTo(413);
    assertThat(uploadedFiles()).hasSize(1);
  }

  @Test
  @DisplayName("past dataset.userUploadBytes a user's next upload is 413 saying how to make room; removing a dataset"
      + " deletes its file and makes room, deleting the conversation deletes the rest")
  void userLimitAndDeletion() throws Exception {
    JsonObject first = upload("one.csv", padded(MAX)).bodyAsJsonObject();
    assertThat(upload("two.csv", padded(MAX)).statusCode()).isEqualTo(201);
    HttpResponse<Buffer> third = upload("three.csv", padded(10));
    assertThat(third.statusCode()).isEqualTo(413);
    assertThat(third.bodyAsJsonObject().getString("error")).isEqualTo("Your uploads would hold 16,010 bytes on this"
        + " server; each account may keep 16,000 bytes: remove a dataset you uploaded to make room");
    assertThat(uploadedFiles()).hasSize(2);

    assertThat(client.delete("/api/conversations/" + conversation + "/datasets/" + first.getString("id")).send()
        .await().statusCode()).isEqualTo(204);
    assertThat(uploadedFiles()).hasSize(1);
    assertThat(upload("three.csv", padded(10)).statusCode()).isEqualTo(201);

    assertThat(client.delete("/api/conversations/" + conversation).send().await().statusCode()).isEqualTo(204);
    assertThat(uploadedFiles()).isEmpty();
    newConversation();
  }

  @Test
  @DisplayName("a file Quarry does not read is not added and not kept; a name with folders or none is refused before"
      + " a byte is kept; the sixth dataset is refused with the seed's message before its bytes are kept")
  void refusals() throws Exception {
    HttpResponse<Buffer> refused = upload("page.csv", "<html><body>x</body></html>".getBytes());
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.bodyAsJsonObject().getString("error")).isEqualTo("Not a valid parquet file");
    assertThat(upload("", TextFixtures.csv()).statusCode()).isEqualTo(400);
    assertThat(upload("../..", TextFixtures.csv()).statusCode()).isEqualTo(400);
    assertThat(uploadedFiles()).isEmpty();
    for (int i = 0; i < 5; i++) {
      assertThat(upload("t" + i + ".csv", padded(100)).statusCode()).isEqualTo(201);
    }
    HttpResponse<Buffer> sixth = upload("sixth.csv", padded(100));
    assertThat(sixth.statusCode()).isEqualTo(400);
    assertThat(sixth.bodyAsJsonObject().getString("error")).isEqualTo("Maximum 5 datasets reached");
    assertThat(uploadedFiles()).hasSize(5);
  }

  @Test
  @DisplayName("a restart of the node that received an upload loses nothing: the dataset is read again from its file")
  void restartLosesNothing() throws Exception {
    assertThat(upload("people.tsv", TextFixtures.tsv()).statusCode()).isEqualTo(201);
    node.stop().await();
    node = startNode();
    assertThat(count("table1")).isEqualTo(TextFixtures.ROWS);
  }

  /** A CSV of one column padded with rows to exactly {@code bytes} bytes. */
  private static byte[] padded(long bytes) {
    StringBuilder text = new StringBuilder("v\n");
    while (text.length() + 2 <= bytes) {
      text.append("1\n");
    }
    if (text.length() < bytes) {
      text.append("\n");
    }
    return text.toString().getBytes();
  }

  /** An upload sent chunked (no Content-Length): the limit is met while its bytes arrive. */
  private int chunkedUpload(String name, byte[] bytes) {
    HttpClient http = node.vertx().createHttpClient();
    try {
      HttpClientRequest request = http.request(new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1")
          .setPort(node.httpPort()).setURI("/api/conversations/" + conversation + "/datasets/upload?name=" + name))
          .await();
      request.setChunked(true).putHeader("Content-Type", "application/octet-stream");
      request.write(Buffer.buffer(bytes));
      request.end();
      HttpClientResponse response = request.response().await();
      return response.statusCode();
    } finally {
      http.close().await();
    }
  }
}
