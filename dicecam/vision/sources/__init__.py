"""Where frames come from: cameras, files, folders, the rendered demo; the checks that drop
unusable frames; a user's spec of a source."""
