import torch
class Layer(torch.nn.Module):
    def __init__(s, w=16, bias=True):
        super().__init__(); s.lin = torch.nn.Linear(w, w, bias=bias)
    def forward(s, x):
        y = torch.tanh(s.lin(x)) + x
        torch._dynamo.graph_break()
        return y * 0.5
class M(torch.nn.Module):
    def __init__(s, n=4, w=16):
        super().__init__(); s.layers = torch.nn.ModuleList(Layer(w) for _ in range(n))
    def forward(s, x):
        for l in s.layers: x = l(x)
        return x
