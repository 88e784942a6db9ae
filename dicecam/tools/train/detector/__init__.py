"""The die detector's training: its net, the loop on synthetic tables and copy-pasted real
dice, weight soups and the command line."""
