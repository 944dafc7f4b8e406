package dev.seckill.system.page;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * openresty/html/install.sh on a page of the test's own: each asset copied under its content hash, the page pointed
 * at the hashed names and given an import map for the modules' own imports; an edited module gets a new name while
 * the others keep theirs and the old file stays for pages loaded before; and every source it cannot install safely
 * (one named like a hashed file, a file that is no page asset, a page naming an asset that is not there) refused with
 * one line, the page installed before left as it was. SalePageAssetsIT checks the repository's page as the edge
 * serves it.
 */
@Timeout(60)
class PageInstallIT {

    private static final Duration SCRIPT = Duration.ofSeconds(30);
    private static final String INSTALL = "openresty/html/install.sh";
    private static final String PAGE = """
            <!doctype html>
            <html lang="en">
            <head>
              <link rel="stylesheet" href="assets/app.css">
              <script type="module" src="assets/app/main.js"></script>
            </head>
            <body><p>sale</p></body>
            </html>
            """;
    private static final String MAIN = "import { twice } from '/assets/app/util.js';\nconsole.log(twice(2));\n";
    private static final String UTIL = "export function twice(n) { return 2 * n; }\n";
    private static final String CSS = "body { margin: 0; }\n";
    private static final Pattern IMPORT_MAP =
            Pattern.compile("<script type=\"importmap\">(.*?)</script>", Pattern.DOTALL);

    private final Stack stack = Stack.get();
    @TempDir
    Path src;
    @TempDir
    Path dest;

    @BeforeEach
    void writeSources() throws IOException {
        Files.createDirectories(src.resolve("assets/app"));
        Files.writeString(src.resolve("index.html"), PAGE);
        Files.writeString(src.resolve("assets/app.css"), CSS);
        Files.writeString(src.resolve("assets/app/main.js"), MAIN);
        Files.writeString(src.resolve("assets/app/util.js"), UTIL);
        // An editor's swap file beside the sources: never installed.
        Files.writeString(src.resolve("assets/app/.main.js.swp"), "swap");
    }

    @Test
    void eachAssetGetsItsContentHashAndThePagePointsAtItThroughItsTagsAndItsImportMap() throws Exception {
        install();

        String css = hashed("assets/app", "css", CSS);
        String main = hashed("assets/app/main", "js", MAIN);
        String util = hashed("assets/app/util", "js", UTIL);
        for (String asset : List.of(css, main, util)) {
            assertTrue(Files.isRegularFile(dest.resolve(asset)), asset + " installed: " + listing());
        }
        assertEquals(MAIN, Files.readString(dest.resolve(main)), "an asset is copied as it is");
        assertEquals(List.of(css, main, util, "index.html"), listing(), "only hashed assets and the page; no dotfile");

        String page = Files.readString(dest.resolve("index.html"));
        assertTrue(page.contains("href=\"" + css + "\""), page);
        assertTrue(page.contains("src=\"" + main + "\""), page);
        assertFalse(page.contains("assets/app.css\"") || page.contains("src=\"assets/app/main.js\""),
                "no tag points at a plain name: " + page);
        assertEquals(Map.of("/assets/app/main.js", "/" + main, "/assets/app/util.js", "/" + util), importMap(page));
        assertTrue(page.indexOf("<script type=\"importmap\">") < page.indexOf("<script type=\"module\""),
                "the import map comes before the first module: " + page);
        assertEquals(MAIN, Files.readString(src.resolve("assets/app/main.js")), "the sources keep their names");
    }

    @Test
    void anEditedModuleGetsANewNameWhileTheOthersKeepTheirsAndItsOldFileStays() throws Exception {
        install();
        String oldUtil = hashed("assets/app/util", "js", UTIL);
        String edited = "export function twice(n) { return n + n; }\n";
        Files.writeString(src.resolve("assets/app/util.js"), edited);

        install();

        String newUtil = hashed("assets/app/util", "js", edited);
        String main = hashed("assets/app/main", "js", MAIN);
        assertNotEquals(oldUtil, newUtil);
        assertTrue(Files.isRegularFile(dest.resolve(newUtil)), listing().toString());
        assertTrue(Files.isRegularFile(dest.resolve(oldUtil)), "a page loaded before still finds what it imports");
        String page = Files.readString(dest.resolve("index.html"));
        // The module that imports the edited one is unchanged, so browsers keep their cached copy of it.
        assertTrue(page.contains("src=\"" + main + "\""), page);
        assertEquals("/" + newUtil, importMap(page).get("/assets/app/util.js"), page);
    }

    @Test
    void aSourceNamedLikeAHashedFileIsRefusedAndTheInstalledPageStays() throws Exception {
        install();
        byte[] before = Files.readAllBytes(dest.resolve("index.html"));
        Files.writeString(src.resolve("assets/app/extra.0123abcd.js"), "export const a = 1;\n");

        Stack.Outcome o = stack.run(Map.of(), SCRIPT, INSTALL, src.toString(), dest.toString());

        assertNotEquals(0, o.exit(), o.output());
        assertEquals("install.sh: assets/app/extra.0123abcd.js is named like a content-hashed file: give it a plain name",
                o.output().strip());
        assertArrayEquals(before, Files.readAllBytes(dest.resolve("index.html")));
    }

    @Test
    void aPageNamingAMissingAssetIsRefusedAndTheInstalledPageStays() throws Exception {
        install();
        byte[] before = Files.readAllBytes(dest.resolve("index.html"));
        Files.writeString(src.resolve("index.html"),
                PAGE.replace("</head>", "  <script type=\"module\" src=\"assets/app/gone.js\"></script>\n</head>"));

        Stack.Outcome o = stack.run(Map.of(), SCRIPT, INSTALL, src.toString(), dest.toString());

        assertNotEquals(0, o.exit(), o.output());
        assertEquals("install.sh: index.html references a missing asset: assets/app/gone.js", o.output().strip());
        assertArrayEquals(before, Files.readAllBytes(dest.resolve("index.html")));
        assertEquals(List.of(hashed("assets/app", "css", CSS), hashed("assets/app/main", "js", MAIN),
                hashed("assets/app/util", "js", UTIL), "index.html"), listing(), "no half-written page is left");
    }

    @Test
    void aFileThatIsNoPageAssetIsRefusedBeforeAnythingIsInstalled() throws Exception {
        Files.writeString(src.resolve("assets/notes.txt"), "todo\n");

        Stack.Outcome o = stack.run(Map.of(), SCRIPT, INSTALL, src.toString(), dest.toString());

        assertNotEquals(0, o.exit(), o.output());
        assertEquals("install.sh: not a page asset (css, js, svg, png): assets/notes.txt", o.output().strip());
        assertFalse(Files.exists(dest.resolve("index.html")), listing().toString());
    }

    private void install() throws IOException {
        Stack.Outcome o = stack.run(Map.of(), SCRIPT, INSTALL, src.toString(), dest.toString());
        assertEquals(0, o.exit(), o.output());
        assertEquals("installed 1 pages and their assets into " + dest.toRealPath(), o.output().strip());
    }

    /** The name install.sh gives an asset: its plain path, the first 8 hex of its SHA-256, its extension. */
    private static String hashed(String base, String ext, String content) throws NoSuchAlgorithmException {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(content.getBytes(StandardCharsets.UTF_8));
        return base + "." + HexFormat.of().formatHex(digest).substring(0, 8) + "." + ext;
    }

    private static Map<String, String> importMap(String page) throws IOException {
        Matcher m = IMPORT_MAP.matcher(page);
        assertTrue(m.find(), "the page has an import map: " + page);
        JsonNode imports = new ObjectMapper().readTree(m.group(1)).path("imports");
        Map<String, String> map = new TreeMap<>();
        imports.properties().forEach(e -> map.put(e.getKey(), e.getValue().asText()));
        return map;
    }

    /** Every file under DEST, relative and sorted. */
    private List<String> listing() throws IOException {
        try (Stream<Path> files = Files.walk(dest)) {
            return files.filter(Files::isRegularFile).map(p -> dest.relativize(p).toString()).sorted().toList();
        }
    }
}
