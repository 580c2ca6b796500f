"""The AscendC front end (issue 14): compile an unchanged AscendC C++ kernel with the host
compiler against pipev's clean-room headers (`include/`) and co-simulate it in pipev, one
`.vasm` statement per API call through the C callback table of `include/pipev_bridge.h`.

Modules, one concern each: `launch` (source rewrites: `<<<>>>` launches, `__ubuf__` arrays),
`build` (compiler, flags, the compile cache), `bridge` (the ctypes callback table onto a
`simulator.stream.Stream`), `driver` (the worker process that runs the program, and the parent
that watches it), `worker` (its entry point) and `cli` (`pipev run FILE.cpp`)."""
