"""The runtime: what a compile produces and how it is kept, below the compiler that makes it.

* :mod:`.model`: :class:`~.model.CompiledModel` (call it with numpy arrays, ``save`` it) and its
  :class:`~.model.IOSpec`; :func:`~.model.load` (``ge_mlir.load``) reads a saved one back;
* :mod:`.artefact`: the offline artefact's file format (a ``.gem`` zip: manifest, the target's
  native files, stage IR);
* :mod:`.cache`: the compile cache, artefacts keyed by what a compile depends on;
* :mod:`.stages`: every target's stages (the ``compile_to`` names).

The compiler imports this package and never the reverse, so loading and running a saved model
needs no front end, optimizer or lowering (docs/artefacts.md).
"""
