#!/usr/bin/python3
"""Write the sample's inputs and the expected output (half, 8 x 2048) under ./input."""
import os

import numpy as np


def gen_golden_data_simple():
    rng = np.random.default_rng(2024)
    input_x = rng.uniform(1, 100, [8, 2048]).astype(np.float16)
    input_y = rng.uniform(1, 100, [8, 2048]).astype(np.float16)
    golden = (input_x + input_y).astype(np.float16)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    input_x.tofile("./input/input_x.bin")
    input_y.tofile("./input/input_y.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data_simple()
