"""docs/python.md's examples are run as they are written (a doctest of the page)."""
import doctest
import os


def test_python_md_examples():
    page = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "python.md")
    result = doctest.testfile(page, module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 40
    assert result.failed == 0
