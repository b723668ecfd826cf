#!/bin/sh
# build.sh OUTDIR - build instrumented Ethereal, Sunfish and Fairy-Max into
# OUTDIR.
#
#   OUTDIR/ethereal        Ethereal 12.00 with examples/engines/ethereal.patch
#                          (writes the Horizon trace protocol to HORIZON_TRACE)
#   OUTDIR/ethereal-plain  the same sources unpatched, for comparisons
#   OUTDIR/sunfish         Sunfish run through sunfish_traced.py (Searcher.bound
#                          wrapped at run time; sunfish.py itself untouched)
#   OUTDIR/sunfish-plain   Sunfish as it ships
#   OUTDIR/fairymax        Fairy-Max 5.0b with examples/engines/fairymax.patch
#                          (an xboard engine; writes the protocol to HORIZON_TRACE)
#   OUTDIR/fairymax-plain  the same source unpatched
#   OUTDIR/fairymax-uci, OUTDIR/fairymax-plain-uci
#                          each as a UCI engine, through fairymax_uci.py (what
#                          horizon trace --engine drives); both read
#                          OUTDIR/fmax.ini, a copy of Fairy-Max's data/fmax.ini
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

if [ ! -d "$engines/ethereal/src" ] || [ ! -f "$engines/sunfish/sunfish.py" ] || [ ! -f "$engines/fairymax/fairymax.c" ]; then
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

# Fairy-Max: gcc -O2 fairymax.c as its README says, with the ini file's
# folder compiled in (FAIRYDIR, as its Makefile does) so that the binary
# finds fmax.ini wherever it is started; gnu89 because newer compilers
# refuse its K&R definitions and implicit ints by default.
cp "$engines/fairymax/data/fmax.ini" "$out/fmax.ini"
build_fairymax() { # DIR OUTPUT
    (cd "$1" && $cc -std=gnu89 -O2 -w -DFAIRYDIR="\"$out\"" fairymax.c -o "$2")
}
mkdir -p "$tmp/fm-plain" "$tmp/fm-traced"
cp "$engines/fairymax/fairymax.c" "$tmp/fm-plain/"
build_fairymax "$tmp/fm-plain" "$out/fairymax-plain"
# The patch is written against the source with Unix line ends (it ships
# with DOS ones).
tr -d '\r' < "$engines/fairymax/fairymax.c" > "$tmp/fm-traced/fairymax.c"
cp "$root/emit/c/horizon_trace.h" "$tmp/fm-traced/"
(cd "$tmp/fm-traced" && patch -s -p1 < "$here/fairymax.patch")
build_fairymax "$tmp/fm-traced" "$out/fairymax"
cp "$here/fairymax_uci.py" "$out/"
for v in fairymax fairymax-plain; do
    cat > "$out/$v-uci" <<LAUNCH
#!/bin/sh
exec python3 -B '$out/fairymax_uci.py' '$out/$v' "\$@"
LAUNCH
    chmod +x "$out/$v-uci"
done
echo "built $out/ethereal $out/ethereal-plain $out/sunfish $out/sunfish-plain" \
    "$out/fairymax $out/fairymax-plain $out/fairymax-uci $out/fairymax-plain-uci"
