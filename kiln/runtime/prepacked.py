"""Library calls with a frozen operand in the library's own layout, made once (options={"freezing": True})."""
import torch


class PackedConvolution:
    """A 2-D convolution on the CPU through oneDNN, its weight reordered once into oneDNN's blocked layout for
    these input sizes. ATen's convolution makes that layout again at every call: ~20 us of a 30-60 us call at the
    quick conv nets' sizes (bench/NOTES.md 65). Called by the wrapper with the (channels-last) input and the bias; returns
    the output channels-last. `pack` makes the weight again from the frozen one (a refresh, kiln.freezing)."""

    def __init__(self, weight, stride, padding, dilation, groups, input_sizes, activation=("none", [])):
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, groups
        self.input_sizes = input_sizes
        self.activation = activation   # oneDNN's post-op on the output: its name and scalars
        self.pack(weight)

    def pack(self, weight):
        self.weight = torch.ops.mkldnn._reorder_convolution_weight(
            weight.contiguous(), self.padding, self.stride, self.dilation, self.groups, self.input_sizes)

    def __call__(self, x, bias):
        y = torch.ops.mkldnn._convolution_pointwise(x, self.weight, bias, self.padding, self.stride, self.dilation,
                                                    self.groups, *self.activation, None)
        return y.contiguous(memory_format=torch.channels_last)   # (a no-op: oneDNN's output for NHWC input is NHWC)

    def tried(self, biased, out_sizes):
        """Whether oneDNN runs this call (on zeros of the input's size, with a bias or not) and returns an output of
        out_sizes channels-last: checked once, when the graph is lowered, so that a call it refuses is an ordinary
        convolution rather than an error at the user's call."""
        x = torch.zeros(self.input_sizes).contiguous(memory_format=torch.channels_last)
        try:
            y = self(x, torch.zeros(out_sizes[1]) if biased else None)
        except RuntimeError:
            return False
        return list(y.shape) == list(out_sizes) and y.is_contiguous(memory_format=torch.channels_last)

    def __repr__(self):
        attr = self.activation[0]
        return f"mkldnn._convolution_pointwise (weight packed once{'' if attr == 'none' else ', ' + attr})"


def packs_convolutions(device, dtype):
    """Whether a frozen convolution on device in dtype runs as a PackedConvolution."""
    return device.type == "cpu" and dtype == torch.float32 and torch.backends.mkldnn.is_available()
