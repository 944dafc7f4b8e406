package dev.seckill.system.page;

import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sale pages as the edge serves them: HTML revalidated, assets named after their content and kept a
 * year. An asset edited without running openresty/html/fingerprint.sh would be served stale for a year: this test
 * catches it.
 */
@Timeout(60)
class SalePageAssetsIT {

    private static final String[] PAGES = {"/index.html", "/sale.html"};
    /** A link, a script, or a meta tag naming an asset the page loads itself (the challenge's Web Worker). */
    private static final Pattern ASSET_REF = Pattern.compile("(?:href|src|content)=\"(assets/[^\"]+)\"");
    private static final Pattern FINGERPRINTED = Pattern.compile("^assets/.+\\.([0-9a-f]{8})\\.(css|js)$");

    private final HttpJson http = new HttpJson();
    private final String edge = Stack.get().edgeUrl();

    @Test
    void pagesAreRevalidatedAndTheirAssetsAreNamedAfterTheirContentAndCachedForAYear() throws Exception {
        Set<String> referenced = new TreeSet<>();
        for (String page : PAGES) {
            HttpJson.Response html = http.get(edge + page);
            assertEquals(200, html.status(), page);
            assertTrue(html.header("Content-Type").startsWith("text/html"), page);
            assertEquals("no-cache", html.header("Cache-Control"), page);
            assertNotNull(html.header("ETag"), page);
            Matcher m = ASSET_REF.matcher(html.body());
            while (m.find()) {
                referenced.add(m.group(1));
            }
        }
        assertTrue(referenced.size() >= 3, "the pages load their CSS and scripts: " + referenced);

        for (String asset : referenced) {
            Matcher name = FINGERPRINTED.matcher(asset);
            assertTrue(name.matches(), asset + " is not fingerprinted");
            HttpJson.Response r = http.get(edge + "/" + asset);
            assertEquals(200, r.status(), asset);
            assertEquals("public, max-age=31536000, immutable", r.header("Cache-Control"), asset);
            assertTrue(r.header("Content-Type").startsWith(name.group(2).equals("css") ? "text/css" : "text/javascript"),
                    asset + ": " + r.header("Content-Type"));
            assertEquals(name.group(1), sha256Prefix(r.body()), asset + " changed without a new name: run "
                    + "openresty/html/fingerprint.sh");
        }
        assertEquals(referenced, assetFiles(), "every asset in openresty/html/assets is used by a page");
    }

    private static String sha256Prefix(String body) throws NoSuchAlgorithmException {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest).substring(0, 8);
    }

    private static Set<String> assetFiles() throws IOException {
        Path html = Stack.get().home().resolve("openresty/html");
        try (Stream<Path> files = Files.list(html.resolve("assets"))) {
            return files.map(p -> "assets/" + p.getFileName()).collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
