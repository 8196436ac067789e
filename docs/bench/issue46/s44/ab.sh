#!/bin/bash
# s44 device run (issue 46): a 50-region frame moved whole in three builds, a cold round then
# two alternating: s43b (2c6f0ff: a gather and a scatter launch per kernel size, edge windows
# launched alone), s43a (c76d802: one gather launch), s44 (this session: edge windows
# gathered through the border rule into the batches, one scatter launch of the regions cut
# where a later size overlaps them, the copy table without a row map); 50 regions of mixed
# sizes, 10 regions, 50 all at size 15, and the whole frame at gaussian 15 (the same in all
# three); frames from the element's pool. The s43 A/B's script over devbench/s44/ab's links.
D=$PWD/devbench
mkdir -p $D/s44/ab
ln -sfn $D/s43/before $D/s44/ab/s43b
ln -sfn $D/s43/after $D/s44/ab/s43a
ln -sfn $D/s44/after $D/s44/ab/s44
BUILDS=$D/s44/ab V="s43b s43a s44" ROUNDS="0 1 2" OUTF=ab-s44.jsonl WHOLE=1 \
  bash docs/bench/issue46/s43/ab.sh
