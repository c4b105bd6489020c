"""What the tests share: the repository, the corpus beside it, and the pdnkit binary whose
outputs the package's are compared with."""

import csv
import io
import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
# (the shared folder beside the repository: the corpus and the rules' reference cases)
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"
RULES_CASES = SHARED / "rules-cases"


def binary() -> Path:
    """The pdnkit command line: $PDNKIT_BIN, else the release build."""
    return Path(os.environ.get("PDNKIT_BIN", REPO / "target" / "release" / "pdnkit"))


@pytest.fixture(scope="session")
def pdnkit_cli():
    """Runs the command line and gives its standard output; skipped (failed under CI)
    when it is not built."""
    exe = binary()
    if not exe.exists():
        message = f"{exe} is not built (cargo build --release)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)

    def run(*args: str) -> str:
        done = subprocess.run(
            [str(exe), *args], capture_output=True, text=True, encoding="utf-8", cwd=REPO
        )
        assert done.returncode in (0, 1, 2), done.stderr
        return done.stdout

    return run


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The real files of ../shared/corpus, skipped (visibly) when absent."""
    if not CORPUS.is_dir():
        pytest.skip(f"{CORPUS} is absent: the corpus tests are not run")
    return CORPUS


def jsonl(text: str) -> list:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def csv_rows(text: str) -> list:
    return list(csv.DictReader(io.StringIO(text)))
