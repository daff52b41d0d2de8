# session 35 debug: why torch 2.11 does not store training graphs whole
import logging, sys, traceback, torch, kiln, kiln.warm_start as ws
logging.basicConfig(level=logging.WARNING)
logging.getLogger("kiln.cache").setLevel(logging.DEBUG)
orig_unlike = ws.autograd_unlike_cold
def unlike(arguments, forward, returned):
    r = orig_unlike(arguments, forward, returned)
    print("RECORD keys", sorted(arguments), "fw is ours", arguments.get("compiled_fw_func") is forward,
          type(arguments.get("compiled_fw_func")), "returned", returned, "reason", r, flush=True)
    return r
ws.autograd_unlike_cold = unlike
orig_stored = ws.stored_arguments
def stored(arguments):
    try:
        return orig_stored(arguments)
    except Exception:
        traceback.print_exc()
        for k, v in arguments.items():
            try:
                import pickle; pickle.dumps(v)
            except Exception as e:
                print("UNPICKLABLE", k, type(e).__name__, str(e)[:200])
        raise
ws.stored_arguments = stored
orig_traced = ws.Pending.traced
def traced(self, compiled):
    print("TRACED records", len(self.records), "graphs", list(self.graphs), "wrapped", hasattr(compiled, "__wrapped__"), flush=True)
    return orig_traced(self, compiled)
ws.Pending.traced = traced
print("torch", torch.__version__)
torch.manual_seed(0)
dev = sys.argv[1]
x = torch.randn(6, 8, device=dev, requires_grad=True); w = torch.randn(8, 8, device=dev, requires_grad=True)
out = kiln.compile(lambda x, w: torch.nn.functional.gelu(x @ w).sum(1))(x, w)
out.sum().backward()
print("RESULT", kiln.stats().get("dynamo_graphs_from_cache"), x.grad.sum().item(), flush=True)
