"""pipev stand-in for the operator library's `impl.util.util_select_op_base`: the split and
reduce information an operator gives the graph compiler (`get_op_support_info`). pipev runs one
operator, never splits it: the information is returned as JSON, not interpreted."""

import json


class SplitInput:
    """One input's split axes: kept as given."""

    def __init__(self, *items):
        self.items = [list(i) for i in items]


class SplitOutput:
    """One output's split axes: kept as given."""

    def __init__(self, *items):
        self.items = [list(i) for i in items]


class AxisSplitMap:
    def __init__(self, inputs, outputs):
        self.inputs, self.outputs = inputs, outputs


class ReduceInput(SplitInput):
    pass


class ReduceOutput(SplitOutput):
    pass


class AxisReduceMap(AxisSplitMap):
    pass


def _plain(v):
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if hasattr(v, "__dict__"):
        return {k: _plain(x) for k, x in vars(v).items()}
    return v


def get_op_cal_info(axis_split_list, axis_reduce_list, l1_fusion_enable=0,
                    min_tbe_l1_space=0):
    """The operator's slice information as a JSON string (not interpreted by pipev)."""
    return json.dumps({"_op_slice_info": {"splitMaps": _plain(axis_split_list or []),
                                          "reduceMaps": _plain(axis_reduce_list or []),
                                          "l1FusionEnable": l1_fusion_enable,
                                          "minTbeL1Space": min_tbe_l1_space}})
