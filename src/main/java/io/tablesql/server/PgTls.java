package io.tablesql.server;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The server's TLS: its certificate chain and private key from PEM files (the form
 * {@code --tls-cert} and {@code --tls-key} take, as PostgreSQL's {@code ssl_cert_file} and
 * {@code ssl_key_file} do), as the JDK's SSLContext.
 */
final class PgTls {
  private PgTls() {
  }

  /** The context of a certificate chain and its PKCS#8 private key; IllegalArgumentException naming what is wrong. */
  static SSLContext load(Path certificate, Path key) {
    try {
      List<? extends Certificate> chain;
      try (InputStream in = Files.newInputStream(certificate)) {
        chain = List.copyOf(CertificateFactory.getInstance("X.509").generateCertificates(in));
      }
      if (chain.isEmpty()) {
        throw new IllegalArgumentException("--tls-cert " + certificate + " holds no certificate.");
      }
      PrivateKey privateKey = privateKey(key, Files.readString(key));
      char[] password = new char[0];
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("server", privateKey, password, chain.toArray(new Certificate[0]));
      KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, password);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), null, null);
      return context;
    } catch (IOException e) {
      throw new IllegalArgumentException("Cannot read the TLS files: " + e.getMessage(), e);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("The TLS certificate or key cannot be used: " + e.getMessage(), e);
    }
  }

  private static PrivateKey privateKey(Path file, String pem) throws GeneralSecurityException {
    String begin = "-----BEGIN PRIVATE KEY-----";
    int start = pem.indexOf(begin);
    int end = pem.indexOf("-----END PRIVATE KEY-----");
    if (start < 0 || end < 0) {
      throw new IllegalArgumentException("--tls-key " + file + " is not a PEM private key in PKCS#8 (BEGIN PRIVATE "
          + "KEY); convert one with: openssl pkcs8 -topk8 -nocrypt -in key.pem -out key-pkcs8.pem");
    }
    byte[] der = Base64.getMimeDecoder().decode(pem.substring(start + begin.length(), end));
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    for (String algorithm : List.of("RSA", "EC", "Ed25519")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        // not this algorithm's
      }
    }
    throw new IllegalArgumentException("--tls-key " + file + " holds a key of an algorithm other than RSA, EC or "
        + "Ed25519.");
  }
}
