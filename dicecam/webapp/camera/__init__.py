"""The live camera: which source the web app reads (``source``), and the one background reader
that pushes frames and settled rolls (``live``), reading the source on a thread of its own
(``pump``)."""
