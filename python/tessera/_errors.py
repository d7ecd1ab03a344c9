"""tessera's exceptions: every refusal of the algebra and every malformed text is one of these."""


class Error(ValueError):
    """A tessera error. ``message`` says what is wrong; where it is known, ``text`` is the
    input and ``column`` (1-based) the place in it, or ``argument`` (1-based) the argument of
    the call it is about. ``str(e)`` is the message followed, for text, by the input and a
    caret under the column, as ``tessera eval`` prints them."""

    def __init__(self, message, text=None, column=None, argument=None, display=None):
        super().__init__(display if display is not None else message)
        self.message = message
        self.text = text
        self.column = column
        self.argument = argument


class ParseError(Error):
    """Text that is not an expression of the notation (docs/notation.md), or names an
    unknown function."""


class InadmissibleError(Error):
    """Arguments the algebra refuses: the message names the rule (CuTe's admissibility
    condition, or what kind of argument was expected)."""


class IntegerOverflowError(InadmissibleError, OverflowError):
    """An integer, given or computed, that does not fit in 64 bits: never wrapped."""


class GemmError(ValueError):
    """Arguments the GEMM host API refuses (tessera::kernels::check_arguments / can_implement,
    or the launch's device checks): ``status`` is the C++ status's name ("misaligned operand",
    "unsupported", "invalid leading dimension", ...), ``message`` its reason, ``str(e)`` both."""

    def __init__(self, status, message):
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


# The statuses of a C++ launch that are the machine's, not the arguments' (RuntimeError).
RUNTIME_STATUSES = ("no CUDA device", "launch failed")


def raise_status(caller, error, status, message):
    """Nothing for a C++ success (status ""); RuntimeError for the machine's statuses; else
    ``error(status, message)`` (GemmError, AttentionError): the arguments were refused."""
    if not status:
        return
    if status in RUNTIME_STATUSES:
        raise RuntimeError(f"{caller}: {status}: {message}")
    raise error(status, message)


class AttentionError(ValueError):
    """Arguments the attention host API refuses (tessera::kernels::check_arguments /
    can_implement for AttentionArguments, or the launch's device checks): ``status`` is the
    C++ status's name ("invalid argument", "unsupported", "misaligned operand", ...),
    ``message`` its reason, ``str(e)`` both."""

    def __init__(self, status, message):
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message
