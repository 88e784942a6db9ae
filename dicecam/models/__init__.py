"""The shipped ONNX models and their model cards (training code: ``dicecam.tools.train``)."""
