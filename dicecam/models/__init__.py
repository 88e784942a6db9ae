"""The shipped ONNX models, their training code and their model cards."""
