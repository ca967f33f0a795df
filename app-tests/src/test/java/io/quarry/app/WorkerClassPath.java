package io.quarry.app;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.FileAlreadyExistsException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Lets the worker processes of test nodes share one class-data-sharing archive, as a jar's workers do: without it
 * each of the suite's some 200 worker starts costs about 3 CPU-seconds, with it about 1.6. The JVM archives classes
 * from jar files only and refuses a class path with a directory it loaded classes from, so a worker started from the
 * test class path never had one. Workers run the class path in {@code java.class.path} (see WorkerCommand): this
 * makes it the same classes as jars — each {@code target/classes} directory (a build that stops before packaging
 * has them; otherwise the modules come as jars) jarred, named by its content so that the test JVMs of a run use one
 * file, and every other directory (test classes and resources, which a worker loads no class from; its logging
 * configuration is a resource) moved after them, where the JVM does not mind it. The archive goes in the tests'
 * {@code target/worker-class-archive}, one for the whole run (ClassArchive keys it by the class path).
 */
final class WorkerClassPath {

  private static final String ARCHIVE_DIR = "QUARRY_LOCAL_WORKERS_CLASS_ARCHIVE_DIR";
  private static Path archiveDir;

  private WorkerClassPath() {
  }

  /** {@code env} with the shared archive directory, unless it names one; the class path is rewritten once. */
  static synchronized void use(Map<String, String> env) {
    if (archiveDir == null) {
      archiveDir = rewrite();
    }
    if (archiveDir != null) {
      env.putIfAbsent(ARCHIVE_DIR, archiveDir.toString());
    }
  }

  /** The archive directory, in the tests' own {@code target}; null when run from elsewhere (nothing to share then). */
  private static Path rewrite() {
    List<String> jars = new ArrayList<>();
    List<String> directories = new ArrayList<>();
    Path target = null;
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path path = Path.of(entry).toAbsolutePath();
      if (!Files.isDirectory(path)) {
        jars.add(entry);
      } else if (path.getFileName().toString().equals("classes") && path.getParent() != null) {
        jars.add(jarOf(path, path.getParent().resolve("worker-classpath")).toString());
      } else {
        if (path.getFileName().toString().equals("test-classes") && path.getParent() != null) {
          target = path.getParent();
        }
        directories.add(entry);
      }
    }
    if (target == null) {
      return null;
    }
    jars.addAll(directories);
    System.setProperty("java.class.path", String.join(File.pathSeparator, jars));
    return target.resolve("worker-class-archive");
  }

  /** The directory's files in a jar named by their content, written once (both test JVMs may try at once). */
  private static Path jarOf(Path directory, Path into) {
    try {
      List<Path> files;
      try (Stream<Path> all = Files.walk(directory)) {
        files = all.filter(Files::isRegularFile).sorted().toList();
      }
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (Path file : files) {
        digest.update(directory.relativize(file).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        digest.update(Files.readAllBytes(file));
      }
      Path jar = into.resolve("classes-" + HexFormat.of().formatHex(digest.digest()).substring(0, 16) + ".jar");
      if (!Files.exists(jar)) {
        Files.createDirectories(into);
        Path pending = Files.createTempFile(into, "classes", ".pending");
        try (OutputStream out = Files.newOutputStream(pending); JarOutputStream zip = new JarOutputStream(out)) {
          for (Path file : files) {
            zip.putNextEntry(new JarEntry(directory.relativize(file).toString().replace(File.separatorChar, '/')));
            Files.copy(file, zip);
            zip.closeEntry();
          }
        }
        try {
          // A link, not a rename, which would replace the other JVM's jar and so change the class path's key.
          Files.createLink(jar, pending);
        } catch (FileAlreadyExistsException e) {
          // The other test JVM wrote it first: the same bytes.
        } finally {
          Files.delete(pending);
        }
      }
      return jar;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
