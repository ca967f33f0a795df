package io.quarry.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.PrivateFiles;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.JarURLConnection;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collections;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoredNativeLibraryTest {

  @TempDir
  Path dir;

  /** The library as DuckDB's driver jar holds it (deflated). */
  private static JarEntry packed(String name) throws Exception {
    var url = StoredNativeLibrary.class.getClassLoader().getResource(name);
    assertThat(url).as("DuckDB's library for this system on the class path").isNotNull();
    return ((JarURLConnection) url.openConnection()).getJarEntry();
  }

  @Test
  @DisplayName("workers' class path starts with a jar holding DuckDB's library, stored (not deflated), made once, owner"
      + " only; a jar of another library in the directory goes")
  void storedOnce() throws Exception {
    Path old = Files.writeString(dir.resolve("duckdb-native-0123456789abcdef01234567.jar"), "an older DuckDB's");

    String classPath = StoredNativeLibrary.workerClassPath(dir);

    String[] entries = classPath.split(File.pathSeparator);
    Path jar = Path.of(entries[0]);
    assertThat(jar.getParent()).isEqualTo(dir);
    assertThat(classPath).isEqualTo(jar + File.pathSeparator + System.getProperty("java.class.path"));
    try (JarFile file = new JarFile(jar.toFile())) {
      JarEntry library = Collections.list(file.entries()).stream().filter(e -> !e.isDirectory()).findFirst()
          .orElseThrow();
      assertThat(Collections.list(file.entries())).hasSize(1);
      JarEntry packed = packed(library.getName());
      assertThat(library.getName()).startsWith("libduckdb_java.so_");
      assertThat(library.getMethod()).isEqualTo(ZipEntry.STORED);
      assertThat(library.getSize()).isEqualTo(packed.getSize());
      assertThat(library.getCrc()).isEqualTo(packed.getCrc());
      assertThat(packed.getMethod()).as("what it saves: the driver's copy is deflated").isEqualTo(ZipEntry.DEFLATED);
      CRC32 read = new CRC32();
      try (var stored = new CheckedInputStream(file.getInputStream(library), read)) {
        assertThat(stored.transferTo(OutputStream.nullOutputStream())).isEqualTo(packed.getSize());
      }
      assertThat(read.getValue()).as("the CRC of the bytes the jar holds").isEqualTo(packed.getCrc());
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(jar))).isEqualTo("rw-------");
    assertThat(old).doesNotExist();
    try (var left = Files.list(dir)) {
      assertThat(left).containsExactly(jar);
    }

    var made = Files.getLastModifiedTime(jar);
    assertThat(StoredNativeLibrary.workerClassPath(dir)).as("the same jar, not made again").isEqualTo(classPath);
    assertThat(Files.getLastModifiedTime(jar)).isEqualTo(made);
  }

  @Test
  @DisplayName("where the jar cannot be made, workers start from the node's own class path")
  void withoutTheJar() throws Exception {
    Path notADirectory = Files.writeString(dir.resolve("workers"), "a file where the directory would be");

    assertThat(StoredNativeLibrary.workerClassPath(notADirectory)).isEqualTo(System.getProperty("java.class.path"));
  }

  @Test
  @DisplayName("a library jar a killed node left half-written goes when the next node looks; one another process is"
      + " still writing stays until that process is killed")
  void abandonedJars() throws Exception {
    Path abandoned = Files.writeString(dir.resolve("duckdb-native-pending-" + UUID.randomUUID() + ".jar"), "half");
    Path writing = PrivateFiles.newFile(dir.resolve("duckdb-native-pending-" + UUID.randomUUID() + ".jar"));
    Process writer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), Writer.class.getName(), writing.toString())
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try {
      var said = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8));
      assertThat(said.readLine()).as("the other process holds its lock").isEqualTo("locked");

      String classPath = StoredNativeLibrary.workerClassPath(dir);

      assertThat(classPath).startsWith(dir.toString());
      assertThat(abandoned).doesNotExist();
      assertThat(writing).exists();

      writer.destroyForcibly();
      assertThat(writer.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(StoredNativeLibrary.workerClassPath(dir)).as("the jar kept").isEqualTo(classPath);
      assertThat(writing).doesNotExist();
    } finally {
      writer.destroyForcibly();
    }
  }

  /** Another process writing a library jar: holds the lock until it is killed. */
  static final class Writer {
    public static void main(String[] args) throws Exception {
      try (FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.WRITE)) {
        channel.lock();
        System.out.println("locked");
        System.out.flush();
        System.in.read();
      }
    }
  }
}
