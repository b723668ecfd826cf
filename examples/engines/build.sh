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
# Where the sources come from. Each engine's folder is taken from its own
# variable, else from ENGINES (default ../shared/engines beside the project,
# which holds all three), so a checkout of your own works as well:
#
#   ETHEREAL_SRC  a checkout of github.com/AndyGrant/Ethereal at its 12.00
#                 release (the folder holding src/; src/uci.h says
#                 VERSION_ID "12.00"), or Debian's ethereal-chess 12.00+ds1
#                 source. ethereal.patch is written against search.c and
#                 uci.c of 12.00: another version is refused.
#   SUNFISH_SRC   a checkout of github.com/thomasahle/sunfish (the folder
#                 holding sunfish.py and sunfish_ui/), the 2026 version,
#                 upstream commit a8feb637. Nothing is patched:
#                 sunfish_traced.py wraps Searcher.bound at run time, so a
#                 sunfish.py without that method is refused.
#   FAIRYMAX_SRC  Fairy-Max 5.0b by H.G. Muller (the folder holding
#                 fairymax.c and data/fmax.ini): Debian's fairymax 5.0b
#                 source or the upstream release it packages; fairymax.c
#                 says VERSION "5.0b". fairymax.patch is written against it
#                 (with Unix line ends; the DOS ones it ships with are
#                 converted first): another version is refused.
#
#   ETHEREAL_SRC=~/src/Ethereal SUNFISH_SRC=~/src/sunfish \
#       FAIRYMAX_SRC=~/src/fairymax examples/engines/build.sh /tmp/engines
#
# The sources stay where they are: patches are applied to a copy in a
# temporary directory. Needs a C compiler, patch and python3, and
# libfathom-dev (Debian) for a Debian Ethereal source, from which Debian
# removed the Fathom that an upstream checkout carries in src/fathom (that
# one is compiled in instead). CC names the compiler (default cc) and OPT
# its optimisation flag (default -O2, as the engines' own builds use; a
# test that only starts the engines builds them with OPT=-O0, three times
# faster to compile).
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
engines=${ENGINES:-$root/../shared/engines}
ethereal=${ETHEREAL_SRC:-$engines/ethereal}
sunfish=${SUNFISH_SRC:-$engines/sunfish}
fairymax=${FAIRYMAX_SRC:-$engines/fairymax}
out=$1
cc=${CC:-cc}
opt=${OPT:--O2}

# need VAR DIR FILE: DIR (named by VAR) must hold FILE.
need() {
    if [ ! -f "$2/$3" ]; then
        echo "build.sh: $2 has no $3: set $1 to the folder holding it (or ENGINES to one holding ethereal/, sunfish/ and fairymax/)" >&2
        exit 1
    fi
}
need ETHEREAL_SRC "$ethereal" src/search.c
need SUNFISH_SRC "$sunfish" sunfish.py
need SUNFISH_SRC "$sunfish" sunfish_ui/uci.py
need FAIRYMAX_SRC "$fairymax" fairymax.c
need FAIRYMAX_SRC "$fairymax" data/fmax.ini
# The patches fit one version each: say which, rather than fail in patch.
if ! grep -q 'VERSION_ID "12.00"' "$ethereal/src/uci.h"; then
    echo "build.sh: $ethereal/src/uci.h is not Ethereal 12.00 (VERSION_ID $(sed -n 's/.*define VERSION_ID //p' "$ethereal/src/uci.h")): ethereal.patch applies to 12.00" >&2
    exit 1
fi
if ! grep -q 'define VERSION "5.0b"' "$fairymax/fairymax.c"; then
    echo "build.sh: $fairymax/fairymax.c is not Fairy-Max 5.0b: fairymax.patch applies to 5.0b" >&2
    exit 1
fi
if ! grep -q 'def bound(' "$sunfish/sunfish.py"; then
    echo "build.sh: $sunfish/sunfish.py has no Searcher.bound, which sunfish_traced.py wraps" >&2
    exit 1
fi
# An upstream Ethereal checkout carries Fathom in src/fathom; Debian's
# source does not, and links Debian's libfathom.
if [ ! -f "$ethereal/src/fathom/tbprobe.c" ] && [ ! -f /usr/include/tbprobe.h ]; then
    echo "build.sh: /usr/include/tbprobe.h missing: install libfathom-dev (Debian's Ethereal source has no src/fathom)" >&2
    exit 1
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Ethereal, as its build notes in ../shared/engines/README.md say, once
# unpatched and once patched.
build_ethereal() { # DIR OUTPUT
    if [ -f "$1/fathom/tbprobe.c" ]; then
        # An upstream checkout: its own Fathom, compiled in as its makefile does.
        (cd "$1" && $cc -std=gnu11 $opt -DNDEBUG -DUSE_POPCNT -msse3 -mpopcnt ./*.c fathom/tbprobe.c -lpthread -lm -o "$2")
        return
    fi
    mkdir -p "$1/inc/fathom"
    ln -sf /usr/include/tbprobe.h /usr/include/tbconfig.h "$1/inc/fathom/"
    (cd "$1" && $cc -std=gnu11 $opt -DNDEBUG -DUSE_POPCNT -msse3 -mpopcnt -Iinc ./*.c -lfathom -lpthread -lm -o "$2")
}
cp -r "$ethereal/src" "$tmp/plain"
build_ethereal "$tmp/plain" "$out/ethereal-plain"
cp -r "$ethereal/src" "$tmp/traced"
cp "$root/emit/c/horizon_trace.h" "$tmp/traced/"
(cd "$tmp/traced" && patch -s -p1 < "$here/ethereal.patch")
build_ethereal "$tmp/traced" "$out/ethereal"

# Sunfish: a launcher around the wrapper; nothing of Sunfish is copied.
cp "$here/sunfish_traced.py" "$root/emit/python/horizon_trace.py" "$out/"
sunfish_dir=$(cd "$sunfish" && pwd)
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
cp "$fairymax/data/fmax.ini" "$out/fmax.ini"
build_fairymax() { # DIR OUTPUT
    (cd "$1" && $cc -std=gnu89 $opt -w -DFAIRYDIR="\"$out\"" fairymax.c -o "$2")
}
mkdir -p "$tmp/fm-plain" "$tmp/fm-traced"
cp "$fairymax/fairymax.c" "$tmp/fm-plain/"
build_fairymax "$tmp/fm-plain" "$out/fairymax-plain"
# The patch is written against the source with Unix line ends (it ships
# with DOS ones).
tr -d '\r' < "$fairymax/fairymax.c" > "$tmp/fm-traced/fairymax.c"
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
