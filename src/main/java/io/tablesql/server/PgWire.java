package io.tablesql.server;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The framing of PostgreSQL's protocol v3 (https://www.postgresql.org/docs/current/protocol-message-formats.html)
 * on one socket: messages read as a type byte and a length-prefixed body, messages written
 * through {@link Message}. Only framing: what the messages mean is {@link PgSession}'s.
 */
final class PgWire {
  /** The largest message a client may send (a query, a password): larger is a protocol violation. */
  static final int MAX_MESSAGE = 16 * 1024 * 1024;

  private final DataInputStream in;
  private final OutputStream out;

  PgWire(InputStream in, OutputStream out) {
    this.in = new DataInputStream(new BufferedInputStream(in, 8192));
    this.out = new BufferedOutputStream(out, 65536);
  }

  /** A message from the client: its type and body. */
  record Received(char type, byte[] body) {
    /** A reader of the body's fields. */
    Fields fields() {
      return new Fields(body);
    }
  }

  /** The startup packet (no type byte): its length-prefixed body. */
  byte[] readStartup() throws IOException {
    return readBody();
  }

  /** The next message; throws EOFException when the client has gone. */
  Received read() throws IOException {
    int type = in.read();
    if (type < 0) {
      throw new EOFException();
    }
    return new Received((char) type, readBody());
  }

  private byte[] readBody() throws IOException {
    int length = in.readInt();
    if (length < 4 || length > MAX_MESSAGE) {
      throw new ProtocolViolation("a message of " + length + " bytes");
    }
    byte[] body = new byte[length - 4];
    in.readFully(body);
    return body;
  }

  /** One byte with no framing: the answer to SSLRequest and GSSENCRequest. */
  void sendByte(char answer) throws IOException {
    out.write(answer);
    out.flush();
  }

  void send(Message message) throws IOException {
    message.writeTo(out);
  }

  void flush() throws IOException {
    out.flush();
  }

  /** A client that breaks the protocol: the session ends with 08P01. */
  static final class ProtocolViolation extends IOException {
    ProtocolViolation(String what) {
      super("Protocol violation: " + what + ".");
    }
  }

  /** Reads the fields of a message body in order. */
  static final class Fields {
    private final byte[] body;
    private int position;

    Fields(byte[] body) {
      this.body = body;
    }

    int int32() throws ProtocolViolation {
      need(4);
      int value = (body[position] & 0xff) << 24 | (body[position + 1] & 0xff) << 16
          | (body[position + 2] & 0xff) << 8 | body[position + 3] & 0xff;
      position += 4;
      return value;
    }

    int int16() throws ProtocolViolation {
      need(2);
      int value = (short) ((body[position] & 0xff) << 8 | body[position + 1] & 0xff);
      position += 2;
      return value;
    }

    int byte1() throws ProtocolViolation {
      need(1);
      return body[position++] & 0xff;
    }

    byte[] bytes(int length) throws ProtocolViolation {
      need(length);
      byte[] bytes = java.util.Arrays.copyOfRange(body, position, position + length);
      position += length;
      return bytes;
    }

    /** A NUL-terminated UTF-8 string. */
    String cstring() throws ProtocolViolation {
      int end = position;
      while (end < body.length && body[end] != 0) {
        end++;
      }
      if (end == body.length) {
        throw new ProtocolViolation("a string without its terminating NUL");
      }
      String text = new String(body, position, end - position, StandardCharsets.UTF_8);
      position = end + 1;
      return text;
    }

    boolean atEnd() {
      return position >= body.length;
    }

    private void need(int bytes) throws ProtocolViolation {
      if (position + bytes > body.length) {
        throw new ProtocolViolation("a message shorter than its fields");
      }
    }
  }

  /** A message to the client, built field by field. */
  static final class Message {
    private final char type;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream(64);

    Message(char type) {
      this.type = type;
    }

    Message int16(int value) {
      body.write(value >>> 8);
      body.write(value);
      return this;
    }

    Message int32(int value) {
      body.write(value >>> 24);
      body.write(value >>> 16);
      body.write(value >>> 8);
      body.write(value);
      return this;
    }

    Message cstring(String text) {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      body.write(bytes, 0, bytes.length);
      body.write(0);
      return this;
    }

    Message byte1(char value) {
      body.write(value);
      return this;
    }

    /** Bytes as they are (CopyData's body). */
    Message raw(byte[] bytes) {
      body.write(bytes, 0, bytes.length);
      return this;
    }

    /** A length-prefixed value; null is length -1. */
    Message value(byte[] bytes) {
      if (bytes == null) {
        return int32(-1);
      }
      int32(bytes.length);
      body.write(bytes, 0, bytes.length);
      return this;
    }

    void writeTo(OutputStream out) throws IOException {
      out.write(type);
      int length = body.size() + 4;
      out.write(length >>> 24);
      out.write(length >>> 16);
      out.write(length >>> 8);
      out.write(length);
      body.writeTo(out);
    }
  }
}
