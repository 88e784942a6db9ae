"""The die reader's training: its crops (synthetic, rendered, real, crowded, hard
negatives), its net, the loop, the 8-bit copy and the command line."""
