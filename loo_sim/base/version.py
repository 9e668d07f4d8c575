"""The package version, read from the installed distribution (one source: pyproject.toml)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("loo-sim")
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0+unknown"
