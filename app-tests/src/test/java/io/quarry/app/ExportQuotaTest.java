package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Export;
import io.quarry.bus.Sizes;
import io.quarry.bus.StorageClient;
import io.quarry.testing.ParquetFixtures;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One user cannot fill a worker's disk with exports (security issue, item 3): at most
 * {@code export.maxConcurrentPerUser} downloads in progress, at most {@code export.maxBytes} held on a worker's disk
 * together, and a download slower than {@code export.minBytesPerSecond} is ended and its file deleted. Each download
 * held here is a browser that stopped reading a file far larger than the sockets between it and the server can hold.
 */
class ExportQuotaTest {

  /** About 40 MB of CSV. */
  private static final String BIG = "SELECT i AS id, 'name ' || i AS name, i / 3.0 AS ratio FROM range(1000000) t(i)";

  @TempDir
  Path dir;

  ChatHarness chat;

  /** A password-mode node with {@code env}, serving {@code /big.parquet}. */
  private void start(Map<String, String> env) {
    Map<String, String> all = new HashMap<>(env);
    all.put("QUARRY_AUTH_MODE", "password");
    // One worker process writes these tests' downloads (one test holds them on the disk of one): the default is two.
    all.putIfAbsent("QUARRY_LOCAL_WORKERS", "1");
    chat = new ChatHarness(dir, all);
    Path big = dir.resolve("big.parquet");
    ParquetFixtures.create(big, BIG);
    chat.files.route("/big.parquet").file(big);
  }

  @AfterEach
  void stop() {
    if (chat != null) {
      chat.close();
    }
  }

  /** A signed-up user's session cookie. */
  private String signUp(String email) {
    String invite = new StorageClient(chat.node.vertx()).createInvite().await();
    HttpResponse<Buffer> created = chat.client.post("/api/auth/signup").sendJsonObject(new JsonObject()
        .put("email", email).put("password", "correct horse battery").put("invite", invite)).await();
    assertThat(created.statusCode()).as(created.bodyAsString()).isEqualTo(201);
    // Sign-up sets the device cookie too: the session is the one to send.
    return created.cookies().stream().filter(c -> c.startsWith("quarry_session=")).findFirst().orElseThrow()
        .split(";")[0];
  }

  private JsonObject send(String cookie, HttpMethod method, String path, JsonObject body) {
    HttpResponse<Buffer> response = chat.client.request(method, path).putHeader("Cookie", cookie)
        .sendJsonObject(body).await();
    assertThat(response.statusCode()).as(response.bodyAsString()).isBetween(200, 201);
    return response.bodyAsJsonObject();
  }

  /** A result of the big file's rows, of a conversation of the user's own. */
  private String bigResult(String cookie) {
    String conversation = send(cookie, HttpMethod.POST, "/api/conversations", new JsonObject()).getString("id");
    send(cookie, HttpMethod.POST, "/api/conversations/" + conversation + "/datasets",
        new JsonObject().put("url", chat.files.url("/big.parquet")));
    return send(cookie, HttpMethod.POST, "/api/conversations/" + conversation + "/query",
        new JsonObject().put("sql", "SELECT * FROM table1")).getString("id");
  }

  /** A download whose browser reads its status and headers, then nothing more. */
  private HttpClientResponse held(String cookie, String resultId) {
    HttpClient http = chat.outside.createHttpClient();
    return http.request(new RequestOptions().setMethod(HttpMethod.GET).setHost("127.0.0.1")
            .setPort(chat.node.httpPort()).setURI("/api/results/" + resultId + "/export?format=csv")
            .putHeader("Cookie", cookie))
        .compose(HttpClientRequest::send).map(HttpClientResponse::pause).await();
  }

  private HttpResponse<Buffer> export(String cookie, String resultId) {
    return chat.client.get("/api/results/" + resultId + "/export?format=csv").putHeader("Cookie", cookie).send()
        .await();
  }

  /** The browser reads on to the end (what arrived while it paused is handed to the body, not lost). */
  private static long finish(HttpClientResponse response) {
    var body = response.body();
    response.resume();
    return body.await().length();
  }

  private List<Path> exportFiles() throws Exception {
    try (Stream<Path> all = Files.walk(dir)) {
      return all.filter(p -> p.getParent() != null && p.getParent().getFileName().toString().equals("exports"))
          .toList();
    }
  }

  @Test
  @DisplayName("a third download at once is refused with 429 'You have 2 downloads in progress; wait for one to finish'"
      + " and Retry-After, while another user's goes; when one of the two ends, a new one is accepted")
  void twoAtOnce() {
    start(Map.of("QUARRY_EXPORT_SLOW_WINDOW_MS", "120000"));
    String alice = signUp("alice@example.com");
    String bob = signUp("bob@example.com");
    String alices = bigResult(alice);
    String bobs = bigResult(bob);
    HttpClientResponse first = held(alice, alices);
    HttpClientResponse second = held(alice, alices);
    assertThat(List.of(first.statusCode(), second.statusCode())).containsExactly(200, 200);

    HttpResponse<Buffer> third = export(alice, alices);

    assertThat(third.statusCode()).isEqualTo(429);
    assertThat(third.bodyAsJsonObject().getString("error"))
        .isEqualTo("You have 2 downloads in progress; wait for one to finish")
        .isEqualTo(Export.tooManyDownloads(2));
    assertThat(third.getHeader("Retry-After")).isEqualTo("120");
    HttpResponse<Buffer> bobsDownload = export(bob, bobs);
    assertThat(bobsDownload.statusCode()).as(bobsDownload.bodyAsString()).isEqualTo(200);
    assertThat(bobsDownload.body().length()).isEqualTo(Long.parseLong(bobsDownload.getHeader("content-length")));

    assertThat(finish(first)).isEqualTo(Long.parseLong(first.getHeader("content-length")));
    HttpResponse<Buffer> again = export(alice, alices);
    assertThat(again.statusCode()).as(again.bodyAsString()).isEqualTo(200);
    finish(second);
  }

  @Test
  @DisplayName("one user's exports hold at most export.maxBytes on a worker's disk together: with a download held, a"
      + " second that fits alone is refused with 429 naming the limit, and its file is gone; after the first, it goes")
  void bytesHeldTogether() throws Exception {
    // One worker, so that both land on it; a limit that one export fits and two do not.
    start(Map.of("QUARRY_LOCAL_WORKERS", "1", "QUARRY_EXPORT_MAX_BYTES", String.valueOf(60L << 20),
        "QUARRY_EXPORT_SLOW_WINDOW_MS", "120000"));
    String alice = signUp("alice@example.com");
    String result = bigResult(alice);
    HttpClientResponse first = held(alice, result);
    long firstBytes = Long.parseLong(first.getHeader("content-length"));
    assertThat(firstBytes).isBetween(30L << 20, 60L << 20);

    HttpResponse<Buffer> second = export(alice, result);

    assertThat(second.statusCode()).as(second.bodyAsString()).isEqualTo(429);
    assertThat(second.bodyAsJsonObject().getString("error")).isEqualTo(Export.tooManyBytesHeld(firstBytes, 60L << 20))
        .isEqualTo("Your downloads in progress hold " + Sizes.human(firstBytes)
            + " and this one would take them past 60.0 MB (export.maxBytes): wait for one to finish");
    assertThat(second.getHeader("Retry-After")).isEqualTo("120");
    assertThat(exportFiles()).as("only the held download's file").hasSize(1);

    assertThat(finish(first)).isEqualTo(firstBytes);
    HttpResponse<Buffer> after = export(alice, result);
    assertThat(after.statusCode()).as(after.bodyAsString()).isEqualTo(200);
    assertThat((long) after.body().length()).isEqualTo(firstBytes);
  }

  @Test
  @DisplayName("a download that takes less than export.minBytesPerSecond over export.slowWindowMs is ended and its file"
      + " deleted; one read at the browser's pace is whole")
  void slowReaderEnded() throws Exception {
    start(Map.of("QUARRY_EXPORT_SLOW_WINDOW_MS", "1000"));
    String alice = signUp("alice@example.com");
    String result = bigResult(alice);
    HttpResponse<Buffer> whole = export(alice, result);
    assertThat(whole.statusCode()).isEqualTo(200);
    assertThat((long) whole.body().length()).isEqualTo(Long.parseLong(whole.getHeader("content-length")));

    try (WatchService watch = FileSystems.getDefault().newWatchService()) {
      HttpClientResponse slow = held(alice, result);
      assertThat(slow.statusCode()).isEqualTo(200);
      List<Path> files = exportFiles();
      assertThat(files).as("the file of the download under way").hasSize(1);
      files.get(0).getParent().register(watch, StandardWatchEventKinds.ENTRY_DELETE);

      assertThat(watch.poll(60, TimeUnit.SECONDS)).as("the export's file was deleted").isNotNull();
      assertThat(exportFiles()).isEmpty();
      Throwable cut = null;
      try {
        finish(slow);
      } catch (Throwable t) {
        cut = t;
      }
      assertThat(cut).as("the browser's download was broken off, not ended as whole").isNotNull();
    }
  }
}
