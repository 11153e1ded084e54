package io.tablesql.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The ETags of an entity group transaction's operations, read from the service's multipart answer. */
class BatchAnswerPolicyUnitTest {
  private static final String ANSWER = String.join("\r\n",
      "--batchresponse_7a",
      "Content-Type: multipart/mixed; boundary=changesetresponse_9f",
      "",
      "--changesetresponse_9f",
      "Content-Type: application/http",
      "Content-Transfer-Encoding: binary",
      "",
      "HTTP/1.1 204 No Content",
      "X-Content-Type-Options: nosniff",
      "DataServiceVersion: 1.0;",
      "ETag: W/\"datetime'2026-11-29T08%3A00%3A01.1Z'\"",
      "",
      "",
      "--changesetresponse_9f",
      "Content-Type: application/http",
      "Content-Transfer-Encoding: binary",
      "",
      "HTTP/1.1 204 No Content",
      "DataServiceVersion: 1.0;",
      "",
      "",
      "--changesetresponse_9f",
      "Content-Type: application/http",
      "Content-Transfer-Encoding: binary",
      "",
      "HTTP/1.1 201 Created",
      "etag: W/\"datetime'2026-11-29T08%3A00%3A01.2Z'\"",
      "Content-Type: application/json;odata=minimalmetadata",
      "",
      "{\"odata.etag\":\"W/\\\"x\\\"\",\"N\":1}",
      "--changesetresponse_9f--",
      "--batchresponse_7a--",
      "");

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
