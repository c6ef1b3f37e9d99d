package org.jfrworkbench.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;
import org.jfrworkbench.testkit.Recordings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /frame-states}: the thread states of the samples through one frame of the flame graph, checked against the
 * collapsed export asked for one state at a time (the samples of its stacks through the frame).
 */
class FrameStatesApiTest {
    @TempDir
    static Path data;
    static TestServer server;
    static String id;
    static List<String> states;

    @BeforeAll
    static void start() throws Exception {
        server = new TestServer(data, 256 << 20, null);
        Path file = Recordings.asyncProfilerWallBesideJdk();
        id = server.upload(file);
        states = new ArrayList<>();
        server.get("/api/recordings/" + id).json().get("kinds").get("wall").get("states").fieldNames().forEachRemaining(states::add);
        assertTrue(states.size() >= 2, "the recording's wall samples have states: " + states);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    /** A collapsed line's frames, as written (escaped), and its weight. */
    record Line(List<String> frames, long weight) {
    }

    static List<Line> collapsed(String query) throws Exception {
        TestServer.Reply r = server.get("/api/recordings/" + id + "/collapsed?" + query);
        assertEquals(200, r.status(), r.body());
        List<Line> out = new ArrayList<>();
        for (String line : r.body().split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            String stack = line.substring(0, space);
            List<String> frames = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < stack.length(); i++) {
                if (stack.charAt(i) == ';' && backslashesBefore(stack, i) % 2 == 0) {
                    frames.add(stack.substring(start, i));
                    start = i + 1;
                }
            }
            frames.add(stack.substring(start));
            out.add(new Line(frames, Long.parseLong(line.substring(space + 1))));
        }
        return out;
    }

    static int backslashesBefore(String s, int i) {
        int n = 0;
        for (int j = i - 1; j >= 0 && s.charAt(j) == '\\'; j--) {
            n++;
        }
        return n;
    }

    /**
     * Per state, the samples and weight through the frame: the weight summed from the collapsed lines through it, the
     * raw sample count (a wall sample may weigh several) from the flame graph's node at the frame's path.
     */
    static Map<String, long[]> expected(String selection, List<String> frame, boolean leafFirst) throws Exception {
        List<String> suffix = reversed(frame);
        Predicate<List<String>> through = leafFirst
                ? f -> f.size() >= suffix.size() && f.subList(f.size() - suffix.size(), f.size()).equals(suffix)
                : f -> f.size() >= frame.size() && f.subList(0, frame.size()).equals(frame);
        Map<String, long[]> out = new TreeMap<>();
        for (String state : states) {
            long weight = collapsed(selection + "&states=" + state).stream()
                    .filter(l -> through.test(l.frames())).mapToLong(Line::weight).sum();
            long samples = flameSamples(selection + "&states=" + state + (leafFirst ? "&invert=true" : ""), frame);
            if (samples > 0) {
                out.put(state, new long[] {samples, weight});
            }
        }
        return out;
    }

    /** The samples of the flame graph's node at path (escaped names from the root), 0 when it has none. */
    static long flameSamples(String query, List<String> path) throws Exception {
        JsonNode g = server.get("/api/recordings/" + id + "/flame?" + query).json();
        JsonNode names = g.get("names");
        JsonNode nodes = g.get("nodes");
        int node = 0;
        for (String wanted : path) {
            int found = -1;
            for (int c = node + 1; c < node + nodes.get("count").get(node).asInt(); c += nodes.get("count").get(c).asInt()) {
                String name = org.jfrworkbench.importer.CollapsedFormat.escapeFrame(names.get(nodes.get("name").get(c).asInt()).asText());
                if (name.equals(wanted)) {
                    found = c;
                    break;
                }
            }
            if (found < 0) {
                return 0;
            }
            node = found;
        }
        return nodes.get("samples").get(node).asLong();
    }

    static JsonNode frameStates(String query) throws Exception {
        TestServer.Reply r = server.get("/api/recordings/" + id + "/frame-states?" + query);
        assertEquals(200, r.status(), r.body());
        return r.json();
    }

    static Map<String, long[]> split(JsonNode answer) {
        Map<String, long[]> out = new TreeMap<>();
        for (JsonNode s : answer.get("states")) {
            out.put(s.get("state").asText(), new long[] {s.get("samples").asLong(), s.get("weight").asLong()});
        }
        return out;
    }

    static void assertSplit(Map<String, long[]> expected, JsonNode answer) {
        Map<String, String> want = new TreeMap<>();
        expected.forEach((k, v) -> want.put(k, v[0] + "/" + v[1]));
        Map<String, String> got = new TreeMap<>();
        split(answer).forEach((k, v) -> got.put(k, v[0] + "/" + v[1]));
        assertEquals(want, got, answer.toString());
        assertEquals(expected.values().stream().mapToLong(v -> v[0]).sum(), answer.get("samples").asLong(), answer.toString());
        long last = Long.MAX_VALUE;
        for (JsonNode s : answer.get("states")) {
            assertTrue(s.get("samples").asLong() <= last, "most samples first: " + answer);
            last = s.get("samples").asLong();
        }
    }

    /** The prefix (of 1 to 4 frames; suffix when leafFirst) that the most states share, the heaviest of those. */
    static List<String> frameInSeveralStates(String selection, boolean leafFirst) throws Exception {
        Map<List<String>, Map<String, Long>> byPath = new HashMap<>();
        for (String state : states) {
            for (Line l : collapsed(selection + "&states=" + state)) {
                List<String> f = l.frames();
                for (int k = 1; k <= Math.min(4, f.size()); k++) {
                    List<String> path = leafFirst ? reversed(f.subList(f.size() - k, f.size())) : f.subList(0, k);
                    byPath.computeIfAbsent(List.copyOf(path), p -> new HashMap<>()).merge(state, l.weight(), Long::sum);
                }
            }
        }
        List<String> best = null;
        long bestScore = -1;
        for (var e : byPath.entrySet()) {
            // deeper than the first frame where possible, so the answer is not simply the whole selection
            long score = e.getValue().size() * 1_000_000_000L + Math.min(e.getKey().size(), 2) * 100_000_000L
                    + e.getValue().values().stream().mapToLong(Long::longValue).min().orElse(0);
            if (score > bestScore) {
                bestScore = score;
                best = e.getKey();
            }
        }
        assertTrue(best != null && byPath.get(best).size() >= 2, "a frame with samples in two states: " + byPath.get(best));
        return best;
    }

    static List<String> reversed(List<String> l) {
        List<String> r = new ArrayList<>(l);
        java.util.Collections.reverse(r);
        return r;
    }

    static String path(List<String> frames) {
        return URLEncoder.encode(String.join(";", frames), StandardCharsets.UTF_8);
    }

    @Test
    void aFramesSamplesDivideAmongStatesAsTheCollapsedStacksThroughItDo() throws Exception {
        List<String> frame = frameInSeveralStates("kind=wall", false);
        JsonNode answer = frameStates("kind=wall&path=" + path(frame));
        assertEquals(String.join(";", frame), answer.get("path").asText());
        assertSplit(expected("kind=wall", frame, false), answer);
        assertTrue(split(answer).size() >= 2, answer.toString());
    }

    @Test
    void theSplitFollowsTheViewsTimeRangeAndStates() throws Exception {
        JsonNode rec = server.get("/api/recordings/" + id).json();
        long half = rec.get("durationMillis").asLong() / 2;
        String selection = "kind=wall&from=" + half;
        List<String> frame = frameInSeveralStates(selection, false);
        assertSplit(expected(selection, frame, false), frameStates(selection + "&path=" + path(frame)));

        // one state shown: the split holds that state alone, as the frame's width does
        String state = states.get(0);
        Map<String, long[]> one = new TreeMap<>(expected(selection, frame, false));
        one.keySet().retainAll(List.of(state));
        assertSplit(one, frameStates(selection + "&states=" + state + "&path=" + path(frame)));

        // the root: every selected sample
        Map<String, long[]> all = expected(selection, List.of(), false);
        assertSplit(all, frameStates(selection));
    }

    @Test
    void inTheInvertedGraphAPathRunsFromTheLeafToItsCallers() throws Exception {
        List<String> frame = frameInSeveralStates("kind=wall", true);
        JsonNode answer = frameStates("kind=wall&invert=true&path=" + path(frame));
        assertTrue(answer.get("inverted").asBoolean());
        assertSplit(expected("kind=wall", frame, true), answer);
    }

    @Test
    void aPathNotInTheRecordingIsABadRequest() throws Exception {
        TestServer.Reply unknownName = server.get("/api/recordings/" + id + "/frame-states?kind=wall&path=no.such.Frame");
        assertEquals(400, unknownName.status(), unknownName.body());
        assertTrue(unknownName.json().get("error").asText().contains("no.such.Frame"), unknownName.body());
        // both names exist, but not one under the other
        List<Line> lines = collapsed("kind=wall");
        String root = lines.get(0).frames().get(0);
        String leaf = lines.stream().filter(l -> l.frames().size() > 2).findFirst().orElseThrow().frames().getLast();
        TestServer.Reply notAPath = server.get("/api/recordings/" + id + "/frame-states?kind=wall&path="
                + path(List.of(leaf, root)));
        assertEquals(400, notAPath.status(), notAPath.body());
        assertEquals(400, server.get("/api/recordings/" + id + "/frame-states?kind=wall&states=STATE_NOPE").status());
    }
}
