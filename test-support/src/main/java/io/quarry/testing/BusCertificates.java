package io.quarry.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A cluster's certificate authority and the PEM files its nodes' event buses are given, made with the JDK's own
 * {@code keytool} (no openssl needed): EC keys, certificates for loopback, valid for two days.
 */
public final class BusCertificates {

  private static final String PASSWORD = "quarry-test";

  /** One identity's files, as a node is configured with them. */
  public record Identity(Path key, Path cert, Path ca) {
  }

  private final Path dir;
  private final String name;

  private BusCertificates(Path dir, String name) {
    this.dir = dir;
    this.name = name;
  }

  /** A new authority named {@code name}, its files under {@code dir}. */
  public static BusCertificates authority(Path dir, String name) throws IOException {
    BusCertificates ca = new BusCertificates(Files.createDirectories(dir), name);
    ca.keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
        "-ext", "bc:c", "-validity", "2", "-keystore", ca.store("ca").toString(), "-storetype", "PKCS12");
    ca.keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca.store("ca").toString(), "-file",
        ca.caPem().toString());
    return ca;
  }

  /** A key and a certificate this authority signed, for client and server use on loopback. */
  public Identity issue(String member) throws IOException {
    Path store = store(member);
    Path request = dir.resolve(name + "-" + member + ".csr");
    Path cert = dir.resolve(name + "-" + member + ".pem");
    keytool("-genkeypair", "-alias", "member", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
        "CN=" + member, "-validity", "2", "-keystore", store.toString(), "-storetype", "PKCS12");
    keytool("-certreq", "-alias", "member", "-keystore", store.toString(), "-file", request.toString());
    keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", store("ca").toString(), "-infile", request.toString(),
        "-outfile", cert.toString(), "-validity", "2", "-ext", "san=ip:127.0.0.1,dns:localhost",
        "-ext", "eku=serverAuth,clientAuth");
    Path key = dir.resolve(name + "-" + member + "-key.pem");
    Files.writeString(key, pem("PRIVATE KEY", privateKey(store).getEncoded()));
    return new Identity(key, cert, caPem());
  }

  private Path caPem() {
    return dir.resolve(name + "-ca.pem");
  }

  private Path store(String member) {
    return dir.resolve(name + "-" + member + ".p12");
  }

  private static Key privateKey(Path store) throws IOException {
    try (InputStream in = Files.newInputStream(store)) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(in, PASSWORD.toCharArray());
      return keys.getKey("member", PASSWORD.toCharArray());
    } catch (java.security.GeneralSecurityException e) {
      throw new IOException("Cannot read the key of " + store + ": " + e.getMessage(), e);
    }
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
        .encodeToString(der) + "\n-----END " + type + "-----\n";
  }

  private void keytool(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
    command.addAll(List.of(args));
    command.addAll(List.of("-storepass", PASSWORD, "-noprompt"));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IOException("keytool " + args[0] + " failed: " + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while keytool ran", e);
    }
  }
}
