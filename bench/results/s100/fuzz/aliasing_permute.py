import torch, kiln
def fn(x0):
    v1 = torch.neg(x0)
    return v1.permute([1, 0, 2]), v1.transpose(0, 0)
for shape in [(1, 1, 1), (2, 3, 4), (1, 3, 4)]:
    x = torch.randint(-8, 9, shape)
    torch._dynamo.reset()
    k = kiln.compile(fn, options={"target": "cpp"})(x)
    torch._dynamo.reset()
    a = torch.compile(fn, backend="aot_eager")(x)
    print(shape, [len({o.untyped_storage().data_ptr() for o in r}) for r in (fn(x), a, k)])
