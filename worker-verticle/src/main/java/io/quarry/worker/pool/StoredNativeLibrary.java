package io.quarry.worker.pool;

import io.quarry.bus.PrivateFiles;
import io.quarry.bus.Sha256;
import java.io.File;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DuckDB's native library as the one entry, stored uncompressed, of a jar that worker processes put first on their
 * class path. DuckDB's driver copies the library out of the class path into a temporary file at every start; out of
 * the driver's own jar it inflates 25 MB into 72 MB first, a third of a CPU-second of every worker start. The jar is
 * made once, beside the class archive, and named by the library it holds, so that later workers (and the archive,
 * keyed by their class path) use it as it is. A jar being written is locked by its writer, so that one a killed node
 * left half-written (72 MB) is known as such and removed by the next node that looks.
 */
final class StoredNativeLibrary {

  private static final String PREFIX = "duckdb-native-";

  private static final String PENDING = PREFIX + "pending-";

  /**
   * The jars this JVM is writing: the lock that tells other processes so does not tell this one (the JVM refuses a
   * second lock on a file it holds one on, and closing any channel on that file could release the first).
   */
  private static final Set<String> WRITING = ConcurrentHashMap.newKeySet();

  private static final Logger log = LoggerFactory.getLogger(StoredNativeLibrary.class);

  private StoredNativeLibrary() {
  }

  /** The class path of worker processes: the jar first (when there is one), then this node's. Blocks. */
  static String workerClassPath(Path directory) {
    String own = System.getProperty("java.class.path");
    try {
      Path jar = in(directory);
      return jar == null ? own : jar + File.pathSeparator + own;
    } catch (IOException | RuntimeException e) {
      // Only a saving: workers start all the same.
      log.warn("Worker processes unpack DuckDB's library out of its jar at every start: {}", e.toString());
      return own;
    }
  }

  /**
   * The jar in {@code directory}, made if it is not there yet; null where the library is not in a jar on the class
   * path for this system (workers then start as the driver has them). Blocks.
   */
  static Path in(Path directory) throws IOException {
    String name = resourceName();
    URL source = StoredNativeLibrary.class.getClassLoader().getResource(name);
    if (source == null || !(source.openConnection() instanceof JarURLConnection entry)) {
      return null;
    }
    JarEntry packed = entry.getJarEntry();
    Path jar = directory.resolve(PREFIX + Sha256.hex(name + ' ' + packed.getSize() + ' ' + packed.getCrc())
        .substring(0, 24) + ".jar");
    if (!Files.isRegularFile(jar)) {
      write(source, packed, directory, jar);
    }
    removeAbandoned(directory);
    return jar;
  }

  /** DuckDB's driver's name for the library of this system (see its {@code DuckDBNative}). */
  private static String resourceName() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    String system = os.startsWith("windows") ? "windows" : os.startsWith("mac") ? "macos" : "linux";
    String machine = arch.equals("x86_64") || arch.equals("amd64") ? "amd64"
        : arch.equals("aarch64") || arch.equals("arm64") ? "arm64" : arch;
    return "libduckdb_java.so_" + system + "_" + machine;
  }

  /**
   * Copies the library into a jar of its own in one pass: a stored entry needs its size and CRC before its bytes, and
   * the driver's jar says both (the jar checks the bytes against that CRC as it writes them). Written under a lock
   * held until it is in place, and put there by a link (or a move), so that a node starting beside this one (tests
   * share a directory) never replaces a jar workers have open. Jars of other libraries (an older DuckDB) go.
   */
  private static void write(URL source, JarEntry packed, Path directory, Path jar) throws IOException {
    PrivateFiles.directory(directory);
    Path pending = PrivateFiles.newFile(directory.resolve(PENDING + UUID.randomUUID() + ".jar"));
    WRITING.add(pending.getFileName().toString());
    try (FileChannel channel = FileChannel.open(pending, StandardOpenOption.WRITE)) {
      channel.lock();
      JarEntry entry = new JarEntry(packed.getName());
      entry.setMethod(ZipEntry.STORED);
      entry.setSize(packed.getSize());
      entry.setCompressedSize(packed.getSize());
      entry.setCrc(packed.getCrc());
      try (InputStream in = source.openStream(); JarOutputStream zip = new JarOutputStream(unclosed(channel))) {
        zip.putNextEntry(entry);
        in.transferTo(zip);
        zip.closeEntry();
      }
      try {
        place(pending, jar);
      } catch (FileAlreadyExistsException e) {
        // Another node made it first: the same bytes.
      }
      removeOthers(directory, jar);
    } finally {
      Files.deleteIfExists(pending);
      WRITING.remove(pending.getFileName().toString());
    }
  }

  /** The channel as a stream that closing leaves open: the channel holds the lock until the jar is in place. */
  private static OutputStream unclosed(FileChannel channel) {
    OutputStream out = Channels.newOutputStream(channel);
    return new FilterOutputStream(out) {
      @Override
      public void write(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
      }

      @Override
      public void close() throws IOException {
        out.flush();
      }
    };
  }

  /** A link where the file system has them; else a move, which never replaces a jar already there either. */
  private static void place(Path pending, Path jar) throws IOException {
    try {
      Files.createLink(jar, pending);
    } catch (FileAlreadyExistsException e) {
      throw e;
    } catch (IOException | UnsupportedOperationException e) {
      Files.move(pending, jar);
    }
  }

  private static void removeOthers(Path directory, Path jar) throws IOException {
    try (var siblings = Files.list(directory)) {
      for (Path other : siblings.filter(p -> p.getFileName().toString().startsWith(PREFIX) && !p.equals(jar)
          && p.getFileName().toString().endsWith(".jar") && !p.getFileName().toString().startsWith(PENDING)).toList()) {
        Files.deleteIfExists(other);
      }
    }
  }

  /**
   * Jars whose writer is gone without putting them in place (a node killed on its first start): the system releases a
   * process's locks when it ends, however it ends, so a pending jar no one holds locked is abandoned.
   */
  private static void removeAbandoned(Path directory) {
    try (var siblings = Files.list(directory)) {
      for (Path pending : siblings.filter(p -> p.getFileName().toString().startsWith(PENDING)
          && !WRITING.contains(p.getFileName().toString())).toList()) {
        try (FileChannel channel = FileChannel.open(pending, StandardOpenOption.WRITE);
             FileLock free = channel.tryLock()) {
          if (free != null) {
            Files.deleteIfExists(pending);
          }
        } catch (OverlappingFileLockException | IOException e) {
          // Being written in this JVM after all, or gone already.
        }
      }
    } catch (IOException e) {
      // Only tidying: the jar is there all the same.
    }
  }
}
