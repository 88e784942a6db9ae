"""One module per ``dicecam`` subcommand (see ``dicecam.cli``)."""
