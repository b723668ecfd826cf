#!/bin/sh
# build.sh OUTDIR - build instrumented Ethereal and Sunfish into OUTDIR.
#
#   OUTDIR/ethereal        Ethereal 12.00 with examples/engines/ethereal.patch
#                          (writes the Horizon trace protocol to HORIZON_TRACE)
#   OUTDIR/ethereal-plain  the same sources unpatched, for comparisons
#   OUTDIR/sunfish         Sunfish run through sunfish_traced.py (Searcher.bound
#                          wrapped at run time; sunfish.py itself untouched)
#   OUTDIR/sunfish-plain   Sunfish as it ships
#
# The engines' sources stay where they are (ENGINES, default ../shared/engines
# beside the project); patches are applied to a copy in a temporary
# directory. Needs a C compiler, libfathom-dev (Debian) and python3.
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
engines=${ENGINES:-$root/../shared/engines}
out=$1
mkdir -p "$out"
out=$(cd "$out" && pwd)
cc=${CC:-cc}

if [ ! -d "$engines/ethereal/src" ] || [ ! -f "$engines/sunfish/sunfish.py" ]; then
    echo "build.sh: no engine sources in $engines (set ENGINES)" >&2
    exit 1
fi
if [ ! -f /usr/include/tbprobe.h ]; then
    echo "build.sh: /usr/include/tbprobe.h missing: install libfathom-dev" >&2
    exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Ethereal, as its build notes in ../shared/engines/README.md say, once
# unpatched and once patched.
build_ethereal() { # DIR OUTPUT
    mkdir -p "$1/inc/fathom"
    ln -sf /usr/include/tbprobe.h /usr/include/tbconfig.h "$1/inc/fathom/"
    (cd "$1" && $cc -std=gnu11 -O2 -DNDEBUG -DUSE_POPCNT -msse3 -mpopcnt -Iinc ./*.c -lfathom -lpthread -lm -o "$2")
}
cp -r "$engines/ethereal/src" "$tmp/plain"
build_ethereal "$tmp/plain" "$out/ethereal-plain"
cp -r "$engines/ethereal/src" "$tmp/traced"
cp "$root/emit/c/horizon_trace.h" "$tmp/traced/"
(cd "$tmp/traced" && patch -s -p1 < "$here/ethereal.patch")
build_ethereal "$tmp/traced" "$out/ethereal"

# Sunfish: a launcher around the wrapper; nothing of Sunfish is copied.
cp "$here/sunfish_traced.py" "$root/emit/python/horizon_trace.py" "$out/"
sunfish_dir=$(cd "$engines/sunfish" && pwd)
cat > "$out/sunfish" <<LAUNCH
#!/bin/sh
SUNFISH_DIR='$sunfish_dir' exec python3 -B '$out/sunfish_traced.py' "\$@"
LAUNCH
cat > "$out/sunfish-plain" <<LAUNCH
#!/bin/sh
cd '$sunfish_dir' && exec python3 -B sunfish.py "\$@"
LAUNCH
chmod +x "$out/sunfish" "$out/sunfish-plain"
echo "built $out/ethereal $out/ethereal-plain $out/sunfish $out/sunfish-plain"
