"""Training data rendered with Blender (``bpy``), in an environment of its own."""
