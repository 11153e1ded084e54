package io.tablesql.server;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * SCRAM-SHA-256 (RFC 5802, RFC 7677) as PostgreSQL uses it: verifiers in PostgreSQL's form
 * ({@code SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>}), and the server's side of
 * one exchange, which proves the client knows the password without it crossing the wire.
 */
final class Scram {
  static final String MECHANISM = "SCRAM-SHA-256";
  private static final int ITERATIONS = 4096;
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A stored verifier: what the server keeps of a password. */
  record Verifier(int iterations, byte[] salt, byte[] storedKey, byte[] serverKey) {
    static Verifier parse(String text) {
      String[] parts = text.split("[$:]");
      if (parts.length != 5 || !parts[0].equals(MECHANISM)) {
        throw new IllegalArgumentException("not a SCRAM-SHA-256 verifier (SCRAM-SHA-256$<iterations>:<salt>$"
            + "<StoredKey>:<ServerKey>)");
      }
      Base64.Decoder base64 = Base64.getDecoder();
      return new Verifier(Integer.parseInt(parts[1]), base64.decode(parts[2]), base64.decode(parts[3]),
          base64.decode(parts[4]));
    }

    @Override
    public String toString() {
      Base64.Encoder base64 = Base64.getEncoder();
      return MECHANISM + "$" + iterations + ":" + base64.encodeToString(salt) + "$" + base64.encodeToString(storedKey)
          + ":" + base64.encodeToString(serverKey);
    }
  }

  private Scram() {
  }

  /** The verifier of a password, with a new random salt. */
  static Verifier verifier(String password) {
    byte[] salt = new byte[16];
    RANDOM.nextBytes(salt);
    byte[] salted = salted(password, salt, ITERATIONS);
    return new Verifier(ITERATIONS, salt, sha256(hmac(salted, "Client Key")), hmac(salted, "Server Key"));
  }

  /**
   * One exchange, as the server: {@link #serverFirst} answers the client's first message,
   * {@link #serverFinal} checks its proof. A user without a verifier goes through the same steps
   * with a made-up one and fails at the end, so an answer never tells which users exist.
   */
  static final class Exchange {
    private final Verifier verifier;
    private final boolean known;
    private String clientFirstBare;
    private String serverFirst;
    private String nonce;

    Exchange(Verifier verifier, String user) {
      this.known = verifier != null;
      this.verifier = known ? verifier : new Verifier(ITERATIONS, sha256(("tablesql:" + user).getBytes(
          StandardCharsets.UTF_8)), new byte[32], new byte[32]);
    }

    /** The server-first message; IllegalArgumentException for a client-first it cannot take. */
    String serverFirst(String clientFirst) {
      if (!clientFirst.startsWith("n,") && !clientFirst.startsWith("y,")) {
        throw new IllegalArgumentException("channel binding is not offered: the client must not ask for it");
      }
      clientFirstBare = clientFirst.substring(clientFirst.indexOf(',', 2) + 1);
      String clientNonce = attributes(clientFirstBare).get("r");
      if (clientNonce == null) {
        throw new IllegalArgumentException("the client's first message has no nonce");
      }
      byte[] random = new byte[18];
      RANDOM.nextBytes(random);
      nonce = clientNonce + Base64.getEncoder().encodeToString(random);
      serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(verifier.salt()) + ",i="
          + verifier.iterations();
      return serverFirst;
    }

    /** The server-final message if the client's proof holds; null if it does not. */
    String serverFinal(String clientFinal) {
      Map<String, String> attributes = attributes(clientFinal);
      String proof = attributes.get("p");
      if (!nonce.equals(attributes.get("r")) || proof == null || !clientFinal.contains(",p=")) {
        return null;
      }
      String withoutProof = clientFinal.substring(0, clientFinal.lastIndexOf(",p="));
      byte[] authMessage = (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
      byte[] signature = hmac(verifier.storedKey(), authMessage);
      byte[] clientKey = Base64.getDecoder().decode(proof);
      if (clientKey.length != signature.length) {
        return null;
      }
      for (int i = 0; i < clientKey.length; i++) {
        clientKey[i] ^= signature[i];
      }
      if (!known || !MessageDigest.isEqual(sha256(clientKey), verifier.storedKey())) {
        return null;
      }
      return "v=" + Base64.getEncoder().encodeToString(hmac(verifier.serverKey(), authMessage));
    }
  }

  private static Map<String, String> attributes(String message) {
    Map<String, String> attributes = new HashMap<>();
    for (String part : message.split(",")) {
      if (part.length() > 1 && part.charAt(1) == '=') {
        attributes.put(part.substring(0, 1), part.substring(2));
      }
    }
    return attributes;
  }

  private static byte[] salted(String password, byte[] salt, int iterations) {
    try {
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
          .generateSecret(new PBEKeySpec(password.toCharArray(), salt, iterations, 256)).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] hmac(byte[] key, String text) {
    return hmac(key, text.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] hmac(byte[] key, byte[] data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
