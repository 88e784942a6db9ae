"""Benchmarks of what things cost: the reader's time, the model, the browser's update,
many tablets, a still table and learning beside the live view."""
