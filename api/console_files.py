"""The console's files (HTML, scripts, styles, locales) served from memory, read again when they change on disk.

Litestar's local file system hands every step of a file response to a worker thread: the stat, the symlink check,
the open, the read and the close, five thread hops for a 10 KB script. A console page loads about 25 files,
and in the test suite serving them was an eighth of the app's CPU. Here a stat runs inline (a local package
directory answers in microseconds) and a file's bytes are kept until its modification time or size changes,
so an edited script is served as soon as it is saved. A path no file can have (a NUL byte, a name too long for
the file system) is a 404, where Litestar's local file system answered 500. What is served, and where (html mode, the 404, HEAD,
ETag and Last-Modified), is still Litestar's static files router's decision; this only answers its questions.
"""

from __future__ import annotations

import io
import os
from stat import S_ISDIR
from types import TracebackType
from typing import Any

from litestar.types import PathType
from litestar.types.file_types import FileInfo


class _Opened:
    """An open file's bytes, as the file response reads them (`async with`, `read(size)`)."""

    def __init__(self, content: bytes) -> None:
        self._buffer = io.BytesIO(content)

    async def __aenter__(self) -> _Opened:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        self._buffer.close()

    async def read(self, size: int = -1) -> bytes:
        return self._buffer.read(size)


class ConsoleFiles:
    """A `FileSystemProtocol` for Litestar's static files router over local directories that rarely change."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[int, int, bytes]] = {}  # path -> (mtime_ns, size, bytes)

    async def info(self, path: PathType, **kwargs: Any) -> FileInfo:
        return self._info(str(path))

    async def open(self, file: PathType, mode: str = "rb", buffering: int = -1) -> Any:
        if mode != "rb":
            raise PermissionError("the console's files are served read-only")
        return _Opened(self._content(str(file)))

    # These two run inline, on the event loop, on purpose (the module's docstring says why).
    @staticmethod
    def _info(path: str) -> FileInfo:
        name = os.path.normpath(path)
        try:
            result = os.stat(name)
        except PermissionError:
            raise
        except (OSError, ValueError) as exc:  # a NUL byte, a name too long, a file taken for a folder: no such file
            raise FileNotFoundError(name) from exc  # the router's 404
        return {"created": result.st_ctime, "gid": result.st_gid, "ino": result.st_ino,
                "islink": os.path.islink(name), "mode": result.st_mode, "mtime": result.st_mtime, "name": name,
                "nlink": result.st_nlink, "size": result.st_size,
                "type": "directory" if S_ISDIR(result.st_mode) else "file", "uid": result.st_uid}

    def _content(self, path: str) -> bytes:
        name = os.path.normpath(path)
        result = os.stat(name)
        kept = self._kept.get(name)
        if kept is not None and kept[:2] == (result.st_mtime_ns, result.st_size):
            return kept[2]
        with open(name, "rb") as handle:
            content = handle.read()
        self._kept[name] = (result.st_mtime_ns, len(content), content)
        return content
