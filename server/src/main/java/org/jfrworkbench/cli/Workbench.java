package org.jfrworkbench.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The one command line: {@code workbench summary|collapse|serve|import}. */
@Command(name = "workbench", mixinStandardHelpOptions = true, version = "JFR Workbench 0.1.0",
        description = "Upload, search, diff and explain Java Flight Recorder recordings.",
        subcommands = {SummaryCommand.class, CollapseCommand.class, ServeCommand.class, ImportCommand.class})
public final class Workbench implements Runnable {
    @Override
    public void run() {
        new CommandLine(this).usage(System.err);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new Workbench()).execute(args));
    }
}
