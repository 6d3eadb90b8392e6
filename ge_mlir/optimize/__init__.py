"""Graph optimization passes on the ge dialect (one pass per module)."""
