#!/bin/bash
# session 70, call 1 (one H200): session 69's prepared call, as it is (bench/results/s69/s69_next.sh).
bash bench/results/s69/s69_next.sh
