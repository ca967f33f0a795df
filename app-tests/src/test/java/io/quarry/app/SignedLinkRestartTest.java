package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A signed link's credentials are stored sealed under a key of the node's data directory, which its worker processes
 * get over their standard input: a link added before a restart still opens after it, in the worker that reads it.
 */
class SignedLinkRestartTest {

  @TempDir
  static Path dir;

  static Vertx outside;
  static ParquetServer files;

  @BeforeAll
  static void start() {
    outside = Vertx.vertx();
    files = ParquetServer.start(outside);
    files.route("/private.parquet").content(ParquetFixtures.people(dir));
  }

  @AfterAll
  static void stop() {
    outside.close().await();
  }

  @Test
  @DisplayName("a signed link added before a restart is read again and queried after it, its signature sent to the"
      + " origin; the key is a 0600 file of the data directory")
  void survivesRestart() throws Exception {
    Map<String, String> env = TestNodes.env(dir);
    env.put("QUARRY_LOCAL_WORKERS", "1");
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    String url = files.url("/private.parquet") + "?X-Amz-Credential=AKIARESTART&X-Amz-Signature=RESTARTSIG0123456789";
    Node first = TestNodes.start(env, dir);
    String conversation;
    String dataset;
    try {
      WebClient web = WebClient.create(outside);
      conversation = web.post(first.httpPort(), "127.0.0.1", "/api/conversations").sendJsonObject(new JsonObject())
          .await().bodyAsJsonObject().getString("id");
      HttpResponse<Buffer> added = web.post(first.httpPort(), "127.0.0.1", "/api/conversations/" + conversation
          + "/datasets").sendJsonObject(new JsonObject().put("url", url)).await();
      assertThat(added.statusCode()).as(added.bodyAsString()).isEqualTo(201);
      dataset = added.bodyAsJsonObject().getString("id");
    } finally {
      first.stop().await();
    }
    Path key = dir.resolve(UrlKeyFile.NAME);
    assertThat(Files.getPosixFilePermissions(key)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    int before = files.route("/private.parquet").queries().size();

    Node second = TestNodes.start(env, dir);
    try {
      HttpResponse<Buffer> refreshed = WebClient.create(outside).post(second.httpPort(), "127.0.0.1",
          "/api/conversations/" + conversation + "/datasets/" + dataset + "/refresh").send().await();
      assertThat(refreshed.statusCode()).as(refreshed.bodyAsString()).isEqualTo(200);
      HttpResponse<Buffer> ran = WebClient.create(outside).post(second.httpPort(), "127.0.0.1", "/api/conversations/"
          + conversation + "/query").sendJsonObject(new JsonObject().put("sql", "SELECT count(*) AS n FROM table1"))
          .await();
      assertThat(ran.statusCode()).as(ran.bodyAsString()).isEqualTo(200);
      assertThat(ran.bodyAsJsonObject().getJsonArray("rows").getJsonArray(0).getLong(0)).isEqualTo(100);
      assertThat(ran.bodyAsString()).doesNotContain("RESTARTSIG");
    } finally {
      second.stop().await();
    }
    assertThat(files.route("/private.parquet").queries().subList(before, files.route("/private.parquet").queries()
        .size())).isNotEmpty().allSatisfy(q -> assertThat(q).contains("X-Amz-Signature=RESTARTSIG0123456789"));
  }
}
