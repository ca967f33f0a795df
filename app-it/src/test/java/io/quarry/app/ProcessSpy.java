package io.quarry.app;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What an attacker with root learns of a running process from procfs alone: its memory, the sockets it listens on,
 * and what any account can read of it (command line, environment, thread names). Reads files, sends nothing.
 */
final class ProcessSpy {

  private static final int CHUNK = 8 << 20;

  private ProcessSpy() {
  }

  /**
   * Every distinct match of {@code pattern} (ASCII) in the process's readable, writable memory, with how often it was
   * seen, most often first. A running process's memory is read while it changes, and holds dead copies that later
   * writes overwrote in part: a match seen once may be a torn copy of another.
   */
  static Map<String, Integer> inMemory(long pid, Pattern pattern, int maxMatchBytes) throws IOException {
    Map<String, Integer> found = new HashMap<>();
    try (RandomAccessFile mem = new RandomAccessFile("/proc/" + pid + "/mem", "r")) {
      for (String region : Files.readAllLines(Path.of("/proc/" + pid + "/maps"))) {
        String[] fields = region.split("\\s+");
        if (!fields[1].startsWith("rw")) {
          continue;
        }
        String[] range = fields[0].split("-");
        scan(mem, Long.parseUnsignedLong(range[0], 16), Long.parseUnsignedLong(range[1], 16), pattern, maxMatchBytes,
            found);
      }
    }
    Map<String, Integer> mostSeenFirst = new LinkedHashMap<>();
    found.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .forEach(e -> mostSeenFirst.put(e.getKey(), e.getValue()));
    return mostSeenFirst;
  }

  private static void scan(RandomAccessFile mem, long from, long to, Pattern pattern, int overlap,
      Map<String, Integer> found) {
    byte[] chunk = new byte[CHUNK];
    for (long at = from; at < to; at += CHUNK - overlap) {
      int length = (int) Math.min(CHUNK, to - at);
      try {
        mem.seek(at);
        mem.readFully(chunk, 0, length);
      } catch (IOException unreadable) {
        return;
      }
      Matcher matcher = pattern.matcher(new String(chunk, 0, length, StandardCharsets.ISO_8859_1));
      while (matcher.find()) {
        found.merge(matcher.group(), 1, Integer::sum);
      }
      if (length < CHUNK) {
        return;
      }
    }
  }

  /** The TCP ports the process listens on, from its sockets' inodes and the kernel's socket tables. */
  static Set<Integer> listening(long pid) throws IOException {
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
      for (Path fd : fds.toList()) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring("socket:[".length(), target.length() - 1));
          }
        } catch (IOException closed) {
          // A descriptor closed while we looked.
        }
      }
    }
    Set<Integer> ports = new LinkedHashSet<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      for (String line : Files.readAllLines(Path.of(table)).stream().skip(1).toList()) {
        String[] fields = line.trim().split("\\s+");
        if (fields[3].equals("0A") && inodes.contains(fields[9])) {
          ports.add(Integer.parseInt(fields[1].split(":")[1], 16));
        }
      }
    }
    return ports;
  }

  /** Its command line and thread names (any account reads them) and its environment (its own account and root). */
  static String readable(long pid) throws IOException {
    List<String> parts = new ArrayList<>();
    parts.add(Files.readString(Path.of("/proc/" + pid + "/cmdline"), StandardCharsets.ISO_8859_1));
    parts.add(Files.readString(Path.of("/proc/" + pid + "/environ"), StandardCharsets.ISO_8859_1));
    try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
      for (Path task : tasks.toList()) {
        try {
          parts.add(Files.readString(task.resolve("comm")));
        } catch (IOException ended) {
          // A thread that ended while we looked.
        }
      }
    }
    return String.join("\n", parts);
  }
}
