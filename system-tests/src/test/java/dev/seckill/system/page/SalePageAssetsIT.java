package dev.seckill.system.page;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sale pages as the edge serves them: HTML revalidated, and every asset they load (by a link or a script, or
 * through their import map) under a name that carries its content, kept a year. The sources keep plain names;
 * openresty/html/install.sh hashes them when the page is installed. A page that pointed at a plain name, or an
 * asset whose name did not match its content, would be served stale for a year: this test catches both.
 */
@Timeout(60)
class SalePageAssetsIT {

    private static final String YEAR_IMMUTABLE = "public, max-age=31536000, immutable";
    private static final String[] PAGES = {"/index.html", "/sale.html"};
    /** A stylesheet or a script the page loads itself. */
    private static final Pattern ASSET_REF = Pattern.compile("(?:href|src)=\"/?(assets/[^\"]+)\"");
    private static final Pattern IMPORT_MAP =
            Pattern.compile("<script type=\"importmap\">(.*?)</script>", Pattern.DOTALL);
    /** A hashed name: the plain path, then the first 8 hex of the content's SHA-256. */
    private static final Pattern FINGERPRINTED = Pattern.compile("^(assets/.+)\\.([0-9a-f]{8})\\.(css|js)$");
    /** What a module asks for: an import's specifier, or a path it resolves (the proof of work's worker). */
    private static final Pattern SPECIFIER =
            Pattern.compile("(?:\\bfrom\\s*|\\bimport\\s*|import\\.meta\\.resolve\\()\\s*'([^']+)'");

    private final HttpJson http = new HttpJson();
    private final String edge = Stack.get().edgeUrl();

    @Test
    void pagesAreRevalidatedAndEveryAssetTheyLoadIsNamedAfterItsContentAndCachedForAYear() throws Exception {
        // plain path (assets/sale/main.js) -> hashed path, over both pages
        Map<String, String> loaded = new TreeMap<>();
        Set<String> mapped = new TreeSet<>();
        for (String page : PAGES) {
            HttpJson.Response html = http.get(edge + page);
            assertEquals(200, html.status(), page);
            assertTrue(html.header("Content-Type").startsWith("text/html"), page);
            assertEquals("no-cache", html.header("Cache-Control"), page);
            assertNotNull(html.header("ETag"), page);
            Matcher ref = ASSET_REF.matcher(html.body());
            while (ref.find()) {
                loaded.put(plain(ref.group(1)), ref.group(1));
            }
            Matcher map = IMPORT_MAP.matcher(html.body());
            assertTrue(map.find(), page + " has an import map");
            JsonNode imports = new ObjectMapper().readTree(map.group(1)).path("imports");
            assertTrue(imports.size() > 0, page + ": " + map.group(1));
            imports.properties().forEach(e -> {
                String to = e.getValue().asText().substring(1);
                assertEquals(e.getKey(), "/" + plain(to), page + " maps a module to another file's name");
                mapped.add(e.getKey());
                loaded.put(plain(to), to);
            });
        }
        assertTrue(loaded.keySet().containsAll(Set.of("assets/seckill.css", "assets/sale/main.js", "assets/list.js")),
                "the pages load their CSS and their modules: " + loaded.keySet());

        for (String asset : loaded.values()) {
            Matcher name = FINGERPRINTED.matcher(asset);
            assertTrue(name.matches(), asset + " is not named after its content");
            HttpJson.Response r = http.get(edge + "/" + asset);
            assertEquals(200, r.status(), asset);
            assertEquals(YEAR_IMMUTABLE, r.header("Cache-Control"), asset);
            assertTrue(r.header("Content-Type").startsWith(name.group(3).equals("css") ? "text/css" : "text/javascript"),
                    asset + ": " + r.header("Content-Type"));
            assertEquals(name.group(2), sha256Prefix(r.body()), asset + " is not named after its content");
            // Every module the page's modules import resolves through the import map, never to a plain name.
            Matcher specifier = SPECIFIER.matcher(r.body());
            while (specifier.find()) {
                assertTrue(mapped.contains(specifier.group(1)),
                        asset + " asks for " + specifier.group(1) + ", which the import map does not name");
            }
            // The plain name is never the one kept a year.
            HttpJson.Response source = http.get(edge + "/" + plain(asset));
            assertNotEquals(YEAR_IMMUTABLE, source.header("Cache-Control"), plain(asset));
        }
        assertEquals(sourceAssets(), loaded.keySet(), "every asset in openresty/html/assets is installed and used");
    }

    /** The plain path of a hashed one: assets/sale/main.0123abcd.js -> assets/sale/main.js. */
    private static String plain(String asset) {
        Matcher name = FINGERPRINTED.matcher(asset);
        assertTrue(name.matches(), asset + " is not named after its content");
        return name.group(1) + "." + name.group(3);
    }

    private static String sha256Prefix(String body) throws NoSuchAlgorithmException {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest).substring(0, 8);
    }

    private static Set<String> sourceAssets() throws IOException {
        Path html = Stack.get().home().resolve("openresty/html");
        try (Stream<Path> files = Files.walk(html.resolve("assets"))) {
            return files.filter(Files::isRegularFile)
                    .map(p -> html.relativize(p).toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
