"""Finding dice: the ONNX detector, the boxes a game's count or the empty table or a tilted
camera's side faces rule out."""
