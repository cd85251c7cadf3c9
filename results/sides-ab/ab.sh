#!/bin/bash
# The same candidates timed by the one-process harness (the previous build)
# and by sides (this build), alternating, on the tuned baselines.
cd /work/main
export KWB_HOME=$PWD/target/tmp/kwb-home
for round in 1 2; do
  for t in matmul_256:l1-matmul_256 conv_bn_relu:l2-conv_bn_relu kws_dscnn:l3-kws_dscnn; do
    task=${t%%:*}; f=/tmp/ab/${t##*:}.py
    for which in old new; do
      bin=./target/release/kwb; [ $which = old ] && bin=./target/runs/kwb-tune
      $bin eval --task $task --candidate $f --baseline tuned --json > /tmp/ab/$task-$which-$round.json 2>/tmp/ab/$task-$which-$round.err
      python3 -c "
import json,sys; r=json.load(open('/tmp/ab/$task-$which-$round.json'))
print('$round', '$task', '$which', r.get('speedup_median'), r.get('candidate_ms'), r.get('baseline_ms'), r.get('timing_valid'), r.get('ci'), 'sides' if r['manifest']['sandbox'].get('sides') else 'one-process')"
    done
  done
done
