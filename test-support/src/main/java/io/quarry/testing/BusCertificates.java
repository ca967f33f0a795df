package io.quarry.testing;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AuthorityKeyIdentifier;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A cluster's certificate authority and the PEM files its nodes' event buses are given, signed in this process (with
 * Bouncy Castle's certificate builder and the JDK's keys): EC keys on P-256, certificates for loopback, valid for two
 * days, with the extensions {@code keytool} gave them — the authority's basic constraints, each member's addresses and
 * both TLS uses, key identifiers on both.
 */
public final class BusCertificates {

  private static final Duration VALIDITY = Duration.ofDays(2);
  private static final SecureRandom RANDOM = new SecureRandom();

  /** One identity's files, as a node is configured with them. */
  public record Identity(Path key, Path cert, Path ca) {
  }

  private final Path dir;
  private final String name;
  private final KeyPair keys;
  private final X509Certificate certificate;

  private BusCertificates(Path dir, String name, KeyPair keys, X509Certificate certificate) {
    this.dir = dir;
    this.name = name;
    this.keys = keys;
    this.certificate = certificate;
  }

  /** A new authority named {@code name}, its files under {@code dir}. */
  public static BusCertificates authority(Path dir, String name) throws IOException {
    KeyPair keys = newKeys();
    X500Name subject = new X500Name("CN=" + name);
    X509Certificate certificate = sign(keys, subject, keys.getPublic(), subject, builder -> {
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      builder.addExtension(Extension.authorityKeyIdentifier, false,
          extensions().createAuthorityKeyIdentifier(keys.getPublic()));
    });
    BusCertificates ca = new BusCertificates(Files.createDirectories(dir), name, keys, certificate);
    Files.writeString(ca.caPem(), pem("CERTIFICATE", encoded(certificate)));
    return ca;
  }

  /** A key and a certificate this authority signed, for client and server use on loopback. */
  public Identity issue(String member) throws IOException {
    KeyPair memberKeys = newKeys();
    AuthorityKeyIdentifier authority;
    try {
      authority = extensions().createAuthorityKeyIdentifier(certificate);
    } catch (GeneralSecurityException e) {
      throw new IOException(e);
    }
    X509Certificate signed = sign(keys, new X500Name("CN=" + name), memberKeys.getPublic(),
        new X500Name("CN=" + member), builder -> {
          builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
              new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}));
          builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
              KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
          builder.addExtension(Extension.authorityKeyIdentifier, false, authority);
        });
    Path key = dir.resolve(name + "-" + member + "-key.pem");
    Path cert = dir.resolve(name + "-" + member + ".pem");
    Files.writeString(key, pem("PRIVATE KEY", memberKeys.getPrivate().getEncoded()));
    Files.writeString(cert, pem("CERTIFICATE", encoded(signed)));
    return new Identity(key, cert, caPem());
  }

  private Path caPem() {
    return dir.resolve(name + "-ca.pem");
  }

  /** What a certificate adds beside its subject's key and names. */
  private interface Extensions {
    void add(X509v3CertificateBuilder builder) throws CertIOException;
  }

  private static X509Certificate sign(KeyPair issuerKeys, X500Name issuer, PublicKey subjectKey, X500Name subject,
      Extensions extensions) throws IOException {
    Instant now = Instant.now();
    X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, RANDOM),
        Date.from(now), Date.from(now.plus(VALIDITY)), subject, subjectKey);
    builder.addExtension(Extension.subjectKeyIdentifier, false, extensions().createSubjectKeyIdentifier(subjectKey));
    extensions.add(builder);
    try {
      return new JcaX509CertificateConverter().getCertificate(builder.build(
          new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate())));
    } catch (GeneralSecurityException | OperatorCreationException e) {
      throw new IOException("Cannot sign the certificate of " + subject + ": " + e.getMessage(), e);
    }
  }

  private static JcaX509ExtensionUtils extensions() throws CertIOException {
    try {
      return new JcaX509ExtensionUtils();
    } catch (GeneralSecurityException e) {
      throw new CertIOException("No SHA-1 for key identifiers: " + e.getMessage(), e);
    }
  }

  private static KeyPair newKeys() throws IOException {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IOException("Cannot make an EC key: " + e.getMessage(), e);
    }
  }

  private static byte[] encoded(X509Certificate certificate) throws IOException {
    try {
      return certificate.getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IOException(e);
    }
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
        .encodeToString(der) + "\n-----END " + type + "-----\n";
  }
}
