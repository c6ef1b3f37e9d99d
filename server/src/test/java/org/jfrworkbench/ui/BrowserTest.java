package org.jfrworkbench.ui;

import java.nio.file.Path;

import org.jfrworkbench.server.http.RunningServer;
import org.jfrworkbench.testkit.Browser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every browser test class starts with: the real server in process over a data directory of its own (under
 * {@link #temp}) and one Chromium. JUnit runs these before a class's own {@code @BeforeAll} (which uploads its
 * recordings) and closes them after its {@code @AfterAll}. The test classes run one after another, so the fields are
 * the running class's; they are cleared after it, so a class whose start fails never closes another's browser.
 */
abstract class BrowserTest {
    @TempDir
    static Path temp;
    static RunningServer server;
    static Browser browser;

    @BeforeAll
    static void startServerAndBrowser() throws Exception {
        server = UiServer.start(temp.resolve("data"));
        browser = new Browser();
    }

    @AfterAll
    static void stopServerAndBrowser() {
        try {
            UiServer.stop(browser, server);
        } finally {
            browser = null;
            server = null;
        }
    }
}
