cd devbench/s38
./mma1 2>&1 | tail -3
for K in 15 63; do ./tc 1920 1080 $K gauss 30 2>&1 | tail -3; done
for cfg in "64 64" "64 256" "32 128"; do set -- $cfg; TW=$1 SH=$2 ./tc 1920 1080 31 gauss 30 2>&1 | tail -2; done
for K in 3 7 15 31 63; do ./tc 1920 1080 $K gauss 50 | tail -1; ./tc 3840 2160 $K gauss 50 | tail -1; done
./tc 1920 1080 31 box 50 | tail -1
