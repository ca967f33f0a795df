package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The UI's own scripts and styles: a browser that has a file asks whether it is current, and gets no body if it is. */
class AppAssetsTest {

  Vertx vertx;
  WebClient client;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    client = WebOnlyNode.start(vertx);
  }

  @AfterEach
  void close() {
    vertx.close().await();
  }

  /** Every file under webroot/js and webroot/css, as its path on the server ("/js/app.js"). */
  private static List<String> assets() throws Exception {
    List<String> all = new ArrayList<>();
    for (String folder : List.of("js", "css")) {
      try (Stream<Path> files = Files.list(webroot().resolve(folder))) {
        files.map(f -> "/" + folder + "/" + f.getFileName()).sorted().forEach(all::add);
      }
    }
    return all;
  }

  private static Path webroot() throws URISyntaxException {
    return Path.of(AppAssetsTest.class.getClassLoader().getResource("webroot/index.html").toURI()).getParent();
  }

  private static byte[] bytes(String path) throws Exception {
    return Files.readAllBytes(webroot().resolve(path.substring(1)));
  }

  @Test
  @DisplayName("every script and style sheet is served byte for byte with an ETag and Cache-Control: no-cache; asked"
      + " again with its tag it is 304 without a body, with another file's tag it comes whole")
  void revalidated() throws Exception {
    List<String> assets = assets();
    assertThat(assets).as("the UI's files").contains("/js/app.js", "/css/app.css").hasSizeGreaterThan(50);
    Set<String> tags = new HashSet<>();
    String previous = null;
    for (String path : assets) {
      HttpResponse<Buffer> served = client.get(path).send().await();
      assertThat(served.statusCode()).as(path).isEqualTo(200);
      assertThat(served.getHeader("content-type")).as(path)
          .isEqualTo(path.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8");
      assertThat(served.getHeader("cache-control")).as(path).isEqualTo("no-cache");
      assertThat(served.body().getBytes()).as(path).isEqualTo(bytes(path));
      String etag = served.getHeader("etag");
      assertThat(etag).as(path).startsWith("\"").endsWith("\"");
      tags.add(etag);

      HttpResponse<Buffer> current = client.get(path).putHeader("If-None-Match", etag).send().await();
      assertThat(current.statusCode()).as(path).isEqualTo(304);
      assertThat(current.body()).as(path).isNull();
      assertThat(current.getHeader("etag")).as(path).isEqualTo(etag);
      if (previous != null) {
        HttpResponse<Buffer> stale = client.get(path).putHeader("If-None-Match", previous).send().await();
        assertThat(stale.statusCode()).as(path).isEqualTo(200);
        assertThat(stale.body().getBytes()).as(path).isEqualTo(bytes(path));
      }
      HttpResponse<Buffer> head = client.head(path).send().await();
      assertThat(head.statusCode()).as(path).isEqualTo(200);
      assertThat(head.getHeader("etag")).as(path).isEqualTo(etag);
      assertThat(head.body()).as(path).isNull();
      previous = etag;
    }
    assertThat(tags).as("one tag a file").hasSameSizeAs(assets);
  }

  @Test
  @DisplayName("a browser that accepts gzip gets each file gzipped (the same bytes once unzipped) under a tag of its own,"
      + " and 304 when it names that tag; one that does not, or refuses gzip with q=0, gets the bytes as they are;"
      + " every answer says it varies with Accept-Encoding")
  void gzipped() throws Exception {
    for (String path : assets()) {
      HttpResponse<Buffer> zipped = client.get(path).putHeader("Accept-Encoding", "gzip, deflate, br").send().await();
      assertThat(zipped.statusCode()).as(path).isEqualTo(200);
      assertThat(zipped.getHeader("content-encoding")).as(path).isEqualTo("gzip");
      assertThat(zipped.getHeader("vary")).as(path).isEqualTo("Accept-Encoding");
      assertThat(zipped.body().length()).as(path).isLessThan(bytes(path).length);
      try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(zipped.body().getBytes()))) {
        assertThat(in.readAllBytes()).as(path).isEqualTo(bytes(path));
      }
      String tag = zipped.getHeader("etag");
      HttpResponse<Buffer> plain = client.get(path).send().await();
      assertThat(plain.getHeader("content-encoding")).as(path).isNull();
      assertThat(plain.getHeader("vary")).as(path).isEqualTo("Accept-Encoding");
      assertThat(plain.getHeader("etag")).as(path).isNotEqualTo(tag);
      assertThat(plain.body().getBytes()).as(path).isEqualTo(bytes(path));

      HttpResponse<Buffer> current = client.get(path).putHeader("Accept-Encoding", "gzip")
          .putHeader("If-None-Match", tag).send().await();
      assertThat(current.statusCode()).as(path).isEqualTo(304);
      assertThat(current.getHeader("etag")).as(path).isEqualTo(tag);
      HttpResponse<Buffer> otherForm = client.get(path).putHeader("Accept-Encoding", "gzip")
          .putHeader("If-None-Match", plain.getHeader("etag")).send().await();
      assertThat(otherForm.statusCode()).as(path + ": the plain file's tag, gzip accepted").isEqualTo(200);
      assertThat(otherForm.getHeader("content-encoding")).as(path).isEqualTo("gzip");
      HttpResponse<Buffer> refused = client.get(path).putHeader("Accept-Encoding", "gzip;q=0, br").send().await();
      assertThat(refused.getHeader("content-encoding")).as(path).isNull();
      assertThat(refused.body().getBytes()).as(path).isEqualTo(bytes(path));
    }
  }

  @Test
  @DisplayName("the API's answers are not compressed, whatever the browser accepts (BREACH: a secret beside text an"
      + " attacker chose would leak through the compressed length)")
  void apiUncompressed() {
    HttpResponse<Buffer> me = client.get("/api/me").putHeader("Accept-Encoding", "gzip").send().await();
    assertThat(me.getHeader("content-encoding")).isNull();
    assertThat(me.bodyAsString()).startsWith("{");
  }

  @Test
  @DisplayName("a missing script, a folder, a path out of the folder or into another one is 404, as before")
  void onlyTheirFiles() {
    for (String path : List.of("/js/missing.js", "/js/", "/css/", "/js/../index.html.js", "/js/%2e%2e/index.js",
        "/js/vendor/x.js", "/css/app.js", "/js/app.css")) {
      assertThat(client.get(path).send().await().statusCode()).as(path).isEqualTo(404);
    }
    assertThat(client.get("/js/missing.js").send().await().statusCode()).as("asked for again").isEqualTo(404);
    assertThat(client.get("/js/app.js?v=2").send().await().statusCode()).as("a query string").isEqualTo(200);
  }
}
