package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.BusCertificates;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Datasets on https origins, as real ones are: the node trusts the authority the test creates
 * ({@code QUARRY_ORIGIN_CA_FILE}), its dataset role and its worker process both reach the origin over TLS, reusing
 * their connections.
 */
class HttpsOriginTest extends ChatTestBase {

  /** One authority for the class, so that its tests share one node (which trusts it). */
  @TempDir
  static Path authority;

  private static BusCertificates.Identity origin;
  private ParquetServer server;

  @BeforeAll
  static void createAuthority() throws IOException {
    origin = BusCertificates.authority(authority, "origin").issue("files");
  }

  @Override
  boolean sharesNode() {
    return true;
  }

  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_ORIGIN_CA_FILE", origin.ca().toString());
  }

  @AfterEach
  void stopOrigin() {
    if (server != null) {
      server.close().await();
    }
  }

  private HttpResponse<Buffer> add(String url) {
    return chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/datasets", new JsonObject().put("url", url));
  }

  @Test
  @DisplayName("an https origin offering HTTP/2 (as most CDNs do): the file is added and queried over it, the worker"
      + " starting from what the add read; a second add reuses the connections of the first")
  void keptConnections() {
    server = ParquetServer.startTls(chat.outside, origin, true);
    ParquetServer.Route file = server.route("/people.parquet").content(ParquetFixtures.people(dir));
    HttpResponse<Buffer> added = add(server.url("/people.parquet"));
    assertThat(added.statusCode()).as(added.bodyAsString()).isEqualTo(201);
    assertThat(file.requests()).as("the tail and the magic number").isEqualTo(2);
    assertThat(query("SELECT count(*) FROM table1").getJsonArray("rows").getJsonArray(0).getLong(0)).isEqualTo(100);
    assertThat(query("SELECT max(name) FROM table1").getJsonArray("rows").size()).isEqualTo(1);
    assertThat(file.http2Requests()).as("every request over HTTP/2").isEqualTo(file.requests());
    long connections = server.connections();
    assertThat(connections).as("at most two each for the node's adds and its worker process").isBetween(2L, 4L);
    server.route("/again.parquet").content(ParquetFixtures.people(dir));
    assertThat(add(server.url("/again.parquet")).statusCode()).isEqualTo(201);
    assertThat(server.connections()).isEqualTo(connections);
  }

  @Test
  @DisplayName("an https origin that speaks HTTP/1.1 only (no HTTP/2 in its ALPN) serves as well, over HTTP/1.1")
  void http1() {
    server = ParquetServer.startTls(chat.outside, origin, false);
    ParquetServer.Route file = server.route("/people.parquet").content(ParquetFixtures.people(dir));
    HttpResponse<Buffer> added = add(server.url("/people.parquet"));
    assertThat(added.statusCode()).as(added.bodyAsString()).isEqualTo(201);
    assertThat(query("SELECT count(*) FROM table1").getJsonArray("rows").getJsonArray(0).getLong(0)).isEqualTo(100);
    assertThat(file.requests()).isPositive();
    assertThat(file.http2Requests()).isZero();
  }

  @Test
  @DisplayName("an origin whose certificate no trusted authority signed is refused: 'Could not access URL', and why")
  void untrusted() throws IOException {
    BusCertificates.Identity stranger = BusCertificates.authority(dir.resolve("other-ca"), "other").issue("files");
    server = ParquetServer.startTls(chat.outside, stranger, true);
    ParquetServer.Route file = server.route("/people.parquet").content(ParquetFixtures.people(dir));
    HttpResponse<Buffer> added = add(server.url("/people.parquet"));
    assertThat(added.statusCode()).isEqualTo(400);
    JsonObject error = added.bodyAsJsonObject();
    assertThat(error.getString("error")).isEqualTo("Could not access URL");
    assertThat(error.getString("details")).startsWith("The TLS handshake with the server failed: its certificate was not"
        + " issued by a trusted authority");
    assertThat(file.requests()).isZero();
  }
}
