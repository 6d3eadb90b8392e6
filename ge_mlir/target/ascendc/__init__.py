"""Ascend C target: the ``ascendc`` dialect emitted as an Ascend C project (``emit``), and a runner that
builds such a project against the clean-room CPU shim (``shim_runner``)."""
