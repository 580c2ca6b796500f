#!/usr/bin/python3
"""Compare the kernel's output with the golden output bit for bit; print `test pass`."""
import sys

import numpy as np


def verify_result(output, golden):
    output = np.fromfile(output, dtype=np.float16)
    golden = np.fromfile(golden, dtype=np.float16)
    if output.tobytes() != golden.tobytes():
        bad = np.flatnonzero(output.view(np.uint16) != golden.view(np.uint16))
        print(f"[ERROR] {bad.size} elements differ, the first at index {bad[0]}")
        return False
    print("test pass")
    return True


if __name__ == "__main__":
    sys.exit(0 if verify_result(sys.argv[1], sys.argv[2]) else 1)
