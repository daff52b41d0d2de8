# session 99 (issue 19): HF Whisper (WhisperConfig's defaults, whisper-tiny's 4 + 4 layers; 128 frames, so that a
# CPU step is quick) in a training step under reduce-overhead on the CPU, through tests/test_modes.py's stand-in
# recorder (CUDA graphs' replay semantics on CPU tensors), fresh inputs at each step as gpu_models.py's rows are
# not (theirs are fixed): graphs, recordings and replays per step, the CUDA-graph log lines, loss against eager's.
#   PYTHONPATH=. python3 bench/results/s99/whisper_frames_cpu.py [steps] [-v] [amp: under CPU autocast to bfloat16]
import copy, logging, os, sys, collections, torch
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests"))
import kiln
import transformers
from kiln.runtime import cuda_graphs
from kiln.tools.models import Logits, without_dropout
from test_modes import ReplayingRecorder
cuda_graphs.RECORDERS["cpu"] = ReplayingRecorder
ReplayingRecorder.pool = (torch.empty(1 << 30, dtype=torch.uint8), 0)
lines = []
class Keep(logging.Handler):
    def emit(self, record):
        lines.append(record.getMessage().split("kiln: ", 1)[-1])
logging.getLogger("kiln.cudagraphs").addHandler(Keep()); logging.getLogger("kiln.cudagraphs").setLevel(logging.INFO)
steps = next((int(a) for a in sys.argv[1:] if a.isdigit()), 8)
torch.manual_seed(0)
config = without_dropout(transformers.WhisperConfig(max_source_positions=64))
m = Logits(transformers.WhisperForConditionalGeneration(config), ("input_features", "decoder_input_ids")).train()
ref = copy.deepcopy(m)
step = kiln.compile(m, mode="reduce-overhead", options={"graph_cache": False})
for i in range(steps):
    xs = [torch.randn(2, 80, 128), torch.randint(config.vocab_size, (2, 16))]
    for p in [*m.parameters(), *ref.parameters()]:
        p.grad = None
    before, seen = (ReplayingRecorder.recordings, kiln.stats().get("cuda_graph_replays", 0)), len(lines)
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled="amp" in sys.argv):
        loss = step(*xs).float().sum()
        expected = ref(*xs).float().sum()
    loss.backward()
    expected.backward()
    ok = torch.allclose(loss, expected, rtol=2e-2 if "amp" in sys.argv else 1e-3, atol=1e-3)
    print(f"step {i}: recordings +{ReplayingRecorder.recordings - before[0]}, replays "
          f"+{kiln.stats().get('cuda_graph_replays', 0) - before[1]}, loss {'ok' if ok else 'WRONG'}", flush=True)
    if "-v" in sys.argv:
        for line in lines[seen:]:
            print("   ", line)
print("graphs", kiln.stats().get("graphs_compiled"), collections.Counter(lines).most_common(12))
