"""Learning a table's own models: the shipped ONNX files as trainable numpy networks."""
