package dev.seckill.system.edge;

import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Static files and their cache headers: HTML revalidates (no-cache + ETag -> 304), fingerprinted assets (in any
 * folder) are kept a year, plain names are revalidated. The edge serves a page directory of the test's own (SECKILL_EDGE_HTML_ROOT), so the sale page's
 * real files can change freely; EdgeRoutingIT checks the repository's page is served.
 */
class EdgeStaticIT {

    private static final String YEAR_IMMUTABLE = "public, max-age=31536000, immutable";

    @RegisterExtension
    static final EdgeFixture fixture = EdgeFixture.of("static",
            () -> Map.of("SECKILL_EDGE_HTML_ROOT", pageDirectory().toString()));
    private final HttpJson http = new HttpJson();

    /** The test's own page directory, written afresh under the module's build output. */
    private static Path pageDirectory() {
        Path html = Path.of("target", "edge-static-html").toAbsolutePath();
        try {
            if (Files.exists(html)) {
                try (Stream<Path> old = Files.walk(html)) {
                    for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
            Files.createDirectories(html.resolve("assets"));
            Files.writeString(html.resolve("index.html"), "<!doctype html><title>t</title><p>sale</p>\n");
            Files.writeString(html.resolve("assets/app.0123abcd.css"), "body{margin:0}\n");
            Files.writeString(html.resolve("assets/logo.89abcdef01.svg"),
                    "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n");
            Files.createDirectories(html.resolve("assets/sale"));
            Files.writeString(html.resolve("assets/sale/main.0123abcd.js"), "export const a = 1;\n");
            Files.writeString(html.resolve("assets/sale/main.js"), "export const a = 2;\n");
            Files.writeString(html.resolve("assets/plain.css"), "p{color:red}\n");
            Files.writeString(html.resolve("assets/short.abc.css"), "p{color:blue}\n");
            Files.writeString(html.resolve("build.sh"), "#!/bin/sh\n");
            Files.writeString(html.resolve(".env"), "SECRET=1\n");
        } catch (IOException e) {
            throw new UncheckedIOException("failed to write the test's page directory " + html, e);
        }
        return html;
    }

    @Test
    void htmlIsRevalidatedWithEtagAnd304() {
        HttpJson.Response page = http.get(fixture.url("/"));
        assertEquals(200, page.status());
        assertTrue(page.header("Content-Type").startsWith("text/html"), page.header("Content-Type"));
        assertEquals("no-cache", page.header("Cache-Control"));
        String etag = page.header("ETag");
        assertNotNull(etag, "HTML needs an ETag to revalidate");

        HttpJson.Response again = http.get(fixture.url("/index.html"), "If-None-Match", etag);

        assertEquals(304, again.status());
        assertEquals("", again.body());
        assertEquals(etag, again.header("ETag"));
        assertEquals("no-cache", again.header("Cache-Control"));
    }

    @Test
    void fingerprintedAssetsAreCachedForAYearAndImmutable() {
        for (String path : new String[] {"/assets/app.0123abcd.css", "/assets/logo.89abcdef01.svg",
                "/assets/sale/main.0123abcd.js"}) {
            HttpJson.Response asset = http.get(fixture.url(path));
            assertEquals(200, asset.status(), path);
            assertEquals(YEAR_IMMUTABLE, asset.header("Cache-Control"), path);
            assertNotNull(asset.header("ETag"), path);

            HttpJson.Response again = http.get(fixture.url(path), "If-None-Match", asset.header("ETag"));
            assertEquals(304, again.status(), path);
            assertEquals(YEAR_IMMUTABLE, again.header("Cache-Control"), path);
        }
        assertTrue(http.get(fixture.url("/assets/app.0123abcd.css")).header("Content-Type").startsWith("text/css"));
        // A module must be served as JavaScript, or the browser refuses to run it.
        assertTrue(http.get(fixture.url("/assets/sale/main.0123abcd.js")).header("Content-Type")
                .startsWith("text/javascript"));
    }

    @Test
    void unversionedAssetsAreRevalidated() {
        for (String path : new String[] {"/assets/plain.css", "/assets/short.abc.css", "/assets/sale/main.js"}) {
            HttpJson.Response asset = http.get(fixture.url(path));
            assertEquals(200, asset.status(), path);
            assertEquals("no-cache", asset.header("Cache-Control"), path);
        }
    }

    @Test
    void missingFilesAndThePagesToolingAre404Json() {
        for (String path : new String[] {"/nope.html", "/assets/gone.0123abcd.js", "/assets/", "/build.sh", "/.env"}) {
            HttpJson.Response r = http.get(fixture.url(path));
            assertEquals(404, r.status(), path);
            assertEquals("NOT_FOUND", r.code(), path);
        }
    }
}
