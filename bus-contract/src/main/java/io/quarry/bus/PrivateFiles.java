package io.quarry.bus;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The data directory is the account's alone: every directory in it 0700, every file 0600, whatever the umask (SPEC
 * §2). What Quarry creates is created so ({@link #DIRECTORY}, {@link #FILE}); what a library creates (SQLite's
 * {@code -wal}, DuckDB's files) is made so after, and the directory around it already keeps other accounts out.
 * Internal: the storage and worker roles share it; no part of the bus contract.
 */
public final class PrivateFiles {

  /** For Vert.x's {@code OpenOptions.setPerms} and {@code FileSystem.mkdirs(path, perms)}. */
  public static final String DIRECTORY = "rwx------";
  public static final String FILE = "rw-------";

  private static final Set<PosixFilePermission> DIRECTORY_MODE = PosixFilePermissions.fromString(DIRECTORY);
  private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString(FILE);
  private static final Set<PosixFilePermission> OTHERS_WRITE =
      Set.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

  private PrivateFiles() {
  }

  /**
   * Makes {@code dir} ready as a data directory: created 0700, or, when it exists, refused if another account owns it
   * or can write it (it could plant or swap files in it), else made 0700 (an older version left it 0755).
   */
  public static Path dataDir(Path dir) throws IOException {
    Path abs = dir.toAbsolutePath();
    if (!posix(abs)) {
      return Files.createDirectories(abs);
    }
    if (Files.isDirectory(abs)) {
      checkOwn(abs);
    }
    return directory(abs);
  }

  private static void checkOwn(Path dir) throws IOException {
    UserPrincipal owner = Files.getOwner(dir);
    String me = System.getProperty("user.name");
    if (!mine(dir, owner, me)) {
      throw new IllegalStateException("The data directory " + dir + " belongs to " + owner.getName() + ", not to " + me
          + " (the account Quarry runs as): set QUARRY_DATA_DIR to a directory of " + me + "'s own");
    }
    if (Files.getPosixFilePermissions(dir).stream().anyMatch(OTHERS_WRITE::contains)) {
      throw new IllegalStateException("The data directory " + dir + " can be written by other accounts: run 'chmod 700 "
          + dir + "' (or set QUARRY_DATA_DIR to a directory of this account's own)");
    }
  }

  /** By uid where the system says it: an account without a name ({@code docker run --user 12345}) is still itself. */
  private static boolean mine(Path dir, UserPrincipal owner, String me) throws IOException {
    if (dir.getFileSystem().supportedFileAttributeViews().contains("unix")) {
      return ((Number) Files.getAttribute(dir, "unix:uid")).longValue() == new UnixSystem().getUid();
    }
    return owner.getName().equals(me);
  }

  /** {@code dir} and any parent it lacks, created 0700; an existing {@code dir} is made 0700. */
  public static Path directory(Path dir) throws IOException {
    if (!posix(dir)) {
      return Files.createDirectories(dir);
    }
    Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIRECTORY_MODE));
    Files.setPosixFilePermissions(dir, DIRECTORY_MODE);
    return dir;
  }

  /** Makes an existing file 0600; one that is not there is left so. */
  public static void file(Path file) throws IOException {
    if (posix(file)) {
      try {
        Files.setPosixFilePermissions(file, FILE_MODE);
      } catch (NoSuchFileException e) {
        // Gone already (a temporary file): nothing to protect.
      }
    }
  }

  /** A new empty file, 0600 from its first moment. */
  public static Path newFile(Path file) throws IOException {
    if (!posix(file)) {
      return Files.createFile(file);
    }
    Files.createFile(file, PosixFilePermissions.asFileAttribute(FILE_MODE));
    file(file);
    return file;
  }

  /** Deletes {@code dir} and all it holds; one that is not there is left so. */
  public static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Every directory under {@code root} (itself included) made 0700 and every file 0600: for what libraries wrote. */
  public static void tree(Path root) {
    if (!Files.isDirectory(root) || !posix(root)) {
      return;
    }
    try (Stream<Path> all = Files.walk(root)) {
      all.filter(p -> !Files.isSymbolicLink(p)).forEach(PrivateFiles::tighten);
    } catch (IOException | UncheckedIOException e) {
      // Something vanished while listed (a worker's temporary files go with it); what is there is done.
    }
  }

  private static void tighten(Path p) {
    try {
      Files.setPosixFilePermissions(p, Files.isDirectory(p) ? DIRECTORY_MODE : FILE_MODE);
    } catch (IOException e) {
      // Gone while listed.
    }
  }

  private static boolean posix(Path p) {
    return p.getFileSystem().supportedFileAttributeViews().contains("posix");
  }
}
