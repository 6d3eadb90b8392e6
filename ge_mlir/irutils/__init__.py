"""IR utilities every layer uses: attribute readers, constants as numpy, ge op structure,
pattern helpers, element types, functions and I/O names."""
