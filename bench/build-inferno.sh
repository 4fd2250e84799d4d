#!/bin/sh
# build-inferno.sh DEST: builds inferno 0.11.19 (inferno-collapse-perf, inferno-flamegraph)
# into DEST/bin for make bench's anchor rows (issue 39), in a temp folder, offline, from
# Debian 12's librust-*-dev crates: cargo's crates.io source is replaced by
# /usr/share/cargo/registry. Nothing of it goes into the tree.
#   INFERNO_SRC     a git directory or checkout of inferno's repository (tag v0.11.19)
#   STR_STACK_SRC   the same of str_stack's (0.1.1), which Debian does not package
# The adaptations, all in the temp copy: the requirements lowered to Debian's versions
# (ahash 0.7, indexmap 1, env_logger 0.9, num-format 0.4.0), is-terminal replaced by
# std::io::IsTerminal, the dev-dependencies and benches dropped. It needs a rustc of at
# least 1.70 (rustup's; Debian's 1.63 is too old). Exits 1, saying why, when it cannot.
set -eu
dest=$1
die () { echo "build-inferno: $*" >&2; exit 1; }
test -n "${INFERNO_SRC:-}" || die "INFERNO_SRC is not set (a checkout of inferno's repository)"
test -n "${STR_STACK_SRC:-}" || die "STR_STACK_SRC is not set (a checkout of str_stack's repository)"
command -v cargo >/dev/null 2>&1 || die "no cargo"
rv=$(rustc --version | awk '{ print $2 }')
awk -v v="$rv" 'BEGIN { split(v, a, "."); exit !(a[1] > 1 || a[2] >= 70) }' ||
	die "rustc $rv is older than 1.70"
pkgs="librust-ahash-dev librust-crossbeam-utils-dev librust-crossbeam-channel-dev
	librust-dashmap-dev librust-env-logger-dev librust-indexmap-dev librust-itoa-dev
	librust-log-dev librust-num-format-dev librust-quick-xml-dev librust-rgb-dev
	librust-clap-dev librust-clap-derive-dev librust-once-cell-dev"
missing=
for p in $pkgs; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if test -n "$missing"; then
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing \
		>&2 || die "could not install$missing"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/inferno-build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# export a tree from a git directory (bare or not) or copy a plain one
export_tree () {
	if git -C "$1" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$1" archive --format=tar "$2" | tar -x -C "$3"
	else
		cp -R "$1"/. "$3"
	fi
}
mkdir "$tmp/inferno" "$tmp/str_stack"
export_tree "$INFERNO_SRC" v0.11.19 "$tmp/inferno"
export_tree "$STR_STACK_SRC" HEAD "$tmp/str_stack"
cd "$tmp/inferno"
grep -q '^version = "0.11.19"' Cargo.toml || die "INFERNO_SRC is not inferno 0.11.19"
# Cargo.toml: up to [dev-dependencies] and from [lib] on, with Debian's versions
awk '/^\[dev-dependencies\]/ { skip = 1 } /^\[lib\]/ { skip = 0 } /^\[\[bench\]\]/ { skip = 1 }
	skip { next }
	/^is-terminal/ { next }
	/^ahash =/ { $0 = "ahash = \"0.7\"" }
	/^indexmap =/ { sub(/"2.0"/, "\"1\"") }
	/^env_logger =/ { sub(/"0.10"/, "\"0.9\"") }
	/^num-format =/ { sub(/"0.4.3"/, "\"0.4\"") }
	/^str_stack =/ { $0 = "str_stack = { path = \"../str_stack\" }" }
	{ print }' Cargo.toml >Cargo.toml.new
mv Cargo.toml.new Cargo.toml
rm -rf benches Cargo.lock
find src -name '*.rs' -exec sed -i 's/use is_terminal::IsTerminal;/use std::io::IsTerminal;/' {} +
mkdir .cargo
cat >.cargo/config.toml <<EOF
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
[net]
offline = true
EOF
cargo build --release --offline -j "${BENCH_JOBS:-2}" \
	--bin inferno-collapse-perf --bin inferno-flamegraph >&2 ||
	die "cargo build failed"
mkdir -p "$dest/bin"
cp target/release/inferno-collapse-perf target/release/inferno-flamegraph "$dest/bin/"
echo "build-inferno: inferno 0.11.19 in $dest/bin" >&2
