package dev.seckill.system.page;

import dev.seckill.testkit.Stack;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One headless Debian Chromium, phone-sized, with a fresh profile, driven through Debian's chromedriver. Both paths
 * are given explicitly so Selenium Manager never looks for (or downloads) a browser or a driver; the flags keep an
 * offline Chromium from calling home.
 */
final class Browser implements AutoCloseable {

    static final String CHROMIUM = "/usr/bin/chromium";
    static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    /** A common phone in portrait (CSS pixels). */
    static final int WIDTH = 390;
    static final int HEIGHT = 844;

    /**
     * Console lines that are not errors of the page: Chromium logs every 4xx/5xx answer of a fetch as "Failed to
     * load resource", including the answers of the contract that the page handles: a purchase's 409 (already
     * purchased, not started), 410 (sold out, ended), 429 (rate limited) and 503 (unavailable), a sale read's
     * 404 (no such sale), the shopper's order in a sale's 404 (none), a payment's 402 (declined), 409 (not
     * recorded yet), 410 (expired), 429 and 503, a protected sale's purchase through a refused path (403), and a
     * waiting room's join or poll: 403 (a refused ticket), 409 (not open yet, already bought), 410 (sold out, ended,
     * the turn lapsed), 429 and 503.
     */
    private static final String FAILED = Pattern.quote(" - Failed to load resource: the server responded with a status of ");
    private static final Pattern CONTRACT_ANSWER = Pattern.compile("^\\S+/api/(?:sales/\\d+(?:/purchase" + FAILED
            + "(?:409|410|429|503)|/purchase/[A-Za-z0-9_-]+" + FAILED + "(?:403|409|410|429|503)|(?:/order)?" + FAILED
            + "404|/line" + FAILED + "(?:403|409|410|429|503))|orders/\\d+/pay" + FAILED + "(?:402|409|410|429|503)) .*");

    private final Path profile;
    private final ChromeDriverService service;
    private final ChromeDriver driver;
    private final List<String> console = new ArrayList<>();

    Browser() {
        try {
            profile = Files.createTempDirectory("seckill-chromium");
        } catch (IOException e) {
            throw new UncheckedIOException("failed to create a browser profile directory", e);
        }
        service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort()
                .withLogOutput(OutputStream.nullOutputStream())
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-extensions",
                "--user-data-dir=" + profile, "--window-size=" + WIDTH + "," + HEIGHT);
        // A desktop window cannot be narrower than about 500 px: chromedriver's device emulation gives the page a
        // real phone viewport.
        options.setExperimentalOption("mobileEmulation", Map.of("deviceMetrics",
                Map.of("width", WIDTH, "height", HEIGHT, "pixelRatio", 2.0, "touch", true, "mobile", true)));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        try {
            driver = new ChromeDriver(service, options);
        } catch (RuntimeException e) {
            service.stop();
            deleteTree(profile);
            throw e;
        }
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
    }

    ChromeDriver driver() {
        return driver;
    }

    void open(String url) {
        driver.get(url);
    }

    void reload() {
        driver.navigate().refresh();
    }

    WebElement byId(String id) {
        return driver.findElement(By.id(id));
    }

    String text(String id) {
        return byId(id).getText();
    }

    Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /** Writes a screenshot to system-tests/target/screenshots/{name}.png (a test artifact, never committed). */
    Path screenshot(String name) {
        Path dir = Stack.get().home().resolve("system-tests/target/screenshots");
        try {
            Files.createDirectories(dir);
            Path to = dir.resolve(name + ".png");
            Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), to, StandardCopyOption.REPLACE_EXISTING);
            return to;
        } catch (IOException e) {
            throw new UncheckedIOException("failed to write screenshot " + name, e);
        }
    }

    /** Fails unless the page fits the phone's width: nothing to scroll sideways. */
    void assertFitsPhoneWidth() {
        Number scroll = (Number) js("return document.documentElement.scrollWidth;");
        Number width = (Number) js("return window.innerWidth;");
        assertTrue(scroll.intValue() <= width.intValue(), "page is " + scroll + " px wide in a " + width + " px viewport");
    }

    /** Console errors since the browser started that are not contract answers (see {@link #CONTRACT_ANSWER}). */
    List<String> consoleErrors() {
        for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
            console.add(e.getLevel() + " " + e.getMessage());
        }
        return console.stream()
                .filter(line -> line.startsWith(Level.SEVERE.toString()))
                .map(line -> line.substring(Level.SEVERE.toString().length() + 1))
                .filter(message -> !CONTRACT_ANSWER.matcher(message).matches())
                .toList();
    }

    void assertNoConsoleErrors() {
        assertEquals(List.of(), consoleErrors(), "console errors");
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
            deleteTree(profile);
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A profile left in the temp directory is harmless; the test's outcome does not depend on it.
        }
    }
}
