package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Bus;
import io.quarry.bus.StorageOps;
import io.quarry.bus.User;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The page's front-end libraries: unpacked before the server listens, and served as the page asks for them. */
class StaticAssetsTest {

  @TempDir
  Path cache;

  Vertx vertx;

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  @DisplayName("every library index.html loads is unpacked before the server listens (not under the first page"
      + " load's event loop), then served with a day's caching")
  void unpackedBeforeListening() throws Exception {
    // Vert.x makes its cache beside the path it is given, under a name of its own.
    vertx = Vertx.vertx(new VertxOptions().setFileSystemOptions(new FileSystemOptions()
        .setFileCacheDir(cache.resolve("vertx").toString())));
    new Bus(vertx).serve(StorageOps.USER_LOCAL, none -> Future.succeededFuture(
        new User("local-user", null, "2026-01-01T00:00:00.000Z"))).completion().await();
    ChatVerticle chat = new ChatVerticle();
    vertx.deployVerticle(chat, new DeploymentOptions().setConfig(new JsonObject().put("port", 0)
        .put("node", new JsonObject().put("id", "n1").put("version", "9.9").put("roles", new JsonArray().add("web")))))
        .await();

    List<String> loaded = StaticAssets.loaded();
    assertThat(loaded).as("the libraries index.html loads").hasSizeGreaterThanOrEqualTo(5)
        .anyMatch(p -> p.endsWith("vega.min.js"));
    try (Stream<Path> all = Files.walk(cache)) {
      List<String> unpacked = all.map(p -> cache.relativize(p).toString()).toList();
      for (String asset : loaded) {
        assertThat(unpacked).as("unpacked before any request: " + asset).anyMatch(p -> p.endsWith(asset));
      }
    }
    WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(chat.port()));
    for (String asset : loaded) {
      HttpResponse<Buffer> served = client.get("/" + asset.substring("META-INF/resources/".length())).send().await();
      assertThat(served.statusCode()).as(asset).isEqualTo(200);
      assertThat(served.getHeader("content-type")).as(asset).contains("javascript");
      assertThat(served.getHeader("cache-control")).as(asset).contains("max-age=86400");
    }
  }
}
