package io.volumizer.campaigns.report;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Opens a report in Debian's headless Chromium through its ChromeDriver (the packages chromium and chromium-driver;
 * the paths are given so that Selenium Manager never downloads a browser) and lists what is wrong with it: the page
 * did not load, a script error or console error, a resource fetched, a chart that drew no point.
 */
final class ReportCheck {

    static final String CHROMIUM = "/usr/bin/chromium";
    static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    /** Kept referenced: the check uses no DevTools feature, so Selenium's warning that it has none for this Chromium is noise. */
    private static final Logger DEVTOOLS = Logger.getLogger("org.openqa.selenium.devtools");

    private ReportCheck() {
    }

    /** The problems of the page (none: it passed); with {@code screenshot}, the whole page saved there as PNG. */
    static List<String> problems(Path page, Path screenshot) {
        DEVTOOLS.setLevel(Level.SEVERE);
        for (String program : List.of(CHROMIUM, CHROMEDRIVER)) {
            if (!Files.isExecutable(Path.of(program))) {
                throw new IllegalStateException(program + " is missing: apt-get install chromium chromium-driver "
                        + "(bin/volumizer report --check installs them)");
            }
        }
        Path profile = temporaryProfile();
        ChromeDriver browser = new ChromeDriver(
                new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER)).build(), options(profile));
        try {
            browser.manage().window().setSize(new Dimension(1360, 1000));
            browser.get(page.toAbsolutePath().toUri().toString());
            List<String> problems = new ArrayList<>();
            Object charts = browser.executeScript("return document.body && document.body.dataset.charts");
            if (charts == null) {
                problems.add("the page did not finish drawing its charts (no data-charts mark on its body)");
            }
            for (LogEntry entry : browser.manage().logs().get(LogType.BROWSER)) {
                if (entry.getLevel().intValue() >= Level.SEVERE.intValue()) {
                    problems.add("console: " + entry.getMessage());
                }
            }
            @SuppressWarnings("unchecked")
            List<Object> errors = (List<Object>) browser.executeScript("return window.reportErrors || ['no error capture on the page']");
            errors.forEach(error -> problems.add("script: " + error));
            @SuppressWarnings("unchecked")
            List<Object> fetched = (List<Object>) browser.executeScript(
                    "return performance.getEntriesByType('resource').map(function (e) { return e.name; })");
            fetched.forEach(resource -> problems.add("fetched " + resource + " (the page must be self-contained)"));
            List<WebElement> containers = browser.findElements(By.cssSelector(".chart"));
            if (containers.isEmpty()) {
                problems.add("no chart on the page");
            }
            for (WebElement chart : containers) {
                String points = chart.getDomAttribute("data-points");
                if (points == null || Integer.parseInt(points) == 0) {
                    problems.add("chart " + chart.getDomAttribute("id") + " (" + title(chart) + ") drew no point");
                }
            }
            if (screenshot != null) {
                Number height = (Number) browser.executeScript("return document.documentElement.scrollHeight");
                browser.manage().window().setSize(new Dimension(1360, height.intValue() + 40));
                Files.write(screenshot, browser.getScreenshotAs(OutputType.BYTES));
            }
            return problems;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            browser.quit();
            delete(profile);
        }
    }

    private static String title(WebElement chart) {
        List<WebElement> titles = chart.findElements(By.cssSelector(".u-title"));
        return titles.isEmpty() ? "no title drawn" : titles.get(0).getText();
    }

    private static ChromeOptions options(Path profile) {
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM);
        // Headless in a container as root, and nothing contacted but the page: no updates, sync or QUIC probes.
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile);
        options.setCapability("goog:loggingPrefs", logs);
        return options;
    }

    private static Path temporaryProfile() {
        try {
            return Files.createTempDirectory("volumizer-report-chromium");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // A profile left in the temporary folder harms nothing.
        }
    }
}
