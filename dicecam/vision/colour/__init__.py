"""A die's colour from its crop: the colour stage, fitting a profile, pixel medians."""
