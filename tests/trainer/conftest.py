import pytest

from tests.tools.harness import ToolHarness
from tools.runner import ToolRunner


@pytest.fixture
def tools(db) -> ToolHarness:
    return ToolHarness(ToolRunner(db))
