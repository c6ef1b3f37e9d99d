package org.jfrworkbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jfrworkbench.model.Kind;
import org.junit.jupiter.api.Test;

class MethodStatsTest {
    @Test
    void aSampleCountsOnceForEachMethodOnItsStackEvenUnderRecursion() {
        ProfileData d = new HandMade()
                .sample(Kind.CPU, 1, "main", 1, "m.Main.run;m.R.r;m.R.r;m.R.r")
                .sample(Kind.CPU, 2, "main", 1, "m.Main.run;m.R.r;m.X.x;m.R.r")
                .sample(Kind.CPU, 3, "main", 1, "m.Main.run;m.X.x")
                .sample(Kind.CPU, 4, "main", 1, "m.Main.run")
                .data();
        MethodStats s = MethodStats.compute(d, Selection.of(Kind.CPU));
        int r = s.find("m.R.r");
        int x = s.find("m.X.x");
        int main = s.find("m.Main.run");
        assertEquals(2, s.total()[r]);
        assertEquals(2, s.self()[r]);
        assertEquals(2, s.totalSamples()[r]);
        assertEquals(2, s.total()[x]);
        assertEquals(1, s.self()[x]);
        assertEquals(4, s.total()[main]);
        assertEquals(1, s.self()[main]);
        assertEquals(4, s.totalWeight());
    }

    @Test
    void aTimeRangeCountsItsSamplesOnly() {
        ProfileData d = new HandMade()
                .sample(Kind.CPU, 1, "main", 1, "m.Main.run;m.A.a")
                .sample(Kind.CPU, 500, "main", 1, "m.Main.run;m.B.b")
                .data();
        MethodStats s = MethodStats.compute(d, Selection.millis(Kind.CPU, 100L, null, null, false));
        assertEquals(0, s.total()[s.find("m.A.a")]);
        assertEquals(1, s.total()[s.find("m.B.b")]);
    }
}
