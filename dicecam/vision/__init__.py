"""Camera to readings: source -> detect -> read -> track (settle) -> zones."""
