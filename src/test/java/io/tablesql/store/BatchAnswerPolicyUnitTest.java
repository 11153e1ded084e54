package io.tablesql.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The ETags of an entity group transaction's operations, read from the service's multipart answer. */
class BatchAnswerPolicyUnitTest {
  /** One operation's part of a transaction's answer: its status line, an ETag header (null: none), a body. */
  private static String part(String status, String etagHeader, String body) {
    return String.join("\r\n", "--changesetresponse_9f", "Content-Type: application/http",
        "Content-Transfer-Encoding: binary", "", "HTTP/1.1 " + status, "DataServiceVersion: 1.0;")
        + (etagHeader == null ? "" : "\r\n" + etagHeader) + "\r\n\r\n" + body + "\r\n";
  }

  private static final String ANSWER = "--batchresponse_7a\r\n"
      + "Content-Type: multipart/mixed; boundary=changesetresponse_9f\r\n\r\n"
      + part("204 No Content", "ETag: W/\"datetime'2026-11-29T08%3A00%3A01.1Z'\"", "")
      + part("204 No Content", null, "")
      + part("201 Created", "etag: W/\"datetime'2026-11-29T08%3A00%3A01.2Z'\"",
          "{\"odata.etag\":\"W/\\\"x\\\"\",\"N\":1}")
      + "--changesetresponse_9f--\r\n--batchresponse_7a--\r\n";

  @Test
  void eachOperationsEtagInOrderAndNoneForADelete() {
    assertThat(BatchAnswerPolicy.parse(ANSWER)).containsExactly("W/\"datetime'2026-11-29T08%3A00%3A01.1Z'\"", null,
        "W/\"datetime'2026-11-29T08%3A00%3A01.2Z'\"");
  }

  @Test
  void anAnswerWithoutPartsHasNoEtags() {
    assertThat(BatchAnswerPolicy.parse("")).isEmpty();
    assertThat(BatchAnswerPolicy.parse("--batchresponse_7a--\r\n")).isEmpty();
  }
}
