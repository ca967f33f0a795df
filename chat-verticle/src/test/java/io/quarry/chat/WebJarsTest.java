package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pages' front-end libraries: served from memory as the pages ask for them, nothing unpacked to disk. */
class WebJarsTest {

  @TempDir
  Path cache;

  Vertx vertx;
  WebClient client;

  @BeforeEach
  void start() {
    // Vert.x makes its cache beside the path it is given, under a name of its own.
    vertx = Vertx.vertx(new VertxOptions().setFileSystemOptions(new FileSystemOptions()
        .setFileCacheDir(cache.resolve("vertx").toString())));
    client = WebOnlyNode.start(vertx);
  }

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  @DisplayName("every library a page loads is served, byte for byte, with a day's caching and an ETag that a repeat "
      + "request gets 304 with; none is unpacked to the file cache")
  void servedFromMemory() throws Exception {
    List<String> named = WebJars.named();
    Map<String, String> tags = new HashMap<>();
    assertThat(named).as("the libraries the pages load").hasSizeGreaterThanOrEqualTo(5)
        .anyMatch(p -> p.endsWith("vega.min.js")).anyMatch(p -> p.endsWith("purify.min.js"));
    for (String library : named) {
      HttpResponse<Buffer> served = client.get(WebJars.PREFIX + library).send().await();
      assertThat(served.statusCode()).as(library).isEqualTo(200);
      assertThat(served.getHeader("content-type")).as(library).contains("javascript");
      assertThat(served.getHeader("cache-control")).as(library).contains("max-age=86400");
      assertThat(served.body().getBytes()).as(library).isEqualTo(resource(library));
      String etag = served.getHeader("etag");
      assertThat(etag).as(library).startsWith("\"").endsWith("\"");
      tags.put(library, etag);
      HttpResponse<Buffer> again = client.get(WebJars.PREFIX + library).putHeader("If-None-Match", etag).send().await();
      assertThat(again.statusCode()).as(library).isEqualTo(304);
      assertThat(again.body()).as(library).isNull();
      assertThat(client.head(WebJars.PREFIX + library).send().await().statusCode()).as(library).isEqualTo(200);
      // The same bytes in memory serve every request, each whole.
      assertThat(client.get(WebJars.PREFIX + library).send().await().body().getBytes()).as(library)
          .isEqualTo(resource(library));
    }
    assertThat(Set.copyOf(tags.values())).as("one tag a library").hasSameSizeAs(named);
    for (String library : named) {
      // Another library's tag is not this one's: the whole file comes.
      String other = tags.values().stream().filter(t -> !t.equals(tags.get(library))).findFirst().orElseThrow();
      HttpResponse<Buffer> stale = client.get(WebJars.PREFIX + library).putHeader("If-None-Match", other).send().await();
      assertThat(stale.statusCode()).as(library).isEqualTo(200);
      assertThat(stale.body().getBytes()).as(library).isEqualTo(resource(library));
    }
    try (Stream<Path> all = Files.walk(cache)) {
      assertThat(all.filter(p -> p.toString().contains("webjars")).toList()).as("unpacked to disk").isEmpty();
    }
  }

  @Test
  @DisplayName("a browser that accepts gzip gets every library gzipped, the same bytes once unzipped, and Vega's four"
      + " scripts in under 40 % of their size (278 KB of 828)")
  void gzipped() throws Exception {
    long plain = 0;
    long zipped = 0;
    for (String library : WebJars.named()) {
      HttpResponse<Buffer> served = client.get(WebJars.PREFIX + library).putHeader("Accept-Encoding", "gzip").send()
          .await();
      assertThat(served.getHeader("content-encoding")).as(library).isEqualTo("gzip");
      try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(served.body().getBytes()))) {
        assertThat(in.readAllBytes()).as(library).isEqualTo(resource(library));
      }
      if (library.contains("vega")) {
        plain += resource(library).length;
        zipped += served.body().length();
      }
    }
    assertThat(zipped).as("Vega's scripts gzipped, against %d bytes", plain).isLessThan(plain * 4 / 10);
  }

  @Test
  @DisplayName("a file of a library that no page loads, a library's folder and a path out of the folder are 404")
  void onlyWhatPagesLoad() {
    String vega = WebJars.named().stream().filter(p -> p.endsWith("vega.min.js")).findFirst().orElseThrow();
    String folder = vega.substring(0, vega.lastIndexOf('/') + 1);
    assertThat(resource(folder + "vega.js")).as("a file of the library on the class path").isNotNull();
    for (String path : List.of(folder + "vega.js", folder, "../webroot/index.html", "%2e%2e/webroot/index.html")) {
      assertThat(client.get(WebJars.PREFIX + path).send().await().statusCode()).as(path).isEqualTo(404);
    }
  }

  private static byte[] resource(String library) {
    try (InputStream in = WebJars.class.getClassLoader().getResourceAsStream("META-INF/resources/webjars/" + library)) {
      return in == null ? null : in.readAllBytes();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
