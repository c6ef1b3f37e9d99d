package org.jfrworkbench.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.server.http.RunningServer;
import org.jfrworkbench.server.library.RecordingLibrary;
import org.jfrworkbench.testkit.Browser;

/** What the browser tests share: the real server in process over a data directory of its own, and its JSON API. */
final class UiServer {
    private static final ObjectMapper JSON = new ObjectMapper();

    private UiServer() {
    }

    /** An open server (no token) on a free port of 127.0.0.1, storing in data. */
    static RunningServer start(Path data) throws IOException {
        return RunningServer.start(RecordingLibrary.open(data, new Importer(), 512L << 20), null, "127.0.0.1", 0);
    }

    /** Closes the browser, then the server; either may be null (its start failed). */
    static void stop(Browser browser, RunningServer server) {
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** GET path as JSON; anything but 200 fails the test. */
    static JsonNode get(RunningServer server, String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return JSON.readTree(response.body());
    }

    /**
     * Uploads body as a recording named name, with labels ({@code k=v,k=v}, or null); its id. An answer other than 201
     * (stored) or 200 (stored before) fails the test.
     */
    static String upload(RunningServer server, String name, String labels, HttpRequest.BodyPublisher body) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.baseUrl()
                        + "/api/recordings?name=" + enc(name) + (labels == null ? "" : "&labels=" + enc(labels))))
                .POST(body).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(response.statusCode() == 201 || response.statusCode() == 200, name + ": " + response.body());
        return JSON.readTree(response.body()).get("id").asText();
    }

    /** Uploads a file under its own name. */
    static String upload(RunningServer server, Path file, String labels) throws Exception {
        return upload(server, file.getFileName().toString(), labels, HttpRequest.BodyPublishers.ofFile(file));
    }

    /** A URL's query parameter, decoded; null when it has none of that name. */
    static String param(String url, String name) {
        for (String part : url.substring(url.indexOf('?') + 1).split("&")) {
            if (part.startsWith(name + "=")) {
                return URLDecoder.decode(part.substring(name.length() + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
