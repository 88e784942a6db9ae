"""Reading a die's value from its crop: the ONNX reader, its second, wider and rescaled looks
at unsure dice, and a taught table's reader."""
