def _text(x):
    if x is None:
        return "_"
    if isinstance(x, tuple):
        return "(" + ",".join(_text(e) for e in x) + ")"
    return str(x)


class IntTuple(tuple):
    """A tuple of integers (nested) as the algebra gives it: a plain ``tuple`` whose ``str``
    is tessera's notation, ``(4,(2,2))``, as ``tessera eval`` prints it (``None``, CuTe DSL's
    underscore, prints ``_``)."""

    __slots__ = ()

    def __str__(self):
        return _text(self)
