"""The compile trace: every stage of every compiled graph, written as files plus static HTML pages.

    root/index.html            the graphs, Dynamo's graph breaks and recompiles
    root/dynamo_events.txt     graph breaks and recompiles, with Dynamo's reasons
    root/g0_forward/index.html one graph's stages in pipeline order
    root/g0_forward/*          each stage as a file (dynamo_graph.py, ir.txt, kernel_*.cpp, graph_after.svg, ...)
"""
import html
import json
import logging
import os
import re
import time

import torch

# stage key -> (title on the page, default file name), in page order; the page puts the fusion
# decisions and the diagrams between the graph stages (GRAPH_STAGES) and the kernels
STAGES = {
    "dynamo_graph": ("Dynamo FX graph", "dynamo_graph.py"),
    "aot_forward": ("AOT forward graph", "aot_forward.py"),
    "aot_backward": ("AOT backward graph", "aot_backward.py"),
    "decomposed": ("Decomposed graph", "decomposed.py"),
    "ir": ("kiln IR", "ir.txt"),
    "kernel": ("Kernels", None),
    "wrapper": ("Wrapper", "wrapper.py"),
}
GRAPH_STAGES = ("dynamo_graph", "aot_forward", "aot_backward", "decomposed", "ir")
EVENTS_FILE = "dynamo_events.txt"
PALETTE = ("#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5", "#bc80bd",
           "#ccebc5", "#ffed6f")  # kernel fills; graph arguments are grey
CSS = """
body{font:14px/1.45 system-ui,sans-serif;color:#1f2328;max-width:1200px;margin:0 auto;padding:0 24px 48px}
h1{font-size:22px;margin:20px 0 6px} h3{font-size:14px;margin:16px 0 4px}
h2{font-size:17px;margin:28px 0 8px;padding-bottom:4px;border-bottom:1px solid #d0d7de}
a{color:#0969da;text-decoration:none} a:hover{text-decoration:underline}
nav a{margin-right:14px} .muted{color:#656d76} .fused{color:#1a7f37;font-weight:600}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:10px;overflow:auto;max-height:400px;
font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
table{border-collapse:collapse;font-size:13px} th{background:#f6f8fa}
th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
.diagrams{display:flex;flex-wrap:wrap;gap:0 24px} .diagrams>div{max-width:100%}
.diagram{overflow:auto;border:1px solid #d0d7de;border-radius:6px;padding:6px}
.chip{display:inline-block;padding:0 8px;margin:2px;border:1px solid #888;border-radius:9px;color:#1f2328}
summary{cursor:pointer}
"""


def esc(value) -> str:
    return html.escape(str(value))


def _page(title: str, body: str) -> str:
    return (f"<!doctype html>\n<html><head><meta charset='utf-8'><title>{esc(title)}</title>"
            f"<style>{CSS}</style></head>\n<body>\n<h1>{esc(title)}</h1>\n{body}\n</body></html>\n")


def _section(section_id: str, title: str, body: str) -> str:
    return f"<section id='{section_id}'>\n<h2>{esc(title)}</h2>\n{body}\n</section>\n"


def _table(header: list[str], rows: list[list[str]]) -> str:
    """rows hold HTML already escaped by the caller"""
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>\n" for row in rows)
    return f"<table>\n<tr>{head}</tr>\n{body}</table>"


def _write(path: str, text: str):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def graph_svg(nodes: list[dict], colors: dict) -> str:
    """Layered drawing of a graph whose nodes come in topological order: each node one layer below
    its deepest input, boxes filled with colors[kernel]. Inputs that are not nodes (graph arguments)
    are drawn as grey boxes."""
    names = {n["name"] for n in nodes}
    arguments = dict.fromkeys(i for n in nodes for i in n["inputs"] if i not in names)
    boxes = [{"name": a, "op": "input", "inputs": [], "kernel": None} for a in arguments] + nodes
    layer = dict.fromkeys(arguments, 0)
    for n in nodes:
        layer[n["name"]] = 1 + max((layer[i] for i in n["inputs"]), default=-1)
    user_layers = {a: [] for a in arguments}
    for n in nodes:
        for i in n["inputs"]:
            if i in user_layers:
                user_layers[i].append(layer[n["name"]])
    # draw each argument just above its first user, so that its edges stay short
    layer.update({a: min(layers) - 1 for a, layers in user_layers.items()})
    layers = [[] for _ in range(max(layer.values(), default=-1) + 1)]
    for box in boxes:
        layers[layer[box["name"]]].append(box)

    char_w, box_h, gap_x, gap_y, margin, bow_max = 7.2, 36, 16, 40, 12, 100
    width = {b["name"]: char_w * max(len(b["name"]), len(b["op"])) + 16 for b in boxes}
    center = {}  # name -> x centre, relative to its layer until the layers are centred

    def barycentre(b):
        xs = [center[i] for i in b["inputs"]]
        return sum(xs) / len(xs) if xs else 0

    for row in layers:
        row.sort(key=barycentre)  # place a node under its inputs, so that fewer edges cross
        x = 0
        for b in row:
            center[b["name"]] = x + width[b["name"]] / 2
            x += width[b["name"]] + gap_x
    row_width = [sum(width[b["name"]] + gap_x for b in row) - gap_x for row in layers]
    content_w = max(row_width, default=0) + 2 * margin
    for row, w in zip(layers, row_width):
        for b in row:
            center[b["name"]] += (content_w - w) / 2
    edges = [(i, n["name"]) for n in nodes for i in dict.fromkeys(n["inputs"])]  # x * x: one arrow
    # an edge that skips layers bows to the right, so that it is not hidden behind the boxes it passes
    skips = {(i, o) for i, o in edges if layer[o] - layer[i] > 1}
    total_w = content_w + (bow_max / 2 if skips else 0)
    top = {name: margin + depth * (box_h + gap_y) for name, depth in layer.items()}
    total_h = len(layers) * (box_h + gap_y) - gap_y + 2 * margin

    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{total_w:.0f}' height='{total_h:.0f}' "
           f"viewBox='0 0 {total_w:.0f} {total_h:.0f}' font-family='monospace' font-size='12'>",
           "<defs><marker id='arrow' viewBox='0 0 10 10' refX='10' refY='5' markerWidth='7' "
           "markerHeight='7' orient='auto'><path d='M0,0 L10,5 L0,10 z' fill='#57606a'/></marker></defs>"]
    for i, o in edges:
        x1, y1, x2, y2 = center[i], top[i] + box_h, center[o], top[o]
        bow = bow_max if (i, o) in skips else 0
        out.append(f"<path d='M{x1:.1f},{y1} Q{(x1 + x2) / 2 + bow:.1f},{(y1 + y2) / 2} {x2:.1f},{y2}' "
                   f"fill='none' stroke='#57606a' marker-end='url(#arrow)'/>")
    for b in boxes:
        name, kernel, w = b["name"], b.get("kernel"), width[b["name"]]
        x, y = center[name] - w / 2, top[name]
        fill = "#eaeef2" if name in arguments else colors.get(kernel, "#ffffff")
        tip = f"{name} = {b['op']}({', '.join(b['inputs'])})" + (f" in kernel {kernel}" if kernel else "")
        box = (f"<g><title>{esc(tip)}</title><rect x='{x:.1f}' y='{y}' width='{w:.1f}' height='{box_h}' rx='4' "
               f"fill='{fill}' stroke='#57606a'/><text x='{center[name]:.1f}' y='{y + 15}' text-anchor='middle' "
               f"font-weight='bold'>{esc(name)}</text><text x='{center[name]:.1f}' y='{y + 29}' "
               f"text-anchor='middle' fill='#424a53'>{esc(b['op'])}</text></g>")
        # the page's kernel sections have id kernel-<name>; the .svg files sit next to that page
        out.append(f"<a href='index.html#kernel-{esc(kernel)}'>{box}</a>" if kernel else box)
    out.append("</svg>")
    return "\n".join(out)


class GraphTrace:
    """One compiled graph's trace folder. Every method is a cheap no-op when root is None;
    check .enabled before building expensive text for it."""

    def __init__(self, root: str | None, graph_name: str):
        self.enabled = root is not None
        self.root = root
        self.name = re.sub(r"[^\w.-]", "_", graph_name)
        self.dir = os.path.join(root, self.name) if self.enabled else None
        self.created = time.time()
        self.texts = {}            # stage key -> (file name, text); kernels live in kernel_sources
        self.kernel_sources = {}   # file name -> source
        self.decisions = []
        self.diagrams = {}         # "before"/"after" -> svg
        self.colors = {}           # kernel name -> fill color, shared by both diagrams and the legend
        self.kernel_table = []
        if self.enabled:
            os.makedirs(self.dir, exist_ok=True)

    def _save(self, filename: str, text: str):
        _write(os.path.join(self.dir, filename), text)

    def stage(self, key: str, text: str, filename: str | None = None):
        if not self.enabled:
            return
        if key not in STAGES:
            raise ValueError(f"kiln trace: unknown stage {key!r}; expected one of {list(STAGES)}")
        if key == "kernel":
            filename = os.path.basename(filename or f"kernel_{len(self.kernel_sources)}.txt")
            self.kernel_sources[filename] = text
        else:
            filename = os.path.basename(filename or STAGES[key][1])
            self.texts[key] = (filename, text)
        self._save(filename, text)

    def fusion(self, decisions: list[dict]):
        if not self.enabled:
            return
        self.decisions = list(decisions)
        self._save("fusion.json", json.dumps(self.decisions, indent=1))

    def graph(self, when: str, nodes: list[dict]):
        if not self.enabled:
            return
        if when not in ("before", "after"):
            raise ValueError(f"kiln trace: graph(when={when!r}); expected 'before' or 'after'")
        for n in nodes:
            if n.get("kernel") and n["kernel"] not in self.colors:
                self.colors[n["kernel"]] = PALETTE[len(self.colors) % len(PALETTE)]
        self.diagrams[when] = graph_svg(nodes, self.colors)
        self._save(f"graph_{when}.svg", self.diagrams[when])

    def kernels(self, table: list[dict]):
        if not self.enabled:
            return
        self.kernel_table = list(table)
        self._save("kernels.json", json.dumps(self.kernel_table, indent=1))

    def finish(self):
        if not self.enabled:
            return
        self._save("index.html", self._page())
        summary = {"name": self.name, "created": self.created,
                   "kernels": sum(k["kind"] == "kernel" for k in self.kernel_table)
                   or len(self.kernel_sources),
                   "fused": sum(bool(d["fused"]) for d in self.decisions), "steps": len(self.kernel_table),
                   "time_us": sum(k.get("time_us") or 0 for k in self.kernel_table)}
        self._save("summary.json", json.dumps(summary))
        write_root_index(self.root)

    def _page(self) -> str:
        sections = [self._text_section(key) for key in GRAPH_STAGES if key in self.texts]  # (id, title, html)
        if self.decisions:
            sections.append(("fusion", "Fusion decisions", self._fusion_html()))
        if self.diagrams:
            legend = "".join(f"<a class='chip' style='background:{c}' href='#kernel-{esc(k)}'>{esc(k)}</a>"
                             for k, c in self.colors.items())
            body = "".join(f"<div><h3>{when.capitalize()} fusion</h3><div class='diagram'>{svg}</div></div>"
                           for when, svg in sorted(self.diagrams.items(), key=lambda item: item[0] != "before"))
            sections.append(("graphs", "Graph before and after fusion",
                             f"<p>{legend}</p><div class='diagrams'>{body}</div>"))
        if self.kernel_table or self.kernel_sources:
            sections.append(("kernels", STAGES["kernel"][0], self._kernels_html()))
        if "wrapper" in self.texts:
            sections.append(self._text_section("wrapper"))
        if self.kernel_table:   # the walkthrough ends with why the graph is fast (or is not)
            sections.append(("cost", "Where the time goes", self._cost_html()))
        nav = "<nav>" + "".join(f"<a href='#{sid}'>{esc(title)}</a>" for sid, title, _ in sections) + "</nav>"
        back = "<p><a href='../index.html'>&larr; all graphs</a></p>"
        return _page(f"kiln trace: {self.name}", back + nav + "".join(_section(*s) for s in sections))

    def _text_section(self, key: str) -> tuple[str, str, str]:
        filename, text = self.texts[key]
        shown = text.strip("\n")  # FX code starts with blank lines
        return key, STAGES[key][0], f"<a href='{esc(filename)}'>{esc(filename)}</a><pre>{esc(shown)}</pre>"

    def _fusion_html(self) -> str:
        rows = [[f"<span id='node-{esc(d['node'])}'>{esc(d['node'])}</span>",
                 f"<a href='#kernel-{esc(d['kernel'])}'>{esc(d['kernel'])}</a>" if d["kernel"] else "",
                 "<span class='fused'>fused</span>" if d["fused"] else "separate",
                 esc(d.get("with") or ""), esc(d.get("reason", ""))] for d in self.decisions]
        return _table(["node", "kernel", "decision", "with", "reason"], rows)

    def _kernels_html(self) -> str:
        parts = []
        listed = set()
        for k in (k for k in self.kernel_table if k["kind"] == "kernel"):   # externs: in the cost
            nodes = [d["node"] for d in self.decisions if d["kernel"] == k["name"]]
            facts = [f"source ops: {esc(', '.join(k['source_ops']))}"]
            if nodes:
                facts.append("nodes: " + ", ".join(f"<a href='#node-{esc(n)}'>{esc(n)}</a>" for n in nodes))
            if k.get("bytes") is not None:
                facts.append(f"{k['bytes']:,} bytes accessed")
            source = self.kernel_sources.get(k.get("file"))
            if source is not None:
                facts.append(f"<a href='{esc(k['file'])}'>{esc(k['file'])}</a>")
                listed.add(k["file"])
            parts.append(f"<h3 id='kernel-{esc(k['name'])}'>{esc(k['name'])}</h3>"
                         f"<p class='muted'>{' &middot; '.join(facts)}</p>"
                         + (f"<pre>{esc(source)}</pre>" if source is not None else ""))
        for filename, source in self.kernel_sources.items():  # sources the table does not describe
            if filename not in listed:
                parts.append(f"<h3><a href='{esc(filename)}'>{esc(filename)}</a></h3><pre>{esc(source)}</pre>")
        return "\n".join(parts)

    def _cost_html(self) -> str:
        steps = self.kernel_table
        timed = sorted((k for k in steps if k.get("time_us") is not None), key=lambda k: -k["time_us"])
        if not timed:
            rows = [[_step_link(k), esc(_what(k)), f"{k['bytes']:,}"] for k in steps]
            return (f"<p class='muted'>{esc(NOT_PROFILED)}</p>"
                    + _table(["kernel or extern", "what", "bytes it must move"], rows))
        total = sum(k["time_us"] for k in timed)
        kernels = [k for k in timed if k["kind"] == "kernel"]
        library = [k for k in timed if k["kind"] == "extern" and not k["fallback"]]
        fallbacks = [k for k in timed if k["fallback"]]

        def share(group):
            return f"{sum(k['time_us'] for k in group):.1f} µs ({100 * sum(k['time_us'] for k in group) / total:.0f}%)"
        summary = (f"<p><b>{total:.1f} µs</b> over {len(timed)} steps, each timed once on the graph's first call: "
                   f"generated kernels: {len(kernels)}, {share(kernels)}, fused from "
                   f"{sum(len(k.get('source_ops', ())) for k in kernels)} ATen ops and moving "
                   f"{sum(k['bytes'] for k in kernels):,} bytes; library calls: {len(library)}, {share(library)}"
                   + (f"; eager fallbacks: {len(fallbacks)}, {share(fallbacks)}" if fallbacks else "") + ".</p>"
                   "<p class='muted'>Each bar is a step's time; its dark part is the least time its bytes need at "
                   "this machine's copy bandwidth, or its matmul FLOPs at its matmul throughput (both measured "
                   "by the profiler), whichever is longer: the roofline. A bar mostly dark runs near its "
                   "ceiling; a pale one leaves time on the table. Above 100%: its data sat in a cache, faster than "
                   "the large copy that measured the ceiling.</p>")
        rows = [[_step_link(k), esc(_what(k)),
                 f"{k['time_us']:.1f}", f"{k['bytes']:,}", f"{k['flops']:,}" if k.get("flops") else "",
                 _percent(k.get("pct_copy")), _percent(k.get("pct_matmul"))] for k in timed]
        table = _table(["kernel or extern", "what", "time (µs)", "bytes", "matmul FLOPs", "% of copy ceiling",
                        "% of matmul ceiling"], rows)
        return summary + f"<div class='diagram'>{cost_svg(timed, self.colors)}</div>" + table


NOT_PROFILED = ("No times: this trace was compiled without options={'trace_profile': True}, which times each "
                "kernel and extern once on the graph's first call. The bytes each step must move are known.")


def _step_link(k) -> str:
    """A kernel links to its source; an extern's cell is its anchor, for the picture's links"""
    if k["kind"] == "kernel":
        return f"<a href='#kernel-{esc(k['name'])}'>{esc(k['name'])}</a>"
    return f"<span id='extern-{esc(k['name'])}'>{esc(k['name'])}</span>"


def _label(k) -> str:
    """A step's name in the picture: an extern's with its op ("extern2 addmm")"""
    name = k["name"] if k["kind"] == "kernel" else f"{k['name']} {(k['target'].split('.')[1:2] or [k['target']])[0]}"
    return name if len(name) <= 40 else name[:39] + "…"


def _what(k) -> str:
    """A kernel's ATen ops, an extern's op"""
    if k["kind"] == "kernel":
        return ", ".join(dict.fromkeys(k.get("source_ops", ())))
    return k["target"] + (" (eager fallback)" if k["fallback"] else "")


def _percent(value) -> str:
    return "" if value is None else f"{value:.0f}%"


def ceiling_share(k) -> tuple[float, str]:
    """The larger of a step's shares of the copy and matmul ceilings (in %), and which ceiling that is"""
    return max((k.get("pct_copy") or 0, "copy"), (k.get("pct_matmul") or 0, "matmul"))


def cost_svg(steps: list[dict], colors: dict) -> str:
    """Horizontal bars, longest first: each step's time, and in a darker shade the least time its bytes need at
    the copy ceiling or its FLOPs at the matmul ceiling (pct_* are the shares of those ceilings reached)."""
    label_w, bar_w, row_h, gap, text_w = 300, 520, 22, 6, 320
    longest = max(k["time_us"] for k in steps) or 1
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{label_w + bar_w + text_w}' "
           f"height='{len(steps) * (row_h + gap) + gap}' font-family='monospace' font-size='12'>"]
    for i, k in enumerate(steps):
        y = gap + i * (row_h + gap)
        w = max(1.0, bar_w * k["time_us"] / longest)
        share, ceiling = ceiling_share(k)
        floor = w * min(100.0, share) / 100
        kernel = k["kind"] == "kernel"
        fill = colors.get(k["name"], "#d0d7de") if kernel else "#f4b183" if k["fallback"] else "#c9d1d9"
        what = f"{k['time_us']:.1f} µs, {share:.0f}% of the {ceiling} ceiling"
        href = f"#kernel-{k['name']}" if kernel else f"#extern-{k['name']}"
        out.append(f"<a href='{esc(href)}'><g><title>{esc(k['name'])}: {esc(what)}; {k['bytes']:,} bytes</title>"
                   f"<text x='{label_w - 6}' y='{y + 15}' text-anchor='end'>{esc(_label(k))}</text>"
                   f"<rect x='{label_w}' y='{y}' width='{w:.1f}' height='{row_h}' fill='{fill}' stroke='#57606a'/>"
                   f"<rect x='{label_w}' y='{y}' width='{floor:.1f}' height='{row_h}' fill='#24292f' "
                   f"fill-opacity='0.45'/>"
                   f"<text x='{label_w + w + 6:.1f}' y='{y + 15}'>{esc(what)}</text></g></a>")
    out.append("</svg>")
    return "\n".join(out)


def _read_events(root: str) -> list[tuple[str, str]]:
    """(header, text) pairs from root/dynamo_events.txt"""
    path = os.path.join(root, EVENTS_FILE)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        parts = re.split(r"^=== (.*) ===$\n", f.read(), flags=re.M)
    return [(header, text.strip()) for header, text in zip(parts[1::2], parts[2::2])]


def write_root_index(root: str):
    """(Re)write root/index.html from the graph folders' summary.json and root/dynamo_events.txt."""
    summaries = []
    for entry in os.scandir(root):
        path = os.path.join(entry.path, "summary.json")
        if entry.is_dir() and os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                summaries.append(json.load(f))
    summaries.sort(key=lambda s: s["created"])
    rows = [[f"<a href='{esc(s['name'])}/index.html'>{esc(s['name'])}</a>", str(s["kernels"]), str(s["fused"]),
             f"<a href='{esc(s['name'])}/index.html#cost'>" + (f"{s['time_us']:.1f}" if s["time_us"] else "not timed")
             + "</a>" if s.get("steps") else ""] for s in summaries]
    untimed = any(s.get("steps") and not s["time_us"] for s in summaries)
    body = _section("graphs", "Compiled graphs",
                    _table(["graph", "kernels", "fused nodes", "time of its kernels and externs (µs)"], rows)
                    + (f"<p class='muted'>{esc(NOT_PROFILED)}</p>" if untimed else "") if rows
                    else "<p class='muted'>No graph compiled yet.</p>")
    events = _read_events(root)
    items = "".join(f"<details><summary>{esc(header)}: {esc(text.splitlines()[0] if text else '')}</summary>"
                    f"<pre>{esc(text)}</pre></details>\n" for header, text in events)
    counts = {kind: sum(h.startswith(kind) for h, _ in events) for kind in ("graph break", "recompile")}
    body += _section("dynamo", "Graph breaks and recompiles",
                     f"<p>graph breaks: {counts['graph break']}, recompiles: {counts['recompile']} "
                     f"(<a href='{EVENTS_FILE}'>{EVENTS_FILE}</a>)</p>{items}" if events
                     else "<p class='muted'>None recorded.</p>")
    _write(os.path.join(root, "index.html"), _page("kiln compile trace", body))


class _DynamoEventRecorder(logging.Handler):
    """Reads Dynamo's structured trace events (the stream TORCH_TRACE/tlparse use; it is never printed)
    and records graph breaks and recompiles with Dynamo's reasons."""

    def __init__(self, root: str):
        super().__init__()
        self.root = root
        self.functions = {}        # Dynamo frame id -> "f (file.py:12)", from its compilation metrics
        self.seen_breaks = set()   # a recompile re-traces the frame and reports the same break again

    # (torch logs from inside frames Dynamo runs, such as AOTAutograd's lazy backward compile under a compiled
    # train step's loss.backward(): Dynamo must not trace the handler)
    @torch._dynamo.disable
    def emit(self, record):
        try:
            event = self._event(getattr(record, "metadata", {}), getattr(record, "payload", None))
            if event:
                with open(os.path.join(self.root, EVENTS_FILE), "a", encoding="utf-8") as f:
                    f.write(f"=== {event[0]} ===\n{event[1].strip()}\n\n")
                write_root_index(self.root)
        except Exception:
            self.handleError(record)

    def _event(self, metadata: dict, payload: str | None) -> tuple[str, str] | None:
        if "compilation_metrics" in metadata:
            m = metadata["compilation_metrics"]
            frame = (m.get("compile_id") or "").split("/")[0]
            self.functions[frame] = f"{m.get('co_name')} ({m.get('co_filename')}:{m.get('co_firstlineno')})"
            return None
        artifact = metadata.get("artifact", {}).get("name")
        compile_id = f"{metadata.get('frame_id')}/{metadata.get('frame_compile_id')}"
        if artifact == "dynamo_graph_break_reason":
            text = payload.split("\nTraceback (most recent call last):")[0]  # drop Dynamo's own stack
            where_and_why = text.split("User code traceback:")[0]
            if where_and_why in self.seen_breaks:
                return None
            self.seen_breaks.add(where_and_why)
            return f"graph break [{compile_id}]", text
        if artifact == "recompile_reasons":
            # one failed guard comes as plain text, several as a JSON list
            reasons = json.loads(payload) if payload.startswith("[") else [payload]
            function = self.functions.get(str(metadata.get("frame_id")), "")
            return f"recompile [{compile_id}] {function}".rstrip(), "\n".join(reasons)
        return None


_recorder: _DynamoEventRecorder | None = None
_TRACE_LOGGER = "torch.__trace"  # Dynamo's structured trace log; emits only while it has a handler


def install_dynamo_hooks(root: str):
    """Record graph breaks and recompiles into root/dynamo_events.txt and root/index.html from now on.
    Calling it again with the same root does nothing; with another root, that root replaces the first."""
    global _recorder
    if _recorder is not None and _recorder.root == root:
        return
    uninstall_dynamo_hooks()
    os.makedirs(root, exist_ok=True)
    _write(os.path.join(root, EVENTS_FILE), "")  # a new session: drop a previous run's events
    _recorder = _DynamoEventRecorder(root)
    logging.getLogger(_TRACE_LOGGER).addHandler(_recorder)
    write_root_index(root)


def uninstall_dynamo_hooks():
    global _recorder
    if _recorder is not None:
        logging.getLogger(_TRACE_LOGGER).removeHandler(_recorder)
        _recorder = None
