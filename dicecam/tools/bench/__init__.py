"""``dicecam bench TARGET``: one module per benchmark (see ``dicecam.commands.bench``)."""
