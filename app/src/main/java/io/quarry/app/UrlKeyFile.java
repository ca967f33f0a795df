package io.quarry.app;

import io.quarry.bus.BusSecret;
import io.quarry.bus.PrivateFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The secret signed links' credentials are sealed under ({@code UrlSeal}), kept in the node's data directory (0600)
 * so that the links it stores still open after a restart; made at the first start. A node's worker processes get it
 * with the rest of the private cluster's key, over their standard input.
 */
final class UrlKeyFile {

  static final String NAME = "url-seal.key";

  private UrlKeyFile() {
  }

  static String in(Path dataDir) {
    Path file = dataDir.resolve(NAME);
    try {
      PrivateFiles.dataDir(dataDir);
      if (!Files.exists(file)) {
        try {
          Files.writeString(PrivateFiles.newFile(file), BusSecret.random(), StandardCharsets.UTF_8);
        } catch (FileAlreadyExistsException e) {
          // Another process of the same data directory made it first: use theirs.
        }
      }
      PrivateFiles.file(file);
      String secret = Files.readString(file, StandardCharsets.UTF_8).strip();
      if (secret.length() < 32) {
        throw new IllegalStateException(file + " holds no key: delete it (links stored under it will ask for a fresh"
            + " copy) and start again");
      }
      return secret;
    } catch (IOException e) {
      throw new IllegalStateException("Cannot read or make " + file + ": " + e, e);
    }
  }
}
