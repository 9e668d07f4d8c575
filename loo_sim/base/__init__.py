"""The foundations every layer may import: the one error class (``errors``), checks of single
values (``checks``), the counter-based random streams (``rng``, mirrored in the kernel), atomic
writes (``atomic``), the tunables and cache folders (``config``), the statistics primitives
(``stats``), the version, and the hooks run once the kernel is imported (``hooks``)."""
