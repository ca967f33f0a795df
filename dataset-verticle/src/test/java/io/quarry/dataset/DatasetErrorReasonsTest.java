package io.quarry.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Addresses;
import io.quarry.bus.Conversation;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.Failure;
import io.quarry.bus.QueryTimeouts;
import io.quarry.testing.EventLog;
import io.quarry.testing.Failures;
import io.quarry.testing.FakeStorage;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 49 (4a): a failed add keeps the seed's message and says which failure it was in its details, the same in the
 * add's answer and in its {@code dataset_error}: the status the server answered, the limit it did not answer within,
 * what a file that is not Parquet looks like.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class DatasetErrorReasonsTest {

  private static final String USER = "user-1";

  @TempDir
  Path dir;

  private Vertx vertx;
  private FakeStorage storage;
  private ParquetServer files;
  private DatasetClient datasets;
  private Conversation conversation;
  private final EventLog events = new EventLog();

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    storage = FakeStorage.start(vertx).await();
    FakeWorker.start(vertx).await();
    files = ParquetServer.start(vertx);
  }

  /**
   * The dataset verticle with its default limits but {@code limits}: a short limit is only for the test about it, as
   * a cold JVM on a loaded machine can take longer than one to ask anything.
   */
  private void deploy(JsonObject limits) {
    JsonObject config = new JsonObject().put("allowPrivateNetworks", true).mergeIn(limits);
    vertx.deployVerticle(new DatasetVerticle(), new DeploymentOptions().setConfig(config)).await();
    vertx.eventBus().<JsonObject>consumer(Addresses.chatEvents(USER), m -> events.add(m.body())).completion().await();
    datasets = new DatasetClient(vertx, new QueryTimeouts(5_000));
    conversation = storage.seedConversation(USER, "Reasons").await();
  }

  /** The add's failure and its dataset_error both carry {@code message} with {@code details}. */
  private void assertRefused(String path, String message, String details) throws InterruptedException {
    Throwable e = Failures.failure(datasets.add(USER, conversation.id(), files.url(path)));
    assertThat(Failure.classify(e)).as(path).isEqualTo(Failure.BAD_REQUEST);
    assertThat(Failure.messageOf(e)).as(path).isEqualTo(message);
    assertThat(Failure.detailsOf(e)).as(path).isEqualTo(details);
    JsonObject event = events.next("dataset_error");
    assertThat(event.getJsonObject("dataset").getString("error_message")).as(path).isEqualTo(message);
    assertThat(event.getString("details")).as(path).isEqualTo(details);
  }

  private void serve(String path, String body) {
    files.route(path).content(body.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  @DisplayName("a 404 says 'Could not access URL' with the status and its reason phrase; a 403 likewise")
  void statusAndReason() throws Exception {
    deploy(new JsonObject());
    files.route("/gone.parquet").status(404);
    files.route("/private.parquet").status(403);
    assertRefused("/gone.parquet", "Could not access URL", "The server answered HTTP 404 Not Found");
    assertRefused("/private.parquet", "Could not access URL", "The server answered HTTP 403 Forbidden");
  }

  @Test
  @DisplayName("a server that does not answer says 'Could not access URL' with the configured limit")
  void stalled() throws Exception {
    deploy(new JsonObject().put("headTimeoutMs", 400));
    files.route("/stalled.parquet").content(ParquetFixtures.people(dir)).delayTail(10_000);
    assertRefused("/stalled.parquet", "Could not access URL", "No answer within 0.4 s");
  }

  @Test
  @DisplayName("a file that is neither Parquet, CSV nor JSON says 'Not a valid parquet file', what it looks like and"
      + " what Quarry reads: an HTML page, XML, a ZIP archive, other binary")
  void looksLike() throws Exception {
    deploy(new JsonObject());
    serve("/index.html", "<!DOCTYPE html><html><body>Sign in</body></html>");
    serve("/feed.xml", "<?xml version=\"1.0\"?><feed/>");
    files.route("/data.zip").content(new byte[] {'P', 'K', 3, 4, 20, 0, 0, 0});
    files.route("/data.bin").content(new byte[] {0, 1, 2, 3, 4, 5});
    String prefix = "The file does not start with PAR1";
    String reads = "; Quarry reads Parquet, CSV and JSON files";
    assertRefused("/index.html", "Not a valid parquet file", prefix + ": this looks like an HTML page" + reads);
    assertRefused("/feed.xml", "Not a valid parquet file", prefix + ": this looks like XML text" + reads);
    assertRefused("/data.zip", "Not a valid parquet file", prefix + ": this looks like a ZIP archive" + reads);
    assertRefused("/data.bin", "Not a valid parquet file", prefix + reads);
  }
}
