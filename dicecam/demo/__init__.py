"""The bundled demo: rendered rolls of each built-in dice set, so dicecam runs with no camera."""
