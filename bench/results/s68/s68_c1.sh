#!/bin/bash
# session 68, call 1 (one H200): session 67's prepared call, run as it is at main dfa9f9a (the layer norm's backward
# against Inductor, timm DeiT-tiny's, DeiT's and ViT's AMP training step in default mode, the combine sweep).
exec bash bench/results/s67/s67_c9.sh
