#!/usr/bin/env bash
# vs-c.sh: the stream API against C-Blosc2 3.3.2 on the rows of issue 18, at two input sizes.
#
#   bench/vs-c.sh [DATA_DIR]        (default ../shared/data beside the repository)
#
# Needs a C reference tool, built by hand outside the repository, on PATH as b2c or named by
# $BLOSC2_B2C, with the subcommand
#
#   b2c bench FILE CODEC CLEVEL FILTER TYPESIZE CHUNKSIZE NTHREADS REPS whole
#
# that appends FILE in CHUNKSIZE chunks to an in-memory super-chunk (blosc2_schunk_new,
# contiguous=false), then decompresses every chunk (blosc2_schunk_decompress_chunk) into its
# place in one output buffer of FILE's size ("whole"; as the Go side fills its output), REPS
# times, and prints "COMP_SECONDS_BEST DECOMP_SECONDS_BEST FRAME_BYTES [CHUNK_BYTES]": the size of
# the contiguous frame it would write (blosc2_schunk_to_buffer) and, from tools built since
# session 26, the super-chunk's cbytes (its chunks alone). FILTER is nofilter, shuffle or
# bitshuffle in filters[5]. Without the tool the script says so and exits 0.
#
# Sizes: "frame / chunks", Go's over C's. A Go frame carries the chunks' CRC-32C checksums (about
# 100 bytes more than C's frame for one chunk), which weighs on a few KB of highly compressed
# data; the chunks' bytes compare the codecs alone. Without CHUNK_BYTES, the frame only.
#
# Go is `blosc2 bench`: stream.Writer into a frame in memory, and stream.EncodeAll (the input in
# memory, compressed where it lies, as C's append_buffer compresses the caller's buffer; the
# Writer copies what a Write leaves short of a chunk); back with stream.DecodeAll (the frame in
# memory, as C's super-chunk is) and with stream.Reader.WriteTo (io.Reader in). Both
# time each operation's repetitions back to back (since session 18 on the Go side: before, each
# repetition ran compression, Reader and DecodeAll in turn, which left the caches to the next
# operation cold where C's were warm: a few percent on inputs that fit the caches). Each
# cell is the median over ROUNDS rounds (default 3) of the ratio of the best of REPS (default 5)
# repetitions, Go and C alternated within each round. Sizes: the files as they are, and each
# repeated to at least 15 MB (chunks are independent: only fixed costs weigh differently).
# ONLY=REGEX measures only the rows it matches (e.g. ONLY=' lz4 '). GRID=1 measures instead zstd at
# every clevel 1-9 on the four inputs as they are (ERA shuffle/4, timestamps shuffle/8, values
# bitshuffle/8, logs unfiltered): the whole grid of issue 18's first point; CLEVELS="9" (a list)
# measures only those clevels, and ONLY there matches the inputs (e.g. ONLY=stamps).
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data}
b2c=${BLOSC2_B2C:-$(command -v b2c || true)}
if [ -z "$b2c" ] || [ ! -x "$b2c" ]; then
  echo "vs-c.sh: no C-Blosc2 reference tool (b2c on PATH or \$BLOSC2_B2C): nothing measured"
  exit 0
fi
rounds=${ROUNDS:-3}
reps=${REPS:-5}
threads=${THREADS:-2}
chunk=1048576
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/blosc2" ./cmd/blosc2

# The inputs: ERA-Interim u, v, z; every telemetry timestamp and value column; the two logs.
cat "$data"/era_interim_{u,v,z}.f32.bin >"$tmp/era.f32"
cat "$data"/nab_*.ts.i64.bin "$data"/ett_h1.ts.i64.bin >"$tmp/stamps.i64"
cat "$data"/nab_*.value.f64.bin "$data"/ett_h1.f64.bin >"$tmp/values.f64"
cat "$data"/loghub_2k_12sources.log "$data"/apache_access_2015.log >"$tmp/logs.txt"
if [ -z "${GRID:-}" ]; then # the grid measures the files as they are only
  for f in era.f32 stamps.i64 values.f64 logs.txt; do
    : >"$tmp/big.$f"
    while [ "$(stat -c %s "$tmp/big.$f")" -lt 15000000 ]; do cat "$tmp/$f" >>"$tmp/big.$f"; done
  done
fi

rows=(
  "era.f32 lz4 5 shuffle 4"
  "era.f32 blosclz 5 shuffle 4"
  "era.f32 zstd 1 shuffle 4"
  "stamps.i64 lz4 5 shuffle 8"
  "stamps.i64 zstd 5 shuffle 8"
  "values.f64 zstd 1 bitshuffle 8"
  "logs.txt lz4 5 nofilter 1"
  "logs.txt zstd 3 nofilter 1"
  "logs.txt zlib 5 nofilter 1"
  "era.f32 lz4hc 9 shuffle 4"
)

# measure FILE CODEC CLEVEL FILTER TYPESIZE: prints "comp encodeall decodeall reader frame chunks"
# ratios Go / C of one round.
measure() {
  local file=$1 codec=$2 clevel=$3 filter=$4 ts=$5 n go c
  n=$(stat -c %s "$file")
  go=$("$tmp/blosc2" bench --codec "$codec" --clevel "$clevel" --filter "$filter" --typesize "$ts" \
    --chunksize $chunk --threads "$threads" --reps "$reps" "$file")
  c=$("$b2c" bench "$file" "$codec" "$clevel" "$filter" "$ts" $chunk "$threads" "$reps" whole)
  python3 -c '
import json, sys
n = int(sys.argv[1]); g = json.loads(sys.argv[2]); f = sys.argv[3].split(); ct, dt, cb = f[:3]
assert g["roundtrip_ok"]
cc, cd = n / float(ct) / 1e6, n / float(dt) / 1e6
chunks = g["chunks_cbytes"] / int(f[3]) if len(f) > 3 else 0
print(g["comp_MBps_best"] / cc, g["encodeall_MBps_best"] / cc, g["decodeall_MBps_best"] / cd, g["decomp_MBps_best"] / cd, g["cbytes"] / int(cb), chunks)
' "$n" "$go" "$c"
}

# median_cells reads lines of "comp encodeall decodeall reader frame chunks" ratios (chunks 0: not
# known) and prints their medians, the sizes as one cell ("frame_/_chunks").
median_cells() {
  python3 -c '
import statistics, sys
rows = [list(map(float, l.split())) for l in sys.stdin.read().split("\n") if l]
c, e, d, r, s, k = (statistics.median(col) for col in zip(*rows))
size = "%.3f / %.3f" % (s, k) if k else "%.3f" % s
print("%.2f %.2f %.2f %.2f %s" % (c, e, d, r, size.replace(" ", "_")))
'
}

if [ -n "${GRID:-}" ]; then
  echo "| data | zstd clevel | comp: Writer | comp: EncodeAll | decomp: DecodeAll | decomp: Reader | size: frame / chunks |"
  echo "|---|---|---|---|---|---|---|"
  for input in "era.f32 shuffle 4" "stamps.i64 shuffle 8" "values.f64 bitshuffle 8" "logs.txt nofilter 1"; do
    if [ -n "${ONLY:-}" ] && ! grep -Eq -- "$ONLY" <<<"$input"; then continue; fi
    set -- $input
    for clevel in ${CLEVELS:-1 2 3 4 5 6 7 8 9}; do
      out=""
      for _ in $(seq "$rounds"); do out+="$(measure "$tmp/$1" zstd "$clevel" "$2" "$3")"$'\n'; done
      read -r c e d r s <<<"$(median_cells <<<"$out")"
      echo "| $1 $2/$3 | $clevel | $c | $e | $d | $r | ${s//_/ } |"
    done
  done
  exit 0
fi

echo "| data | setting | comp: Writer (as is / ≥15 MB) | comp: EncodeAll (as is / ≥15 MB) | decomp: DecodeAll (as is / ≥15 MB) | decomp: Reader (as is / ≥15 MB) | size: frame / chunks (as is) |"
echo "|---|---|---|---|---|---|---|"
for row in "${rows[@]}"; do
  if [ -n "${ONLY:-}" ] && ! grep -Eq -- "$ONLY" <<<"$row"; then continue; fi
  set -- $row
  cells=()
  for f in "$tmp/$1" "$tmp/big.$1"; do
    out=""
    for _ in $(seq "$rounds"); do out+="$(measure "$f" "$2" "$3" "$4" "$5")"$'\n'; done
    cells+=("$(median_cells <<<"$out")")
  done
  read -r c1 e1 d1 r1 s1 <<<"${cells[0]}"
  read -r c2 e2 d2 r2 s2 <<<"${cells[1]}"
  echo "| $1 ($(stat -c %s "$tmp/$1") B) | $2 $3 $4 ts$5 | $c1 / $c2 | $e1 / $e2 | $d1 / $d2 | $r1 / $r2 | ${s1//_/ } |"
done
