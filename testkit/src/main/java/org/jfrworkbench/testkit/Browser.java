package org.jfrworkbench.testkit;

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
public final class Browser implements AutoCloseable {
    public static final Path SCREENSHOTS = Paths.get("target", "screenshots");

    /**
     * The number of frames of the page's (unzoomed, whole-range) view at least 0.35 px wide, counted from the JSON
     * form of the tree; the page draws from the binary form.
     */
    public static final String DRAWABLE_FRAMES = """
            async () => {
              const p = new URLSearchParams(location.search);
              const kind = document.querySelector('.tab[aria-selected=true]').dataset.kind;
              const r = await fetch('/api/recordings/' + p.get('id') + '/flame?kind=' + kind);
              const n = (await r.json()).nodes;
              const scale = parseFloat(document.querySelector('.flame-canvas').style.width) / n.total[0];
              let drawable = 0;
              for (let i = 0; i < n.name.length;) {
                if (n.total[i] * scale < 0.35) { i += n.count[i]; continue; }
                drawable++;
                i++;
              }
              return String(drawable);
            }""";

    private final Playwright playwright;
    public final com.microsoft.playwright.Browser chromium;

    public Browser() {
        playwright = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        chromium = playwright.chromium().launch(new BrowserType.LaunchOptions()
                .setExecutablePath(Paths.get(System.getProperty("chromium.path", "/usr/bin/chromium")))
                .setHeadless(true)
                .setArgs(List.of("--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                        // headless Chromium opens a window per context and preloads the browser's own omnibox popup
                        // page into it: a renderer busy for some 0.4 s of CPU while a test's or benchmark's page loads
                        "--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup,PreloadTopChromeWebUI")));
    }

    /** A fresh context (like a fresh browser profile) at 1280x800 that may use the clipboard. */
    public BrowserContext newContext(String baseUrl) {
        BrowserContext context = chromium.newContext(new com.microsoft.playwright.Browser.NewContextOptions()
                .setViewportSize(1280, 800).setBaseURL(baseUrl));
        context.grantPermissions(List.of("clipboard-read", "clipboard-write"), new BrowserContext.GrantPermissionsOptions().setOrigin(baseUrl));
        return context;
    }

    /** Opens a page that records console errors and uncaught exceptions into errors. */
    public static Page watched(BrowserContext context, List<String> errors) {
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

    /**
     * Opens link in a watched page of context while the requests matching pattern (a Playwright glob) are held back:
     * once ready has seen what the page does without them, and at least one was asked for, they go on. For ordering
     * what arrives first (a page's module, its data) without waiting for any time.
     */
    public static Page openHolding(BrowserContext context, List<String> errors, String link, String pattern,
                                   java.util.function.Consumer<Page> ready) {
        Page page = watched(context, errors);
        List<com.microsoft.playwright.Route> held = new java.util.concurrent.CopyOnWriteArrayList<>();
        page.route(pattern, held::add);
        page.navigate(link, new Page.NavigateOptions().setWaitUntil(com.microsoft.playwright.options.WaitUntilState.COMMIT));
        ready.accept(page);
        page.waitForCondition(() -> !held.isEmpty());
        page.unroute(pattern);
        held.forEach(com.microsoft.playwright.Route::resume);
        return page;
    }

    public static List<String> errors() {
        return new ArrayList<>();
    }

    public static void screenshot(Page page, String name) {
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
