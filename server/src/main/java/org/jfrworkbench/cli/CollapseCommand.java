package org.jfrworkbench.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

import org.jfrworkbench.analysis.Collapse;
import org.jfrworkbench.importer.Importer;
import org.jfrworkbench.model.FrameNaming;
import org.jfrworkbench.model.Kind;
import org.jfrworkbench.model.Profile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code workbench collapse FILE --kind K}: collapsed stacks ({@code root;...;leaf weight}) of one kind. */
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

    @Option(names = "--from", paramLabel = "MS", description = "start of the window, ms since the recording start")
    Long from;

    @Option(names = "--to", paramLabel = "MS", description = "end of the window (exclusive), ms since the recording start")
    Long to;

    @Option(names = "--states", split = ",", paramLabel = "STATE",
            description = "only samples in these thread states as recorded, e.g. STATE_RUNNABLE,STATE_SLEEPING")
    java.util.Set<String> states;

    @Option(names = "--source", paramLabel = "SOURCE",
            description = "the sampler whose samples to print (see summary's sources); default: the kind's default source")
    String source;

    @Option(names = "--lines", description = "append :line to frames")
    boolean lines;

    @Option(names = "--signatures", description = "append the method descriptor to frames")
    boolean signatures;

    @Override
    public Integer call() {
        return CliErrors.guard(spec, () -> {
            Kind k = Kind.parse(kind);
            Profile profile = new Importer().read(file, k);
            Map<String, Long> stacks = Collapse.of(profile, k, from, to, new FrameNaming(signatures, lines), states, source);
            PrintWriter out = spec.commandLine().getOut();
            StringBuilder line = new StringBuilder();
            for (Map.Entry<String, Long> e : stacks.entrySet()) {
                line.setLength(0);
                out.append(line.append(e.getKey()).append(' ').append(e.getValue()).append('\n'));
            }
            out.flush();
        });
    }
}
