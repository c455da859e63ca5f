"""Named arrays from an .npz archive, each checked from its .npy header before any of its
data is read, so a crafted file costs what its header admits and no more.

``np.load`` reads every member of an archive when asked for its arrays, trusts the sizes
the headers declare (a header of 10**12 floats is a few bytes of a compressed member and
a MemoryError), and lets zipfile index a central directory of any size (a 64 MB file of
empty members is a million index entries, about 800 MB). Here the archive is read whole
under the policy file cap (limits.read_file), its directory is capped before zipfile
sees it, and each member the caller names is read in two steps: the header (dtype,
shape), which the caller checks, then exactly the bytes that header declares. Members
nobody names are never decompressed. Object arrays are refused from the header: nothing
is ever unpickled.
"""

from __future__ import annotations

import io
import math
import os
import struct
import zipfile
import zlib
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from wasteland.limits import read_file
from wasteland.rules.errors import WastelandError

# the zip's central directory (its index): the shipped policies' six members take 312
# bytes; this admits about a thousand members, a few hundred kB of index entries
MAX_DIRECTORY = 64 * 2**10
# an .npy header: numpy refuses one over 10,000 characters; 16 kB holds that and the
# magic and length fields before it
HEADER_BYTES = 16 * 2**10
_END = b"PK\x05\x06"         # end of central directory record
_END64 = b"PK\x06\x07"      # zip64 locator, just before it
_MAX_COMMENT = 2**16 - 1

Check = Callable[[np.dtype, tuple[int, ...]], None]
T = TypeVar("T")


class Archive:
    """The members of one .npz file, read on demand. ``fail(message)`` makes the error
    raised for anything wrong with the file (one line naming ``path``)."""

    def __init__(self, path: str | os.PathLike[str], fail: Callable[[str], Exception]) -> None:
        self.path = path
        self.fail = fail
        raw = read_file(path, "policy", fail)
        self._check_directory(raw)
        self.zip = self._guard(lambda: zipfile.ZipFile(io.BytesIO(raw)))
        # np.savez stores array KEY as member KEY.npy
        self.members = {(i.filename[:-4] if i.filename.endswith(".npy") else i.filename): i
                        for i in self.zip.infolist()}

    def __contains__(self, key: str) -> bool:
        return key in self.members

    def _bad(self, why: str) -> Exception:
        return self.fail(f"{self.path} is not a readable .npz of arrays ({why})")

    def _guard(self, read: Callable[[], T]) -> T:
        try:
            return read()
        except WastelandError:  # the caller's own refusal, already one line
            raise
        except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError,
                RuntimeError, NotImplementedError, zlib.error, struct.error) as e:
            # RuntimeError: an encrypted member; NotImplementedError: an unknown compression
            raise self._bad(" ".join(str(e).split()) or type(e).__name__) from None

    def _check_directory(self, raw: bytes) -> None:
        """Find the end record as zipfile does (the last one in the file's tail) and refuse
        an index past MAX_DIRECTORY before zipfile builds an entry per member."""
        at = raw.rfind(_END, max(0, len(raw) - 22 - _MAX_COMMENT))
        if at < 0 or len(raw) - at < 22:
            raise self._bad("File is not a zip file")
        if at >= 20 and raw[at - 20:at - 16] == _END64:
            raise self._bad("a zip64 archive; policies are small plain zip files")
        size = struct.unpack_from("<L", raw, at + 12)[0]
        if size > MAX_DIRECTORY:
            raise self._bad(f"its index of members takes {size:,} bytes; at most "
                            f"{MAX_DIRECTORY:,} are read")

    def read(self, key: str, check: Check, max_bytes: int) -> np.ndarray:
        """Array ``key``: its header is read and given to ``check`` (which raises to refuse
        it), then its data, if it takes at most ``max_bytes``."""
        info = self.members[key]

        def header_then_data() -> np.ndarray:
            with self.zip.open(info) as f:
                head = f.read(HEADER_BYTES)
                fp = io.BytesIO(head)
                version = np.lib.format.read_magic(fp)
                if version == (1, 0):
                    shape, fortran, dtype = np.lib.format.read_array_header_1_0(fp)
                elif version == (2, 0):
                    shape, fortran, dtype = np.lib.format.read_array_header_2_0(fp)
                else:
                    raise ValueError(f"array {key}: .npy format {version[0]}.{version[1]}; "
                                     f"1.0 and 2.0 are read")
                if dtype.hasobject:
                    raise ValueError(f"array {key} holds Python objects, which are never "
                                     f"unpickled")
                if any(n < 0 for n in shape):
                    raise ValueError(f"array {key}: shape {shape}")
                check(dtype, shape)
                size = math.prod(shape) * dtype.itemsize
                if size > max_bytes:
                    raise self.fail(f"{self.path}: array {key} of shape {shape} takes "
                                    f"{size:,} bytes; at most {max_bytes:,} are read")
                start = fp.tell()
                if info.file_size != start + size:
                    raise ValueError(f"member {info.filename} holds {info.file_size:,} bytes, "
                                     f"its header declares {start + size:,}")
                data = head[start:start + size]
                data += f.read(size + 1 - len(data))  # +1: to see the end (and its CRC)
                if len(data) != size:
                    raise ValueError(f"array {key}: {len(data):,} bytes of data, its header "
                                     f"declares {size:,}")
            array = np.frombuffer(data, dtype=dtype).reshape(shape,
                                                             order="F" if fortran else "C")
            return array

        return self._guard(header_then_data)
