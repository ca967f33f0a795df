package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data directory is the account's alone (issue: security, item 2): another local account reads no conversation,
 * password hash, invite, cached file or export from it, and cannot plant one.
 */
class DataDirTest {

  @TempDir
  Path dir;

  /** Every directory and file under {@code root} (itself included) with a mode other than 0700 / 0600. */
  private static List<String> notOwnerOnly(Path root) throws IOException {
    try (Stream<Path> all = Files.walk(root)) {
      return all.filter(p -> !Files.isSymbolicLink(p)).map(p -> {
        try {
          String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
          return mode.equals(Files.isDirectory(p) ? "rwx------" : "rw-------") ? null : mode + " " + root.relativize(p);
        } catch (IOException e) {
          return null; // gone while listed (a temporary file)
        }
      }).filter(line -> line != null).toList();
    }
  }

  private static Throwable startFailure(Map<String, String> env, Path data) {
    try {
      TestNodes.start(env, data).stop().await();
    } catch (Throwable t) {
      return t;
    }
    throw new AssertionError("expected start-up to fail");
  }

  @Test
  @DisplayName("after a dataset add, a query and an export under way, every directory in the data directory is 0700"
      + " and every file 0600 (database, WAL, cache, export, worker files), although the umask is 022")
  void ownerOnly() throws Exception {
    Path data = dir.resolve("data");
    ChatHarness chat = new ChatHarness(dir, Map.of("QUARRY_DATA_DIR", data.toString()));
    try {
      String conversation = chat.conversation();
      chat.addDataset(conversation, "/people.parquet");
      HttpResponse<Buffer> result = chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/query",
          new JsonObject().put("sql", "SELECT * FROM table1, range(5000)"));
      assertThat(result.statusCode()).as(result.bodyAsString()).isEqualTo(200);
      HttpClient http = chat.outside.createHttpClient();
      HttpClientResponse held = http.request(HttpMethod.GET, chat.node.httpPort(), "127.0.0.1",
              "/api/results/" + result.bodyAsJsonObject().getString("id") + "/export?format=csv")
          .compose(HttpClientRequest::send).map(HttpClientResponse::pause).await();
      // Some 30 MB: more than the sockets between them hold, so the server is still sending it, and its file is there.
      assertThat(held.statusCode()).isEqualTo(200);
      try (Stream<Path> all = Files.walk(data)) {
        assertThat(all.map(Path::toString).toList()).as("what the run wrote")
            .anyMatch(p -> p.endsWith("quarry.db-wal")).anyMatch(p -> p.contains("/exports/"))
            .anyMatch(p -> p.contains("/cache/"))
            // The worker deleted the copy of DuckDB's library its driver unpacked there, once loaded.
            .noneMatch(p -> p.contains("libduckdb_java"));
      }

      assertThat(notOwnerOnly(data)).isEmpty();
    } finally {
      chat.close();
    }
    assertThat(notOwnerOnly(data)).as("after the node stopped").isEmpty();
  }

  @Test
  @DisplayName("a data directory another account can write is refused at start with one line that names it and the"
      + " fix")
  void othersCanWrite() throws Exception {
    Path data = Files.createDirectories(dir.resolve("shared"));
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxrwxrwx"));

    Throwable refused = startFailure(TestNodes.env(data), data);

    assertThat(refused.getMessage()).isEqualTo("The data directory " + data.toAbsolutePath() + " can be written by"
        + " other accounts: run 'chmod 700 " + data.toAbsolutePath() + "' (or set QUARRY_DATA_DIR to a directory of"
        + " this account's own)");
    assertThat(data.resolve("quarry.db")).doesNotExist();
  }

  @Test
  @DisplayName("a data directory another account owns is refused at start")
  void ownedByAnother() throws Exception {
    UserPrincipal nobody;
    try {
      nobody = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    } catch (IOException e) {
      nobody = null;
    }
    assumeTrue(nobody != null && System.getProperty("user.name").equals("root"), "only root can give a directory away");
    Path data = Files.createDirectories(dir.resolve("theirs"));
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"));
    Files.setOwner(data, nobody);

    Throwable refused = startFailure(TestNodes.env(data), data);

    assertThat(refused.getMessage()).startsWith("The data directory " + data.toAbsolutePath() + " belongs to nobody,"
        + " not to root");
  }

  @Test
  @DisplayName("a data directory an older version left 0755, with a 0644 database, is made the account's alone at"
      + " start")
  void olderDataDirTightened() throws Exception {
    Path data = Files.createDirectories(dir.resolve("old"));
    Node first = TestNodes.start(TestNodes.env(data), data, "--roles", "web,storage");
    first.stop().await();
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(data.resolve("quarry.db"), PosixFilePermissions.fromString("rw-r--r--"));

    Node again = TestNodes.start(TestNodes.env(data), data, "--roles", "web,storage");
    try {
      assertThat(notOwnerOnly(data)).isEmpty();
    } finally {
      again.stop().await();
    }
  }
}
