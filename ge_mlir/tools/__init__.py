"""Command-line tools: ge-opt."""
