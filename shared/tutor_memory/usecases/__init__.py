"""The use cases: one module each, every one built over a ``Ports`` bundle (``ports.py``) and
wired by ``bootstrap`` (the only door the entry points use). None imports an entry point, an
adapter or a cloud SDK; none reaches into another's internals."""
