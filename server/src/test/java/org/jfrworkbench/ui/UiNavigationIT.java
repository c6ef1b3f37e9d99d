package org.jfrworkbench.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.ElementHandle;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Route;
import org.jfrworkbench.testkit.Browser;
import org.jfrworkbench.testkit.TestRecordings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Pages the user leaves release what they registered: going round every page many times leaves nothing behind. */
class UiNavigationIT extends BrowserTest {
    /**
     * Counts, in the page under test only, the elements resize observers watch and the listeners the UI's scripts
     * (js/, webjars/) add to window and document, by wrapping ResizeObserver and EventTarget before the page's code
     * runs. {once} listeners are counted until removed explicitly; the UI adds none to window or document.
     */
    static final String COUNT_REGISTRATIONS = """
            (() => {
              let observed = 0;
              const listeners = [];
              const Native = window.ResizeObserver;
              window.ResizeObserver = class extends Native {
                watched = new Set();
                observe(target, options) {
                  if (!this.watched.has(target)) { this.watched.add(target); observed++; }
                  return super.observe(target, options);
                }
                unobserve(target) {
                  if (this.watched.delete(target)) observed--;
                  return super.unobserve(target);
                }
                disconnect() {
                  observed -= this.watched.size;
                  this.watched.clear();
                  return super.disconnect();
                }
              };
              const add = EventTarget.prototype.addEventListener, remove = EventTarget.prototype.removeEventListener;
              const fromUi = () => /\\/(js|webjars)\\//.test(new Error().stack);
              const capture = options => typeof options === 'boolean' ? options : !!(options && options.capture);
              const find = (target, type, listener, options) => listeners.findIndex(l => l.target === target
                && l.type === type && l.listener === listener && l.capture === capture(options));
              EventTarget.prototype.addEventListener = function (type, listener, options) {
                if ((this === window || this === document) && listener && fromUi() && find(this, type, listener, options) < 0) {
                  listeners.push({ target: this, type, listener, capture: capture(options) });
                }
                return add.call(this, type, listener, options);
              };
              EventTarget.prototype.removeEventListener = function (type, listener, options) {
                const at = find(this, type, listener, options);
                if (at >= 0) listeners.splice(at, 1);
                return remove.call(this, type, listener, options);
              };
              window.registrations = () => `${observed} observed elements, window/document listeners: `
                + listeners.map(l => (l.target === window ? 'window ' : 'document ') + l.type).sort().join(', ');
            })()""";


    @BeforeAll
    static void start() throws Exception {
        upload(TestRecordings.record(temp.resolve("checkout-maps.jfr"), true, 2500));
        upload(TestRecordings.record(temp.resolve("checkout-sort.jfr"), false, 800, false));
    }

    private static void upload(Path file) throws Exception {
        UiServer.upload(server, file, null);
    }

    @Test
    void goingRoundEveryPageManyTimesLeavesNoObserverOrListenerOfThePagesLeft() {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            context.addInitScript(COUNT_REGISTRATIONS);
            Page page = Browser.watched(context, errors);
            page.navigate("/");
            page.waitForFunction("() => document.querySelectorAll('#recordings tbody tr').length === 2");
            String list = registrations(page);

            String recording = null, heap = null, diff = null;
            for (int round = 0; round < 4; round++) {
                page.locator("#recordings a.title-link", new Page.LocatorOptions().setHasText("checkout-maps")).click();
                page.waitForSelector(".flame-canvas[data-drawn]");
                page.waitForSelector("#timeline svg .bars"); // the parts loaded after the first paint are in place
                page.waitForSelector("#hot-methods .vbody .vrow");
                page.waitForSelector("#compare-button");
                recording = same(recording, registrations(page), "recording page, round " + round);

                page.click("#heap-link");
                page.waitForSelector("#gc-chart .gc");
                page.waitForSelector("#live-summary, .message");
                if (page.locator("#live-summary").count() > 0) {
                    // another GC: the page replaces its live-heap flame graph
                    ElementHandle shown = page.querySelector("#live-summary");
                    assertTrue(page.locator("#gc-chart .gc").count() >= 2);
                    page.selectOption("#gc-select", "0");
                    page.waitForFunction("old => !old.isConnected", shown);
                    // the first GC may have no live sample known alive at it: the page says so instead of a graph
                    page.waitForSelector("#live-summary, .message");
                    if (page.locator("#live-summary").count() > 0) {
                        page.waitForSelector(".flame-canvas[data-drawn]");
                    }
                }
                heap = same(heap, registrations(page), "heap page, round " + round);

                page.click("#home");
                page.waitForFunction("() => document.querySelectorAll('#recordings input.pick').length === 2");
                page.locator("#recordings input.pick").nth(0).check();
                page.locator("#recordings input.pick").nth(1).check();
                page.click("#compare");
                page.waitForSelector(".flame-canvas[data-drawn]");
                page.waitForSelector("#changes tbody tr");
                diff = same(diff, registrations(page), "diff page, round " + round);

                page.click("#home");
                page.waitForSelector("#recordings tbody tr");
                assertEquals(list, registrations(page), "recordings page after round " + round);
            }

            // the graphs, timelines and charts left behind do not answer a resize
            page.setViewportSize(900, 700);
            page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))");
            page.waitForSelector("#recordings tbody tr");
            assertEquals(list, registrations(page));
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void aPageLeftWhileItsFlameGraphLoadsBuildsNothingAndKeepsNothing() {
        List<String> errors = Browser.errors();
        try (BrowserContext context = browser.newContext(server.baseUrl())) {
            context.addInitScript(COUNT_REGISTRATIONS);
            Page page = Browser.watched(context, errors);
            page.navigate("/");
            page.waitForSelector("#recordings tbody tr");
            String list = registrations(page);

            List<Route> held = new ArrayList<>();
            page.route("**/flame?**", held::add);
            page.locator("#recordings a.title-link", new Page.LocatorOptions().setHasText("checkout-maps")).click();
            page.waitForFunction("() => document.querySelector('#flame-status')?.textContent.startsWith('Loading')");
            page.click("#home");
            page.waitForSelector("#recordings tbody tr");
            page.unroute("**/flame?**");
            held.forEach(Route::resume);
            // the page left behind ran on as far as loading its extras, which it would build after the graph
            page.waitForFunction("() => performance.getEntriesByType('resource').some(e => e.name.endsWith('/components/comparepicker.js'))");
            page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))");

            assertEquals(0, ((Number) page.evaluate("() => performance.getEntriesByName('workbench:flame-tree').length")).intValue(),
                    "no flame tree is built for a page that was left");
            assertEquals(list, registrations(page));
        }
        assertEquals(List.of(), errors);
    }

    /** The first figures seen, after checking later ones against them. */
    private static String same(String first, String now, String where) {
        if (first != null) {
            assertEquals(first, now, where);
        }
        return now;
    }

    private static String registrations(Page page) {
        return (String) page.evaluate("() => registrations()");
    }
}
