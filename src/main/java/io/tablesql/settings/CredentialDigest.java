package io.tablesql.settings;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Names a credential without holding it: an HMAC of the secret under a key drawn at random for
 * this JVM, so equal credentials get equal names while nothing that leaves memory (a cache key
 * in a heap dump, a log line) can be turned back into the secret or checked against a guess.
 */
final class CredentialDigest {
  private static final byte[] JVM_KEY = new byte[32];

  static {
    new SecureRandom().nextBytes(JVM_KEY);
  }

  private CredentialDigest() {
  }

  static String of(String kind, String secret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(JVM_KEY, "HmacSHA256"));
      mac.update(kind.getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      return kind + ":" + HexFormat.of().formatHex(mac.doFinal(secret.getBytes(StandardCharsets.UTF_8)), 0, 16);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }
}
