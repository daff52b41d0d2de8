#!/bin/bash
# session 87, call c5 (one H100/H200), ~345 s: EfficientNet-B0's fp32 training compile row (aot_eager / Inductor /
# kiln, cold then warm) after the convolutions' plans ahead (library_plans), then ResNet-18's as the budget allows.
NO_PROFILE=1 BUDGET=345 STEPS=$'train_efficientnet 250 --models efficientnet --train\ntrain_resnet 170 --models resnet --train' \
  bash bench/results/s87/c1.sh
