package org.jfrworkbench.ui;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;

/** Headless Debian Chromium through Playwright, with console errors collected per page. */
final class Browser implements AutoCloseable {
    static final Path SCREENSHOTS = Paths.get("target", "screenshots");

    private final Playwright playwright;
    final com.microsoft.playwright.Browser chromium;

    Browser() {
        playwright = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        chromium = playwright.chromium().launch(new BrowserType.LaunchOptions()
                .setExecutablePath(Paths.get(System.getProperty("chromium.path", "/usr/bin/chromium")))
                .setHeadless(true)
                .setArgs(List.of("--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic")));
    }

    /** A fresh context (like a fresh browser profile) at 1280x800 that may use the clipboard. */
    BrowserContext newContext(String baseUrl) {
        BrowserContext context = chromium.newContext(new com.microsoft.playwright.Browser.NewContextOptions()
                .setViewportSize(1280, 800).setBaseURL(baseUrl));
        context.grantPermissions(List.of("clipboard-read", "clipboard-write"), new BrowserContext.GrantPermissionsOptions().setOrigin(baseUrl));
        return context;
    }

    /** Opens a page that records console errors and uncaught exceptions into errors. */
    static Page watched(BrowserContext context, List<String> errors) {
        Page page = context.newPage();
        page.onConsoleMessage(m -> {
            if ("error".equals(m.type())) {
                errors.add("console: " + m.text());
            }
        });
        page.onPageError(e -> errors.add("page error: " + e));
        page.setDefaultTimeout(20_000);
        return page;
    }

    static List<String> errors() {
        return new ArrayList<>();
    }

    static void screenshot(Page page, String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        page.evaluate("() => window.scrollTo(0, 0)");
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve(name)).setFullPage(false));
    }

    @Override
    public void close() {
        chromium.close();
        playwright.close();
    }
}
