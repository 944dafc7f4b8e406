package dev.seckill.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * A small JSON-over-HTTP client for tests (java.net.http underneath). Every answer it reads is checked against the
 * OpenAPI document ({@link ApiContract}).
 */
public final class HttpJson {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client;

    public HttpJson() {
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    public Response get(String url, String... headers) {
        return send("GET", url, null, headers);
    }

    public Response post(String url, String body, String... headers) {
        return send("POST", url, body, headers);
    }

    /** Sends a request; headers are name/value pairs. A body, if any, is sent as application/json. */
    public Response send(String method, String url, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
            Response response = new Response(r.statusCode(), r.headers().map(), r.body());
            ApiContract.check(method, url, response.status(), response::header, response.body());
            return response;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("failed to " + method + " " + url + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    public static String bearer(String token) {
        return "Bearer " + token;
    }

    /** A response: status, headers (lower-case names), raw body and its JSON. */
    public record Response(int status, Map<String, java.util.List<String>> headers, String body) {

        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst())
                    .findFirst().orElse(null);
        }

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("body is not JSON (status " + status + "): " + body, e);
            }
        }

        public String code() {
            return json().path("code").asText();
        }
    }
}
