#!/bin/bash
# one process per block, first 2000 blocks (1000 swift + 1000 ts), extrapolate x5 to 10,000
cd "$(dirname "$0")"
ls blocks | head -2000 | sed "s#^#blocks/#" > list2000.txt
/usr/bin/time -f "chroma one-proc-per-block 2000 blocks: wall %e s user %U sys %S" xargs -n 1 chroma --html --html-only < list2000.txt > /dev/null
/usr/bin/time -f "highlight one-proc-per-block 2000 blocks: wall %e s user %U sys %S" xargs -n 1 -I{} highlight -O html -f --no-version-info -i {} < list2000.txt > /dev/null
