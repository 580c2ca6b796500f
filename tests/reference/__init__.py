"""The independent reference model of docs/machine.md §5–§6 (model.py): an element-by-element numpy
expression of the spec that never calls into pipev; the differential tests compare pipev with
it byte for byte."""

from tests.reference.model import UB_BYTES, RefError, run_reference

__all__ = ["RefError", "UB_BYTES", "run_reference"]
