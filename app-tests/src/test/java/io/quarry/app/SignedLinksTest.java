package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.AppenderBase;
import io.quarry.bus.UrlSecrets;
import io.quarry.testing.FakeModel;
import io.quarry.testing.ParquetFixtures;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Signed links to private objects (issue 51, item 4): their secrets reach the origin on every request and appear
 * nowhere else a user, a model or an operator looks: logs, WebSocket events, prompts, REST answers.
 */
class SignedLinksTest extends ChatTestBase {

  static final String SIGNATURE = "SECRETSIG0123456789abcdef0123456789abcdef";
  static final String CREDENTIAL = "AKIASECRETCRED";
  static final String TOKEN = "SECRETTOKEN42";
  private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
      .withZone(ZoneOffset.UTC);

  final List<String> logged = new CopyOnWriteArrayList<>();
  private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
    @Override
    protected void append(ILoggingEvent event) {
      String thrown = event.getThrowableProxy() == null ? "" : ThrowableProxyUtil.asString(event.getThrowableProxy());
      logged.add(event.getFormattedMessage() + " " + event.getMDCPropertyMap() + " " + thrown);
    }
  };

  @Override
  boolean sharesNode() {
    return true;
  }

  @BeforeEach
  void listen() {
    appender.start();
    root().addAppender(appender);
  }

  @AfterEach
  void stopListening() {
    root().detachAppender(appender);
  }

  private static Logger root() {
    return (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
  }

  /** An S3 SigV4 presigned link to {@code path} on the tests' file server, signed at {@code signedAt}. */
  String signed(String path, Instant signedAt, String signature) {
    return chat.files.url(path) + "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=" + CREDENTIAL
        + "%2F20261129%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=" + AMZ_DATE.format(signedAt)
        + "&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Security-Token=" + TOKEN
        + "&X-Amz-Signature=" + signature;
  }

  HttpResponse<Buffer> add(String url) {
    return chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/datasets",
        new JsonObject().put("url", url));
  }

  @Test
  @DisplayName("a signed link is added, queried and asked about; its secrets reach the origin on every request and"
      + " no log line, WebSocket event, prompt or REST answer")
  void secretsOnlyToOrigin() throws Exception {
    chat.files.route("/private.parquet").content(ParquetFixtures.people(dir));
    String url = signed("/private.parquet", Instant.now(), SIGNATURE);
    HttpResponse<Buffer> added = add(url);
    assertThat(added.statusCode()).as(added.bodyAsString()).isEqualTo(201);
    assertThat(added.bodyAsJsonObject().getString("url")).isEqualTo(UrlSecrets.shown(url))
        .contains("X-Amz-Signature=[redacted]", "X-Amz-Date=", "/private.parquet");
    JsonObject ran = query("SELECT count(*) AS n FROM table1");
    chat.model().next().call("execute_sql", new JsonObject().put("query", "SELECT name FROM table1 LIMIT 2"))
        .usage(10, 1);
    chat.model().next().answer("Two people.");
    chat.asked(conversation, "Who is in the file?");
    socket.untilTurnEnds();

    List<String> answers = new ArrayList<>();
    answers.add(added.bodyAsString());
    answers.add(ran.encode());
    answers.add(chat.send(HttpMethod.GET, "/api/conversations/" + conversation, null).bodyAsString());
    answers.add(chat.send(HttpMethod.GET, "/api/conversations/" + conversation + "/datasets", null).bodyAsString());
    answers.add(chat.send(HttpMethod.GET, "/api/results/" + ran.getString("id"), null).bodyAsString());
    List<String> prompts = chat.model().requests().stream().map(r -> ((FakeModel.Request) r).toString()).toList();
    List<String> events = socket.seen().stream().map(JsonObject::encode).toList();

    assertThat(String.join("\n", prompts)).contains("X-Amz-Signature=[redacted]");
    assertThat(ran.getJsonArray("sources").getJsonObject(0).getString("url")).isEqualTo(UrlSecrets.shown(url));
    for (String secret : List.of(SIGNATURE, CREDENTIAL, TOKEN)) {
      assertThat(logged).as("log lines").noneMatch(line -> line.contains(secret));
      assertThat(events).as("WebSocket events").isNotEmpty().noneMatch(event -> event.contains(secret));
      assertThat(prompts).as("requests to the model").isNotEmpty().noneMatch(prompt -> prompt.contains(secret));
      assertThat(answers).as("REST answers").noneMatch(answer -> answer.contains(secret));
    }
    List<String> atOrigin = chat.files.route("/private.parquet").queries();
    assertThat(atOrigin).as("the origin's requests").hasSizeGreaterThan(2)
        .allMatch(query -> query.contains("X-Amz-Signature=" + SIGNATURE) && query.contains(TOKEN));
  }

  @Test
  @DisplayName("a link whose own dates say it expired is refused before any request: paste a fresh one")
  void expiredByItsDates() {
    chat.files.route("/old.parquet").content(ParquetFixtures.people(dir));
    HttpResponse<Buffer> added = add(signed("/old.parquet", Instant.now().minusSeconds(7_200), SIGNATURE));
    assertThat(added.statusCode()).isEqualTo(400);
    assertThat(added.bodyAsJsonObject().getString("error")).isEqualTo("The link has expired; paste a fresh one");
    assertThat(chat.files.route("/old.parquet").requests()).isZero();
  }

  @Test
  @DisplayName("a fresh signed link for an object the conversation has replaces its link, keeping its table and id and"
      + " using no new slot; later requests carry the fresh signature")
  void freshLinkReplacesExpired() throws Exception {
    chat.files.route("/renewed.parquet").content(ParquetFixtures.people(dir));
    String first = signed("/renewed.parquet", Instant.now(), SIGNATURE);
    JsonObject dataset = add(first).bodyAsJsonObject();
    String fresh = signed("/renewed.parquet", Instant.now().plusSeconds(1), "FRESHSIG");
    HttpResponse<Buffer> renewed = add(fresh);
    assertThat(renewed.statusCode()).as(renewed.bodyAsString()).isBetween(200, 201);
    JsonObject now = renewed.bodyAsJsonObject();
    assertThat(now.getString("id")).isEqualTo(dataset.getString("id"));
    assertThat(now.getString("name")).isEqualTo("table1");
    assertThat(now.getString("url")).isEqualTo(UrlSecrets.shown(fresh));
    assertThat(chat.conversationJson(conversation).getJsonArray("datasets")).hasSize(1);
    query("SELECT count(*) FROM table1");
    List<String> queries = chat.files.route("/renewed.parquet").queries();
    assertThat(queries.get(queries.size() - 1)).contains("X-Amz-Signature=FRESHSIG");
  }
}
