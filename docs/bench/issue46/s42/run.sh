. .devgst/activate.sh >/dev/null 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader; date
timeout 330 bash docs/bench/issue46/s42/ab.sh; date
grep -o '"label":"r[0-9]-[a-z0-9]*-regions-50-pageable"\|"input_path":"[a-z-]*"' $OUT/ab.jsonl | paste - - | sed -n 5,10p
RUNS=2 GT=120 bash docs/bench/issue41/s42/gaps.sh; date
