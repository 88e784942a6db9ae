"""The table's game session: the active game driven by taps and settled rolls, the commands
tablets send it, what tablets are sent, the demo table that plays the game, and the colours
learnt from a confirmed roll."""
