package org.jfrworkbench.cli;

import java.io.IOException;
import java.nio.file.NoSuchFileException;

import org.jfrworkbench.importer.InvalidRecordingException;
import picocli.CommandLine.Model.CommandSpec;

/** Maps a command's failures to one line on stderr and an exit code: 1 for unusable input, 2 for bad arguments. */
final class CliErrors {
    static final int BAD_INPUT = 1;
    static final int BAD_ARGUMENTS = 2;

    interface Action {
        void run() throws IOException;
    }

    private CliErrors() {
    }

    static int guard(CommandSpec spec, Action action) {
        var err = spec.commandLine().getErr();
        try {
            action.run();
            return 0;
        } catch (InvalidRecordingException e) {
            err.println("error: invalid recording: " + e.getMessage());
            return BAD_INPUT;
        } catch (NoSuchFileException e) {
            err.println("error: no such file: " + e.getFile());
            return BAD_INPUT;
        } catch (IOException e) {
            err.println("error: cannot read input: " + e.getMessage());
            return BAD_INPUT;
        } catch (IllegalArgumentException | org.jfrworkbench.analysis.BadQueryException e) {
            err.println("error: " + e.getMessage());
            return BAD_ARGUMENTS;
        } finally {
            err.flush();
        }
    }
}
