package org.jfrworkbench.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.jfrworkbench.analysis.Collapse;
import org.jfrworkbench.analysis.ProfileData;
import org.jfrworkbench.analysis.Selection;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code workbench collapse FILE --kind K}: collapsed stacks ({@code root;...;leaf weight}) of one kind, the same
 * selection and text as {@code GET /api/recordings/{id}/collapsed}.
 */
@Command(name = "collapse", mixinStandardHelpOptions = true,
        description = "Print collapsed stacks (root;...;leaf weight), one line per distinct stack.")
public final class CollapseCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "the recording")
    Path file;

    @Option(names = "--kind", required = true, paramLabel = "KIND",
            description = "cpu, wall, alloc, live, lock, nativemem or leak (native memory never freed)")
    String kind;

    @Option(names = "--from", paramLabel = "MS", description = "start of the window (included), ms since the recording start")
    Long from;

    @Option(names = "--to", paramLabel = "MS", description = "end of the window (excluded), ms since the recording start")
    Long to;

    @Option(names = "--states", split = ",", paramLabel = "STATE",
            description = "only samples in these thread states as recorded, e.g. STATE_RUNNABLE,STATE_SLEEPING")
    java.util.Set<String> states;

    @Option(names = "--source", paramLabel = "SOURCE",
            description = "the sampler whose samples to print (see summary's sources); default: the kind's default source")
    String source;

    @Option(names = "--weight", paramLabel = "WEIGHT",
            description = "samples: count samples instead of weighing them in the kind's unit (bytes, ns)")
    String weight;

    @Option(names = "--lines", description = "append :line to frames")
    boolean lines;

    @Option(names = "--signatures", description = "append the method descriptor to frames")
    boolean signatures;

    @Override
    public Integer call() {
        return CliErrors.guard(spec, () -> {
            Kind k = Kind.parse(kind);
            if (from != null && from < 0 || to != null && to < 0) {
                throw new IllegalArgumentException("--from and --to are milliseconds since the recording start, not negative");
            }
            if (weight != null && !weight.equals("samples") && !weight.equals(k.unit())) {
                throw new IllegalArgumentException("--weight must be samples or " + k.unit() + " for kind " + k.id());
            }
            Selection selection = Selection.millis(k, from, to, null, "samples".equals(weight) && !k.unit().equals("samples"))
                    .with(states, source);
            Profile profile = new Importer().read(file, k);
            selection.check(profile);
            PrintWriter out = spec.commandLine().getOut();
            Collapse.write(new ProfileData(file.getFileName().toString(), profile), selection,
                    new FrameNaming(signatures, lines), out);
            out.flush();
        });
    }
}
